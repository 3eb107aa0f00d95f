// The job handlers called directly (no BullMQ worker running): chunk planning, settling and refunds, receipts
// that overtake their submit outcome, and the conditional writes that make every job safe to run twice.

import { startSmscSimulator } from "@switchboard/channels/simulators";
import {
  BalanceLogType,
  BatchStatus,
  decodeBatchReason,
  QUEUE,
  ReceiveResult,
  SendResult,
} from "@switchboard/contracts";
import { batchJobKeys, type PrismaClient } from "@switchboard/db";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWorkerDeps, createWorkerDeps, dispatchBatch, finishBatch, recordDeliveryReports } from "../src/index";
import { writeOutcomes } from "../src/jobs/dispatch-chunk";
import { receiptAccount } from "../src/lib/adapter-pool";
import { chunkJobId } from "../src/lib/job-queues";
import { OutcomeWriter, recordSendOutcomes, type SendOutcomeRow, UnwrittenOutcomes } from "../src/lib/send-outcomes";
import { SmppBinds } from "../src/lib/smpp-binds";
import {
  againstSettlement,
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  phoneNumbers,
  TEST_SMPP,
  TEST_TUNING,
  testConfig,
  testPrisma,
} from "./helpers";

let prisma: PrismaClient;
let deps: ReturnType<typeof createWorkerDeps>;

beforeAll(() => {
  prisma = testPrisma();
  deps = createWorkerDeps({
    config: testConfig(),
    logger: pino({ level: "silent" }),
    tuning: { ...TEST_TUNING, chunkSize: 100 },
  });
});
afterAll(async () => {
  await closeWorkerDeps(deps);
  await prisma.$disconnect();
});

const batch = (batchId: string) => prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
const recipientsOf = (batchId: string) =>
  prisma.recipient.findMany({ where: { batchId: BigInt(batchId) }, orderBy: { id: "asc" } });

describe("dispatch-batch", () => {
  it("waits for a batch's scheduled time, then plans chunks per channel by id range, the same plan every run", async () => {
    const customer = await createCustomer(prisma);
    const a = await createSmppChannel(prisma, { port: 1 });
    const b = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, a, phoneNumbers(300), {
      scheduledAt: new Date(Date.now() + 3_600_000),
    });
    const rows = await recipientsOf(batchId);
    // 250 recipients on channel a, 40 on channel b, 10 without a channel
    await prisma.recipient.updateMany({
      where: { id: { in: rows.slice(250, 290).map((r) => r.id) } },
      data: { channelId: b },
    });
    await prisma.recipient.updateMany({
      where: { id: { in: rows.slice(290).map((r) => r.id) } },
      data: { channelId: null },
    });

    await dispatchBatch(deps, { batchId });
    expect(await batch(batchId)).toMatchObject({ status: BatchStatus.PENDING_SEND, startedAt: null });

    await prisma.messageBatch.update({
      where: { id: BigInt(batchId) },
      data: { scheduledAt: new Date(Date.now() - 1) },
    });
    await dispatchBatch(deps, { batchId });
    const started = await batch(batchId);
    expect(started.status).toBe(BatchStatus.SENDING);
    expect(started.startedAt).not.toBeNull();
    expect(started).toMatchObject({ sentCount: 10, failedCount: 10 });

    const chunks = (await deps.queues.queue(QUEUE.dispatchChunk).getJobs(["waiting"]))
      .map((j) => j.data)
      .filter((d) => d.batchId === batchId)
      .sort((x, y) => x.channelId - y.channelId || Number(x.fromId) - Number(y.fromId));
    const ids = (from: number, to: number) => ({ fromId: rows[from]!.id.toString(), toId: rows[to]!.id.toString() });
    expect(chunks).toEqual([
      { batchId, channelId: a, ...ids(0, 99) },
      { batchId, channelId: a, ...ids(100, 199) },
      { batchId, channelId: a, ...ids(200, 249) },
      { batchId, channelId: b, ...ids(250, 289) },
    ]);
    expect(
      (await deps.queues.queue(QUEUE.dispatchChunk).getJobs(["waiting"])).find(
        (j) => j.data.batchId === batchId && j.data.channelId === b,
      )?.id,
    ).toBe(chunkJobId(chunks[3]!, (await batchJobKeys(prisma, [batchId])).get(batchId)!));
    const unroutable = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId), channelId: null } });
    expect(unroutable.every((r) => r.sendResult === SendResult.FAILURE && r.errorCode === "NO_CHANNEL")).toBe(true);

    // Running it again (a retried job, the scheduler's re-plan) adds no job and counts nothing twice.
    const before = await deps.queues.queue(QUEUE.dispatchChunk).getJobCounts("waiting");
    await dispatchBatch(deps, { batchId });
    expect(await deps.queues.queue(QUEUE.dispatchChunk).getJobCounts("waiting")).toEqual(before);
    expect(await batch(batchId)).toMatchObject({ sentCount: 10, failedCount: 10 });
  });
});

