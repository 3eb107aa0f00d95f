// End to end through the real SMPP adapter and the project's SMSC simulator: a batch in status 20 goes through
// dispatch-batch, dispatch-chunk, delivery-report and finish-batch to its final status, with every outcome and
// receipt recorded and the billing exact.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { encryptSecrets } from "@switchboard/channels";
import {
  type SimulatorSubmit,
  type SmscSimulator,
  startHlrSimulator,
  startSmscSimulator,
} from "@switchboard/channels/simulators";
import {
  BalanceLogType,
  BatchStatus,
  decodeBatchReason,
  encodeBatchReason,
  ReceiveResult,
  SendResult,
} from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TUNING, failSendingBatch } from "../src/index";
import { DEFAULT_OUTCOME_WRITES } from "../src/lib/send-outcomes";
import {
  callbackReceiver,
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  recipientSummary,
  recordingSmsc,
  startHarness,
  TEST_SECRET_KEY,
  TEST_TUNING,
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

/** A simulator of this test that records every submit_sm it answered. */
const simulator = (options: Parameters<typeof recordingSmsc>[1] = {}) => recordingSmsc(simulators, options);

/** Destinations the simulator accepted more than once (must be none). */
function acceptedTwice(submits: readonly SimulatorSubmit[]): string[] {
  const seen = new Set<string>();
  const twice: string[] = [];
  for (const s of submits) {
    if (s.status !== 0) continue;
    if (seen.has(s.destination)) twice.push(s.destination);
    seen.add(s.destination);
  }
  return twice;
}

/** The billing rules every settled batch obeys, and the customer's ledger replaying to its balance. */
async function expectExactBilling(batchId: string, userId: number, openingBalance: bigint) {
  const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
  const sums = await recipientSummary(prisma, batchId);
  expect(batch.cost - batch.refunded).toBe(sums.successPrice);
  expect(batch.refunded).toBe(sums.failedPrice);
  const logs = await prisma.balanceLog.findMany({ where: { batchId: BigInt(batchId) }, orderBy: { id: "asc" } });
  expect(logs.filter((l) => l.type === BalanceLogType.CONSUME).map((l) => l.amount)).toEqual([-batch.cost]);
  const refunds = logs.filter((l) => l.type === BalanceLogType.REFUND);
  expect(refunds.reduce((s, l) => s + l.amount, 0n)).toBe(batch.refunded);
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } });
  expect(user.balance).toBe(openingBalance - batch.cost + batch.refunded);
  expect((await verifyLedger(prisma, userId)).ok).toBe(true);
  return { batch, sums };
}

