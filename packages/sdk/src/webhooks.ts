// Webhooks (callbacks) on the receiving side: the events' types, taken from the generated schema, and the check of
// their signature. Written from the documented scheme (the OpenAPI document's `webhooks`, docs/api-keys.md), not
// from the platform's code, so the SDK stands alone; apps/api/test/sdk.test.ts proves both sides agree.
//
//   X-Switchboard-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
//   HMAC key: the lower-case hex SHA-256 of the customer's default secret key (sk_...), as text.
//
// Web Crypto only (globalThis.crypto.subtle): runs on Node 20+, Deno, Bun, edge runtimes and browsers alike.
import type { webhooks } from "./schema";

/** The header that carries the signature (HTTP header names are case-insensitive). */
export const WEBHOOK_SIGNATURE_HEADER = "X-Switchboard-Signature";
/** How old (or how far ahead) a signature's timestamp may be by default, in seconds: 5 minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The events posted to a customer's notify URL. */
export type WebhookEventName = keyof webhooks;
/** The JSON body of an event, or of any event (a union discriminated by `event`). */
export type WebhookEvent<E extends WebhookEventName = WebhookEventName> = E extends WebhookEventName
  ? NonNullable<webhooks[E]["post"]>["requestBody"]["content"]["application/json"]
  : never;

/** Headers as fetch (`Headers`), Node's `req.headers` or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Accepted age of the signature's timestamp, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The time to check against, in milliseconds since the epoch (default Date.now()). */
  now?: number;
}

const encoder = new TextEncoder();

function signatureHeader(headers: WebhookHeaders): string | undefined {
  if (typeof Headers !== "undefined" && headers instanceof Headers) {
    return headers.get(WEBHOOK_SIGNATURE_HEADER) ?? undefined;
  }
  const wanted = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (name.toLowerCase() === wanted) return Array.isArray(value) ? value.join(",") : value;
  }
  return undefined;
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(text: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The HMAC key: the secret key's lower-case hex SHA-256, as text. */
async function signingKey(secretKey: string, usage: "sign" | "verify") {
  const keyHash = hex(await crypto.subtle.digest("SHA-256", encoder.encode(secretKey)));
  return crypto.subtle.importKey("raw", encoder.encode(keyHash), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** The signed text: `<t>.` followed by the raw body's bytes exactly as received. */
function signedBytes(timestamp: number, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(`${timestamp}.`);
  const tail = typeof body === "string" ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head);
  out.set(tail, head.length);
  return out;
}

/**
 * True when the request carries a valid signature of this body under the customer's default secret key, made
 * within `toleranceSeconds` of now. Pass the raw body as received (a string or the bytes), before any JSON
 * parsing: re-serialised JSON would not match. Several `v1` values in one header are allowed; one match is enough.
 * The comparison is constant-time (Web Crypto's HMAC verify).
 */
export async function verifyWebhookSignature(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secretKey: string,
  options: VerifyOptions = {},
): Promise<boolean> {
  const header = signatureHeader(headers);
  if (!header || !secretKey) return false;
  let t: string | undefined;
  const signatures: string[] = [];
  for (const item of header.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (name === "t" && t === undefined) t = value;
    else if (name === "v1") signatures.push(value);
  }
  if (!t || !/^\d{1,12}$/.test(t)) return false;
  const timestamp = Number(t);
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) return false;
  const candidates = signatures.filter((v) => /^[0-9a-f]{64}$/.test(v));
  if (candidates.length === 0) return false;
  const key = await signingKey(secretKey, "verify");
  const data = signedBytes(timestamp, body);
  for (const v of candidates) {
    if (await crypto.subtle.verify("HMAC", key, fromHex(v), data)) return true;
  }
  return false;
}

/** Why parseWebhookEvent refused a request. */
export class WebhookSignatureError extends Error {
  override readonly name = "WebhookSignatureError";
}

/**
 * The event of a signed request, typed by its `event` field, after verifyWebhookSignature passed; throws
 * WebhookSignatureError otherwise (answer 400 or 401: the platform tries again later). Drop repeats by `eventId`.
 */
export async function parseWebhookEvent(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secretKey: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  if (!(await verifyWebhookSignature(body, headers, secretKey, options))) {
    throw new WebhookSignatureError(`missing, stale or wrong ${WEBHOOK_SIGNATURE_HEADER}`);
  }
  return JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body)) as WebhookEvent;
}

/**
 * The header value the platform sends for this body at `timestamp` (unix seconds, default now): for testing a
 * receiver without the platform.
 */
export async function signWebhookPayload(
  body: string | Uint8Array,
  secretKey: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<string> {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError("timestamp must be unix seconds");
  const mac = await crypto.subtle.sign("HMAC", await signingKey(secretKey, "sign"), signedBytes(timestamp, body));
  return `t=${timestamp},v1=${hex(mac)}`;
}