describe("dispatch-batch of a small batch", () => {
  it("sends it and settles it inside the one job: no chunk job, no finish job", async () => {
    const sim = await startSmscSimulator({});
    try {
      const customer = await createCustomer(prisma);
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(3), {
        prices: () => ({ price: 100n }),
      });
      await dispatchBatch(deps, { batchId });
      expect(await batch(batchId)).toMatchObject({
        status: BatchStatus.SEND_FINISHED,
        successCount: 3,
        refunded: 0n,
        cost,
      });
      expect(sim.stats().submitAccepted).toBe(3);
      const queued = async (name: (typeof QUEUE)[keyof typeof QUEUE]) =>
        (await deps.queues.queue(name).getJobs(["waiting", "delayed", "active"])).filter(
          (j) => (j.data as { batchId?: string }).batchId === batchId,
        );
      expect(await queued(QUEUE.dispatchChunk)).toEqual([]);
      expect(await queued(QUEUE.finishBatch)).toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it("hands the chunk to the queue when the channel does not take it now", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2));
    const quick = createWorkerDeps({
      config: testConfig(undefined, deps.redisPrefix),
      logger: pino({ level: "silent" }),
      tuning: TEST_TUNING,
      smpp: TEST_SMPP,
    });
    try {
      await dispatchBatch(quick, { batchId });
    } finally {
      await closeWorkerDeps(quick);
    }
    expect((await batch(batchId)).status).toBe(BatchStatus.SENDING);
    const chunks = (await deps.queues.queue(QUEUE.dispatchChunk).getJobs(["waiting"])).filter(
      (j) => j.data.batchId === batchId,
    );
    expect(chunks).toHaveLength(1);
    expect(await prisma.recipient.count({ where: { batchId: BigInt(batchId), sendResult: SendResult.NOT_SENT } })).toBe(
      2,
    );
  });
});

