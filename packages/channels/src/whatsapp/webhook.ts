// WhatsApp Cloud API webhooks: the subscription handshake, the payload signature, and the statuses / messages they
// carry, as the adapter contract's DeliveryReport and InboundMessage.
//
// References followed: Meta "Create a webhook endpoint" (GET ?hub.mode=subscribe&hub.challenge&hub.verify_token ->
// 200 with the challenge; POST with X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the payload, app secret as
// key>; batches of up to 1000 updates; retries, so duplicates happen), "Status messages webhook reference"
// (statuses[]: id, status sent|delivered|read|failed|played, timestamp as unix seconds text, recipient_id,
// errors[{code, title, message, error_data}]; "delivered" may be skipped when a message is read at once), the
// text / button messages references (messages[]: from, id, timestamp, type, text.body, button {payload, text},
// context {from, id}), and the official Node.js SDK's webhook types (interactive button_reply / list_reply).
//
// Decisions:
//   - "sent" is not a final report (the message left Meta's servers; the send outcome already said accepted), so
//     it is skipped, like "played" (a voice message was played) and "deleted". A "read" implies delivered.
//   - Nothing is deduplicated or reordered here: Meta retries and does not order its deliveries, so the caller
//     dedupes by (providerMessageId, status) and keeps the furthest status; ids and timestamps are passed through.
//   - A malformed payload yields empty events and an error text naming what was wrong (never its content).
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { ChannelEvents, DeliveryReport, InboundMessage, WebhookRequest, WebhookVerdict } from "../adapter";

export interface WhatsappWebhookSecrets {
  /** The Meta app's secret: the key of X-Hub-Signature-256. */
  appSecret: string | undefined;
  /** The string configured as "Verify token" for the callback URL. */
  verifyToken: string | undefined;
}

/** Both sides hashed first, so the comparison takes the same time whatever their lengths. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** Whether the payload bytes carry the app secret's signature. */
export function hasValidSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = header === undefined ? null : SIGNATURE.exec(header.trim());
  if (!match) return false;
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from((match[1] as string).toLowerCase(), "hex"), expected);
}

/** The signature header value Meta would send for these bytes (for simulators and tests). */
export function signWhatsappPayload(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;
}

export function verifyWhatsappWebhook(req: WebhookRequest, secrets: WhatsappWebhookSecrets): WebhookVerdict {
  const method = req.method.toUpperCase();
  if (method === "GET") {
    const token = req.query["hub.verify_token"];
    if (
      req.query["hub.mode"] !== "subscribe" ||
      token === undefined ||
      secrets.verifyToken === undefined ||
      !sameSecret(token, secrets.verifyToken)
    ) {
      return { kind: "refuse", status: 403 };
    }
    const challenge = req.query["hub.challenge"];
    if (challenge === undefined || challenge === "") return { kind: "refuse", status: 400 };
    return { kind: "challenge", body: challenge };
  }
  if (method === "POST") {
    // Without an app secret nothing can be verified, and unverified payloads are never stored.
    if (secrets.appSecret === undefined) return { kind: "refuse", status: 401 };
    if (!hasValidSignature(req.rawBody, req.headers["x-hub-signature-256"], secrets.appSecret)) {
      return { kind: "refuse", status: 401 };
    }
    return { kind: "accept" };
  }
  return { kind: "refuse", status: 400 };
}

