// The Redis thread (redis-thread.ts): a script's answer is back within the event-loop turn that asked for it, so
// the SMPP receipts of a read are acknowledged in that turn (part-receipts.ts); an answer slower than the wait, an
// error or a thread gone never lose or repeat a script.
import { randomBytes } from "node:crypto";
import { redisScript } from "@switchboard/domain/redis";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_PART_RECEIPTS, PartReceipts } from "../src/lib/part-receipts";
import { ReceiptJournal } from "../src/lib/receipt-journal";
import { RedisThread } from "../src/lib/redis-thread";
import { workerPrefix } from "./helpers";

const redisUrl = inject("redisUrl");
const redis = new Redis(redisUrl);
const logger = pino({ level: "silent" });
const thread = new RedisThread({ REDIS_URL: redisUrl }, redis, logger, 5_000);
const echo = redisScript("return {ARGV[1], redis.call('INCR', KEYS[1])}");

/** What the promise holds once this turn's microtasks have run, or "next turn" if it is still pending then. */
function withinTurn<T>(promise: Promise<T>): Promise<T | "next turn"> {
  return Promise.race([promise, new Promise<"next turn">((resolve) => setImmediate(() => resolve("next turn")))]);
}

beforeAll(async () => {
  // The thread starts with its first script here (a second or so under tsx; the workers start it when an SMPP
  // adapter opens: prepare); later ones find it running.
  await thread.run(echo, [`${workerPrefix()}warm`], ["warm"], false);
});
afterAll(async () => {
  await thread.close();
  redis.disconnect();
});

describe("redis thread", () => {
  it("answers a script within the turn that ran it, in order with the scripts before it", async () => {
    const key = `${workerPrefix()}counter`;
    const unwaited = thread.run(echo, [key], ["a"], false);
    const answer = await withinTurn(thread.run(echo, [key], ["b"], true));
    expect(answer).toEqual(["b", 2]);
    expect(await unwaited).toEqual(["a", 1]);
  });

  it("sends a script Redis has not seen whole, and a script's error rejects with Redis's message", async () => {
    const fresh = redisScript(`-- ${randomBytes(8).toString("hex")}\nreturn ARGV[1] .. '!'`);
    expect(await thread.run(fresh, [], ["new"], true)).toBe("new!");
    const failing = redisScript("return redis.call('INCR', KEYS[1])");
    const key = `${workerPrefix()}text`;
    await redis.set(key, "not a number");
    await expect(thread.run(failing, [key], [], true)).rejects.toThrow(/not an integer/);
  });

  it("an answer slower than the wait settles its promise later, once", async () => {
    const impatient = new RedisThread({ REDIS_URL: redisUrl }, redis, logger, 0);
    try {
      const key = `${workerPrefix()}slow`;
      // The first script also starts the thread: far longer than a wait of 0 ms.
      const answer = impatient.run(echo, [key], ["x"], true);
      expect(await withinTurn(answer)).toBe("next turn");
      expect(await answer).toEqual(["x", 1]);
      expect(await redis.get(key)).toBe("1");
    } finally {
      await impatient.close();
    }
  });

  it("is started ahead of its first script, and nothing waits for it before its connection is ready", async () => {
    const starting = new RedisThread({ REDIS_URL: redisUrl }, redis, logger, 5_000);
    try {
      const key = `${workerPrefix()}starting`;
      // Still loading: the wait could not be answered, so the script is answered a turn later (the old thread held
      // the event loop for it).
      const early = starting.run(echo, [key], ["early"], true);
      expect(await withinTurn(early)).toBe("next turn");
      expect(await early).toEqual(["early", 1]);
      // Ready now: answered within the turn.
      expect(await withinTurn(starting.run(echo, [key], ["ready"], true))).toEqual(["ready", 2]);
    } finally {
      await starting.close();
    }
    const prepared = new RedisThread({ REDIS_URL: redisUrl }, redis, logger, 5_000);
    try {
      prepared.prepare();
      const key = `${workerPrefix()}prepared`;
      // Its first script finds it running once it has had the time to start.
      let answer: unknown = "next turn";
      for (let i = 0; i < 300 && answer === "next turn"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        answer = await withinTurn(prepared.run(echo, [key], [String(i)], true));
      }
      expect(answer).not.toBe("next turn");
    } finally {
      await prepared.close();
    }
  });

  it("once the thread is gone, scripts go through the ordinary connection", async () => {
    const gone = new RedisThread({ REDIS_URL: redisUrl }, redis, logger);
    await gone.run(echo, [`${workerPrefix()}start`], ["start"], false);
    await gone.close();
    const key = `${workerPrefix()}fallback`;
    expect(await gone.run(echo, [key], ["after"], true)).toEqual(["after", 1]);
  });

  it("a read's receipts are looked up and journaled within its turn, 2,500 of them in one script", async () => {
    const prefix = workerPrefix();
    const journal = new ReceiptJournal(redis, prefix, async () => {}, logger, { heartbeatMs: 60_000, staleMs: 30_000 });
    const parts = new PartReceipts(redis, prefix, logger, { ...DEFAULT_PART_RECEIPTS, journal, thread }).of(
      "smpp:t:1:y",
      4,
    );
    const long = parts.open(2);
    parts.accepted(long, 0, "p0");
    parts.accepted(long, 1, "p1");
    const shorts = Array.from({ length: 2_500 }, (_, i) => ({
      providerMessageId: `s${i}`,
      status: "delivered" as const,
    }));
    const answers = [
      ...shorts.slice(0, 1_200).map((r) => parts.report(r)),
      parts.report({ providerMessageId: "p1", status: "delivered" }),
      ...shorts.slice(1_200).map((r) => parts.report(r)),
      parts.report({ providerMessageId: "p0", status: "undelivered", errorCode: "EXPIRED" }),
    ];
    const settled = await withinTurn(Promise.all(answers));
    expect(settled).not.toBe("next turn");
    const folding = settled as Awaited<(typeof answers)[number]>[];
    expect(folding.filter((f) => f === "not_a_part")).toHaveLength(2_500);
    expect(folding[1_200]).toBe("waiting");
    // the long message's two parts, folded under its first part's id
    expect(folding[2_501]).toMatchObject({
      firstId: "p0",
      parts: [{ status: "undelivered" }, { status: "delivered" }],
    });
    const key = `${prefix}receipts:${journal.owner}`;
    expect(await redis.hlen(key)).toBe(2_500);
    expect(await redis.zscore(`${prefix}receipt-owners`, journal.owner)).not.toBeNull();
    await redis.del(key);
    await journal.close();
  });
});
