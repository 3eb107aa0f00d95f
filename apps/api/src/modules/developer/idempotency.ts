// Developer API Idempotency-Key. The batch row holds the key (unique per customer), so the same key can never
// create, or charge, a second batch: parallel requests with one key queue on the unique index and all but the
// first find its batch. What the database cannot tell is whether a repeat carries the same request: a
// fingerprint (sha256 of the request) is kept in Redis beside the key for 24 hours (like Stripe's window), and
// a different request under a known key is refused with 409. After 24 hours a key still returns its batch.
import { createHash } from "node:crypto";
import { type RedisConnection, redisScript, runScript } from "@switchboard/domain/redis";
import { conflict } from "../../lib/errors";

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** JSON with object keys sorted, so equal requests hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function requestFingerprint(request: unknown): string {
  return createHash("sha256").update(canonical(request)).digest("hex");
}

export interface KeyClaim {
  /** Forgets the fingerprint if this request recorded it (a no-op for a repeat). */
  release(): Promise<void>;
}

// Deletes the key only while it still holds our fingerprint.
const RELEASE = redisScript(
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
);

/**
 * Records the fingerprint of a request under (customer, key), or checks it against the one recorded: a
 * different one answers 409. Release after a failed request, so a corrected request may use the key.
 */
export async function claimIdempotencyKey(
  redis: RedisConnection,
  redisPrefix: string,
  userId: number,
  key: string,
  fingerprint: string,
): Promise<KeyClaim> {
  const name = `${redisPrefix}idem:${userId}:${createHash("sha256").update(key).digest("hex")}`;
  const set = await redis.set(name, fingerprint, "EX", IDEMPOTENCY_TTL_SECONDS, "NX");
  if (set === "OK") {
    return {
      release: async () => {
        await runScript(redis, RELEASE, [name], [fingerprint]);
      },
    };
  }
  const recorded = await redis.get(name);
  // Gone in between (expired, or released by a failed first request): this request's turn.
  if (recorded === null) return claimIdempotencyKey(redis, redisPrefix, userId, key, fingerprint);
  if (recorded !== fingerprint) throw conflict("batch.idempotency_conflict");
  return { release: async () => {} };
}

/** Runs a submission under a claimed key: a failure releases the claim, a success keeps it. */
export async function withIdempotencyKey<T>(
  deps: { redis: RedisConnection; redisPrefix: string },
  claim: { userId: number; key: string | null | undefined; request: unknown },
  run: () => Promise<T>,
): Promise<T> {
  if (!claim.key) return run();
  const held = await claimIdempotencyKey(
    deps.redis,
    deps.redisPrefix,
    claim.userId,
    claim.key,
    requestFingerprint(claim.request),
  );
  try {
    return await run();
  } catch (err) {
    await held.release();
    throw err;
  }
}
