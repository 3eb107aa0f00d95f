// The contract every channel kind (SMPP, RCS Business Messaging, WhatsApp Cloud API, HTTP) implements, with one
// vocabulary for what happened to a message, whatever the provider calls it (as Novu's providers do).
//
// send() never throws for delivery problems: it resolves an outcome that says whether retrying can help, so the
// caller owns the retry policy and a message is never silently lost or resent behind its back.
//
// Status events reach us two ways: connection-oriented channels (SMPP) push them on their own link through
// onReport/onInbound; HTTP channels (RBM, WhatsApp) receive them as webhooks at the API, which checks them with the
// provider's webhook verifier and stores them raw, and the workers turn them into the same DeliveryReport /
// InboundMessage with the provider's event parser (see WebhookVerifier and parse functions in each provider folder).
import type { RcsContent, WsContent } from "@switchboard/contracts";

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

export interface RcsMessage extends OutboundBase {
  kind: "rcs";
  /**
   * Ours, stable per recipient across retries (the RBM messageId): RBM refuses a message id it has seen, so a
   * send retried after a lost answer cannot deliver twice.
   */
  messageId: string;
  body: RcsContent["body"];
  /** The message expires at the provider this many seconds after sending (RBM `ttl`); none when absent. */
  ttlSeconds?: number;
}

export interface WhatsAppMessage extends OutboundBase {
  kind: "whatsapp";
  body: WsContent["body"];
}

export type OutboundMessage = SmsMessage | RcsMessage | WhatsAppMessage;

/**
 * Why a send failed, in the project's words (the provider's own code stays in errorCode):
 * - unreachable: the number cannot receive on this channel (not RCS-capable, not on WhatsApp): fall back or fail;
 * - throttled: the provider or the channel's limit said "slower" (retry after retryAfterMs, slow the channel);
 * - channel_auth: the channel's credentials were refused (expired or revoked token): pause the channel, keep the batch;
 * - window_closed: WhatsApp's 24-hour customer-service window is closed for this user (only a template may go);
 * - template: the template is missing, paused or its parameters do not match;
 * - invalid: the message or number is malformed for this provider;
 * - provider: anything else the provider refused or failed with.
 */
export type FailureReason =
  | "unreachable"
  | "throttled"
  | "channel_auth"
  | "window_closed"
  | "template"
  | "invalid"
  | "provider";

export type SendOutcome =
  | { ok: true; providerMessageId: string; parts: number }
  | {
      ok: false;
      retryable: boolean;
      /** The provider's own code (SMPP command status name, WhatsApp error code, HTTP status...). */
      errorCode: string;
      detail?: string;
      reason?: FailureReason;
      /** The provider asked us to wait this long (HTTP Retry-After, SMPP throttling backoff). */
      retryAfterMs?: number;
    };

export type SendFailure = Extract<SendOutcome, { ok: false }>;

/**
 * What happened to a message after the provider accepted it:
 * - delivered: reached the handset; read: the user opened it (implies delivered);
 * - undelivered / expired / rejected: the network could not or would not deliver it (the send still counts);
 * - failed: the provider gave up on a message it had accepted (WhatsApp `failed`): the send itself failed,
 *   and the recipient is refunded;
 * - unknown: a final report that says nothing usable (SMPP's UNKNOWN state): counted as not received.
 */
export type DeliveryStatus = "delivered" | "read" | "undelivered" | "expired" | "rejected" | "failed" | "unknown";

export interface DeliveryReport {
  providerMessageId: string;
  status: DeliveryStatus;
  errorCode?: string;
  /** When the provider says it happened (SMPP's done date has minute resolution; HTTP providers give seconds). */
  doneAt?: Date;
}

/** Takes a delivery report; a promise it returns is what the provider's acknowledgement waits for. */
export type ReportHandler = (report: DeliveryReport) => unknown;

/**
 * Receive result (spec: 1 received, 2 receive failed) of a final report: the one mapping for every channel. A
 * recipient without any report keeps 0 (unknown).
 */
