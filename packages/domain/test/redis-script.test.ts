import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { redisScript, runScript } from "../src/redis";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const prefix = `test:script:${randomBytes(4).toString("hex")}:`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

/** A script Redis has never seen (its text, hence its hash, is new), counting its runs per key. */
function freshCounter() {
  return redisScript(`-- ${randomBytes(8).toString("hex")}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
}

describe("runScript", () => {
  it("sends the text once, when Redis does not have it, and the hash after", async () => {
    const script = freshCounter();
    expect(await redis.script("EXISTS", script.sha)).toEqual([0]);
    const evalsha = vi.spyOn(redis, "evalsha");
    const evalText = vi.spyOn(redis, "eval");
    try {
      expect(await runScript(redis, script, [`${prefix}one`], [2])).toBe(2);
      expect(await runScript(redis, script, [`${prefix}one`], [3])).toBe(5);
      expect(evalsha).toHaveBeenCalledTimes(2);
      // Only the first call, answered NOSCRIPT, sent the text.
      expect(evalText).toHaveBeenCalledTimes(1);
    } finally {
      evalsha.mockRestore();
      evalText.mockRestore();
    }
    expect(await redis.script("EXISTS", script.sha)).toEqual([1]);
  });

  it("passes a script's own error on", async () => {
    const failing = redisScript(`-- ${randomBytes(8).toString("hex")}\nreturn redis.call('INCR', KEYS[1])`);
    await redis.set(`${prefix}text`, "not a number");
    await expect(runScript(redis, failing, [`${prefix}text`], [])).rejects.toThrow(/not an integer/);
  });
});
