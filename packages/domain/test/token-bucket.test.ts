import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CoalescedTakes, TokenBucket, takeTokens } from "../src/token-bucket";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const prefix = `test:tb:${randomBytes(4).toString("hex")}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe("TokenBucket", () => {
  it("grants the burst at once, then nothing, and says how long to wait", async () => {
    // One token a second with a burst of 10: a loaded machine's pause between the calls refills nothing.
    const b = new TokenBucket(redis, `${prefix}a`, 1, 10);
    expect(await b.take(4)).toEqual({ granted: 4, waitMs: 0 });
    expect((await b.take(10)).granted).toBe(6);
    const empty = await b.take(1);
    expect(empty.granted).toBe(0);
    expect(empty.waitMs).toBeGreaterThan(0);
    expect(empty.waitMs).toBeLessThanOrEqual(1_000);
  });

  it("holds the rate across many concurrent takers (separate connections, like separate workers)", async () => {
    const rate = 200;
    const key = `${prefix}b`;
    const clients = Array.from({ length: 4 }, () => new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379"));
    try {
      const buckets = clients.map((c) => new TokenBucket(c, key, rate, rate));
      const started = Date.now();
      let total = 0;
      // Each taker keeps asking for small batches for ~1.5 s of wall time.
      await Promise.all(
        buckets.map(async (b) => {
          while (Date.now() - started < 1500) {
            const granted = await b.acquire(7);
            total += granted;
          }
        }),
      );
      const elapsed = (Date.now() - started) / 1000;
      // burst (200) + rate * elapsed, never more; allow one batch per taker of slack at the boundary
      expect(total).toBeLessThanOrEqual(rate + Math.ceil(rate * elapsed) + 4 * 7);
      expect(total).toBeGreaterThan(rate);
    } finally {
      await Promise.all(clients.map((c) => c.quit()));
    }
  });

  it("refuses a non-positive rate", () => {
    expect(() => new TokenBucket(redis, `${prefix}c`, 0)).toThrow(/positive/);
  });
});

describe("takeTokens", () => {
  it("tells what is left, when the next token comes and when the bucket is full again (X-RateLimit-*)", async () => {
    // One token a second with a burst of 3, one token per call (the developer API's way).
    const key = `${prefix}d`;
    const first = await takeTokens(redis, key, 1, 3, 1);
    expect(first).toMatchObject({ granted: 1, remaining: 2, waitMs: 0 });
    expect(first.fullMs).toBeGreaterThan(0);
    expect(first.fullMs).toBeLessThanOrEqual(1_000);
    await takeTokens(redis, key, 1, 3, 1);
    await takeTokens(redis, key, 1, 3, 1);
    const refused = await takeTokens(redis, key, 1, 3, 1);
    expect(refused.granted).toBe(0);
    expect(refused.remaining).toBe(0);
    expect(refused.waitMs).toBeGreaterThan(0);
    expect(refused.waitMs).toBeLessThanOrEqual(1_000);
    expect(refused.fullMs).toBeGreaterThan(2_000);
    expect(refused.fullMs).toBeLessThanOrEqual(3_000);
    // The key lives until the bucket would be full again (a missing key is a full bucket), no longer.
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(refused.fullMs);
    expect(ttl).toBeLessThanOrEqual(refused.fullMs + 1_000);
  });
});

describe("CoalescedTakes", () => {
  it("answers the calls that arrive during a take with one more take, granting exactly the bucket's tokens", async () => {
    const key = `${prefix}coalesced`;
    const takes = new CoalescedTakes(redis);
    const sent = vi.spyOn(redis, "evalsha");
    try {
      // 50 calls at once against a burst of 30 (one token a second: nothing refills meanwhile).
      const answers = await Promise.all(Array.from({ length: 50 }, () => takes.takeOne(key, 1, 30)));
      // The first call's take, then one take for the 49 that came while it was in flight.
      expect(sent).toHaveBeenCalledTimes(2);
      expect(answers.filter((a) => a.granted === 1)).toHaveLength(30);
      // Granted in arrival order; each sees the tokens left after its own.
      expect(answers.slice(0, 30).map((a) => a.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));
      for (const refused of answers.slice(30)) {
        expect(refused).toMatchObject({ granted: 0, remaining: 0 });
        expect(refused.waitMs).toBeGreaterThan(0);
      }
    } finally {
      sent.mockRestore();
    }
    // The bucket in Redis is the same one: empty for a take of its own too.
    expect((await takeTokens(redis, key, 1, 30, 1)).granted).toBe(0);
  });

  it("fails every call of a take that failed, and takes again for the next ones", async () => {
    const key = `${prefix}coalesced-fail`;
    await redis.set(key, "not a hash");
    const takes = new CoalescedTakes(redis);
    const failed = await Promise.allSettled([takes.takeOne(key, 1, 5), takes.takeOne(key, 1, 5)]);
    expect(failed.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    await redis.del(key);
    expect((await takes.takeOne(key, 1, 5)).granted).toBe(1);
  });
});
