// Faults injected into a real dispatch (issue 17): the workers process killed -9 mid-batch. A separate process
// (workers/src/main.ts, production tuning: outcomes written every 250 ms or 1,000 rows) sends a batch to an SMSC
// simulator that counts every submit_sm it accepted; it is killed while sending; another workers process (this
// one) takes over. Nothing may reach the SMSC twice: the outcomes the dead process had from the SMSC but had not
// written yet are in the outcome journal, which the next run of the chunk writes back before reading who is
// still unsent. The take-over comes within the job lock's and the chunk lease's lapse (about 20 s), not a minute.
// And no receipt the SMSC saw acknowledged is lost: the dead process answered deliver_sm only once the receipt was
// in its receipt journal, which this process takes over once the dead one's heartbeat is stale (30 s); every
// receipt the simulator counts as acknowledged ends recorded on its message (a message failed as lost_in_flight
// has no id to take its receipt: counted apart).
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { BatchStatus, SendResult } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { bullBatchJobs } from "@switchboard/domain/batches/batch-jobs";
import { verifyLedger } from "@switchboard/domain/ledger";
import { seed } from "@switchboard/domain/seed";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { testSecrets } from "../../apps/api/test/secrets";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import { closeWorkerDeps, createWorkerDeps, DEFAULT_TUNING } from "../src/lib/deps";
import {
  createCustomer,
  createPendingBatch,
  createSingles,
  createSmppChannel,
  expectMoneyExact,
  type Harness,
  phoneNumbers,
  startHarness,
  testConfig,
  waitFor,
  waitSettled,
  workerPrefix,
} from "./helpers";

const root = path.resolve(import.meta.dirname, "../..");
const RECIPIENTS = 4_000;
const SINGLES = 600;

let db: ThrowawayDatabase;
let prisma: PrismaClient;
let child: ChildProcess | undefined;
let harness: Harness | undefined;

beforeAll(async () => {
  db = await throwawayDatabase("faults_kill");
  prisma = createPrisma(db.url, { max: 2 });
  await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await harness?.stop();
  await prisma?.$disconnect();
  await db?.drop();
});

