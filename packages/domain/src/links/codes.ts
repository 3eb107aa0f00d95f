// Short codes of tracked links (docs/batches.md, "Tracked links"). A recipient's code for a link is derived, never
// stored: batches reach a million recipients, and a row per recipient and link at ingest would multiply the write.
//
//   payload = recipient id * 8 + link index          (64 bits; link index < MAX_LINKS_PER_BATCH <= 8)
//   mac     = HMAC-SHA256(key, "sb-link-v1" || payload as 8 bytes big-endian), first 48 bits
//   code    = base62(payload << 48 | mac), left-padded to LINK_CODE_LENGTH (19) characters
//
// The MAC makes codes unguessable (2^48 tries per code, against a rate-limited route); the fixed length keeps the
// segment count known before sending. A decoded code only names a recipient and a link index: where it leads is
// the recipient's batch's own link list, fixed at submission, so no code can point anywhere else.
import { createHmac, timingSafeEqual } from "node:crypto";
import { LINK_CODE_LENGTH, MAX_LINKS_PER_BATCH } from "@switchboard/contracts/links";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));
const MAC_BITS = 48n;
const MAC_BYTES = Number(MAC_BITS / 8n);
const INDEX_BITS = 3n;
const PAYLOAD_MAX = (1n << 64n) - 1n;
const CODE_MAX = (1n << (64n + MAC_BITS)) - 1n;
const DOMAIN = Buffer.from("sb-link-v1");

if (MAX_LINKS_PER_BATCH > 1 << Number(INDEX_BITS)) throw new Error("link index does not fit the code");

/** A decoded code: whose message it was sent in, and which of the batch's links. */
export interface LinkRef {
  recipientId: bigint;
  linkIndex: number;
}

function mac(key: Buffer, payload: bigint): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(payload);
  return createHmac("sha256", key).update(DOMAIN).update(bytes).digest().subarray(0, MAC_BYTES);
}

/** The code of a recipient's link. */
export function encodeLinkCode(key: Buffer, ref: LinkRef): string {
  if (ref.recipientId < 0n || ref.recipientId > PAYLOAD_MAX >> INDEX_BITS) throw new RangeError("recipient id");
  if (!Number.isInteger(ref.linkIndex) || ref.linkIndex < 0 || ref.linkIndex >= MAX_LINKS_PER_BATCH)
    throw new RangeError("link index");
  const payload = (ref.recipientId << INDEX_BITS) | BigInt(ref.linkIndex);
  let n = (payload << MAC_BITS) | BigInt(`0x${mac(key, payload).toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(LINK_CODE_LENGTH, "0");
}

/** The recipient and link a code names, or null when it is not one of ours (malformed, or its MAC does not match). */
export function decodeLinkCode(key: Buffer, code: string): LinkRef | null {
  if (code.length !== LINK_CODE_LENGTH) return null;
  let n = 0n;
  for (const c of code) {
    const d = DIGIT.get(c);
    if (d === undefined) return null;
    n = n * 62n + d;
  }
  if (n > CODE_MAX) return null;
  const payload = n >> MAC_BITS;
  const given = Buffer.alloc(MAC_BYTES);
  given.writeUIntBE(Number(n & ((1n << MAC_BITS) - 1n)), 0, MAC_BYTES);
  // Constant time: the comparison must not tell a prober how many leading bytes of a forged MAC were right.
  if (!timingSafeEqual(given, mac(key, payload))) return null;
  const linkIndex = Number(payload & ((1n << INDEX_BITS) - 1n));
  if (linkIndex >= MAX_LINKS_PER_BATCH) return null;
  return { recipientId: payload >> INDEX_BITS, linkIndex };
}
