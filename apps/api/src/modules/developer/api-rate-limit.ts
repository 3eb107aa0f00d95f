// Rate limit of the developer API (/v1): one token bucket per customer (the secret key's owner) in Redis, the
// platform's one bucket script (@switchboard/domain/token-bucket, also the channels' throughput), so that every
// API process draws from the same bucket and parallel calls never overspend it. A process's calls for one customer
// that arrive while its take is in flight share the next take (CoalescedTakes): one Redis round trip for many calls.
// A customer may call `perSecond` times a second on average and spend `burst` calls at once after a quiet moment.
//
// Runs after the key is checked (apiKeyAuth) and before anything else: a refused call reads no body and changes
// nothing. Every /v1 answer carries X-RateLimit-Limit (the burst), X-RateLimit-Remaining (calls left now) and
// X-RateLimit-Reset (seconds until the bucket is full again); a refused one is 429 with Retry-After (seconds
// until the next call is allowed) and the envelope's message in the request's language.

import type { RedisConnection } from "@switchboard/domain/redis";
import { CoalescedTakes } from "@switchboard/domain/token-bucket";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors";
import { principalOf } from "../../plugins/auth";

export interface ApiRateLimit {
  /** Calls per second on average (config.DEVELOPER_API_RATE_PER_SECOND). */
  perSecond: number;
  /** Most calls at once after a quiet moment (config.DEVELOPER_API_BURST). */
  burst: number;
}

/** One coalescer per connection: every route's limit in a process shares its takes of a customer's bucket. */
const coalescers = new WeakMap<RedisConnection, CoalescedTakes>();

/** preHandler of the /v1 routes, after apiKeyAuth. */
export function apiRateLimit(redis: RedisConnection, redisPrefix: string, limit: ApiRateLimit) {
  const coalesced = coalescers.get(redis) ?? new CoalescedTakes(redis);
  coalescers.set(redis, coalesced);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const key = `${redisPrefix}ratelimit:v1:user:${principalOf(req).userId}`;
    const { granted, remaining, waitMs, fullMs } = await coalesced.takeOne(key, limit.perSecond, limit.burst);
    reply.header("x-ratelimit-limit", String(limit.burst));
    reply.header("x-ratelimit-remaining", String(remaining));
    reply.header("x-ratelimit-reset", String(Math.ceil(fullMs / 1000)));
    if (granted !== 1) {
      // The envelope's error handler turns retryAfter into the Retry-After header.
      throw new AppError(429, "batch.api_rate_limited", {
        rate: limit.perSecond,
        burst: limit.burst,
        retryAfter: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
  };
}
