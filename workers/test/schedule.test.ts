// The scheduler's repeatable tick. It looks at every batch of the database, so it runs on a database of its own
// (migrated and demo-seeded here): on the run's shared one it would start other tests' batches.
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { BalanceLogType, BatchStatus, SendResult } from "@switchboard/contracts";
import { createPrisma, type PrismaClient, seed } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  startHarness,
  waitSettled,
} from "./helpers";

let db: ThrowawayDatabase;
let prisma: PrismaClient;
let harness: Harness;
let sim: Awaited<ReturnType<typeof startSmscSimulator>>;

beforeAll(async () => {
  db = await throwawayDatabase("sched");
  const url = db.url;
  prisma = createPrisma(url, { max: 3 });
  await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
  sim = await startSmscSimulator();
  harness = await startHarness({ databaseUrl: url, scheduler: true });
});
afterAll(async () => {
  await harness?.stop();
  await sim?.close();
  await prisma?.$disconnect();
  await db?.drop();
});

describe("schedule tick", () => {
  it("starts due batches on its own and leaves scheduled ones until their time", async () => {
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const due = await createPendingBatch(prisma, customer, channelId, phoneNumbers(50), {
      scheduledAt: new Date(Date.now() - 60_000),
    });
    const later = await createPendingBatch(prisma, customer, channelId, phoneNumbers(50), {
      scheduledAt: new Date(Date.now() + 3_600_000),
    });
    const now = await createPendingBatch(prisma, customer, channelId, phoneNumbers(50));
    // Nothing is enqueued by hand: the tick finds them.
    expect((await waitSettled(prisma, due.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
    expect((await waitSettled(prisma, now.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
    const waiting = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(later.batchId) } });
    expect(waiting).toMatchObject({ status: BatchStatus.PENDING_SEND, startedAt: null });

    await prisma.messageBatch.update({
      where: { id: BigInt(later.batchId) },
      data: { scheduledAt: new Date(Date.now() - 1_000) },
    });
    expect((await waitSettled(prisma, later.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
  });

  it("settles a sending batch whose last finish-batch was lost, and a stopped batch nobody settled", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    // 21 with every recipient already sent (one failed): only the finish is missing.
    const stuck = await createPendingBatch(prisma, customer, channelId, phoneNumbers(10), {
      status: BatchStatus.SENDING,
    });
    await prisma.recipient.updateMany({
      where: { batchId: BigInt(stuck.batchId) },
      data: { sendResult: SendResult.SUCCESS, providerMessageId: "x", sentAt: new Date() },
    });
    const one = await prisma.recipient.findFirstOrThrow({ where: { batchId: BigInt(stuck.batchId) } });
    await prisma.recipient.update({
      where: { id: one.id },
      data: { sendResult: SendResult.FAILURE, providerMessageId: null, errorCode: "ESME_RINVDSTADR" },
    });
    // 23 terminated by an admin whose finish-batch never ran.
    const stopped = await createPendingBatch(prisma, customer, channelId, phoneNumbers(10), {
      status: BatchStatus.SEND_TERMINATED,
    });

    const a = await waitSettled(prisma, stuck.batchId);
    expect(a).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 9, failedCount: 1 });
    expect(a.refunded).toBe(one.price);
    const b = await waitSettled(prisma, stopped.batchId);
    expect(b.status).toBe(BatchStatus.SEND_TERMINATED);
    expect(b.refunded).toBe(stopped.cost);
    const refunds = await prisma.balanceLog.findMany({
      where: { batchId: { in: [BigInt(stuck.batchId), BigInt(stopped.batchId)] }, type: BalanceLogType.REFUND },
    });
    expect(refunds.map((r) => r.amount).sort()).toEqual([one.price, stopped.cost].sort());
    // The repeatable job keeps running, and a settled batch is never refunded again.
    const later = await createPendingBatch(prisma, customer, channelId, phoneNumbers(5));
    expect((await waitSettled(prisma, later.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
    expect(
      await prisma.balanceLog.count({
        where: { batchId: { in: [BigInt(stuck.batchId), BigInt(stopped.batchId)] }, type: BalanceLogType.REFUND },
      }),
    ).toBe(2);
  });
});
