// RCS Business Messaging webhooks: the registration handshake, the X-Goog-Signature check, and the events and user
// messages they carry, as the adapter contract's DeliveryReport and InboundMessage.
//
// References followed (RBM guides "Webhooks", "Receive events", "Receive messages", and the REST reference's
// UserMessage, UserEvent and ServerEvent; Google's RBM kitchen-sink sample agent's callback servlet):
//   - Registration: when a webhook URL is configured, RBM POSTs {"clientToken": ..., "secret": ...}; the webhook
//     checks the clientToken is the one the console showed and answers 200 with the secret as the body.
//   - Each event or message comes as a Pub/Sub push envelope, one per POST: {"message": {"data": <base64 of the
//     event's JSON>, "messageId", "publishTime", "attributes"}, "subscription"}.
//   - Verification: X-Goog-Signature is base64(HMAC-SHA512(clientToken, <the base64-decoded message.data>)); the
//     guide's steps decode message.data and hash those bytes, so the envelope around them is not covered and
//     nothing here reads anything from it but the data (and publishTime as a last-resort time).
//   - UserEvent: {senderPhoneNumber, eventType: DELIVERED | READ | IS_TYPING, eventId, messageId (our agent
//     message's id), sendTime, agentId}. ServerEvent: {phoneNumber, messageId, agentId, eventType:
//     TTL_EXPIRATION_REVOKED | TTL_EXPIRATION_REVOKE_FAILED, eventId, sendTime}. UserMessage: {senderPhoneNumber,
//     messageId (the user's message), sendTime, agentId, and one of text | suggestionResponse {postbackData, text,
//     type: REPLY | ACTION} | location {latitude, longitude} | userFile {payload {mimeType, fileUri, ...}}}.
//
// Decisions:
//   - DELIVERED -> delivered, READ -> read (doneAt = sendTime); TTL_EXPIRATION_REVOKED -> expired (the message's
//     ttl ran out undelivered and RBM withdrew it: the fallback trigger); IS_TYPING, TTL_EXPIRATION_REVOKE_FAILED
//     (it may still be delivered, a DELIVERED would follow) and agent launch events are not reports.
//   - RBM's UserMessage names no message it answers, so inReplyTo stays unset; a suggestion tap carries our
//     postback data, which is how a tap is tied to what we sent.
//   - Nothing is deduplicated or reordered here: Pub/Sub redelivers and does not order, so the caller dedupes by
//     (providerMessageId, status) and keeps the furthest status; ids and times pass through untouched.
//   - A malformed payload yields empty events and an error naming what was wrong (never its content).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { ChannelEvents, DeliveryReport, InboundMessage, WebhookRequest, WebhookVerdict } from "../adapter";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Both sides hashed first, so the comparison takes the same time whatever their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** X-Goog-Signature for these event bytes (the decoded message.data), as RBM computes it. */
export function signRcsPayload(data: Buffer | string, clientToken: string): string {
  return createHmac("sha512", clientToken).update(data).digest("base64");
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether X-Goog-Signature is the clientToken's HMAC of the decoded message.data. */
export function hasValidRcsSignature(data: Buffer, header: string | undefined, clientToken: string): boolean {
  const text = header?.trim();
  if (text === undefined || text === "" || !BASE64.test(text)) return false;
  const given = Buffer.from(text, "base64");
  const expected = createHmac("sha512", clientToken).update(data).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function jsonObject(raw: Buffer | string): Obj | undefined {
  try {
    const v = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8")) as unknown;
    return isObj(v) ? v : undefined;
  } catch {
    // not JSON: the caller says so
    return undefined;
  }
}

/** The envelope's message.data, decoded; undefined when there is none. */
function dataOf(envelope: Obj): Buffer | undefined {
  const data = isObj(envelope.message) ? envelope.message.data : undefined;
  if (typeof data !== "string" || !BASE64.test(data)) return undefined;
  return Buffer.from(data, "base64");
}

/**
 * The API's verdict on a webhook call: the registration handshake (clientToken + secret) is answered with the
 * secret, an event whose signature is the clientToken's is accepted, anything else is refused.
 */
export function verifyRcsWebhook(req: WebhookRequest, clientToken: string | undefined): WebhookVerdict {
  if (req.method.toUpperCase() !== "POST") return { kind: "refuse", status: 400 };
  // Without the client token nothing can be verified, and unverified payloads are never stored.
  if (clientToken === undefined || clientToken === "") return { kind: "refuse", status: 401 };
  const body = jsonObject(req.rawBody);
  if (body === undefined) return { kind: "refuse", status: 400 };
  if (typeof body.clientToken === "string" && typeof body.secret === "string" && !("message" in body)) {
    if (!sameSecret(body.clientToken, clientToken)) return { kind: "refuse", status: 403 };
    if (body.secret === "") return { kind: "refuse", status: 400 };
    return { kind: "challenge", body: body.secret };
  }
  const data = dataOf(body);
  if (data === undefined) return { kind: "refuse", status: 400 };
  if (!hasValidRcsSignature(data, req.headers["x-goog-signature"], clientToken)) {
    return { kind: "refuse", status: 401 };
  }
  return { kind: "accept" };
}

export interface RcsEvents extends ChannelEvents {
  /** Events that are not reports (IS_TYPING, TTL_EXPIRATION_REVOKE_FAILED, agent launch events). */
  ignored: number;
  /** Set when the payload could not be read: what was wrong, without its content. */
  error?: string;
}

/** RFC 3339 (the API's Timestamp JSON form) -> Date; undefined when it is not one. */
function dateOf(v: unknown): Date | undefined {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/.test(v)) {
    return undefined;
  }
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

const REPORT_STATUS: Record<string, DeliveryReport["status"]> = {
  DELIVERED: "delivered",
  READ: "read",
  TTL_EXPIRATION_REVOKED: "expired",
};
const NOT_REPORTS = new Set(["IS_TYPING", "TTL_EXPIRATION_REVOKE_FAILED"]);

/** The events of one stored webhook body (its raw bytes, as verified). Never throws. */
export function parseRcsEvents(rawBody: Buffer | string): RcsEvents {
  const events: RcsEvents = { reports: [], inbound: [], ignored: 0 };
  const envelope = jsonObject(rawBody);
  if (envelope === undefined) {
    events.error = "the payload is not a JSON object";
    return events;
  }
  const data = dataOf(envelope);
  if (data === undefined) {
    events.error = "the payload has no message.data";
    return events;
  }
  const event = jsonObject(data);
  if (event === undefined) {
    events.error = "message.data is not a JSON object";
    return events;
  }
  const publishTime = isObj(envelope.message) ? dateOf(envelope.message.publishTime) : undefined;
  const eventType = str(event.eventType);
  if (eventType !== undefined) {
    if (NOT_REPORTS.has(eventType)) {
      events.ignored++;
      return events;
    }
    const status = REPORT_STATUS[eventType];
    const messageId = str(event.messageId);
    if (status === undefined || messageId === undefined) {
      events.error = status === undefined ? "unknown eventType" : "event without messageId";
      return events;
    }
    const report: DeliveryReport = { providerMessageId: messageId, status };
    const doneAt = dateOf(event.sendTime) ?? publishTime;
    if (doneAt !== undefined) report.doneAt = doneAt;
    events.reports.push(report);
    return events;
  }
  const from = str(event.senderPhoneNumber);
  const messageId = str(event.messageId);
  if (from === undefined || messageId === undefined) {
    // An agent launch event (attributes.type agent_launch_event) or another platform notice: not ours to apply.
    events.ignored++;
    return events;
  }
  const receivedAt = dateOf(event.sendTime) ?? publishTime;
  if (receivedAt === undefined) {
    events.error = "user message without sendTime";
    return events;
  }
  const inbound: InboundMessage = {
    providerMessageId: messageId,
    from: from.startsWith("+") ? from : `+${from}`,
    receivedAt,
  };
  const agentId = str(event.agentId);
  if (agentId !== undefined) inbound.to = agentId;
  const text = str(event.text);
  if (text !== undefined) inbound.text = text;
  if (isObj(event.suggestionResponse)) {
    const tapText = str(event.suggestionResponse.text);
    const postback = str(event.suggestionResponse.postbackData);
    if (tapText !== undefined) inbound.text = tapText;
    if (postback !== undefined) inbound.postbackData = postback;
  }
  // location and userFile: a message from the user all the same, without text we can show.
  events.inbound.push(inbound);
  return events;
}
