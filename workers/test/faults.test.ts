// Faults injected into a real dispatch (issue 17): PostgreSQL refusing connections mid-batch. On a database of
// its own (refusing connections there must not touch the run's shared database), with its own SMSC simulator
// that counts every submit_sm it accepted: nothing may reach it twice.
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { BatchStatus } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  expectMoneyExact,
  type Harness,
  phoneNumbers,
  startHarness,
  waitFor,
  waitSettled,
} from "./helpers";

/** How long the database is away (`FAULT_OUTAGE_MS=15000 npm run test:faults` for the review's experiment). */
const OUTAGE_MS = Number(process.env.FAULT_OUTAGE_MS ?? 3_000);

let db: ThrowawayDatabase;
let prisma: PrismaClient;
let harness: Harness;

beforeAll(async () => {
  db = await throwawayDatabase("faults");
  prisma = createPrisma(db.url, { max: 2 });
  await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
  harness = await startHarness({
    databaseUrl: db.url,
    // its own database: the scheduler's safety nets are part of what is tested
    scheduler: true,
    tuning: {
      // writes give up quickly while the database is away, and the chunk job outlives the outage
      outcomeWrites: { maxRows: 200, maxDelayMs: 50, attempts: 2 },
      statusCheckMs: 100,
      retries: {
        ingestBatch: { attempts: 3, backoffMs: 100 },
        dispatchBatch: { attempts: 10, backoffMs: 300 },
        dispatchChunk: { attempts: 10, backoffMs: 300 },
        deliveryReport: { attempts: 10, backoffMs: 300 },
        finishBatch: { attempts: 10, backoffMs: 300 },
        callback: { attempts: 3, backoffMs: 100 },
      },
    },
  });
});
afterAll(async () => {
  await harness?.stop();
  await prisma?.$disconnect();
  await db?.drop();
});

/** Makes the test database refuse every connection (and drops the open ones) for `ms`, as an outage would. */
async function databaseOutage(ms: number): Promise<void> {
  const name = new URL(db.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: inject("databaseUrl") });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
    await new Promise((r) => setTimeout(r, ms));
  } finally {
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
    await admin.end();
  }
}

describe("PostgreSQL away mid-dispatch", () => {
  it("sends nobody twice (outcomes the database could not take are kept and written back first), loses no receipt", {
    timeout: 240_000 + 2 * OUTAGE_MS,
  }, async () => {
    const accepted: string[] = [];
    const sim = await startSmscSimulator({ onSubmit: (s) => s.status === 0 && accepted.push(s.destination) });
    try {
      const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 2_000 });
      const customer = await createCustomer(prisma);
      const phones = phoneNumbers(4_000);
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
      await harness.deps.queues.dispatchBatches([batchId]);
      await waitFor("sending", async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.sentCount >= 500 ? b : undefined;
      });
      await databaseOutage(OUTAGE_MS);

      const done = await waitSettled(prisma, batchId, 60_000 + OUTAGE_MS);
      expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 4_000, failedCount: 0 });
      expect(accepted).toHaveLength(4_000);
      expect(new Set(accepted).size).toBe(4_000);
      // Charged once for every message sent, the ledger whole.
      await expectMoneyExact(prisma, customer, batchId);
      // Receipts that came in while the database was away are recorded once it is back, every one.
      await waitFor(
        "every receipt recorded",
        async () => {
          const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
          return b.deliveredCount + b.undeliveredCount === 4_000 ? b : undefined;
        },
        // receipts the outage pushed to their retries: up to 10 attempts, 300 ms doubling, on a busy machine
        120_000,
      );
    } finally {
      await sim.close();
    }
  });
});
