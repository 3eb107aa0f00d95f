// The scheduler's repeatable tick. It looks at every batch of the database, so it runs on a database of its own
// (migrated and demo-seeded here): on the run's shared one it would start other tests' batches.

import { existsSync } from "node:fs";
import { mkdir, rm, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { BalanceLogType, BatchStatus, batchJobId, batchJobKey, QUEUE, SendResult } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import type { LocalFileStorage } from "@switchboard/domain/storage";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../../apps/api/src/app";
import { multipart } from "../../apps/api/test/accounts";
import { signIn } from "../../apps/api/test/helpers";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import { sweepUploads } from "../src/jobs/upload-sweep";
import { chunkJobId } from "../src/lib/job-queues";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  startHarness,
  testConfig,
  waitFor,
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

  it("sends a new batch whose id an earlier life of the database used while Redis kept that life's jobs", async () => {
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    // Under review (10): the tick leaves it alone while the old life's jobs are put in place.
    const reused = await createPendingBatch(prisma, customer, channelId, phoneNumbers(20), {
      status: BatchStatus.UNDER_REVIEW,
    });
    const rows = await prisma.recipient.findMany({
      where: { batchId: BigInt(reused.batchId) },
      orderBy: { id: "asc" },
    });
    // What a batch with the same id left in Redis before the database was recreated: a dispatch job due in an
    // hour, a finish job, and a chunk job over the same ids, all named by that batch's key.
    const oldKey = batchJobKey(reused.batchId, new Date("2026-01-01T00:00:00Z"));
    const { queues } = harness.deps;
    const staleDispatch = await queues
      .queue(QUEUE.dispatchBatch)
      .add(
        QUEUE.dispatchBatch,
        { batchId: reused.batchId },
        { jobId: batchJobId(QUEUE.dispatchBatch, oldKey), delay: 3_600_000 },
      );
    const chunk = {
      batchId: reused.batchId,
      channelId,
      fromId: rows[0]!.id.toString(),
      toId: rows.at(-1)!.id.toString(),
    };
    await queues.queue(QUEUE.dispatchChunk).add(QUEUE.dispatchChunk, chunk, { jobId: chunkJobId(chunk, oldKey) });
    const submitsBefore = sim.stats().submitReceived;

    await prisma.messageBatch.update({
      where: { id: BigInt(reused.batchId) },
      data: { status: BatchStatus.PENDING_SEND },
    });
    const done = await waitSettled(prisma, reused.batchId);
    expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 20, failedCount: 0 });
    // The old life's dispatch job is still waiting for its hour; run it now: it is dropped, nothing sent again.
    expect(await staleDispatch.getState()).toBe("delayed");
    await staleDispatch.promote();
    await waitFor("the old dispatch job to be dropped", async () =>
      (await queues.queue(QUEUE.dispatchBatch).getJob(staleDispatch.id as string)) ? undefined : true,
    );
    expect(sim.stats().submitReceived - submitsBefore).toBe(20);
    expect((await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(reused.batchId) } })).successCount).toBe(
      20,
    );
  });

  it("Redis losing its data: the scheduler comes back by itself and a batch whose chunk jobs were lost resumes", {
    timeout: 60_000,
  }, async () => {
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    // Sending, its chunk jobs lost with Redis's data, its last progress 15 s ago: longer than the recovery rule
    // (10 s), far shorter than the usual stall rule (60 s).
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(40), {
      status: BatchStatus.SENDING,
    });
    await prisma.$executeRaw`UPDATE message_batches SET "updatedAt" = now() - interval '15 seconds' WHERE id = ${BigInt(batchId)}`;
    // What a Redis restart without persistence does: every key of this deployment's prefix is gone (queued and
    // running jobs, the scheduler's repeatable job, chunk leases).
    const { redis, redisPrefix, queues } = harness.deps;
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${redisPrefix}*`, "COUNT", 1_000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
    expect(await queues.queue(QUEUE.schedule).getJobScheduler("schedule-tick")).toBeUndefined();

    await waitFor("the scheduler created again", async () =>
      (await queues.queue(QUEUE.schedule).getJobScheduler("schedule-tick")) ? true : undefined,
    );
    const done = await waitSettled(prisma, batchId, 20_000);
    expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 40 });
  });

  it("removes batch uploads no batch names once untouched for an hour, and only those", async () => {
    const dir = path.join((harness.deps.storage as LocalFileStorage).root, "batches", "999999");
    await mkdir(dir, { recursive: true });
    const orphan = path.join(dir, "orphan.upload");
    const named = path.join(dir, "named.upload");
    const fresh = path.join(dir, "fresh.upload");
    for (const f of [orphan, named, fresh]) await writeFile(f, "+12025550123\n");
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(orphan, hoursAgo, hoursAgo);
    await utimes(named, hoursAgo, hoursAgo);
    const customer = await createCustomer(prisma);
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1), {
      status: BatchStatus.UNDER_REVIEW,
    });
    await prisma.messageBatch.update({
      where: { id: BigInt(batchId) },
      data: { filePath: "batches/999999/named.upload", submitMode: 3, updatedAt: new Date() },
    });
    try {
      expect(await sweepUploads(harness.deps, Date.now(), true)).toBe(1);
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(named)).toBe(true);
      expect(existsSync(fresh)).toBe(true);
    } finally {
      await prisma.messageBatch.update({ where: { id: BigInt(batchId) }, data: { filePath: null, status: 13 } });
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads a file batch whose ingest job was never queued (the API died in between)", async () => {
    // The API on this database but another Redis prefix: its ingest job lands where no worker looks, as if the
    // process had died between committing the batch and queueing the job.
    const redis = new Redis(inject("redisUrl"));
    const api = await buildApp({ config: { ...testConfig(db.url), LOG_LEVEL: "silent" }, prisma, redis });
    try {
      for (const c of await prisma.channel.findMany({ where: { kind: "smpp" } })) {
        await prisma.channel.update({
          where: { id: c.id },
          data: { config: { ...(c.config as Record<string, unknown>), port: sim.port } },
        });
      }
      const token = await signIn(api, "customer", "customer", "Customer123");
      const form = multipart(
        { productCode: "3000", taskType: "2", content: JSON.stringify({ product: 3000, text: "Your order shipped" }) },
        [{ name: "n.csv", data: Buffer.from("+12025550181\n+12025550182\n+12025550183\n"), field: "file" }],
        "file",
      );
      const res = await api.inject({
        method: "POST",
        url: "/batch/submit/file",
        headers: { authorization: `Bearer ${token}`, "content-type": form.contentType },
        payload: form.payload,
      });
      expect(res.json().code, res.body).toBe(0);
      const batchId = (res.json().data as { batch: { id: string } }).batch.id;
      // A minute later, still nobody reads it.
      await prisma.$executeRaw`UPDATE message_batches SET "updatedAt" = now() - interval '2 minutes' WHERE id = ${BigInt(batchId)}`;
      const done = await waitSettled(prisma, batchId);
      expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, validCount: 3, successCount: 3, filePath: null });
    } finally {
      await api.close();
      redis.disconnect();
    }
  });
});