describe("send outcomes and finish-batch", () => {
  it("writes outcomes only once, settles with one exact refund, and never refunds twice", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(6), {
      status: BatchStatus.SENDING,
    });
    const [r1, r2, r3, r4, r5, r6] = await recipientsOf(batchId);
    const ok = (r: typeof r1, id: string) => ({
      recipientId: r!.id,
      result: SendResult.SUCCESS,
      providerMessageId: id,
      errorCode: null,
    });
    const ko = (r: typeof r1) => ({
      recipientId: r!.id,
      result: SendResult.FAILURE,
      providerMessageId: null,
      errorCode: "ESME_RINVDSTADR",
    });
    expect(await recordSendOutcomes(prisma, BigInt(batchId), [ok(r1, "a1"), ok(r2, "a2"), ko(r3)])).toEqual({
      sent: 3,
      withReceipt: [],
      batches: [BigInt(batchId)],
      settled: [],
    });
    // A retry of the same write changes nothing (and counts nothing).
    expect(await recordSendOutcomes(prisma, BigInt(batchId), [ko(r1), ok(r3, "a3")])).toMatchObject({ sent: 0 });
    await finishBatch(deps, { batchId }); // recipients left: not finished
    expect((await batch(batchId)).status).toBe(BatchStatus.SENDING);

    expect(await recordSendOutcomes(prisma, BigInt(batchId), [ok(r4, "a4"), ko(r5), ok(r6, "a6")])).toMatchObject({
      sent: 3,
    });
    await finishBatch(deps, { batchId });
    await finishBatch(deps, { batchId });
    const settled = await batch(batchId);
    expect(settled).toMatchObject({ status: BatchStatus.SEND_FINISHED, sentCount: 6, successCount: 4, failedCount: 2 });
    expect(settled.refunded).toBe(r3!.price + r5!.price);
    expect(settled.cost - settled.refunded).toBe(r1!.price + r2!.price + r4!.price + r6!.price);
    expect(settled.cost).toBe(cost);
    const refunds = await prisma.balanceLog.findMany({
      where: { batchId: BigInt(batchId), type: BalanceLogType.REFUND },
    });
    expect(refunds.map((r) => r.amount)).toEqual([r3!.price + r5!.price]);
  });

  it("fails a batch in which every recipient failed (24) and refunds it whole", async () => {
    const customer = await createCustomer(prisma);
    const { batchId, cost } = await createPendingBatch(prisma, customer, 1, phoneNumbers(3), {
      status: BatchStatus.SENDING,
    });
    await prisma.recipient.updateMany({
      where: { batchId: BigInt(batchId) },
      data: { sendResult: SendResult.FAILURE, errorCode: "ESME_RINVDSTADR" },
    });
    await finishBatch(deps, { batchId });
    const failed = await batch(batchId);
    expect(failed).toMatchObject({ status: BatchStatus.SEND_FAILED, refunded: cost });
    expect(decodeBatchReason(failed.reason, "en")).toBe("every recipient failed");
    expect(decodeBatchReason(failed.reason, "zh")).toBe("所有号码均发送失败");
  });

  it("takes a group's leases in one round trip: each free one, none another holds; releases them together", async () => {
    const [a, b, c] = ["chunk-g1", "chunk-g2", "chunk-g3"];
    const other = await deps.leases.acquire("900001", b);
    const group = [
      { batchId: "900000", chunk: a },
      { batchId: "900001", chunk: b },
      { batchId: "900002", chunk: c },
    ];
    const held = await deps.leases.acquireAll(group);
    expect(held.map((l) => l !== null)).toEqual([true, false, true]);
    expect(await deps.leases.acquire("900000", a)).toBeNull();
    expect(await deps.leases.active("900002")).toBe(1);
    await deps.leases.releaseAll(held.filter((l) => l !== null));
    expect(await deps.leases.active("900000")).toBe(0);
    expect(await deps.leases.active("900002")).toBe(0);
    // the other holder's lease is untouched, and renews as its own
    expect(await deps.leases.active("900001")).toBe(1);
    expect(await other?.renew()).toBe(true);
    await other?.release();
  });

  it("settles a terminated batch only once no chunk holds a lease", async () => {
    const customer = await createCustomer(prisma);
    const { batchId, cost } = await createPendingBatch(prisma, customer, 1, phoneNumbers(4), {
      status: BatchStatus.SEND_TERMINATED,
    });
    const lease = await deps.leases.acquire(batchId, "chunk-a");
    expect(lease).not.toBeNull();
    expect(await deps.leases.acquire(batchId, "chunk-a")).toBeNull(); // one holder per chunk
    expect(await finishBatch(deps, { batchId })).toEqual({ runAgainInMs: TEST_TUNING.finishWaitMs });
    expect((await batch(batchId)).finishedAt).toBeNull();

    await lease!.release();
    expect(await finishBatch(deps, { batchId })).toBeUndefined();
    const settled = await batch(batchId);
    expect(settled).toMatchObject({ status: BatchStatus.SEND_TERMINATED, refunded: cost });
    expect(settled.finishedAt).not.toBeNull();
    expect((await recipientsOf(batchId)).every((r) => r.sendResult === SendResult.TERMINATED)).toBe(true);
  });
});

