export type {
  ChannelAdapter,
  ChannelKind,
  DeliveryReport,
  DeliveryStatus,
  Logger,
  OutboundMessage,
  SendFailure,
  SendOutcome,
  SmsMessage,
} from "./adapter";
export { ChannelError, sendFailure, silentLogger } from "./adapter";
export {
  type ChannelSecrets,
  channelSecretKey,
  DEV_CHANNEL_SECRET_KEY,
  decryptSecrets,
  encryptSecrets,
} from "./secrets";
export type { SmppAdapter, SmppAdapterDeps, SmppAdapterStats } from "./smpp/adapter";
export { createSmppAdapter } from "./smpp/adapter";
export type { SmppConfig, SmppConfigInput } from "./smpp/config";
export { smppConfigSchema } from "./smpp/config";
export type { SmppStatus } from "./smpp/errors";
export { isThrottleStatus, SMPP_STATUS, smppStatus } from "./smpp/errors";
export { probeSmpp } from "./smpp/probe";
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
