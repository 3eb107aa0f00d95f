// The contract every channel kind (SMPP today; WhatsApp Cloud API, RCS, HTTP later) implements.
// send() never throws for delivery problems: it resolves an outcome that says whether retrying can help,
// so the caller owns the retry policy and a message is never silently lost or resent behind its back.

export type ChannelKind = "smpp" | "whatsapp" | "rcs" | "http";

interface OutboundBase {
  /** Our recipient id, opaque to the adapter; lets the caller correlate outcomes without parsing anything. */
  ref: string;
  /** E.164, with or without the leading "+". */
  to: string;
  /** Sender id (number or alphanumeric); the channel's configured default when absent. */
  from?: string;
}

export interface SmsMessage extends OutboundBase {
  kind?: "sms";
  text: string;
}

/** Grows into a union (`| WhatsAppMessage | RcsMessage`) discriminated on `kind` as channels are added. */
export type OutboundMessage = SmsMessage;

export type SendOutcome =
  | { ok: true; providerMessageId: string; parts: number }
  | { ok: false; retryable: boolean; errorCode: string; detail?: string };

export type SendFailure = Extract<SendOutcome, { ok: false }>;

export type DeliveryStatus = "delivered" | "undelivered" | "expired" | "rejected" | "unknown";

export interface DeliveryReport {
  providerMessageId: string;
  status: DeliveryStatus;
  errorCode?: string;
  doneAt?: Date;
}

export interface ChannelAdapter {
  readonly kind: ChannelKind;
  send(msg: OutboundMessage): Promise<SendOutcome>;
  onReport(handler: (report: DeliveryReport) => void): void;
  /** Authenticates against the provider with the configured credentials (a fresh session) and reports. */
  test(): Promise<{ ok: boolean; detail: string }>;
  close(): Promise<void>;
}

/** pino-compatible subset, so the apps can pass their logger straight in. Never give it numbers or text. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = {
  info() {},
  warn() {},
  error() {},
};

/** For the few places that throw (invalid use, not delivery problems): carries the same retryable verdict. */
export class ChannelError extends Error {
  readonly code: string;
  readonly retryable: boolean;

  constructor(code: string, message: string, retryable: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ChannelError";
    this.code = code;
    this.retryable = retryable;
  }
}

export function sendFailure(errorCode: string, retryable: boolean, detail?: string): SendFailure {
  return detail === undefined ? { ok: false, retryable, errorCode } : { ok: false, retryable, errorCode, detail };
}
