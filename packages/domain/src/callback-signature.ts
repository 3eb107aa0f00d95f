// Signing of callbacks (status reports posted to a customer's notify URL), shared by the API's "send test"
// and the batch workers. Pure: no clock, no I/O.
//
// Header:  X-Switchboard-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">
// Key:     the lower-case hex SHA-256 of the customer's secret key, as text. We store only that hash, never the
//          key; the customer derives the same value from the key it was shown once:
//            key = sha256_hex(secret_key); expected = hmac_sha256_hex(key, t + "." + raw_body)
// The timestamp inside the signed text lets a receiver refuse replays of old requests.
import { createHmac, hash, timingSafeEqual } from "node:crypto";

/** The stored form of a secret key (users.secretKeyHash) and the callback signing key. */
export function secretKeyHash(secretKey: string): string {
  // The one-shot form: every developer API request hashes its key, and a Hash object costs ~3x the digest.
  return hash("sha256", secretKey, "hex");
}

function hmacHex(keyHash: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", keyHash).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
}

/** The X-Switchboard-Signature header value for a body sent at `timestamp` (unix seconds). */
export function signCallback(keyHash: string, rawBody: string, timestamp: number): string {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError("timestamp must be unix seconds");
  return `t=${timestamp},v1=${hmacHex(keyHash, timestamp, rawBody)}`;
}

/**
 * What a receiver does (documented for customers, and used by our tests): true when the header carries a v1
 * signature of this body under this key and its timestamp is within toleranceSeconds of now.
 */
export function verifyCallbackSignature(
  header: string,
  rawBody: string,
  keyHash: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const name = item.slice(0, eq).trim();
    parts.set(name, [...(parts.get(name) ?? []), item.slice(eq + 1).trim()]);
  }
  const t = parts.get("t")?.[0];
  if (!t || !/^\d{1,12}$/.test(t)) return false;
  const timestamp = Number(t);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(keyHash, timestamp, rawBody), "hex");
  // The format allows several v1 values in one header: any that matches is enough.
  return (parts.get("v1") ?? []).some((v) => {
    if (!/^[0-9a-f]{64}$/.test(v)) return false;
    return timingSafeEqual(Buffer.from(v, "hex"), expected);
  });
}