describe("receipts that come back before their outcome is written", () => {
  it("ride along with the outcome: one write records both, counts both, and names the recipient for callbacks", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(3), {
      status: BatchStatus.SENDING,
    });
    const [r1, r2, r3] = await recipientsOf(batchId);
    const written: SendOutcomeRow[][] = [];
    const outcomes = new UnwrittenOutcomes();
    const writer = new OutcomeWriter(
      async (rows) => {
        written.push(rows);
        return recordSendOutcomes(prisma, BigInt(batchId), rows);
      },
      { maxRows: 100, maxDelayMs: 60_000, attempts: 1 },
      { outcomes, channelId },
    );
    writer.add({ recipientId: r1!.id, result: SendResult.SUCCESS, providerMessageId: "m1", errorCode: null });
    writer.add({ recipientId: r2!.id, result: SendResult.SUCCESS, providerMessageId: "m2", errorCode: null });
    writer.add({ recipientId: r3!.id, result: SendResult.FAILURE, providerMessageId: null, errorCode: "ESME_RSYSERR" });
    const doneAt = new Date("2026-11-22T01:02:03Z");
    expect(outcomes.attach(channelId, { providerMessageId: "m1", status: "delivered", doneAt })).toBe(true);
    expect(outcomes.attach(channelId, { providerMessageId: "m2", status: "undelivered", errorCode: "001" })).toBe(true);
    // Another channel's id, another spelling, a second receipt for the same message: not taken here.
    expect(outcomes.attach(channelId + 1, { providerMessageId: "m1", status: "delivered" })).toBe(false);
    expect(outcomes.attach(channelId, { providerMessageId: "M1", status: "delivered" })).toBe(false);
    expect(outcomes.attach(channelId, { providerMessageId: "m1", status: "undelivered" })).toBe(false);
    await writer.drain();
    expect(written).toHaveLength(1);
    // Once its write has started, a message's receipt goes the delivery-report way.
    expect(outcomes.size).toBe(0);
    expect(outcomes.attach(channelId, { providerMessageId: "m2", status: "delivered" })).toBe(false);

    const rows = await recipientsOf(batchId);
    expect(rows.map((r) => [r.sendResult, r.receiveResult, r.errorCode])).toEqual([
      [SendResult.SUCCESS, ReceiveResult.RECEIVED, null],
      [SendResult.SUCCESS, ReceiveResult.RECEIVE_FAILED, "001"],
      [SendResult.FAILURE, ReceiveResult.UNKNOWN, "ESME_RSYSERR"],
    ]);
    // A receipt that rode with its outcome is timed with the send, not by its done date (minute resolution,
    // here a day earlier): never before the send.
    expect(rows[0]!.receivedAt?.getTime()).toBe(rows[0]!.sentAt?.getTime());
    expect(rows[2]!.receivedAt).toBeNull();
    expect(await batch(batchId)).toMatchObject({
      sentCount: 3,
      successCount: 2,
      failedCount: 1,
      deliveredCount: 1,
      undeliveredCount: 1,
    });
    // The same write again (a retry after a lost answer): nothing changes, nothing is counted or called back twice.
    expect(await recordSendOutcomes(prisma, BigInt(batchId), written[0]!)).toEqual({
      sent: 0,
      withReceipt: [],
      batches: [],
      settled: [],
    });
    expect(await batch(batchId)).toMatchObject({ sentCount: 3, deliveredCount: 1, undeliveredCount: 1 });
  });

  it("keeps a riding receipt whose outcome a journal write-back recorded first: it goes the delivery-report way", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2), {
      status: BatchStatus.SENDING,
    });
    const [r1, r2] = await recipientsOf(batchId);
    const outcomes = new UnwrittenOutcomes();
    const writer = new OutcomeWriter(
      (rows) => writeOutcomes(deps, BigInt(batchId), rows, { channelId }),
      { maxRows: 100, maxDelayMs: 60_000, attempts: 1 },
      { outcomes, channelId },
    );
    const m1 = `wb-${batchId}-1`;
    const m2 = `wb-${batchId}-2`;
    writer.add({ recipientId: r1!.id, result: SendResult.SUCCESS, providerMessageId: m1, errorCode: null });
    writer.add({ recipientId: r2!.id, result: SendResult.SUCCESS, providerMessageId: m2, errorCode: null });
    expect(outcomes.attach(channelId, { providerMessageId: m1, status: "delivered" })).toBe(true);
    expect(outcomes.attach(channelId, { providerMessageId: m2, status: "undelivered", errorCode: "002" })).toBe(true);
    // The journal's copy of r1's outcome (taken before its receipt came) is written back by someone else first.
    await recordSendOutcomes(prisma, BigInt(batchId), [
      { recipientId: r1!.id, result: SendResult.SUCCESS, providerMessageId: m1, errorCode: null },
    ]);
    await writer.drain();
    expect((await recipientsOf(batchId)).map((r) => r.receiveResult)).toEqual([
      ReceiveResult.UNKNOWN,
      ReceiveResult.RECEIVE_FAILED,
    ]);

    // r1's receipt was not dropped with the write that skipped its row: it waits in the delivery-report queue.
    const jobs = await deps.queues.queue(QUEUE.deliveryReport).getJobs(["waiting", "delayed"]);
    const handed = jobs.filter((j) => j.data.channelId === channelId);
    expect(handed.map((j) => j.data.reports)).toEqual([[{ providerMessageId: m1, status: "delivered" }]]);
    expect(await recordDeliveryReports(deps, handed[0]!.data, { firstRun: true })).toMatchObject({ recorded: 1 });
    expect((await recipientsOf(batchId)).map((r) => r.receiveResult)).toEqual([
      ReceiveResult.RECEIVED,
      ReceiveResult.RECEIVE_FAILED,
    ]);
    expect(await batch(batchId)).toMatchObject({ sentCount: 2, deliveredCount: 1, undeliveredCount: 1 });
  });

  it("returns the recipients recorded with a receipt", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2), {
      status: BatchStatus.SENDING,
    });
    const [r1, r2] = await recipientsOf(batchId);
    const write = await recordSendOutcomes(prisma, BigInt(batchId), [
      { recipientId: r1!.id, result: SendResult.SUCCESS, providerMessageId: "x1", errorCode: null },
      {
        recipientId: r2!.id,
        result: SendResult.SUCCESS,
        providerMessageId: "x2",
        errorCode: null,
        receipt: { result: ReceiveResult.RECEIVED, errorCode: null },
      },
    ]);
    expect(write).toEqual({ sent: 2, withReceipt: [r2!.id], batches: [BigInt(batchId)], settled: [] });
  });
});

