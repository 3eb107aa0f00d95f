// The singles list (lib/singles-queue.ts): the groups the API's lane pushes (bullBatchJobs.dispatchSingles) are
// popped and sent by the workers; an entry that is not a group is dropped without holding the others up; a group
// whose run fails is handed to the usual path (dispatch-batch) and still sent exactly once.
import type { SmscSimulator } from "@switchboard/channels/simulators";
import { BatchStatus, singlesListKey } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { bullBatchJobs } from "@switchboard/domain/batches/batch-jobs";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SinglesQueue } from "../src/lib/singles-queue";
import {
  createCustomer,
  createSingles,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  recordingSmsc,
  type SingleFixture,
  startHarness,
  testPrisma,
  waitFor,
  workerPrefix,
} from "./helpers";

let prisma: PrismaClient;
let harness: Harness;
let redis: Redis;
const simulators: SmscSimulator[] = [];

beforeAll(async () => {
  prisma = testPrisma();
  harness = await startHarness();
  redis = new Redis(inject("redisUrl"));
});
afterAll(async () => {
  await harness?.stop();
  await Promise.all(simulators.map((s) => s.close()));
  redis?.disconnect();
  await prisma?.$disconnect();
});

const handOver = (group: readonly SingleFixture[]) =>
  group.map((s) => ({ id: BigInt(s.batchId), createdAt: new Date(s.createdAt), recipientId: BigInt(s.recipientId) }));

async function finalStatuses(group: readonly SingleFixture[]) {
  const ids = group.map((s) => BigInt(s.batchId));
  return waitFor(
    "every batch of the group final",
    async () => {
      const rows = await prisma.messageBatch.findMany({ where: { id: { in: ids } }, select: { status: true } });
      return rows.every((r) => r.status === BatchStatus.SEND_FINISHED) ? rows.map((r) => r.status) : undefined;
    },
    30_000,
    50,
  );
}

describe("the singles list", () => {
  it("sends the groups pushed on it, and an entry that is no group holds nothing up", async () => {
    const { sim, submits } = await recordingSmsc(simulators);
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const group = await createSingles(prisma, customer, channelId, phoneNumbers(6));
    const key = singlesListKey(harness.deps.redisPrefix);
    await redis.lpush(key, "not a group", JSON.stringify({ batches: [] }));
    const jobs = bullBatchJobs(redis, harness.deps.redisPrefix, prisma);
    try {
      await jobs.dispatchSingles(handOver(group.slice(0, 3)));
      await jobs.dispatchSingles(handOver(group.slice(3)));
    } finally {
      await jobs.close();
    }
    expect(await finalStatuses(group)).toHaveLength(6);
    // each number reached the SMSC once, and the list is empty again
    const accepted = submits.filter((s) => s.status === 0).map((s) => s.destination);
    expect(accepted).toHaveLength(6);
    expect(new Set(accepted).size).toBe(6);
    expect(await redis.llen(key)).toBe(0);
  });

  it("hands a group whose run fails to the usual path, which sends each of its batches once", async () => {
    const { sim, submits } = await recordingSmsc(simulators);
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const group = await createSingles(prisma, customer, channelId, phoneNumbers(3));
    // A queue of its own list whose database is unreachable: the group's start fails. Its hand-back goes through
    // the harness's queues, whose workers send the batches as dispatch-batch jobs.
    const prefix = workerPrefix();
    const unreachable = createPrisma("postgresql://postgres@127.0.0.1:1/none", { max: 1 });
    const failing = new SinglesQueue({ ...harness.deps, prisma: unreachable, redisPrefix: prefix }, 1);
    failing.start();
    const jobs = bullBatchJobs(redis, prefix, prisma);
    try {
      await jobs.dispatchSingles(handOver(group));
      expect(await finalStatuses(group)).toHaveLength(3);
    } finally {
      await jobs.close();
      await failing.close();
      await unreachable.$disconnect().catch(() => undefined);
    }
    const accepted = submits.filter((s) => s.status === 0).map((s) => s.destination);
    expect(accepted).toHaveLength(3);
    expect(new Set(accepted).size).toBe(3);
    expect(await redis.llen(singlesListKey(prefix))).toBe(0);
  });
});
