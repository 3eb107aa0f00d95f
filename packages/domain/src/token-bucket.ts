// One token bucket in Redis, changed by one Lua script, so that every process drawing from it (API processes,
// worker processes) shares the same bucket and concurrent takers never overspend it. Two users:
//   - the developer API's rate limit (apps/api/src/modules/developer/api-rate-limit.ts): one bucket per customer,
//     one token per /v1 call, with what is left and when the bucket is full again for the X-RateLimit headers;
//   - a channel's throughput limit (workers: dispatch and screening chunks): messages per second across every
//     worker process. Open-source BullMQ has no per-group limiter, and a per-process limiter would multiply the
//     rate by the number of workers. Workers take tokens in small batches (one round trip for many messages)
//     and, when the bucket is empty, learn how long to wait for the next token instead of polling.
import { type RedisConnection, redisScript, runScript } from "./redis";

// KEYS[1] bucket key; ARGV: rate (tokens/s), burst (max tokens), wanted tokens.
// Returns { granted (0..wanted), whole tokens left, ms until the next token when fewer than wanted were
// granted (else 0), ms until the bucket is full again }.
// Time comes from Redis itself so that every process sees the same clock. The key expires a second after the
// bucket would be full again: a missing key is a full bucket, so expiry changes nothing a taker can see.
const TAKE = redisScript(`
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local data = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(data[1])
local ts = tonumber(data[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
if now > ts then
  tokens = math.min(burst, tokens + (now - ts) * rate / 1000)
end
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
local full = math.ceil((burst - tokens) * 1000 / rate)
redis.call('PEXPIRE', KEYS[1], full + 1000)
local wait = 0
if granted < want then
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
return { granted, math.floor(tokens), wait, full }
`);

export interface TokenTake {
  /** Tokens granted now (0..wanted). */
  granted: number;
  /** Whole tokens left in the bucket after this take. */
  remaining: number;
  /** When fewer than wanted were granted: milliseconds until the next token; else 0. */
  waitMs: number;
  /** Milliseconds until the bucket is full (burst) again. */
  fullMs: number;
}

/**
 * Takes up to `wanted` tokens from the bucket at `key`: `rate` tokens a second on average, at most `burst` piled
 * up while idle (a new or expired bucket starts full).
 */
export async function takeTokens(
  redis: RedisConnection,
  key: string,
  rate: number,
  burst: number,
  wanted: number,
): Promise<TokenTake> {
  const [granted, remaining, waitMs, fullMs] = (await runScript(redis, TAKE, [key], [rate, burst, wanted])) as [
    number,
    number,
    number,
    number,
  ];
  return { granted, remaining, waitMs, fullMs };
}

/**
 * Takes of one token each from shared buckets (the developer API's rate limit: one token per call), coalesced per
 * bucket: a take goes to Redis at once when none of that bucket's is in flight; the calls that arrive meanwhile
 * wait for it and are answered by the next take, one round trip for all of them (`wanted` = their number, granted
 * in arrival order). No token is ever held in a process (the bucket is exactly the shared one); under load a
 * process sends one take per round trip per bucket instead of one per call: the per-call Redis write was the API's
 * largest single cost (docs/benchmarks.md, issue 20).
 */
export class CoalescedTakes {
  private readonly waiting = new Map<
    string,
    Array<{ resolve: (t: TokenTake) => void; reject: (e: unknown) => void }>
  >();
  private readonly inFlight = new Set<string>();

  constructor(private readonly redis: RedisConnection) {}

  /** One token from the bucket at `key` (see takeTokens); `remaining` counts the tokens granted after this one. */
  takeOne(key: string, rate: number, burst: number): Promise<TokenTake> {
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (!this.inFlight.has(key)) void this.drain(key, rate, burst);
    });
  }

  private async drain(key: string, rate: number, burst: number): Promise<void> {
    this.inFlight.add(key);
    try {
      for (let queue = this.waiting.get(key); queue; queue = this.waiting.get(key)) {
        this.waiting.delete(key);
        try {
          const take = await takeTokens(this.redis, key, rate, burst, queue.length);
          for (const [i, w] of queue.entries())
            w.resolve(
              i < take.granted
                ? { granted: 1, remaining: take.remaining + (take.granted - 1 - i), waitMs: 0, fullMs: take.fullMs }
                : { granted: 0, remaining: take.remaining, waitMs: take.waitMs, fullMs: take.fullMs },
            );
        } catch (err) {
          for (const w of queue) w.reject(err);
        }
      }
    } finally {
      this.inFlight.delete(key);
    }
  }
}

export interface Take {
  /** Tokens granted now (0..wanted). */
  granted: number;
  /** When fewer than wanted were granted: milliseconds until the next token. */
  waitMs: number;
}

/** A bucket with its key, rate and burst fixed: the workers' per-channel throughput limit. */
export class TokenBucket {
  constructor(
    private readonly redis: RedisConnection,
    private readonly key: string,
    /** Tokens per second. */
    private readonly rate: number,
    /** Most tokens that can pile up while idle (defaults to one second's worth). */
    private readonly burst: number = rate,
    /** Told how long each acquire() had to wait, in seconds, when it waited at all (metrics). */
    private readonly onWait?: (seconds: number) => void,
  ) {
    if (!(rate > 0)) throw new Error("token bucket rate must be positive");
  }

  async take(wanted: number): Promise<Take> {
    const { granted, waitMs } = await takeTokens(this.redis, this.key, this.rate, this.burst, wanted);
    return { granted, waitMs };
  }

  /** Waits until at least one token is granted; returns how many (up to wanted). */
  async acquire(wanted: number, signal?: AbortSignal): Promise<number> {
    let waitingSince: number | undefined;
    for (;;) {
      signal?.throwIfAborted();
      const { granted, waitMs } = await this.take(wanted);
      if (granted > 0) {
        if (waitingSince !== undefined) this.onWait?.((performance.now() - waitingSince) / 1000);
        return granted;
      }
      waitingSince ??= performance.now();
      await new Promise((r) => setTimeout(r, Math.max(1, waitMs)));
    }
  }
}