/** A one-recipient batch on the channel whose send outcome (with this provider id) is written: a message awaiting its receipt. */
async function sentOn(channelId: number, providerMessageId: string) {
  const customer = await createCustomer(prisma);
  const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1), {
    status: BatchStatus.SENDING,
  });
  const [r] = await recipientsOf(batchId);
  await recordSendOutcomes(prisma, BigInt(batchId), [
    { recipientId: r!.id, result: SendResult.SUCCESS, providerMessageId, errorCode: null },
  ]);
  return (await recipientsOf(batchId))[0]!;
}

describe("receipts of an SMSC account with several channels", () => {
  // A port no simulator listens on, its own per run: these channels are one account among themselves only.
  const port = 30_000 + Math.floor(Math.random() * 20_000);

  it("matches a receipt that came in on another channel of the same account, not of another account", async () => {
    const a = await createSmppChannel(prisma, { port });
    const b = await createSmppChannel(prisma, { port });
    const other = await createSmppChannel(prisma, { port, systemId: "someone_else" });
    const sent = await sentOn(a, `acct-${port}-1`);
    const report = { providerMessageId: `acct-${port}-1`, status: "delivered" as const };
    expect((await recordDeliveryReports(deps, { channelId: other, reports: [report] })).recorded).toBe(0);
    expect((await recordDeliveryReports(deps, { channelId: b, reports: [report] })).recorded).toBe(1);
    const row = await prisma.recipient.findUniqueOrThrow({ where: { id: sent.id } });
    expect(row.receiveResult).toBe(ReceiveResult.RECEIVED);

    // Still unwritten when its receipt comes in on the sibling's bind: it rides along all the same.
    const outcomes = new UnwrittenOutcomes((id) => (id === a || id === b ? "account" : String(id)));
    const outcome = { recipientId: 1n, result: SendResult.SUCCESS, providerMessageId: "m", errorCode: null } as const;
    outcomes.add(a, { ...outcome });
    expect(outcomes.attach(other, { providerMessageId: "m", status: "delivered" })).toBe(false);
    expect(outcomes.attach(b, { providerMessageId: "m", status: "delivered" })).toBe(true);
  });

  it("a receipt the SMSC delivered twice within one read is recorded once, and the other is not given back", async () => {
    const a = await createSmppChannel(prisma, { port });
    const sent = await sentOn(a, `acct-${port}-5`);
    const report = { providerMessageId: `acct-${port}-5`, status: "delivered" as const };
    expect(await recordDeliveryReports(deps, { channelId: a, reports: [report, report] }, { firstRun: true })).toEqual({
      recorded: 1,
      unmatched: [],
    });
    const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: sent.batchId } });
    expect(batch.deliveredCount).toBe(1);
  });

  it("records when a receipt arrived, never before its message was sent", async () => {
    const a = await createSmppChannel(prisma, { port });
    const early = await sentOn(a, `acct-${port}-2`);
    const late = await sentOn(a, `acct-${port}-3`);
    const sentAt = (r: { sentAt: Date | null }) => r.sentAt!.getTime();
    await recordDeliveryReports(deps, {
      channelId: a,
      reports: [
        // its done date (minute resolution) and even its arrival stamp before the send: the send's time
        {
          providerMessageId: `acct-${port}-2`,
          status: "delivered",
          doneAt: new Date(sentAt(early) - 60_000).toISOString(),
          arrivedAt: new Date(sentAt(early) - 1_000).toISOString(),
        },
        {
          providerMessageId: `acct-${port}-3`,
          status: "delivered",
          arrivedAt: new Date(sentAt(late) + 4_321).toISOString(),
        },
      ],
    });
    const after = await prisma.recipient.findMany({
      where: { id: { in: [early.id, late.id] } },
      orderBy: { id: "asc" },
    });
    expect(after[0]!.receivedAt!.getTime()).toBe(sentAt(early));
    expect(after[1]!.receivedAt!.getTime()).toBe(sentAt(late) + 4_321);
  });

  it("after the SMSC's ids start again, a receipt waits for its newer message instead of being lost on the old one", async () => {
    const a = await createSmppChannel(prisma, { port });
    const id = `acct-${port}-7`;
    const old = await sentOn(a, id);
    await recordDeliveryReports(deps, { channelId: a, reports: [{ providerMessageId: id, status: "delivered" }] });
    // The SMSC restarted: its new message "7" was sent but its outcome is not written yet when the receipt comes.
    const report = { providerMessageId: id, status: "undelivered" as const, errorCode: "001" };
    const first = await recordDeliveryReports(deps, { channelId: a, reports: [report] }, { firstRun: true });
    expect(first).toEqual({ recorded: 0, unmatched: [report] });
    const fresh = await sentOn(a, id);
    expect((await recordDeliveryReports(deps, { channelId: a, reports: first.unmatched })).recorded).toBe(1);
    const rows = await prisma.recipient.findMany({ where: { id: { in: [old.id, fresh.id] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.receiveResult)).toEqual([ReceiveResult.RECEIVED, ReceiveResult.RECEIVE_FAILED]);
    // A true duplicate on a later run is dropped quietly (matched, nothing changed).
    expect(await recordDeliveryReports(deps, { channelId: a, reports: [report] })).toEqual({
      recorded: 0,
      unmatched: [],
    });
  });
});