export interface WhatsappEvents extends ChannelEvents {
  /** Status updates that are not final reports ("sent", "played", "deleted"). */
  ignored: number;
  /** Entries that were not understood and left out. */
  skipped: number;
  /** Set when the payload as a whole could not be read: what was wrong, without its content. */
  error?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Unix seconds as text (the webhooks' timestamp) -> Date; undefined when it is not one. */
function dateOfSeconds(v: unknown): Date | undefined {
  const text = typeof v === "number" ? String(v) : v;
  if (typeof text !== "string" || !/^\d{1,12}$/.test(text)) return undefined;
  return new Date(Number(text) * 1000);
}

const FINAL_STATUS: Record<string, DeliveryReport["status"]> = {
  delivered: "delivered",
  read: "read",
  failed: "failed",
};
const NOT_FINAL = new Set(["sent", "played", "deleted"]);

export function parseWhatsappEvents(rawBody: Buffer | string): WhatsappEvents {
  const events: WhatsappEvents = { reports: [], inbound: [], ignored: 0, skipped: 0 };
  let payload: unknown;
  try {
    payload = JSON.parse(typeof rawBody === "string" ? rawBody : rawBody.toString("utf8"));
  } catch {
    events.error = "the payload is not JSON";
    return events;
  }
  if (!isObj(payload) || !Array.isArray(payload.entry)) {
    events.error = "the payload has no entry list";
    return events;
  }
  for (const entry of payload.entry) {
    if (!isObj(entry) || !Array.isArray(entry.changes)) {
      events.skipped++;
      continue;
    }
    for (const change of entry.changes) {
      // Other fields (template status, account updates...) are not message events.
      if (!isObj(change) || !isObj(change.value) || (change.field !== undefined && change.field !== "messages")) {
        events.skipped++;
        continue;
      }
      readValue(change.value, events);
    }
  }
  return events;
}

function readValue(value: Obj, events: WhatsappEvents): void {
  if (Array.isArray(value.statuses)) {
    for (const status of value.statuses) {
      const report = isObj(status) ? reportOf(status) : undefined;
      if (report === "ignored") events.ignored++;
      else if (report === undefined) events.skipped++;
      else events.reports.push(report);
    }
  }
  if (Array.isArray(value.messages)) {
    const to = isObj(value.metadata) ? str(value.metadata.phone_number_id) : undefined;
    for (const message of value.messages) {
      const inbound = isObj(message) ? inboundOf(message, to) : undefined;
      if (inbound === undefined) events.skipped++;
      else events.inbound.push(inbound);
    }
  }
}

function reportOf(status: Obj): DeliveryReport | "ignored" | undefined {
  const id = str(status.id);
  const kind = str(status.status);
  if (id === undefined || kind === undefined) return undefined;
  if (NOT_FINAL.has(kind)) return "ignored";
  const mapped = FINAL_STATUS[kind];
  if (mapped === undefined) return undefined;
  const report: DeliveryReport = { providerMessageId: id, status: mapped };
  const doneAt = dateOfSeconds(status.timestamp);
  if (doneAt !== undefined) report.doneAt = doneAt;
  if (mapped === "failed" && Array.isArray(status.errors) && isObj(status.errors[0])) {
    const code = status.errors[0].code;
    if (typeof code === "number" || (typeof code === "string" && code !== "")) report.errorCode = String(code);
  }
  return report;
}

function inboundOf(message: Obj, to: string | undefined): InboundMessage | undefined {
  const id = str(message.id);
  const from = str(message.from);
  const receivedAt = dateOfSeconds(message.timestamp);
  if (id === undefined || from === undefined || receivedAt === undefined) return undefined;
  const inbound: InboundMessage = { providerMessageId: id, from: from.startsWith("+") ? from : `+${from}`, receivedAt };
  if (to !== undefined) inbound.to = to;
  if (isObj(message.context)) {
    const contextId = str(message.context.id);
    if (contextId !== undefined) inbound.inReplyTo = contextId;
  }
  const type = str(message.type);
  const part = type === undefined ? undefined : message[type];
  if (isObj(part)) {
    switch (type) {
      case "text":
        setText(inbound, part.body);
        break;
      case "button":
        setText(inbound, part.text);
        setPostback(inbound, part.payload);
        break;
      case "interactive": {
        const reply = isObj(part.button_reply) ? part.button_reply : isObj(part.list_reply) ? part.list_reply : {};
        setText(inbound, reply.title);
        setPostback(inbound, reply.id);
        break;
      }
      case "image":
      case "video":
      case "document":
        setText(inbound, part.caption);
        break;
      default:
        // audio, location, contacts, reaction, sticker...: a message from the user all the same (it opens the
        // 24-hour window), without text we can show.
        break;
    }
  }
  return inbound;
}

function setText(inbound: InboundMessage, v: unknown): void {
  if (typeof v === "string" && v !== "") inbound.text = v;
}

function setPostback(inbound: InboundMessage, v: unknown): void {
  if (typeof v === "string" && v !== "") inbound.postbackData = v;
}
