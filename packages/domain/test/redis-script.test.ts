import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { redisScript, runScript, runScripts } from "../src/redis";

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

describe("runScripts", () => {
  it("runs every call once in a pipeline, again with the text only those Redis did not have the script for", async () => {
    const script = freshCounter();
    const keys = [0, 1, 2].map((i) => `${prefix}many:${i}`);
    const answers = await runScripts(
      redis,
      script,
      keys.map((k, i) => ({ keys: [k], args: [i + 1] })),
    );
    expect(answers).toEqual([
      [null, 1],
      [null, 2],
      [null, 3],
    ]);
    // Each ran exactly once (a NOSCRIPT answer ran nothing; its second run is its only one).
    expect(await redis.mget(keys)).toEqual(["1", "2", "3"]);
    // Now Redis has it: one pipeline, by hash.
    const again = await runScripts(
      redis,
      script,
      keys.map((k) => ({ keys: [k], args: [10] })),
    );
    expect(again.map(([, v]) => v)).toEqual([11, 12, 13]);
  });

  it("gives each call's error in its place, without throwing", async () => {
    const failing = redisScript(`-- ${randomBytes(8).toString("hex")}\nreturn redis.call('INCR', KEYS[1])`);
    await redis.set(`${prefix}bad`, "x");
    const answers = await runScripts(redis, failing, [
      { keys: [`${prefix}good`], args: [] },
      { keys: [`${prefix}bad`], args: [] },
    ]);
    expect(answers[0]).toEqual([null, 1]);
    expect(answers[1]?.[0]?.message).toMatch(/not an integer/);
  });
});
