// dispatch-singles (issue 20): a group of single sends, as the API's lane writes them (one batch per number, its
// recipient within the batch's id bounds, charged), started, sent and settled together over the real SMPP adapter
// and the project's SMSC simulator. Whatever is out of the ordinary goes the usual path (dispatch-batch and its
// chunk), and no message ever reaches the SMSC twice: a group run again, a batch stopped before its group ran, a
// job of another life of the database, an SMSC throttling, a chunk whose lease another process holds.
import type { SimulatorSubmit, SmscSimulator } from "@switchboard/channels/simulators";
import {
  BatchStatus,
  type DispatchSinglesJob,
  ReceiveResult,
  SendResult,
  sendOutcomesWritten,
} from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchSingles } from "../src/jobs/dispatch-singles";
import { settleSingles } from "../src/jobs/finish-batch";
import { chunkName } from "../src/lib/job-queues";
import { recordSendOutcomes } from "../src/lib/send-outcomes";
import {
  type Customer,
  callbackReceiver,
  createCustomer,
  createSingles,
  createSmppChannel,
  expectMoneyExact,
  type Harness,
  phoneNumbers,
  recordingSmsc,
  startHarness,
  testPrisma,
  uniqueName,
  waitFor,
  waitSettled,
} from "./helpers";

let prisma: PrismaClient;
let harness: Harness;
const simulators: SmscSimulator[] = [];

beforeAll(async () => {
  prisma = testPrisma();
  harness = await startHarness();
});
afterAll(async () => {
  await harness?.stop();
  await Promise.all(simulators.map((s) => s.close()));
  await prisma?.$disconnect();
});

async function simulator(options: Parameters<typeof recordingSmsc>[1] = {}, channel: { throughput?: number } = {}) {
  const { sim, submits } = await recordingSmsc(simulators, options);
  const channelId = await createSmppChannel(prisma, { port: sim.port, ...channel });
  return { sim, submits, channelId };
}

const singles = (customer: Customer, channelId: number, phones: readonly string[]) =>
  createSingles(prisma, customer, channelId, phones);

const job = (batches: ReadonlyArray<DispatchSinglesJob["batches"][number]>): DispatchSinglesJob => ({
  batches: batches.map(({ batchId, createdAt, recipientId }) => ({ batchId, createdAt, recipientId })),
});

/** Destinations the SMSC accepted, each as often as it did. */
function accepted(submits: readonly SimulatorSubmit[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const s of submits) {
    if (s.status === 0) seen.set(digits(s.destination), (seen.get(digits(s.destination)) ?? 0) + 1);
  }
  return seen;
}

const digits = (phone: string) => phone.replace(/^\+/, "");