describe("dispatch end to end over SMPP", () => {
  it("sends a 5,000-recipient batch from 20 to 22 with every receipt recorded and exact billing", async () => {
    const { sim, submits } = await simulator();
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(5_000);
    const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phones);

    const started = performance.now();
    await harness.deps.queues.dispatchBatches([batchId]);
    const settled = await waitSettled(prisma, batchId, 120_000);
    const sentMs = performance.now() - started;
    const batch = await waitFor(
      "every receipt recorded",
      async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.deliveredCount + b.undeliveredCount === 5_000 ? b : undefined;
      },
      60_000,
    );
    const allMs = performance.now() - started;
    const span = settled.finishedAt!.getTime() - settled.startedAt!.getTime();
    console.info(
      `5,000 SMS: 20 -> 22 in ${Math.round(sentMs)} ms (${Math.round(5_000 / (sentMs / 1000))} msg/s; ` +
        `startedAt -> finishedAt ${span} ms), every receipt recorded after ${Math.round(allMs)} ms ` +
        `(${Math.round(5_000 / (allMs / 1000))} msg/s)`,
    );

    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(batch).toMatchObject({ sentCount: 5_000, successCount: 5_000, failedCount: 0, deliveredCount: 5_000 });
    expect(batch.undeliveredCount).toBe(0);
    expect(batch.refunded).toBe(0n);
    expect(batch.cost).toBe(cost);

    const recipients = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
    expect(recipients.every((r) => r.sendResult === SendResult.SUCCESS && r.sentAt !== null)).toBe(true);
    expect(recipients.every((r) => r.receiveResult === ReceiveResult.RECEIVED && r.receivedAt !== null)).toBe(true);
    expect(new Set(recipients.map((r) => r.providerMessageId)).size).toBe(5_000);

    // The simulator saw each number exactly once, as the SMS the batch holds.
    expect(sim.stats().submitAccepted).toBe(5_000);
    expect(submits.length).toBe(5_000);
    expect(acceptedTwice(submits)).toEqual([]);
    expect(new Set(submits.map((s) => `+${s.destination}`))).toEqual(new Set(phones));
    expect(submits.every((s) => s.source === "Switchboard" && s.text.startsWith("Your code is 1234"))).toBe(true);

    await expectExactBilling(batchId, customer.id, customer.openingBalance);
  }, 180_000);

  it("screens an SMS batch by the channel's HLR lookup: nothing reaches the SMSC, unknown answers refunded", async () => {
    const { sim, submits } = await simulator();
    const hlr = await startHlrSimulator({ token: "hlr-secret", unreachableShare: 0.2, unknownShare: 0.1 });
    try {
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const channel = await prisma.channel.findUniqueOrThrow({ where: { id: channelId } });
      await prisma.channel.update({
        where: { id: channelId },
        data: {
          config: { ...(channel.config as object), lookupUrl: hlr.url },
          secrets: encryptSecrets(TEST_SECRET_KEY, channel.tenantId, { password: "secret", lookupToken: "hlr-secret" }),
        },
      });
      const customer = await createCustomer(prisma);
      const phones = phoneNumbers(1_500);
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phones, { taskType: 1 });
      await harness.deps.queues.dispatchBatches([batchId]);
      const batch = await waitSettled(prisma, batchId, 60_000);
      expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
      // not one message reached the SMSC
      expect(submits).toEqual([]);
      expect(hlr.stats().numbers).toBe(1_500);
      const expected = { reachable: 0, unreachable: 0, unknown: 0 };
      for (const p of phones) expected[hlr.statusOf(p)]++;
      expect(batch).toMatchObject({
        deliveredCount: expected.reachable,
        undeliveredCount: expected.unreachable,
        failedCount: expected.unknown,
      });
      const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
      for (const r of rows) {
        const status = hlr.statusOf(r.phone);
        if (status === "unknown") expect(r).toMatchObject({ sendResult: 2, errorCode: "REACHABILITY_UNKNOWN" });
        else expect(r).toMatchObject({ sendResult: 1, receiveResult: status === "reachable" ? 1 : 2 });
      }
      await expectExactBilling(batchId, customer.id, customer.openingBalance);
    } finally {
      await hlr.close();
    }
  });

  it("refunds exactly what the SMSC refused: numbers ending 0000 and a random failure share", async () => {
    const { sim, submits } = await simulator({ failureShare: 0.1 });
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(1_200, { every: 50, ending: "0000" });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId);

    const { batch, sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(sums.unsent).toBe(0);
    expect(sums.success + sums.failed).toBe(1_200);
    expect(sums.failed).toBe(sim.stats().submitFailed);
    expect(sums.success).toBe(sim.stats().submitAccepted);
    expect(batch).toMatchObject({ successCount: sums.success, failedCount: sums.failed, sentCount: 1_200 });
    expect(batch.refunded).toBeGreaterThan(0n);
    const failed = await prisma.recipient.findMany({
      where: { batchId: BigInt(batchId), sendResult: SendResult.FAILURE },
      select: { phone: true, errorCode: true, providerMessageId: true },
    });
    expect(failed.every((r) => r.errorCode === "ESME_RINVDSTADR" && r.providerMessageId === null)).toBe(true);
    // every number ending 0000 failed (24 of them), whatever the random share did
    expect(failed.filter((r) => r.phone.endsWith("0000"))).toHaveLength(24);
    expect(acceptedTwice(submits)).toEqual([]);
  }, 120_000);

  it("records undelivered receipts as receive result 2 and counts them", async () => {
    const { sim } = await simulator({ receiptDelayMs: 20 });
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(300, { every: 10, ending: "9999" });
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId);
    const batch = await waitFor("receipts", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.deliveredCount + b.undeliveredCount === 300 ? b : undefined;
    });
    expect(batch).toMatchObject({ status: BatchStatus.SEND_FINISHED, deliveredCount: 270, undeliveredCount: 30 });
    const undelivered = await prisma.recipient.findMany({
      where: { batchId: BigInt(batchId), receiveResult: ReceiveResult.RECEIVE_FAILED },
      select: { phone: true, errorCode: true },
    });
    expect(undelivered).toHaveLength(30);
    expect(undelivered.every((r) => r.phone.endsWith("9999") && r.errorCode === "001")).toBe(true);
    // receipts do not change billing: a message the provider accepted is paid for
    await expectExactBilling(batchId, customer.id, customer.openingBalance);
  });

  it("stops a batch terminated while sending, marks the rest terminated and refunds them exactly", async () => {
    const { sim, submits } = await simulator();
    // 200 messages a second: the batch is still sending when it is terminated.
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 200 });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2_000));
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitFor("some sent", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.sentCount >= 200 ? b : undefined;
    });
    // What the API's terminate does: the conditional 21 -> 23, then finish-batch.
    const { count } = await prisma.messageBatch.updateMany({
      where: { id: BigInt(batchId), status: BatchStatus.SENDING },
      data: { status: BatchStatus.SEND_TERMINATED, reason: encodeBatchReason({ text: "stopped by admin" }) },
    });
    expect(count).toBe(1);
    await harness.deps.queues.finishBatches([batchId]);
    const settled = await waitSettled(prisma, batchId);

    const { batch, sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
    expect(settled.status).toBe(BatchStatus.SEND_TERMINATED);
    expect(decodeBatchReason(batch.reason, "en")).toBe("stopped by admin");
    expect(sums.unsent).toBe(0);
    expect(sums.failed).toBe(0);
    expect(sums.terminated).toBeGreaterThan(0);
    expect(sums.success + sums.terminated).toBe(2_000);
    // Nothing left in flight was lost: every message the simulator accepted is recorded as sent, and only those.
    expect(sim.stats().submitAccepted).toBe(sums.success);
    expect(submits).toHaveLength(sums.success);
    expect(batch.successCount).toBe(sums.success);
  }, 120_000);

  it("under SMSC throttling loses no recipient and sends none twice", async () => {
    const { sim, submits } = await simulator({ throttle: 400 });
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 5_000 });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(2_000));
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId, 120_000);

    const { batch, sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
    expect(sim.stats().submitThrottled).toBeGreaterThan(0);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(sums).toMatchObject({ unsent: 0, success: 2_000, failed: 0 });
    expect(sim.stats().submitAccepted).toBe(2_000);
    expect(acceptedTwice(submits)).toEqual([]);
  }, 150_000);

  it("survives dropped SMPP connections mid-batch: no recipient lost, none sent twice, billing exact", async () => {
    const { sim, submits } = await simulator({ latencyMs: 2 });
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 1_000 });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(3_000));
    await harness.deps.queues.dispatchBatches([batchId]);
    for (const atLeast of [600, 1_500]) {
      await waitFor(`${atLeast} sent`, async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.sentCount >= atLeast ? b : undefined;
      });
      sim.dropConnections();
    }
    await waitSettled(prisma, batchId, 120_000);

    const { batch, sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
    expect(sim.stats().connectionsDropped).toBeGreaterThanOrEqual(2);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(sums.unsent).toBe(0);
    expect(sums.success + sums.failed).toBe(3_000);
    // No number was accepted twice by the SMSC.
    expect(acceptedTwice(submits)).toEqual([]);
    // Failures are only submits cut off by the drop (the SMSC may have taken them: never resent, refunded).
    const failures = await prisma.recipient.groupBy({
      by: ["errorCode"],
      where: { batchId: BigInt(batchId), sendResult: SendResult.FAILURE },
      _count: { _all: true },
    });
    expect(failures.every((f) => f.errorCode === "CONNECTION_LOST")).toBe(true);
    // Every accepted message whose answer reached us is recorded as sent; the rest are the cut-off ones.
    const accepted = sim.stats().submitAccepted;
    expect(accepted).toBeGreaterThanOrEqual(sums.success);
    expect(accepted).toBeLessThanOrEqual(sums.success + sums.failed);
    // Every recorded success gets its receipt (receipts pending at a drop come again on the next bind).
    await waitFor("receipts of every success", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.deliveredCount === sums.success ? b : undefined;
    });
  }, 150_000);

  it("fails a batch whose channel stays dead (nothing listening) to 24 and refunds everything", async () => {
    // A harness of its own: the SMPP submit timeout is what makes a dead channel take long.
    const dead = await startHarness({ smpp: { submitTimeoutMs: 300, bindTimeoutMs: 200 } });
    try {
      const channelId = await createSmppChannel(prisma, { port: await closedPort() });
      const customer = await createCustomer(prisma);
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(120));
      await dead.deps.queues.dispatchBatches([batchId]);
      const settled = await waitSettled(prisma, batchId);

      expect(settled.status).toBe(BatchStatus.SEND_FAILED);
      // Stored as a message key: each reader gets it in its own language.
      expect(decodeBatchReason(settled.reason, "en")).toBe("the channel stayed unavailable after every retry");
      expect(decodeBatchReason(settled.reason, "zh")).toBe("通道多次重试后仍不可用");
      const { batch, sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
      expect(batch.refunded).toBe(cost);
      expect(sums).toMatchObject({ unsent: 0, success: 0, failed: 120 });
      const codes = await prisma.recipient.groupBy({
        by: ["errorCode"],
        where: { batchId: BigInt(batchId) },
        _count: { _all: true },
      });
      expect(codes).toEqual([{ errorCode: "CHANNEL_UNAVAILABLE", _count: { _all: 120 } }]);
      const user = await prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
      expect(user.balance).toBe(customer.openingBalance);
    } finally {
      await dead.stop();
    }
  }, 60_000);

  it("posts signed callbacks to the customer's notify URL, retries a failed one, and logs every attempt", async () => {
    const receiver = await callbackReceiver({ refuseFirst: "batch_finished" });
    const keyHash = secretKeyHash(`sk_${uniqueName("test")}`);
    try {
      const { sim } = await simulator();
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const customer = await createCustomer(prisma, { notifyUrl: receiver.url, secretKeyHash: keyHash });
      const phones = phoneNumbers(40, { every: 10, ending: "9999" });
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
      await harness.deps.queues.dispatchBatches([batchId]);
      await waitSettled(prisma, batchId);

      const finished = await waitFor("batch_finished delivered", async () =>
        receiver.requests.find((r) => r.event === "batch_finished" && r.answered === 200),
      );
      const reported = await waitFor("every receipt reported", async () => {
        const ids = new Set(
          receiver.requests
            .filter((r) => r.event === "delivery_report" && r.answered === 200)
            .flatMap((r) => (r.body.data as { reports: Array<{ recipientId: string }> }).reports)
            .map((x) => x.recipientId),
        );
        return ids.size === 40 ? ids : undefined;
      });
      expect(reported.size).toBe(40);

      // Every body is one the webhook catalogue (the OpenAPI document's webhooks) describes; every request is
      // signed with the customer's key and carries the event it is.
      expect(receiver.invalid).toEqual([]);
      const now = Math.floor(Date.now() / 1000);
      for (const r of receiver.requests) {
        expect(verifyCallbackSignature(r.signature, r.raw, keyHash, now)).toBe(true);
        expect(r.body.event).toBe(r.event);
      }
      expect(finished.body.data).toMatchObject({
        batchId,
        status: BatchStatus.SEND_FINISHED,
        successCount: 40,
        refunded: "0.0000",
      });
      // The first batch_finished attempt was refused (500) and retried with the same event id.
      const finishedTries = receiver.requests.filter((r) => r.event === "batch_finished");
      expect(finishedTries.map((r) => r.answered)).toEqual([500, 200]);
      expect(new Set(finishedTries.map((r) => r.body.eventId)).size).toBe(1);
      const report = receiver.requests.find((r) => r.event === "delivery_report")!;
      const first = (report.body.data as { reports: Array<Record<string, unknown>> }).reports[0]!;
      expect(first).toMatchObject({ sendResult: SendResult.SUCCESS, phone: expect.stringMatching(/^\+\d+$/) });
      expect([ReceiveResult.RECEIVED, ReceiveResult.RECEIVE_FAILED]).toContain(first.receiveResult);

      // An attempt's row is written once its answer is back, so after the receiver has seen the request: waited for.
      const deliveryReportsSent = receiver.requests.filter((r) => r.event === "delivery_report").length;
      await waitFor(
        "every attempt logged",
        async () => {
          const [finishedLogged, reportsLogged] = await Promise.all([
            prisma.notifyAttempt.count({ where: { userId: customer.id, event: "batch_finished" } }),
            prisma.notifyAttempt.count({ where: { userId: customer.id, event: "delivery_report" } }),
          ]);
          return finishedLogged >= finishedTries.length && reportsLogged >= deliveryReportsSent ? true : undefined;
        },
        15_000,
      ).catch(() => undefined); // a shortfall is reported by the exact checks below
      const attempts = await prisma.notifyAttempt.findMany({
        where: { userId: customer.id, event: "batch_finished" },
        orderBy: { id: "asc" },
      });
      expect(attempts.map((a) => [a.attempt, a.httpStatus, a.error])).toEqual([
        [1, 500, "http_500"],
        [2, 200, null],
      ]);
      expect(attempts.every((a) => a.batchId === BigInt(batchId))).toBe(true);
      expect(await prisma.notifyAttempt.count({ where: { userId: customer.id, event: "delivery_report" } })).toBe(
        receiver.requests.filter((r) => r.event === "delivery_report").length,
      );
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("a failed batch's callback carries its reason in the customer's language", async () => {
    const receiver = await callbackReceiver({ refuseFirst: "batch_finished" });
    try {
      const customer = await createCustomer(prisma, {
        notifyUrl: receiver.url,
        secretKeyHash: secretKeyHash(`sk_${uniqueName("test")}`),
      });
      await prisma.user.update({ where: { id: customer.id }, data: { lang: "en" } });
      const { batchId } = await createPendingBatch(prisma, customer, null, phoneNumbers(3), {
        status: BatchStatus.SENDING,
      });
      // What a chunk does when its channel was deleted meanwhile.
      expect(await failSendingBatch(harness.deps, batchId, "channel_missing")).toBe(true);
      const finished = await waitFor("batch_finished delivered", async () =>
        receiver.requests.find((r) => r.event === "batch_finished" && r.answered === 200),
      );
      expect(finished.body.data).toMatchObject({
        batchId,
        status: BatchStatus.SEND_FAILED,
        reason: "the sending channel no longer exists",
      });
      const codes = await prisma.recipient.findMany({
        where: { batchId: BigInt(batchId) },
        select: { errorCode: true },
      });
      expect(codes.map((c) => c.errorCode)).toEqual(["CHANNEL_MISSING", "CHANNEL_MISSING", "CHANNEL_MISSING"]);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("on shutdown finishes the chunk in hand, and a restarted worker completes the batch without resending", async () => {
    const { sim, submits } = await simulator();
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 400 });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1_500));
    const tuning = { chunkSize: 300 };
    const first = await startHarness({ tuning, concurrency: { "dispatch-chunk": 1 } });
    await first.deps.queues.dispatchBatches([batchId]);
    await waitFor("sending", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.sentCount >= 50 ? b : undefined;
    });
    await first.stop(); // what SIGTERM does

    // The chunk in hand was finished and recorded; nothing else was sent; the rest waits in the queue.
    const between = await recipientSummary(prisma, batchId);
    expect(between.unsent).toBeGreaterThan(0);
    expect(between.success % 300).toBe(0);
    expect(sim.stats().submitAccepted).toBe(between.success);

    const second = await startHarness({ tuning, redisPrefix: first.deps.redisPrefix });
    try {
      const settled = await waitSettled(prisma, batchId);
      expect(settled.status).toBe(BatchStatus.SEND_FINISHED);
      const { sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
      expect(sums.success).toBe(1_500);
      expect(sim.stats().submitAccepted).toBe(1_500);
      expect(acceptedTwice(submits)).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe("receipts wherever and whenever they come", () => {
  const delivered = (batchId: string, count: number) =>
    waitFor(
      "every receipt recorded",
      async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.deliveredCount + b.undeliveredCount === count ? b : undefined;
      },
      20_000,
    );

  it("records every receipt when two channels share the SMSC account and its receipts land on either bind", async () => {
    const { sim } = await simulator({ receiptDelayMs: 50 });
    const a = await createSmppChannel(prisma, { port: sim.port });
    const b = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    // Channel b is bound too (its own batch went out first): the SMSC spreads a's receipts over both binds.
    const first = await createPendingBatch(prisma, customer, b, phoneNumbers(10));
    await harness.deps.queues.dispatchBatches([first.batchId]);
    await waitSettled(prisma, first.batchId);
    const { batchId } = await createPendingBatch(prisma, customer, a, phoneNumbers(400));
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId);
    const batch = await delivered(batchId, 400);
    expect(batch.deliveredCount + batch.undeliveredCount).toBe(400);
    const late = await prisma.recipient.count({
      where: { batchId: BigInt(batchId), receivedAt: { lt: prisma.recipient.fields.sentAt } },
    });
    expect(late).toBe(0);
  });

  it("takes receipts still at the SMSC after a restart, with no batch sending", async () => {
    const { sim } = await simulator({ receiptDelayMs: 1_500 });
    const channelId = await createSmppChannel(prisma, { port: sim.port });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(30));
    const first = await startHarness();
    await first.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId);
    await first.stop(); // before any receipt came back: they wait at the SMSC
    expect(sim.stats().receiptsAcked).toBe(0);

    const second = await startHarness({
      tuning: { receiptListenEveryMs: 200 },
      receiptListeners: { channelIds: [channelId] },
    });
    try {
      const batch = await delivered(batchId, 30);
      expect(batch.deliveredCount).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });
});

describe("an SMSC restarted while the workers were down (its ids start again)", () => {
  it("new worker processes see it by the account's highest id kept in Redis: every receipt lands on its own message", async () => {
    // The SMSC counts from 1 and still holds every receipt when it goes down: the old messages keep waiting.
    const old = await startSmscSimulator({ firstMessageId: 1, receiptDelayMs: 600_000 });
    const port = old.port;
    // 100 a second: the new batch is sent over two seconds, its receipts coming in meanwhile.
    const channelId = await createSmppChannel(prisma, { port, throughput: 100 });
    const customer = await createCustomer(prisma);
    const before = await createPendingBatch(prisma, customer, channelId, phoneNumbers(200));
    const first = await startHarness();
    await first.deps.queues.dispatchBatches([before.batchId]);
    await waitSettled(prisma, before.batchId);
    await first.stop(); // a deploy: this process and everything it remembered go
    await old.close();

    // The SMSC again, counting from 1 again, and two new worker processes (one Redis prefix: one platform), both
    // bound to the account, so that receipts of one's messages come in on the other's bind too. Outcomes wait in
    // the sender's write buffer for a while: a receipt on the other bind finds the old message with its id first.
    const { sim } = await simulator({ port, firstMessageId: 1, receiptDelayMs: 50 });
    const options = {
      redisPrefix: first.deps.redisPrefix,
      tuning: { receiptListenEveryMs: 200, outcomeWrites: { ...DEFAULT_OUTCOME_WRITES, maxDelayMs: 1_500 } },
      receiptListeners: { channelIds: [channelId] },
    };
    const workers = [await startHarness(options), await startHarness(options)];
    try {
      await waitFor("both processes bound", async () => (sim.stats().binds >= 2 ? true : undefined));
      const after = await createPendingBatch(prisma, customer, channelId, phoneNumbers(200));
      await workers[0]!.deps.queues.dispatchBatches([after.batchId]);
      await waitSettled(prisma, after.batchId);
      // Each of the 200 receipts recorded on some message, the right one or not.
      const batchIds = [BigInt(before.batchId), BigInt(after.batchId)];
      await waitFor("every receipt recorded", async () => {
        const batches = await prisma.messageBatch.findMany({ where: { id: { in: batchIds } } });
        const recorded = batches.reduce((sum, b) => sum + b.deliveredCount + b.undeliveredCount, 0);
        return recorded === 200 ? recorded : undefined;
      });
      const rows = (batchId: string) => prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
      const [olds, news] = [await rows(before.batchId), await rows(after.batchId)];
      // The new messages have the old ones' ids...
      expect(new Set(news.map((r) => r.providerMessageId))).toEqual(new Set(olds.map((r) => r.providerMessageId)));
      // ...and each took its own receipt: none went to an old message still waiting for its own.
      const ids = (list: typeof news) => list.map((r) => r.providerMessageId);
      expect(ids(news.filter((r) => r.receiveResult !== ReceiveResult.RECEIVED))).toEqual([]);
      expect(ids(olds.filter((r) => r.receiveResult !== ReceiveResult.UNKNOWN))).toEqual([]);
      expect(sim.stats().receiptsAcked).toBe(200);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  }, 90_000);
});

describe("an SMSC that allows one bind per account, two worker processes", () => {
  it("the process refused a bind leaves its chunks to the one bound: everyone sent once, nobody failed", async () => {
    const { sim, submits } = await simulator({ maxBindsPerAccount: 1 });
    // 400 a second: the chunks are still being sent when the second process takes some of them.
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 400 });
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(1_200);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phones);
    // One attempt per chunk: a refusal that counted as the channel failing would fail the batch at once.
    const tuning = {
      chunkSize: 100,
      bindRefusedDelayMs: 50,
      retries: { ...DEFAULT_TUNING.retries, ...TEST_TUNING.retries, dispatchChunk: { attempts: 1, backoffMs: 100 } },
    };
    const first = await startHarness({ tuning });
    const second = await startHarness({ tuning, redisPrefix: first.deps.redisPrefix });
    try {
      await first.deps.queues.dispatchBatches([batchId]);
      const settled = await waitSettled(prisma, batchId);
      expect(settled.status).toBe(BatchStatus.SEND_FINISHED);
      const { sums } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
      expect(sums).toMatchObject({ success: 1_200, failed: 0, unsent: 0 });
      expect(sim.stats().submitAccepted).toBe(1_200);
      expect(acceptedTwice(submits)).toEqual([]);
      // The limit was met: a process was refused its bind (and the chunks it took went on elsewhere).
      expect(sim.stats().bindsOverLimit).toBeGreaterThan(0);
      await waitFor("every receipt recorded", async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.deliveredCount === 1_200 ? b : undefined;
      });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 120_000);

  it("a wrong password stays the channel's failure: the batch fails and is refunded, not handed around", async () => {
    const { sim } = await simulator({ password: "not-the-channel's" });
    const dead = await startHarness({ smpp: { submitTimeoutMs: 300, bindTimeoutMs: 200 } });
    try {
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const customer = await createCustomer(prisma);
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(120));
      await dead.deps.queues.dispatchBatches([batchId]);
      const settled = await waitSettled(prisma, batchId);
      expect(settled.status).toBe(BatchStatus.SEND_FAILED);
      expect(decodeBatchReason(settled.reason, "en")).toBe("the channel stayed unavailable after every retry");
      const { batch } = await expectExactBilling(batchId, customer.id, customer.openingBalance);
      expect(batch.refunded).toBe(cost);
      expect(sim.stats()).toMatchObject({ bindsOverLimit: 0, submitReceived: 0 });
      expect(sim.stats().bindFailures).toBeGreaterThan(0);
    } finally {
      await dead.stop();
    }
  }, 60_000);
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