/** The workers as production runs them, in a process of their own. */
function startWorkersProcess(prefix: string): ChildProcess {
  const proc = spawn(process.execPath, ["--import", "tsx", "workers/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      ...testSecrets(),
      NODE_ENV: "test",
      DATABASE_URL: db.url,
      REDIS_URL: inject("redisUrl"),
      REDIS_PREFIX: prefix,
      EGRESS_ALLOW: "127.0.0.1",
      LOG_LEVEL: "silent",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return proc;
}

describe("workers killed -9 mid-dispatch", () => {
  it("sends nobody twice and loses no acknowledged receipt: the next process writes back the journaled outcomes first, then sends the rest", {
    timeout: 300_000,
  }, async () => {
    const accepted: string[] = [];
    /** SMSC message id -> destination, and the ids whose receipt one of our processes acknowledged. */
    const destinationOf = new Map<string, string>();
    const acked = new Set<string>();
    const sim = await startSmscSimulator({
      onSubmit: (s) => {
        if (s.status !== 0) return;
        accepted.push(s.destination);
        if (s.messageId !== undefined) destinationOf.set(s.messageId, s.destination);
      },
      onReceiptAcked: (id) => acked.add(id),
    });
    const prefix = workerPrefix();
    try {
      // Slow enough to be caught mid-batch on a loaded machine, fast enough to keep outcomes unwritten in memory.
      const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 1_000 });
      const customer = await createCustomer(prisma);
      const phones = phoneNumbers(RECIPIENTS);
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);

      child = startWorkersProcess(prefix);
      // Queue the batch from here (queues only: no worker of this process runs yet).
      const producer = createWorkerDeps({ config: testConfig(db.url, prefix), logger: pino({ level: "silent" }) });
      try {
        await producer.queues.dispatchBatches([batchId]);
      } finally {
        await closeWorkerDeps(producer);
      }
      await waitFor("the other process sending", async () => (accepted.length >= 1_000 ? true : undefined), 60_000, 20);
      child.kill("SIGKILL");
      await new Promise((r) => child?.once("exit", r));
      const acceptedAtKill = accepted.length;
      const ackedAtKill = acked.size;
      const recordedAtKill = (await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } }))
        .sentCount;
      // Without the journal, these would be read as unsent and sent again.
      expect(acceptedAtKill).toBeGreaterThan(recordedAtKill);

      const killedAt = Date.now();
      // Bound to the channel (its receipts) and beating (it takes over the dead process's receipt journal).
      harness = await startHarness({
        databaseUrl: db.url,
        redisPrefix: prefix,
        scheduler: true,
        receiptListeners: { channelIds: [channelId] },
        // The product's patience for receipts whose outcome is still in the dead process's journal: the tests'
        // short one (6 s) measured the test's tuning, not the product, when the take-over ran late under load.
        tuning: { reportRetryDelaysMs: DEFAULT_TUNING.reportRetryDelaysMs },
      });
      // The take-over: the next submit after the kill.
      await waitFor("sending again", async () => (accepted.length > acceptedAtKill ? true : undefined), 60_000, 50);
      const resumedAfterMs = Date.now() - killedAt;

      const done = await waitSettled(prisma, batchId, 120_000);
      const lost = await prisma.recipient.count({ where: { batchId: BigInt(batchId), errorCode: "lost_in_flight" } });
      // Recorded, not asserted (no timed assertions in tests): docs/reliability.md has the figures.
      console.info(
        `killed at ${acceptedAtKill} accepted / ${recordedAtKill} recorded; resumed after ${resumedAfterMs} ms; ` +
          `${lost} lost in flight (failed, not resent), ${accepted.length - (RECIPIENTS - lost)} of them had reached the SMSC`,
      );
      // Nothing reached the SMSC twice.
      expect(new Set(accepted).size).toBe(accepted.length);
      // Every recipient is accounted for: sent once, or failed (and refunded) because its answer died with the
      // killed process; those are at most what that process had journaled as leaving (a group per chunk).
      expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: RECIPIENTS - lost });
      expect(done.failedCount).toBe(lost);
      // per chunk (4,000 recipients: 2 chunks of 2,000): its window (2 x 50 in flight) and two intent groups (16)
      expect(lost).toBeLessThanOrEqual(2 * (2 * 50 + 2 * 16));
      expect(accepted.length).toBeGreaterThanOrEqual(RECIPIENTS - lost);
      // The lost in flight refunded, every message sent charged once, the ledger whole.
      await expectMoneyExact(prisma, customer, batchId);

      // Every receipt acknowledged to the SMSC (by either process) is recorded on its message.
      const missingReceipts = async () => {
        const rows = await prisma.recipient.findMany({
          where: { batchId: BigInt(batchId) },
          select: { phone: true, providerMessageId: true, receiveResult: true, errorCode: true },
        });
        // the adapter sends E.164 without its "+"
        const byPhone = new Map(rows.map((r) => [r.phone.replace(/^\+/, ""), r]));
        let missing = 0;
        let noMessageId = 0;
        for (const id of acked) {
          const row = byPhone.get(destinationOf.get(id) ?? "");
          if (row?.errorCode === "lost_in_flight" && row.providerMessageId === null) noMessageId++;
          else if (row?.providerMessageId !== id || row.receiveResult === 0) missing++;
        }
        return { missing, noMessageId };
      };
      const receipts = await waitFor(
        "every acknowledged receipt recorded",
        async () => {
          const counts = await missingReceipts();
          return counts.missing === 0 && sim.stats().receiptsPending === 0 ? counts : undefined;
        },
        120_000,
        500,
      ).catch(async () => missingReceipts());
      console.info(
        `receipts: ${ackedAtKill} acknowledged by the killed process, ${acked.size} in all; ` +
          `${acked.size - receipts.noMessageId - receipts.missing} recorded, ${receipts.missing} lost, ` +
          `${receipts.noMessageId} for messages failed as lost_in_flight (no id recorded to match)`,
      );
      expect(receipts.missing).toBe(0);
      expect(acked.size).toBe(sim.stats().receiptsAcked);
    } finally {
      await sim.close();
    }
  });
  it("single sends in groups (dispatch-singles): sends nobody twice, and every one ends settled and charged exactly", {
    timeout: 300_000,
  }, async () => {
    // The first case's process is gone: its scheduler must not take this case's batches.
    await harness?.stop();
    harness = undefined;
    const accepted: string[] = [];
    const sim = await startSmscSimulator({
      onSubmit: (s) => {
        if (s.status === 0) accepted.push(s.destination);
      },
    });
    const prefix = workerPrefix();
    const redis = new Redis(inject("redisUrl"));
    try {
      // 200 messages a second: the groups are still going out when the process dies.
      const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 200 });
      const customer = await createCustomer(prisma);
      const singles = await createSingles(prisma, customer, channelId, phoneNumbers(SINGLES));
      child = startWorkersProcess(prefix);
      // As the API's lane hands them over: a group job per 20 sends.
      const jobs = bullBatchJobs(redis, prefix, prisma);
      for (let i = 0; i < singles.length; i += 20) {
        await jobs.dispatchSingles(
          singles.slice(i, i + 20).map((s) => ({
            id: BigInt(s.batchId),
            createdAt: new Date(s.createdAt),
            recipientId: BigInt(s.recipientId),
          })),
        );
      }
      await jobs.close();
      await waitFor("the other process sending", async () => (accepted.length >= 100 ? true : undefined), 60_000, 10);
      child.kill("SIGKILL");
      await new Promise((r) => child?.once("exit", r));
      const acceptedAtKill = accepted.length;

      harness = await startHarness({ databaseUrl: db.url, redisPrefix: prefix, scheduler: true });
      const ids = singles.map((s) => BigInt(s.batchId));
      await waitFor(
        "every single send settled",
        async () => {
          const open = await prisma.messageBatch.count({ where: { id: { in: ids }, finishedAt: null } });
          return open === 0 ? true : undefined;
        },
        180_000,
        200,
      );
      const lost = await prisma.recipient.count({ where: { batchId: { in: ids }, errorCode: "lost_in_flight" } });
      console.info(`singles: killed at ${acceptedAtKill} accepted; ${lost} lost in flight (failed, not resent)`);
      // Nothing reached the SMSC twice, and everyone not lost with the dead process reached it.
      expect(new Set(accepted).size).toBe(accepted.length);
      expect(accepted.length).toBeGreaterThanOrEqual(SINGLES - lost);
      const counts = await prisma.messageBatch.groupBy({ by: ["status"], where: { id: { in: ids } }, _count: true });
      expect(counts.every((c) => c.status === BatchStatus.SEND_FINISHED || c.status === BatchStatus.SEND_FAILED)).toBe(
        true,
      );
      // At most what the dead process had in flight: its groups running at once (16), each of one window.
      expect(lost).toBeLessThanOrEqual(16 * 20);
      // Each batch: charged its price when sent, refunded in full when not; the customer's ledger whole.
      const [wrong] = await prisma.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM message_batches b
        WHERE b.id = ANY(${ids.map(String)}::bigint[])
          AND b.cost - b.refunded <> (SELECT coalesce(sum(r.price), 0) FROM recipients r
                                     WHERE r."batchId" = b.id AND r."sendResult" = ${SendResult.SUCCESS})`;
      expect(wrong?.n).toBe(0);
      expect(await verifyLedger(prisma, customer.id)).toMatchObject({ ok: true, firstMismatch: null });
    } finally {
      redis.disconnect();
      await sim.close();
    }
  });
});