describe("receipts after the SMSC's ids started again (id-restarts.ts)", () => {
  // A port of its own: the restart marked here belongs to this account only.
  const port = 30_000 + Math.floor(Math.random() * 20_000);

  it("an old message still awaiting its receipt never takes the receipt of a newer message with its id", async () => {
    const a = await createSmppChannel(prisma, { port });
    const id = `restart-${port}-7`;
    const otherId = `restart-${port}-8`;
    const old = await sentOn(a, id);
    const alsoOld = await sentOn(a, otherId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // An adapter saw the SMSC's ids start again; its new message "7" is sent, its outcome not written yet.
    const channel = await prisma.channel.findUniqueOrThrow({ where: { id: a } });
    await deps.idRestarts.mark(receiptAccount(a, channel.kind, channel.config));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const report = {
      providerMessageId: id,
      status: "undelivered" as const,
      errorCode: "001",
      arrivedAt: new Date().toISOString(),
    };
    for (const firstRun of [true, false]) {
      expect(await recordDeliveryReports(deps, { channelId: a, reports: [report] }, { firstRun })).toEqual({
        recorded: 0,
        unmatched: [report],
      });
    }
    const fresh = await sentOn(a, id);
    expect((await recordDeliveryReports(deps, { channelId: a, reports: [report] })).recorded).toBe(1);
    // The old message's own receipt, which arrived before the restart (its job ran late), is still its own.
    const before = { providerMessageId: id, status: "delivered" as const, arrivedAt: old.sentAt!.toISOString() };
    expect((await recordDeliveryReports(deps, { channelId: a, reports: [before] })).recorded).toBe(1);
    const rows = await prisma.recipient.findMany({ where: { id: { in: [old.id, fresh.id] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.receiveResult)).toEqual([ReceiveResult.RECEIVED, ReceiveResult.RECEIVE_FAILED]);
    // A receipt after the restart for a message from before it (an SMSC that kept it): matched on the job's last
    // run, never lost to the rule.
    const late = { providerMessageId: otherId, status: "delivered" as const, arrivedAt: new Date().toISOString() };
    expect((await recordDeliveryReports(deps, { channelId: a, reports: [late] })).recorded).toBe(0);
    expect((await recordDeliveryReports(deps, { channelId: a, reports: [late] }, { lastRun: true })).recorded).toBe(1);
    expect((await prisma.recipient.findUniqueOrThrow({ where: { id: alsoOld.id } })).receiveResult).toBe(
      ReceiveResult.RECEIVED,
    );
  });
});

describe("the SMSC account's highest message id (id-restarts.ts)", () => {
  const account = () => `smpp:127.0.0.1:${30_000 + Math.floor(Math.random() * 20_000)}:highest`;

  it("keeps the highest id written, and after a restart its new id; a write observed before it is ignored", async () => {
    const ids = deps.idRestarts.of(account());
    const t = Date.now(); // the adapters' clocks
    expect(await ids.highest()).toBeUndefined();
    await ids.note(9_000n, t + 1_000);
    await ids.note(8_000n, t + 1_500); // another adapter, behind this one: never lowers it
    expect(await ids.highest()).toBe(9_000n);
    // 64-bit ids, beyond a double's precision, compare exactly
    await ids.note(18_446_744_073_709_551_000n, t + 2_000);
    await ids.note(18_446_744_073_709_550_999n, t + 2_100);
    expect(await ids.highest()).toBe(18_446_744_073_709_551_000n);
    // The SMSC restarted at t + 3,000: its first id becomes the highest, and a write of the old highest that an
    // adapter observed before the restart (in flight, or written at its unbind) does not bring it back.
    await ids.restarted(5n, t + 3_000);
    await ids.note(18_446_744_073_709_551_001n, t + 2_900);
    expect(await ids.highest()).toBe(5n);
    // Another process's rebind sees the same restart (within the minute): the time stays, the highest only grows.
    await ids.note(40n, t + 3_100);
    await ids.restarted(2n, t + 4_000);
    expect(await ids.highest()).toBe(40n);
    await ids.note(41n, t + 3_050); // observed after the restart: counts
    expect(await ids.highest()).toBe(41n);
  });
});

describe("SMPP binds held per SMSC account (smpp-binds.ts)", () => {
  it("says whether another process holds a bind of the account, not counting this process's own", async () => {
    const account = `smpp:127.0.0.1:${30_000 + Math.floor(Math.random() * 20_000)}:binds`;
    const here = new SmppBinds(deps.redis, deps.redisPrefix, pino({ level: "silent" }));
    const there = new SmppBinds(deps.redis, deps.redisPrefix, pino({ level: "silent" }));
    try {
      const mine = here.of(account);
      mine.up();
      await deps.redis.ping(); // the write went out before: same connection, in order
      expect(await here.heldElsewhere(account)).toBe(false);
      expect(await there.heldElsewhere(account)).toBe(true);
      mine.down();
      await deps.redis.ping();
      expect(await there.heldElsewhere(account)).toBe(false);
    } finally {
      here.close();
      there.close();
    }
  });
});

describe("delivery-report", () => {
  it("gives each receipt its own message when an SMSC counts 1, 2, 3... (decimal 16 is also hex 10)", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2), {
      status: BatchStatus.SENDING,
    });
    const [r10, r16] = await recipientsOf(batchId);
    await recordSendOutcomes(prisma, BigInt(batchId), [
      { recipientId: r10!.id, result: SendResult.SUCCESS, providerMessageId: "10", errorCode: null },
      { recipientId: r16!.id, result: SendResult.SUCCESS, providerMessageId: "16", errorCode: null },
    ]);
    const reports = [
      { providerMessageId: "10", status: "undelivered" as const, errorCode: "001" },
      { providerMessageId: "16", status: "delivered" as const },
    ];
    for (const firstRun of [true, false]) {
      const outcome = await recordDeliveryReports(deps, { channelId, reports }, { firstRun });
      expect(outcome.unmatched).toEqual([]);
    }
    const rows = await recipientsOf(batchId);
    expect(rows.map((r) => [r.providerMessageId, r.receiveResult])).toEqual([
      ["10", ReceiveResult.RECEIVE_FAILED],
      ["16", ReceiveResult.RECEIVED],
    ]);
  });

  it("returns receipts that overtook their submit outcome, records them once it is written, and counts each once", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(3), {
      status: BatchStatus.SENDING,
    });
    const [r1, r2, r3] = await recipientsOf(batchId);
    // The SMSC's receipt quotes the id in hex ("10000000" = 268435456) where submit_sm_resp gave decimal.
    const reports = [
      { providerMessageId: "10000000", status: "delivered" as const },
      { providerMessageId: "268435457", status: "undelivered" as const, errorCode: "001" },
      { providerMessageId: "268435458", status: "delivered" as const },
    ];
    const early = await recordDeliveryReports(deps, { channelId, reports });
    expect(early).toEqual({ recorded: 0, unmatched: reports });

    await recordSendOutcomes(prisma, BigInt(batchId), [
      { recipientId: r1!.id, result: SendResult.SUCCESS, providerMessageId: "268435456", errorCode: null },
      { recipientId: r2!.id, result: SendResult.SUCCESS, providerMessageId: "268435457", errorCode: null },
    ]);
    const later = await recordDeliveryReports(deps, { channelId, reports: early.unmatched });
    expect(later.recorded).toBe(2);
    expect(later.unmatched.map((r) => r.providerMessageId)).toEqual(["268435458"]);
    // The same receipts again (an SMSC redelivering after a reconnect): nothing counted twice. The exact id
    // matches its (already receipted) message; the other spelling may only claim a message still waiting for
    // its receipt, so it comes back unmatched (and is dropped after the re-runs).
    expect(await recordDeliveryReports(deps, { channelId, reports: reports.slice(0, 2) })).toEqual({
      recorded: 0,
      unmatched: [reports[0]],
    });
    // A receipt for another channel's message of the same id is not ours.
    expect((await recordDeliveryReports(deps, { channelId: channelId + 1_000_000, reports })).recorded).toBe(0);

    const rows = await recipientsOf(batchId);
    expect(rows.map((r) => [r.receiveResult, r.errorCode])).toEqual([
      [ReceiveResult.RECEIVED, null],
      [ReceiveResult.RECEIVE_FAILED, "001"],
      [ReceiveResult.UNKNOWN, null],
    ]);
    expect(rows[0]!.receivedAt).not.toBeNull();
    expect(r3!.receiveResult).toBe(ReceiveResult.UNKNOWN);
    expect(await batch(batchId)).toMatchObject({ deliveredCount: 1, undeliveredCount: 1 });
  });
});