describe("dispatch-singles: a group of single sends", () => {
  it("sends each once, settles each with its receipt (22, or 24 refunded), in one group", async () => {
    const { submits, channelId } = await simulator({ receiptDelayMs: 0 });
    const customer = await createCustomer(prisma);
    // every fourth number ends in 0000: the simulator refuses it for good (ESME_RINVDSTADR)
    const group = await singles(customer, channelId, phoneNumbers(24, { every: 4, ending: "0000" }));

    await dispatchSingles(harness.deps, job(group));

    const sent = accepted(submits);
    const refused = submits.filter((s) => s.status !== 0).length;
    expect(refused).toBe(6);
    expect(sent.size + refused).toBe(group.length);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    for (const g of group) {
      // settled by the group itself: final already when the job returns
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(g.batchId) } });
      const r = await prisma.recipient.findFirstOrThrow({ where: { batchId: BigInt(g.batchId) } });
      if (sent.has(digits(g.phone))) {
        expect(b.status).toBe(BatchStatus.SEND_FINISHED);
        expect(r.sendResult).toBe(SendResult.SUCCESS);
        expect(r.providerMessageId).not.toBeNull();
      } else {
        expect(b.status).toBe(BatchStatus.SEND_FAILED);
        expect(r.sendResult).toBe(SendResult.FAILURE);
        expect(b.refunded).toBe(b.cost);
      }
      expect(b.finishedAt).not.toBeNull();
      await expectMoneyExact(prisma, customer, g.batchId);
    }
    // Receipts come back through the usual receipt path and land on the sent ones.
    await waitFor("every receipt", async () => {
      const n = await prisma.recipient.count({
        where: {
          batchId: { in: group.map((g) => BigInt(g.batchId)) },
          sendResult: SendResult.SUCCESS,
          receiveResult: { not: ReceiveResult.UNKNOWN },
        },
      });
      return n === sent.size ? n : undefined;
    });
    expect((await verifyLedger(prisma, customer.id)).ok).toBe(true);
  });

  it("names each batch to mode 1's waiters once it is final: a sent one by its outcome's write, a failure once refunded", async () => {
    const { channelId } = await simulator({ receiptDelayMs: 0 });
    const customer = await createCustomer(prisma);
    const group = await singles(customer, channelId, phoneNumbers(12, { every: 3, ending: "0000" }));
    // What a waiting request reads when its batch is named: the row, read the moment the name is published.
    const seen: Array<Promise<Array<{ id: bigint; status: number }>>> = [];
    const channel = sendOutcomesWritten(harness.deps.redisPrefix);
    const redis = new Proxy(harness.deps.redis, {
      get(target, prop) {
        if (prop === "publish") {
          return (to: string, ids: string) => {
            if (to === channel) {
              const named = ids.split(",").map(BigInt);
              // then(): a Prisma query runs only once something waits for it, and it must run now.
              seen.push(
                prisma.messageBatch
                  .findMany({ where: { id: { in: named } }, select: { id: true, status: true } })
                  .then((rows) => rows),
              );
            }
            return target.publish(to, ids);
          };
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    await dispatchSingles({ ...harness.deps, redis }, job(group));
    const read = (await Promise.all(seen)).flat();
    expect(read.map((r) => r.id.toString()).sort()).toEqual(group.map((g) => g.batchId).sort());
    expect(new Set(read.map((r) => r.status))).toEqual(new Set([BatchStatus.SEND_FINISHED, BatchStatus.SEND_FAILED]));
  });

  it("run again (a crash after the first run), sends nothing twice; a stopped batch and another life's are not sent", async () => {
    const { submits, channelId } = await simulator();
    const customer = await createCustomer(prisma);
    const group = await singles(customer, channelId, phoneNumbers(6));
    const [stopped, stale] = group.slice(4);
    // Terminated before its group ran, and an entry naming the batch with another creation time.
    await prisma.messageBatch.update({
      where: { id: BigInt(stopped!.batchId) },
      data: { status: BatchStatus.SEND_TERMINATED },
    });
    const staleEntry = { ...stale!, createdAt: new Date(Date.parse(stale!.createdAt) - 60_000).toISOString() };

    const first = job([...group.slice(0, 5), staleEntry]);
    await dispatchSingles(harness.deps, first);
    await dispatchSingles(harness.deps, first);

    const sent = accepted(submits);
    expect(sent.size).toBe(4);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    expect(sent.has(digits(stopped!.phone))).toBe(false);
    expect(sent.has(digits(stale!.phone))).toBe(false);
    // The batch the stale entry named is untouched: still waiting in 20 for its own dispatch.
    const untouched = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(stale!.batchId) } });
    expect(untouched.status).toBe(BatchStatus.PENDING_SEND);
    for (const g of group.slice(0, 4)) {
      expect((await waitSettled(prisma, g.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
    }
  });

  it("an SMSC throttling the group: what it refuses for now goes the usual path and is sent once", async () => {
    const { submits, channelId } = await simulator({ throttle: 5 });
    const customer = await createCustomer(prisma);
    const group = await singles(customer, channelId, phoneNumbers(12));

    await dispatchSingles(harness.deps, job(group));
    for (const g of group) {
      expect((await waitSettled(prisma, g.batchId, 90_000)).status).toBe(BatchStatus.SEND_FINISHED);
      await expectMoneyExact(prisma, customer, g.batchId);
    }
    const sent = accepted(submits);
    expect(sent.size).toBe(group.length);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
    expect(submits.some((s) => s.status !== 0)).toBe(true);
  });

  it("a batch whose chunk another process holds is left to it, and sent once when it lets go", async () => {
    const { submits, channelId } = await simulator();
    const customer = await createCustomer(prisma);
    const group = await singles(customer, channelId, phoneNumbers(3));
    const held = group[1]!;
    const lease = await harness.deps.leases.acquire(
      held.batchId,
      chunkName({ batchId: held.batchId, channelId, fromId: held.recipientId, toId: held.recipientId }),
    );
    expect(lease).not.toBeNull();

    await dispatchSingles(harness.deps, job(group));
    expect(accepted(submits).has(digits(held.phone))).toBe(false);
    expect(accepted(submits).size).toBe(2);

    await lease!.release();
    expect((await waitSettled(prisma, held.batchId, 60_000)).status).toBe(BatchStatus.SEND_FINISHED);
    const sent = accepted(submits);
    expect(sent.size).toBe(3);
    expect([...sent.values()].every((n) => n === 1)).toBe(true);
  });
  it("a batch stopped while its group waits for a slow channel's tokens is not sent, and is settled as stopped", async () => {
    const { submits, channelId } = await simulator({}, { throughput: 2 });
    const customer = await createCustomer(prisma);
    const group = await singles(customer, channelId, phoneNumbers(6));
    const stopped = group[4]!;

    const running = dispatchSingles(harness.deps, job(group));
    // Two messages a second: the group waits about two seconds for its tokens; an admin terminates one meanwhile.
    await new Promise((r) => setTimeout(r, 400));
    await prisma.messageBatch.update({
      where: { id: BigInt(stopped.batchId) },
      data: { status: BatchStatus.SEND_TERMINATED },
    });
    await running;

    const sent = accepted(submits);
    expect(sent.has(digits(stopped.phone))).toBe(false);
    expect(sent.size).toBe(5);
    const b = await waitSettled(prisma, stopped.batchId);
    expect(b.status).toBe(BatchStatus.SEND_TERMINATED);
    expect(b.refunded).toBe(b.cost);
    await expectMoneyExact(prisma, customer, stopped.batchId);
  });
  it("tells a customer with a notify URL of each send as the usual path does: sending, finished or failed, batch_finished", async () => {
    const receiver = await callbackReceiver();
    try {
      const { channelId } = await simulator();
      const customer = await createCustomer(prisma, {
        notifyUrl: receiver.url,
        secretKeyHash: secretKeyHash(`sk_${uniqueName("test")}`),
      });
      // the second number ends in 0000: refused for good, its batch fails (24)
      const group = await singles(customer, channelId, phoneNumbers(2, { every: 2, ending: "0000" }));
      await dispatchSingles(harness.deps, job(group));

      const [ok, failed] = group.map((g) => g.batchId) as [string, string];
      const expected = [
        `${ok} batch_status sending`,
        `${ok} batch_status finished`,
        `${ok} batch_finished 22`,
        `${failed} batch_status sending`,
        `${failed} batch_status failed`,
        `${failed} batch_finished 24`,
      ];
      const told = await waitFor("every callback", async () => {
        const got = receiver.requests
          .filter((r) => r.answered === 200)
          .map((r) => {
            const d = r.body.data as { batchId: string; change?: string; status: number };
            return `${d.batchId} ${r.event} ${r.event === "batch_status" ? d.change : d.status}`;
          });
        return expected.every((e) => got.includes(e)) ? got : undefined;
      });
      // each once
      expect(told.filter((t) => expected.includes(t)).sort()).toEqual([...expected].sort());
      expect(receiver.invalid).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("a sent single is settled by its outcome's own statement; a failure, a stopped batch and a chunk's batch are not", async () => {
    const { channelId } = await simulator();
    const customer = await createCustomer(prisma);
    const [sentOne, failedOne, stoppedOne] = await singles(customer, channelId, phoneNumbers(3));
    const chunkBatch = await singles(customer, channelId, phoneNumbers(1));
    const ids = [sentOne, failedOne, stoppedOne, chunkBatch[0]].map((g) => BigInt(g!.batchId));
    await prisma.messageBatch.updateMany({ where: { id: { in: ids } }, data: { status: BatchStatus.SENDING } });
    await prisma.messageBatch.update({ where: { id: ids[2]! }, data: { status: BatchStatus.SEND_TERMINATED } });
    // A batch whose id bounds leave room for more than its one recipient: the usual path's, settled by its finish.
    await prisma.messageBatch.update({
      where: { id: ids[3]! },
      data: { recipientIdTo: BigInt(chunkBatch[0]!.recipientId) + 5n },
    });
    const row = (g: typeof sentOne, ok: boolean) => ({
      recipientId: BigInt(g!.recipientId),
      result: ok ? SendResult.SUCCESS : SendResult.FAILURE,
      providerMessageId: ok ? `m-${g!.recipientId}` : null,
      errorCode: ok ? null : "ESME_RINVDSTADR",
    });
    const rows = [row(sentOne, true), row(failedOne, false), row(stoppedOne, true), row(chunkBatch[0], true)];
    const batchOf = new Map(rows.map((r, i) => [r.recipientId, ids[i]!]));

    const write = await recordSendOutcomes(prisma, batchOf, rows, { settleSent: true });
    expect(write.sent).toBe(4);
    expect(write.settled.map((s) => s.batchId)).toEqual([ids[0]]);
    expect(write.settled[0]).toMatchObject({ status: BatchStatus.SEND_FINISHED, firstTime: true, userId: customer.id });
    const status = async () =>
      (await prisma.messageBatch.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } })).map((b) => [
        b.status,
        b.sentCount,
        b.finishedAt !== null,
      ]);
    expect(await status()).toEqual([
      [BatchStatus.SEND_FINISHED, 1, true],
      [BatchStatus.SENDING, 1, false],
      [BatchStatus.SEND_TERMINATED, 1, false],
      [BatchStatus.SENDING, 1, false],
    ]);
    await expectMoneyExact(prisma, customer, sentOne!.batchId);
    // The same write again (a retry after a lost answer) changes and settles nothing.
    expect(await recordSendOutcomes(prisma, batchOf, rows, { settleSent: true })).toMatchObject({
      sent: 0,
      settled: [],
    });
    // The failure is settleSingles' (24, refunded through the ledger), as before.
    expect((await settleSingles(harness.deps, [ids[1]!])).map((s) => [s.batchId, s.status])).toEqual([
      [ids[1], BatchStatus.SEND_FAILED],
    ]);
    await expectMoneyExact(prisma, customer, failedOne!.batchId);
    expect((await verifyLedger(prisma, customer.id)).ok).toBe(true);
  });
});
