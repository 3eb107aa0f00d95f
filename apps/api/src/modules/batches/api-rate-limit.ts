// Rate limit of the developer API (/v1): one token bucket per customer (the secret key's owner) in Redis, changed
// by one Lua script, so that every API process draws from the same bucket and parallel calls never overspend it.
// A customer may call `perSecond` times a second on average and spend `burst` calls at once after a quiet moment.
//
// Runs after the key is checked (apiKeyAuth) and before anything else: a refused call reads no body and changes
// nothing. Every /v1 answer carries X-RateLimit-Limit (the burst), X-RateLimit-Remaining (calls left now) and
// X-RateLimit-Reset (seconds until the bucket is full again); a refused one is 429 with Retry-After (seconds
// until the next call is allowed) and the envelope's message in the request's language.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { AppError } from "../../lib/errors";
import { principalOf } from "../../plugins/auth";

export interface ApiRateLimit {
  /** Calls per second on average (config.DEVELOPER_API_RATE_PER_SECOND). */
  perSecond: number;
  /** Most calls at once after a quiet moment (config.DEVELOPER_API_BURST). */
  burst: number;
}

// KEYS[1] the customer's bucket; ARGV: rate (tokens/s), burst (max tokens).
// Returns { allowed (1|0), tokens left (whole), ms until the next token when refused, ms until full }.
// Time comes from Redis itself so that every API process sees the same clock.
const TAKE_ONE = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
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
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
local full = math.ceil((burst - tokens) * 1000 / rate)
redis.call('PEXPIRE', KEYS[1], full + 1000)
local wait = 0
if allowed == 0 then
  wait = math.ceil((1 - tokens) * 1000 / rate)
end
return { allowed, math.floor(tokens), wait, full }
`;

/** preHandler of the /v1 routes, after apiKeyAuth. */
export function apiRateLimit(redis: Redis, redisPrefix: string, limit: ApiRateLimit) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const key = `${redisPrefix}ratelimit:v1:user:${principalOf(req).userId}`;
    const [allowed, remaining, waitMs, fullMs] = (await redis.eval(TAKE_ONE, 1, key, limit.perSecond, limit.burst)) as [
      number,
      number,
      number,
      number,
    ];
    reply.header("x-ratelimit-limit", String(limit.burst));
    reply.header("x-ratelimit-remaining", String(remaining));
    reply.header("x-ratelimit-reset", String(Math.ceil(fullMs / 1000)));
    if (allowed !== 1) {
      // The envelope's error handler turns retryAfter into the Retry-After header.
      throw new AppError(429, "batch.api_rate_limited", {
        rate: limit.perSecond,
        burst: limit.burst,
        retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
  };
}
