export { PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from "../http/request";
export {
  parseServiceAccountKey,
  probeRcs,
  RBM_SCOPE,
  type RcsProbeConfig,
  serviceAccountAssertion,
} from "./probe";
