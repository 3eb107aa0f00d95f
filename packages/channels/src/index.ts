export type {
  ChannelAdapter,
  ChannelEvents,
  ChannelKind,
  DeliveryReport,
  DeliveryStatus,
  FailureReason,
  InboundHandler,
  InboundMessage,
  Logger,
  OutboundMessage,
  RcsMessage,
  Reachability,
  ReachabilityOutcome,
  ReportHandler,
  SendFailure,
  SendOutcome,
  SmsMessage,
  WebhookRequest,
  WebhookVerdict,
  WhatsAppMessage,
} from "./adapter";
export { ChannelError, receiveResultOfStatus, sendFailure, silentLogger } from "./adapter";
export {
  createEgressPolicy,
  EGRESS_REFUSED,
  EGRESS_REFUSED_DETAIL,
  type EgressAgentOptions,
  type EgressAllowEntry,
  EgressAllowError,
  type EgressPolicy,
  EgressRefused,
  egressAgent,
  isEgressRefused,
  isReservedAddress,
  parseEgressAllow,
} from "./egress";
export {
  canSend,
  createChannelAdapter,
  type ProviderAdapter,
  type ProviderDeps,
  smppSessionConfig,
} from "./providers";
export {
  type ChannelSecrets,
  channelSecretKey,
  decryptSecrets,
  encryptSecrets,
} from "./secrets";
export type { SmppAdapter, SmppAdapterDeps, SmppAdapterStats } from "./smpp/adapter";
export { createSmppAdapter } from "./smpp/adapter";
export type { SmppConfig, SmppConfigInput } from "./smpp/config";
export { smppConfigSchema } from "./smpp/config";
export type { SmppStatus } from "./smpp/errors";
export { isThrottleStatus, SMPP_STATUS, smppStatus } from "./smpp/errors";
export { parseStoredMo, storedMoBody } from "./smpp/mobile-originated";
export { probeSmpp, type SmppProbeOptions, type SmppProbeResult } from "./smpp/probe";
export type { MessageIdFormat, MessageIdOptions, ParsedReceipt, ReceiptPduFields, ReceiptText } from "./smpp/receipt";
export {
  canonicalMessageId,
  messageIdVariants,
  parseDeliveryReceipt,
  parseReceiptDate,
  parseReceiptText,
  receiptStatus,
  resolveReceiptMessageId,
  toDeliveryReport,
} from "./smpp/receipt";
export { storedEventParser, type WebhookProvider, webhookProvider } from "./webhooks";
