// Which chunks of a batch are sending right now, across every worker process: a lease per chunk in Redis,
// held while the chunk hands messages to its channel and renewed as it goes.
//
// Two uses:
// - finish-batch of a stopped batch (23 terminated, 24 failed) waits until no chunk holds a lease, so no message
//   still in flight can be marked terminated and refunded after the provider accepted it;
// - one chunk is never sent by two processes at once (a job BullMQ thinks stalled and hands to another worker
//   while the first still runs): the second finds the lease taken and waits.
// A lease expires by itself (ttl) so a crashed worker cannot block its batch for longer than that.
import { randomUUID } from "node:crypto";
import { isClustered, type RedisConnection, redisScript, runScript, slotGroup } from "@switchboard/domain/redis";

// One hash per batch: chunk -> "<expiry ms>:<owner token>". A zset of expiries beside a hash of owners took two
// keys, five commands a lease and three a release: a group of single sends (a lease per batch) spent ~25 us of
// Redis CPU a send on them, about half of what Redis does for one (docs/benchmarks.md, session 24). Named
// chunk-leases:<batch>, not the zset's chunks:<batch>: a worker of the old form still running beside a new one
// during an upgrade finds no WRONGTYPE, only leases it cannot see, for at most one ttl.

// Leases of one or more chunks in one call (a group of single sends takes one per batch). KEYS: per chunk, its
// batch's hash; ARGV: ttl ms, then per chunk its member and token. Takes each lease that is free, expired or
// already ours; returns per chunk 1 when held afterwards, else 0.
const ACQUIRE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local lease = string.format('%.0f', now + ttl) .. ':'
local held = {}
for i = 1, #KEYS do
  local key, chunk, token = KEYS[i], ARGV[2 * i], ARGV[2 * i + 1]
  local v = redis.call('HGET', key, chunk)
  local sep = v and string.find(v, ':', 1, true)
  if sep and tonumber(string.sub(v, 1, sep - 1)) > now and string.sub(v, sep + 1) ~= token then
    held[i] = 0
  else
    redis.call('HSET', key, chunk, lease .. token)
    redis.call('PEXPIRE', key, ttl)
    held[i] = 1
  end
end
return held
`);

// KEYS as ACQUIRE's; ARGV: per chunk its member and token. Releases each lease still ours.
const RELEASE = redisScript(`
for i = 1, #KEYS do
  local key, chunk, token = KEYS[i], ARGV[2 * i - 1], ARGV[2 * i]
  local v = redis.call('HGET', key, chunk)
  local sep = v and string.find(v, ':', 1, true)
  if sep and string.sub(v, sep + 1) == token then
    redis.call('HDEL', key, chunk)
  end
end
return 0
`);

// KEYS[1] a batch's hash. How many of its leases are live (an expired one counts for nothing: its holder is gone).
const ACTIVE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do
  local sep = string.find(v, ':', 1, true)
  if sep and tonumber(string.sub(v, 1, sep - 1)) > now then n = n + 1 end
end
return n
`);

export interface ChunkLease {
  /** Extends the lease; false when it was lost (expired and taken by another process): stop sending. */
  renew(): Promise<boolean>;
  release(): Promise<void>;
}

/** A lease as this class makes it: what releaseAll needs to release it in a pipeline. */
interface HeldLease extends ChunkLease {
  batchId: string;
  chunk: string;
  token: string;
}

export class ChunkLeases {
  constructor(
    private readonly redis: RedisConnection,
    /** Key prefix (REDIS_PREFIX). */
    private readonly prefix: string,
    readonly ttlMs: number,
  ) {}

  /** A batch's leases (on a cluster in a slot of their own, {sb:chunk-leases:<batch>}). */
  private key(batchId: string): string {
    return slotGroup(this.redis, `${this.prefix}chunk-leases:${batchId}`);
  }

  /** The lease of one chunk, or null while another process holds it. */
  async acquire(batchId: string, chunk: string): Promise<ChunkLease | null> {
    const token = randomUUID();
    const lease = this.leaseOf(batchId, chunk, token);
    return (await lease.renew()) ? lease : null;
  }

  /**
   * The leases of chunks of several batches (a group of single sends), in one script call, and null for each one
   * another process holds. On a cluster each batch's keys are in their own slot: one call each.
   */
  async acquireAll(chunks: ReadonlyArray<{ batchId: string; chunk: string }>): Promise<Array<ChunkLease | null>> {
    if (isClustered(this.redis)) return Promise.all(chunks.map((c) => this.acquire(c.batchId, c.chunk)));
    if (chunks.length === 0) return [];
    const tokens = chunks.map(() => randomUUID());
    const held = (await runScript(
      this.redis,
      ACQUIRE,
      chunks.map((c) => this.key(c.batchId)),
      [this.ttlMs, ...chunks.flatMap((c, i) => [c.chunk, tokens[i] as string])],
    )) as number[];
    return chunks.map(({ batchId, chunk }, i) =>
      held[i] === 1 ? this.leaseOf(batchId, chunk, tokens[i] as string) : null,
    );
  }

  /** Releases leases in one round trip (acquireAll's; on a cluster, one call each). */
  async releaseAll(leases: readonly ChunkLease[]): Promise<void> {
    if (leases.length === 0) return;
    if (isClustered(this.redis)) {
      await Promise.all(leases.map((l) => l.release()));
      return;
    }
    const held = leases as readonly HeldLease[];
    await runScript(
      this.redis,
      RELEASE,
      held.map((l) => this.key(l.batchId)),
      held.flatMap((l) => [l.chunk, l.token]),
    );
  }

  private leaseOf(batchId: string, chunk: string, token: string): HeldLease {
    const keys = [this.key(batchId)];
    return {
      batchId,
      chunk,
      token,
      renew: async () =>
        ((await runScript(this.redis, ACQUIRE, keys, [this.ttlMs, chunk, token])) as number[])[0] === 1,
      release: async () => {
        await runScript(this.redis, RELEASE, keys, [chunk, token]);
      },
    };
  }

  /** How many chunks of the batch hold a live lease. */
  async active(batchId: string): Promise<number> {
    return (await runScript(this.redis, ACTIVE, [this.key(batchId)], [])) as number;
  }
}
