// Channel credentials at rest: AES-256-GCM (node:crypto) with a random 96-bit IV per encryption and the
// tenant as additional authenticated data (a ciphertext copied onto another tenant's channel does not open).
// Stored as "v1:<iv>:<tag>:<data>" (base64url parts); the version names the key and format so a later key
// rotation can add "v2" and still read "v1".
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const FORMAT = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;

export type ChannelSecrets = Record<string, string>;

/** CHANNEL_SECRET_KEY (64 hex characters or base64, validated by config.ts) as the 32-byte key. */
export function channelSecretKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length !== 32) throw new Error("CHANNEL_SECRET_KEY must be 32 bytes");
  return key;
}

const aad = (tenantId: number) => Buffer.from(`channel-secrets:tenant:${tenantId}`);

export function encryptSecrets(key: Buffer, tenantId: number, secrets: ChannelSecrets): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(aad(tenantId));
  const data = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url"));
  return [FORMAT, ...parts].join(":");
}

/** Throws when the text is not ours, was altered, or was sealed with another key or tenant. */
export function decryptSecrets(key: Buffer, tenantId: number, sealed: string): ChannelSecrets {
  const [format, iv, tag, data, ...rest] = sealed.split(":");
  if (format !== FORMAT || iv === undefined || tag === undefined || data === undefined || rest.length > 0) {
    throw new Error("channel secrets are not in the v1 format");
  }
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, "base64url"));
  decipher.setAAD(aad(tenantId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]);
  return JSON.parse(plain.toString("utf8")) as ChannelSecrets;
}