describe("batches' rows are locked in id order by every statement that moves several batches' counters", () => {
  // The settlement of a group of single sends locks its batches in id order (settleSingles); a receipt or outcome
  // statement naming the same batches must take them in the same order, or each holds what the other waits for
  // (PostgreSQL then aborts one: seen under load, a receipt write against a group's settlement). Here a
  // transaction plays the settlement: it holds the lowest batch, waits until the statement is blocked, then takes
  // the others in id order. The statement names them highest first; it must wait for the lowest before taking any.
  /** The batches written again highest first, then the settlement played against the statement. */
  async function againstSettlementInOrder(marker: string, statement: () => Promise<unknown>, batchIds: bigint[]) {
    // Each batch written again, highest first: a newer row version, so that a scan in physical order (the table's
    // order after any update) meets them highest first too.
    for (const id of [...batchIds].sort((x, y) => (x < y ? 1 : -1)))
      await prisma.$executeRaw`UPDATE message_batches SET "updatedAt" = now() WHERE id = ${id}`;
    expect(await againstSettlement(prisma, batchIds, marker, statement)).toEqual({ outcome: "done", blocked: true });
  }

  const MANY = 12;

  it("a receipt statement", async () => {
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const sent: Array<Awaited<ReturnType<typeof sentOn>>> = [];
    for (let i = 0; i < MANY; i++) sent.push(await sentOn(channelId, `lock-order-${channelId}-${i}`));
    await againstSettlementInOrder(
      "AS v(message_id, idx, exact)",
      () =>
        recordDeliveryReports(deps, {
          channelId,
          reports: sent.map((_, i) => ({
            providerMessageId: `lock-order-${channelId}-${MANY - 1 - i}`,
            status: "delivered",
          })),
        }),
      sent.map((r) => r.batchId),
    );
    for (const r of sent) expect((await batch(r.batchId.toString())).deliveredCount).toBe(1);
  });

  it("an outcome statement of a group of single sends", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: 1 });
    const batchOf = new Map<bigint, bigint>();
    for (let i = 0; i < MANY; i++) {
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1), {
        status: BatchStatus.SENDING,
      });
      const [r] = await recipientsOf(batchId);
      batchOf.set(r!.id, BigInt(batchId));
    }
    const recipients = [...batchOf.keys()].reverse();
    await againstSettlementInOrder(
      "AS o(id, batch_id, result",
      () =>
        recordSendOutcomes(
          prisma,
          batchOf,
          recipients.map((id) => ({
            recipientId: id,
            result: SendResult.SUCCESS,
            providerMessageId: `lo-${id}`,
            errorCode: null,
          })),
        ),
      [...batchOf.values()],
    );
    for (const id of batchOf.values()) expect((await batch(id.toString())).sentCount).toBe(1);
  });
});
