// A channel's throughput limit (messages per second) across every worker process: a token bucket kept in
// Redis and changed by one Lua script, so concurrent takers never overspend it. Open-source BullMQ has no
// per-group limiter, and a per-process limiter would multiply the rate by the number of workers.
//
// Workers take tokens in small batches (one round trip for many messages) and, when the bucket is empty,
// learn how long to wait for the next token instead of polling.
import type { Redis } from "ioredis";

// KEYS[1] bucket key; ARGV: rate (tokens/s), burst (max tokens), wanted tokens.
// Time comes from Redis itself so that every worker sees the same clock.
const TAKE = `
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
redis.call('PEXPIRE', KEYS[1], 60000)
local wait = 0
if granted < want then
  wait = math.ceil((1 - (tokens - math.floor(tokens))) * 1000 / rate)
end
return { granted, wait }
`;

export interface Take {
  /** Tokens granted now (0..wanted). */
  granted: number;
  /** When fewer than wanted were granted: milliseconds until the next token. */
  waitMs: number;
}

export class TokenBucket {
  constructor(
    private readonly redis: Redis,
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
    const [granted, waitMs] = (await this.redis.eval(TAKE, 1, this.key, this.rate, this.burst, wanted)) as [
      number,
      number,
    ];
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
