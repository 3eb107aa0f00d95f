// The receipt journal (receipt-journal.ts): a receipt is in Redis before the SMSC has its acknowledgement, leaves
// once enqueued or recorded, and what a dead process left is enqueued by another.
import type { DeliveryReportJob } from "@switchboard/contracts";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_PART_RECEIPTS, PartReceipts } from "../src/lib/part-receipts";
import { ReceiptJournal } from "../src/lib/receipt-journal";
import { ReceiptRouter, ReportBatcher } from "../src/lib/report-batcher";
import { workerPrefix } from "./helpers";

const redis = new Redis(inject("redisUrl"));
const logger = pino({ level: "silent" });
afterAll(() => redis.disconnect());

const report = (id: string) => ({
  providerMessageId: id,
  status: "delivered" as const,
  arrivedAt: new Date().toISOString(),
});

describe("receipt journal", () => {
  it("holds each receipt from its acknowledgement until its job is enqueued; a dead process's receipts are enqueued by another", async () => {
    const prefix = workerPrefix();
    const jobs: DeliveryReportJob[] = [];
    const enqueue = async (job: DeliveryReportJob) => {
      jobs.push(job);
    };
    const dead = new ReceiptJournal(redis, prefix, enqueue, logger, { heartbeatMs: 60_000, staleMs: 0 });
    const kept = [dead.add(7, report("1")), dead.add(7, report("2")), dead.add(8, report("3"))];
    // one write for the turn: every receipt of it is stored when it lands
    expect(new Set(kept.map((k) => k.stored)).size).toBe(1);
    await kept[0]?.stored;
    const key = `${prefix}receipts:${dead.owner}`;
    expect(await redis.hlen(key)).toBe(3);
    dead.done([kept[1]?.token ?? ""]);
    // a process that stops with receipts not enqueued leaves them listed (as one killed would)
    await dead.close();
    expect(await redis.hlen(key)).toBe(2);
    expect(await redis.zscore(`${prefix}receipt-owners`, dead.owner)).not.toBeNull();

    const live = new ReceiptJournal(redis, prefix, enqueue, logger, { heartbeatMs: 60_000, staleMs: 0 });
    expect(await live.takeOver()).toBe(2);
    expect(jobs.map((j) => [j.channelId, j.reports.map((r) => r.providerMessageId)]).sort()).toEqual([
      [7, ["1"]],
      [8, ["3"]],
    ]);
    expect(await redis.exists(key)).toBe(0);
    expect(await redis.zscore(`${prefix}receipt-owners`, dead.owner)).toBeNull();
    expect(await live.takeOver()).toBe(0);
    await live.close();
  });

  it("a receipt leaves the journal once the batcher has enqueued its job; the router's promise is its storing", async () => {
    const prefix = workerPrefix();
    const jobs: DeliveryReportJob[] = [];
    const journal = new ReceiptJournal(redis, prefix, async () => {}, logger, { heartbeatMs: 60_000, staleMs: 30_000 });
    const batcher = new ReportBatcher(
      async (job) => {
        jobs.push(job);
      },
      logger,
      { flushMs: 10, maxReports: 1_000, maxBuffered: 10_000 },
      (tokens) => journal.done(tokens),
    );
    const claimed: string[] = [];
    const router = new ReceiptRouter(
      (_channelId, r, token) => {
        if (r.providerMessageId !== "rides") return false;
        if (token) claimed.push(token);
        return true;
      },
      batcher,
      journal,
    );
    const stored = [
      router.push(5, { providerMessageId: "a", status: "delivered" }),
      router.push(5, { providerMessageId: "rides", status: "undelivered", errorCode: "001" }),
    ];
    await Promise.all(stored);
    const key = `${prefix}receipts:${journal.owner}`;
    expect(await redis.hlen(key)).toBe(2);
    await router.flush();
    expect(jobs).toEqual([{ channelId: 5, reports: [expect.objectContaining({ providerMessageId: "a" })] }]);
    // the riding receipt stays until its outcome's write has landed
    expect(claimed).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await redis.hkeys(key)).toEqual(claimed);
    journal.done(claimed);
    await journal.close();
    expect(await redis.exists(key)).toBe(0);
    expect(await redis.zscore(`${prefix}receipt-owners`, journal.owner)).toBeNull();
  });

  it("a receipt that is no long SMS part is journaled by its part lookup's script: no second round trip", async () => {
    const prefix = workerPrefix();
    const jobs: DeliveryReportJob[] = [];
    const journal = new ReceiptJournal(redis, prefix, async () => {}, logger, { heartbeatMs: 60_000, staleMs: 30_000 });
    const batcher = new ReportBatcher(
      async (job) => {
        jobs.push(job);
      },
      logger,
      { flushMs: 10, maxReports: 1_000, maxBuffered: 10_000 },
      (tokens) => journal.done(tokens),
    );
    const router = new ReceiptRouter(() => false, batcher, journal);
    const parts = new PartReceipts(redis, prefix, logger, { ...DEFAULT_PART_RECEIPTS, journal }).of("smpp:x:1:y", 9);
    const long = parts.open(2);
    parts.accepted(long, 0, "p0");
    parts.accepted(long, 1, "p1");
    const short = { providerMessageId: "s1", status: "delivered" as const };
    const part = { providerMessageId: "p0", status: "delivered" as const };
    expect(await Promise.all([parts.report(short), parts.report(part)])).toEqual(["not_a_part", "waiting"]);
    const key = `${prefix}receipts:${journal.owner}`;
    // The short message's receipt is in the journal (and this process listed), the part is not: it waits for the
    // other part in the store.
    expect((await redis.hvals(key)).map((v) => JSON.parse(v)[1].providerMessageId)).toEqual(["s1"]);
    expect(await redis.zscore(`${prefix}receipt-owners`, journal.owner)).not.toBeNull();
    // The router takes it as journaled: nothing to wait for, no write of its own.
    expect(router.push(9, short)).toBeUndefined();
    await router.flush();
    expect(jobs).toEqual([{ channelId: 9, reports: [expect.objectContaining({ providerMessageId: "s1" })] }]);
    await new Promise((resolve) => setImmediate(resolve));
    await journal.close();
    expect(await redis.exists(key)).toBe(0);
  });
});
