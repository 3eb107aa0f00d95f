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
import {
  isClustered,
  type RedisConnection,
  redisScript,
  runScript,
  runScripts,
  slotGroup,
} from "@switchboard/domain/redis";

// KEYS[1] zset member -> expiry (ms), KEYS[2] hash member -> owner token; ARGV member, token, ttl ms.
// Takes the lease when it is free, expired or already ours; returns 1 when held afterwards.
const ACQUIRE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if expiry and tonumber(expiry) > now and redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then
  return 0
end
local ttl = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
`);

const RELEASE = redisScript(`
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
end
return 0
`);

const ACTIVE = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
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

  /** The scripts take both: on a cluster they share the batch's hash tag ({sb:chunks:<batch>}). */
  private keys(batchId: string): [string, string] {
    const leases = slotGroup(this.redis, `${this.prefix}chunks:${batchId}`);
    return [leases, `${leases}:owners`];
  }

  /** The lease of one chunk, or null while another process holds it. */
  async acquire(batchId: string, chunk: string): Promise<ChunkLease | null> {
    const token = randomUUID();
    const lease = this.leaseOf(batchId, chunk, token);
    return (await lease.renew()) ? lease : null;
  }

  /**
   * The leases of chunks of several batches (a group of single sends), in one round trip, and null for each one
   * another process holds. On a cluster each batch's keys are in their own slot: one call each.
   */
  async acquireAll(chunks: ReadonlyArray<{ batchId: string; chunk: string }>): Promise<Array<ChunkLease | null>> {
    if (isClustered(this.redis)) return Promise.all(chunks.map((c) => this.acquire(c.batchId, c.chunk)));
    const tokens = chunks.map(() => randomUUID());
    const results = await runScripts(
      this.redis,
      ACQUIRE,
      chunks.map(({ batchId, chunk }, i) => ({
        keys: this.keys(batchId),
        args: [chunk, tokens[i] as string, this.ttlMs],
      })),
    );
    return chunks.map(({ batchId, chunk }, i) => {
      const [err, held] = results[i] ?? [new Error("lease not answered"), 0];
      if (err) throw err;
      return held === 1 ? this.leaseOf(batchId, chunk, tokens[i] as string) : null;
    });
  }

  /** Releases leases in one round trip (acquireAll's; on a cluster, one call each). */
  async releaseAll(leases: readonly ChunkLease[]): Promise<void> {
    if (leases.length === 0) return;
    if (isClustered(this.redis)) {
      await Promise.all(leases.map((l) => l.release()));
      return;
    }
    await runScripts(
      this.redis,
      RELEASE,
      leases.map((lease) => {
        const { batchId, chunk, token } = lease as HeldLease;
        return { keys: this.keys(batchId), args: [chunk, token] };
      }),
    );
  }

  private leaseOf(batchId: string, chunk: string, token: string): HeldLease {
    const [leases, owners] = this.keys(batchId);
    return {
      batchId,
      chunk,
      token,
      renew: async () => (await runScript(this.redis, ACQUIRE, [leases, owners], [chunk, token, this.ttlMs])) === 1,
      release: async () => {
        await runScript(this.redis, RELEASE, [leases, owners], [chunk, token]);
      },
    };
  }

  /** How many chunks of the batch hold a live lease. */
  async active(batchId: string): Promise<number> {
    const [leases] = this.keys(batchId);
    return (await runScript(this.redis, ACTIVE, [leases], [])) as number;
  }
}
