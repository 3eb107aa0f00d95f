export { PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from "../http/request";
export { probeWhatsapp, type WhatsappProbeConfig } from "./probe";
