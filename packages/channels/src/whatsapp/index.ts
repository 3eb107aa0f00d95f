export { PROBE_TIMEOUT_MS, type ProbeOptions, type ProbeResult } from "../http/request";
export {
  createWhatsappAdapter,
  listTemplates,
  type TemplateListOutcome,
  type WhatsappAdapter,
  type WhatsappAdapterConfig,
  type WhatsappAdapterDeps,
  type WhatsappAdapterStats,
  type WhatsappTemplate,
} from "./adapter";
export {
  classifyWhatsappError,
  PAIR_RATE_INTERVAL_MS,
  THROUGHPUT_RETRY_MS,
  templateStatusOfError,
  WA_ERROR,
  type WhatsappErrorVerdict,
} from "./errors";
export { messagePayload, messageRequestBody, type WhatsappBody } from "./message-body";
export { probeWhatsapp, type WhatsappProbeConfig } from "./probe";
export {
  checkTemplateValues,
  needsOfStored,
  type StoredTemplateNeeds,
  storedNeeds,
  type TemplateHeaderKind,
  type TemplateMismatch,
  type TemplateNeeds,
  type TemplateValues,
  templateNeeds,
} from "./templates";
export {
  hasValidSignature,
  parseWhatsappEvents,
  signWhatsappPayload,
  verifyWhatsappWebhook,
  type WhatsappEvents,
  type WhatsappWebhookSecrets,
} from "./webhook";
