export { type HttpProbeConfig, httpAuthHeaders, probeHttp } from "./probe";
export { PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from "./request";
