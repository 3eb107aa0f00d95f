// The outcome journal (lib/outcome-journal.ts): what a chunk run leaves in Redis is what its next run, the batch's
// settlement and the scheduler write back, and a run's fields go as soon as every recipient in them is settled.
import { SendResult } from "@switchboard/contracts";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { LOST_IN_FLIGHT, OutcomeJournal } from "../src/lib/outcome-journal";
import type { SendOutcomeRow } from "../src/lib/send-outcomes";
import { workerPrefix } from "./helpers";

const redis = new Redis(inject("redisUrl"));
afterAll(() => redis.disconnect());

const sent = (id: number, providerMessageId: string): SendOutcomeRow => ({
  recipientId: BigInt(id),
  result: SendResult.SUCCESS,
  providerMessageId,
  errorCode: null,
});

/** What a replay hands to its write, by recipient. */
async function replayed(journal: OutcomeJournal, batchId: string, opts: Parameters<OutcomeJournal["replay"]>[2]) {
  const written: SendOutcomeRow[] = [];
  const counts = await journal.replay(
    batchId,
    async (rows) => {
      written.push(...rows);
    },
    opts,
  );
  written.sort((a, b) => Number(a.recipientId - b.recipientId));
  return { counts, written };
}

describe("outcome journal of a chunk run", () => {
  it("writes a field per call, not per recipient, and leaves nothing once every recipient is settled", async () => {
    const prefix = workerPrefix();
    const journal = new OutcomeJournal(redis, prefix);
    const run = journal.of("11", "c0");
    await run.intend([1n, 2n, 3n, 4n]);
    await run.intend([5n, 6n]);
    const key = `${prefix}unwritten:11:c0`;
    expect(await redis.hlen(key)).toBe(2);
    await run.ahead([sent(1, "m1"), sent(2, "m2"), { ...sent(3, "m3"), receipt: { result: 1, errorCode: null } }]);
    expect(await redis.hlen(key)).toBe(3);
    // 1-3 written: the outcomes' field goes; the first intents' field holds 4 alone.
    await run.forget([sent(1, "m1"), sent(2, "m2"), sent(3, "m3")]);
    expect((await redis.hvals(key)).sort()).toEqual(["4", "5,6"]);
    // 4 and 6 were not accepted (a retry): dropped; 5 was sent, written.
    await run.drop([4n, 6n]);
    expect(await redis.hvals(key)).toEqual(["5"]);
    await run.ahead([sent(5, "m5")]);
    await run.forget([sent(5, "m5")]);
    expect(await redis.exists(key)).toBe(0);
    expect(await redis.smembers(`${prefix}unwritten-chunks:11`)).toEqual(["c0"]);
    // The next run finds nothing to write back, and takes the chunk off its batch's list.
    expect(await replayed(journal, "11", { ownChunk: "c0" })).toEqual({
      counts: { outcomes: 0, lostInFlight: 0 },
      written: [],
    });
    expect(await redis.scard(`${prefix}unwritten-chunks:11`)).toBe(0);
  });

  it("a run that died: its outcomes written back as they are, its intents without one as lost_in_flight", async () => {
    const prefix = workerPrefix();
    const journal = new OutcomeJournal(redis, prefix);
    const run = journal.of("12", "c0");
    await run.intend([1n, 2n, 3n]);
    await run.ahead([{ ...sent(1, "m1"), receipt: { result: 2, errorCode: "002" } }]);
    await run.ahead([{ recipientId: 2n, result: SendResult.FAILURE, providerMessageId: null, errorCode: "88" }]);
    // The scheduler writes back outcomes only (the chunk may be live): intents stay.
    const scheduler = await replayed(journal, "12", {});
    expect(scheduler.counts).toEqual({ outcomes: 2, lostInFlight: 0 });
    expect(scheduler.written).toEqual([
      { ...sent(1, "m1"), receipt: { result: 2, errorCode: "002" } },
      { recipientId: 2n, result: SendResult.FAILURE, providerMessageId: null, errorCode: "88" },
    ]);
    expect(await redis.hlen(`${prefix}unwritten:12:c0`)).toBe(1);
    // The chunk's next run: 1 and 2 are outcomes no more in the journal (written), 3 left without an answer.
    const next = await replayed(journal, "12", { ownChunk: "c0" });
    expect(next.counts).toEqual({ outcomes: 0, lostInFlight: 3 });
    // That run sends 4 and dies after its answer: the settlement writes the outcome, no intent lost.
    const again = journal.of("12", "c0");
    await again.intend([4n]);
    await again.ahead([sent(4, "m4")]);
    const settlement = await replayed(journal, "12", { allIntents: true });
    expect(settlement).toEqual({ counts: { outcomes: 1, lostInFlight: 0 }, written: [sent(4, "m4")] });
    expect(await redis.exists(`${prefix}unwritten:12:c0`)).toBe(0);
  });

  it("reads a recipient once when its outcome is in a turn's field and in a kept one, with the kept one's receipt", async () => {
    const prefix = workerPrefix();
    const journal = new OutcomeJournal(redis, prefix);
    const run = journal.of("13", "c1");
    await run.intend([7n, 8n]);
    await run.ahead([sent(7, "m7"), sent(8, "m8")]);
    // The write failed for good: kept (7 with the receipt that came meanwhile), the batch listed for the scheduler.
    const receipt = { result: 1, errorCode: null } as const;
    await run.keep([{ ...sent(7, "m7"), receipt }, sent(8, "m8")]);
    expect(await journal.batches()).toEqual(["13"]);
    const { counts, written } = await replayed(journal, "13", { allIntents: true });
    expect(counts).toEqual({ outcomes: 2, lostInFlight: 0 });
    // whichever field the hash hands back first
    expect(written).toEqual([{ ...sent(7, "m7"), receipt }, sent(8, "m8")]);
    await journal.unlistIfEmpty("13");
    expect(await journal.batches()).toEqual([]);
  });

  it("reads the per-recipient form (single sends, and runs of earlier versions) beside the grouped one", async () => {
    const prefix = workerPrefix();
    const journal = new OutcomeJournal(redis, prefix);
    await redis.hset(`${prefix}unwritten:14:c0`, "21", "i", "22", JSON.stringify([SendResult.SUCCESS, "m22", null]));
    await redis.sadd(`${prefix}unwritten-chunks:14`, "c0");
    const singles = journal.singles([{ batchId: 15n, chunk: "31", recipientId: 31n }]);
    await singles.intend([31n]);
    await singles.ahead([sent(31, "m31")]);
    const old = await replayed(journal, "14", { ownChunk: "c0" });
    expect(old.counts).toEqual({ outcomes: 1, lostInFlight: 1 });
    expect(old.written).toEqual([
      { recipientId: 21n, result: SendResult.FAILURE, providerMessageId: null, errorCode: LOST_IN_FLIGHT },
      sent(22, "m22"),
    ]);
    const single = await replayed(journal, "15", { allIntents: true });
    expect(single.written).toEqual([sent(31, "m31")]);
    expect(await redis.exists(`${prefix}unwritten:14:c0`, `${prefix}unwritten:15:31`)).toBe(0);
  });
});