export function receiveResultOfStatus(status: DeliveryStatus): 1 | 2 {
  return status === "delivered" || status === "read" ? 1 : 2;
}

/** A message a user sent to us: a reply, a suggestion or button tap, an SMPP mobile-originated message. */
export interface InboundMessage {
  /** The provider's id of the inbound message (dedupes webhook retries). */
  providerMessageId: string;
  /** The user's number, E.164 with "+". */
  from: string;
  /** Our side: the SMS short code / sender, the WhatsApp phone number id, the RBM agent id. */
  to?: string;
  text?: string;
  /** A suggested reply's or button's postback data, when the user tapped one. */
  postbackData?: string;
  /** Our message it answers, when the provider says (WhatsApp context.id, RBM suggestion's message). */
  inReplyTo?: string;
  receivedAt: Date;
}

/** Takes an inbound message; a promise it returns is what the provider's acknowledgement waits for. */
export type InboundHandler = (message: InboundMessage) => unknown;

/** Whether a number can receive on the channel (screening, capability check before sending). */
export type Reachability = "reachable" | "unreachable" | "unknown";

export type ReachabilityOutcome = { ok: true; results: Map<string, Reachability> } | SendFailure;

export interface ChannelAdapter {
  readonly kind: ChannelKind;
  send(msg: OutboundMessage): Promise<SendOutcome>;
  /**
   * Delivery reports arriving on the channel's own connection (SMPP); HTTP channels' come as webhooks. A handler
   * that returns a promise holds the provider's acknowledgement until it resolves (the receipt is stored): a
   * rejection answers the provider with a temporary error, so it delivers the receipt again.
   */
  onReport(handler: ReportHandler): void;
  /**
   * Inbound messages arriving on the channel's own connection (SMPP mobile-originated messages). Like onReport, a
   * handler's promise holds the provider's acknowledgement until it resolves (the message is stored).
   */
  onInbound?(handler: InboundHandler): void;
  /**
   * Which of these numbers (E.164) can receive on this channel, where the provider can say (RBM capabilities,
   * an HLR lookup, a WhatsApp contacts check). Absent when the channel has no check.
   */
  checkReachability?(numbers: readonly string[]): Promise<ReachabilityOutcome>;
  /**
   * Withdraws a message not yet delivered, where the provider allows it (RBM revoke): revoked false when it was
   * delivered already. The recipient's number comes along because RBM names a message by number and id.
   */
  revoke?(message: { to: string; providerMessageId: string }): Promise<{ ok: true; revoked: boolean } | SendFailure>;
  /** Authenticates against the provider with the configured credentials (a fresh session) and reports. */
  test(): Promise<{ ok: boolean; detail: string }>;
  close(): Promise<void>;
}

/** An HTTP request as a provider's webhook verifier sees it: the raw body, since signatures cover its bytes. */
export interface WebhookRequest {
  method: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string | undefined>>;
  query: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
}

/**
 * What the API answers a provider's webhook call with:
 * - challenge: a subscription handshake (WhatsApp's GET with hub.challenge): answer 200 with this body;
 * - accept: signature good: store the raw body, then answer 200;
 * - refuse: bad or missing signature or verify token: answer this status and change nothing.
 */
export type WebhookVerdict =
  | { kind: "challenge"; body: string }
  | { kind: "accept" }
  | { kind: "refuse"; status: 400 | 401 | 403 };

export interface ChannelEvents {
  reports: DeliveryReport[];
  inbound: InboundMessage[];
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

export function sendFailure(
  errorCode: string,
  retryable: boolean,
  detail?: string,
  extra: { reason?: FailureReason; retryAfterMs?: number } = {},
): SendFailure {
  return {
    ok: false,
    retryable,
    errorCode,
    ...(detail === undefined ? {} : { detail }),
    ...(extra.reason === undefined ? {} : { reason: extra.reason }),
    ...(extra.retryAfterMs === undefined ? {} : { retryAfterMs: extra.retryAfterMs }),
  };
}
