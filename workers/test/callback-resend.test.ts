// Callbacks (issue 18): retried with the capped backoff (BullMQ's custom strategy, the Worker's backoffStrategy),
// each attempt a notify_attempts row naming its event (notify_events), and an event re-sent by hand
// (callbackResendJob, what POST /user/notify/attempts/{id}/resend enqueues) delivered with its original eventId
// and recorded as a manual attempt.
import { BatchStatus, callbackResendJob, DEFAULT_RETRY_POLICIES, QUEUE } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callbackReceiver,
  createCustomer,
  createPendingBatch,
  type Harness,
  phoneNumbers,
  startHarness,
  TEST_TUNING,
  testPrisma,
  uniqueName,
  waitFor,
} from "./helpers";

let prisma: PrismaClient;
let harness: Harness;

beforeAll(async () => {
  prisma = testPrisma();
  // The production policy's shape (capped exponential) at test speed.
  harness = await startHarness({
    tuning: {
      retries: {
        ...DEFAULT_RETRY_POLICIES,
        ...TEST_TUNING.retries,
        callback: { attempts: 4, backoffMs: 100, maxBackoffMs: 150 },
      },
    },
  });
});
afterAll(async () => {
  await harness?.stop();
  await prisma?.$disconnect();
});

describe("callback attempts and resends", () => {
  it("retries with the capped backoff, then a resend by hand carries the original eventId", async () => {
    const receiver = await callbackReceiver({ refuseFirst: "batch_finished" });
    const keyHash = secretKeyHash(`sk_${uniqueName("test")}`);
    try {
      const customer = await createCustomer(prisma, { notifyUrl: receiver.url, secretKeyHash: keyHash });
      const { batchId } = await createPendingBatch(prisma, customer, null, phoneNumbers(2), {
        status: BatchStatus.SEND_FINISHED,
      });
      await harness.deps.queues.callbacks([{ userId: customer.id, batchId, event: "batch_finished" }]);
      await waitFor("batch_finished delivered on its retry", async () =>
        receiver.requests.find((r) => r.event === "batch_finished" && r.answered === 200),
      );
      const event = await prisma.notifyEvent.findFirstOrThrow({ where: { userId: customer.id } });
      expect(event).toMatchObject({ event: "batch_finished", batchId: BigInt(batchId), inboundId: null });
      const eventId = receiver.requests[0]?.body.eventId;
      expect(event.eventId).toBe(eventId);

      const resend = callbackResendJob(event);
      await harness.deps.queues.queue(QUEUE.callback).add(resend.name, resend.data, resend.opts);
      await waitFor("the resend delivered", async () => (receiver.requests.length >= 3 ? true : undefined));
      const tries = receiver.requests.filter((r) => r.event === "batch_finished");
      expect(tries.map((r) => r.answered)).toEqual([500, 200, 200]);
      expect(tries.map((r) => r.body.eventId)).toEqual([eventId, eventId, eventId]);
      expect(receiver.invalid).toEqual([]);
      const now = Math.floor(Date.now() / 1000);
      expect(verifyCallbackSignature(tries[2]!.signature, tries[2]!.raw, keyHash, now)).toBe(true);

      const attempts = await waitFor("the resend recorded", async () => {
        const rows = await prisma.notifyAttempt.findMany({ where: { userId: customer.id }, orderBy: { id: "asc" } });
        return rows.length === 3 ? rows : undefined;
      });
      expect(attempts.map((a) => [a.attempt, a.httpStatus, a.manual, a.notifyEventId])).toEqual([
        [1, 500, false, event.id],
        [2, 200, false, event.id],
        [1, 200, true, event.id],
      ]);
      // One event row, however many attempts.
      expect(await prisma.notifyEvent.count({ where: { userId: customer.id } })).toBe(1);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("resends a batch_status event as the change it told, not the batch as it is now", async () => {
    const receiver = await callbackReceiver();
    try {
      const customer = await createCustomer(prisma, { notifyUrl: receiver.url, secretKeyHash: secretKeyHash("sk_st") });
      const { batchId } = await createPendingBatch(prisma, customer, null, phoneNumbers(1), {
        status: BatchStatus.SENDING,
      });
      const at = "2026-11-26T10:00:00.000Z";
      await harness.deps.queues.callbacks([
        {
          userId: customer.id,
          batchId,
          event: "batch_status",
          statusChange: { from: BatchStatus.PENDING_SEND, to: BatchStatus.SENDING, at },
        },
      ]);
      await waitFor("batch_status delivered", async () => receiver.requests.find((r) => r.event === "batch_status"));
      // The batch moves on; a resend still tells 20 -> 21 at its time.
      await prisma.messageBatch.update({ where: { id: BigInt(batchId) }, data: { status: BatchStatus.SEND_FINISHED } });
      const event = await prisma.notifyEvent.findFirstOrThrow({ where: { userId: customer.id } });
      expect(event).toMatchObject({ fromStatus: 20, toStatus: 21, changedAt: new Date(at) });
      const resend = callbackResendJob(event);
      await harness.deps.queues.queue(QUEUE.callback).add(resend.name, resend.data, resend.opts);
      await waitFor("the resend delivered", async () => (receiver.requests.length >= 2 ? true : undefined));
      const [first, again] = receiver.requests;
      expect(again?.body.eventId).toBe(first?.body.eventId);
      for (const r of [first, again]) {
        expect(r?.body.data).toMatchObject({
          batchId,
          change: "sending",
          previousStatus: 20,
          status: 21,
          changedAt: at,
        });
      }
      expect(receiver.invalid).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
