export { PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from "../http/request";
export {
  BATCH_GET_MAX,
  createRcsAdapter,
  type RcsAdapter,
  type RcsAdapterConfig,
  type RcsAdapterDeps,
  type RcsAdapterStats,
} from "./adapter";
export { agentMessageBody, contentMessageOf, isUuid, type RcsBody, rbmMessageId } from "./message-body";
export {
  parseServiceAccountKey,
  probeRcs,
  RBM_SCOPE,
  type RcsProbeConfig,
  serviceAccountAssertion,
} from "./probe";
export { type AccessToken, RbmTokenSource, type TokenSourceOptions } from "./token";
export { hasValidRcsSignature, parseRcsEvents, type RcsEvents, signRcsPayload, verifyRcsWebhook } from "./webhook";
