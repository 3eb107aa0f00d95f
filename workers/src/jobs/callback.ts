// callback {userId, batchId, event, recipientIds?}: posts one status report to the customer's notify URL.
//
// The body is built from the database when the job runs (the job carries ids only), so a retry reports the
// current state. It is signed like every callback (callback-signature.ts: X-Switchboard-Signature over the raw
// body with the customer's secret key hash) and sent within 5 s by the sender that obeys the egress policy
// (EGRESS_ALLOW). Each attempt is a notify_attempts row; a failed attempt throws so BullMQ retries it with
// a backoff capped at an hour for at least 24 hours (DEFAULT_RETRY_POLICIES.callback). The event itself (its job's ids
// and eventId) is a notify_events row, written with its first attempt: what a resend by hand needs
// (POST /user/notify/attempts/{id}/resend enqueues the same event with its eventId in the job data).
//
// Body: { event, eventId, createdAt, data }, each event's data as the webhook catalogue says
// (packages/contracts/src/webhooks.ts, the OpenAPI document's `webhooks`). eventId is the same on every attempt
// of one event, so a receiver can drop repeats. E.164 numbers go to the customer's own URL (they are its
// recipients), never to logs. Texts (a failed batch's reason) are in the customer's language.

import type {
  BatchFinishedData,
  BatchStatusData,
  CallbackJob,
  DeliveryReportData,
  InboundData,
  MessageFallbackData,
  OptOutData,
} from "@switchboard/contracts";
import {
  BatchStatus,
  batchStatusChange,
  CALLBACK_SIGNATURE_HEADER,
  decodeBatchReason,
  formatMoney,
  type Lang,
  OptOutSource,
} from "@switchboard/contracts";
import { type BatchStatusChanged, batchStatusCallbacks } from "@switchboard/domain/callback-jobs";
import { signCallback } from "@switchboard/domain/callback-signature";
import { postCallback } from "@switchboard/domain/callbacks";
import { toInboundData } from "@switchboard/domain/inbound";
import type { WorkerDeps } from "../lib/deps";

type Deps = Pick<WorkerDeps, "prisma" | "logger" | "egress" | "tuning">;

export interface CallbackContext {
  /** Stable across the attempts of one event. */
  eventId: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** A resend by hand: recorded as such. */
  manual?: boolean;
  now?: Date;
}

/** The receiver did not take the callback; BullMQ tries again later. */
export class CallbackNotDelivered extends Error {
  constructor(readonly reason: string) {
    super(`callback not delivered: ${reason}`);
    this.name = "CallbackNotDelivered";
  }
}

export type CallbackResult = "delivered" | "skipped";

/**
 * batch_status callbacks for status changes the workers just committed (to owners with a notify URL). Never
 * throws: the change stands whether or not it could be told (a Redis outage is logged).
 */
export async function enqueueBatchStatusCallbacks(
  deps: Pick<WorkerDeps, "prisma" | "queues" | "logger">,
  changes: readonly BatchStatusChanged[],
): Promise<void> {
  try {
    await deps.queues.callbacks(await batchStatusCallbacks(deps.prisma, changes));
  } catch (err) {
    deps.logger.error({ err }, "could not enqueue batch_status callbacks");
  }
}

export async function deliverCallback(deps: Deps, job: CallbackJob, ctx: CallbackContext): Promise<CallbackResult> {
  const now = ctx.now ?? new Date();
  const user = await deps.prisma.user.findUnique({
    where: { id: job.userId },
    select: { notifyUrl: true, secretKeyHash: true, deletedAt: true, lang: true },
  });
  // The customer removed its URL (or its account) since the event: nobody to tell.
  if (!user?.notifyUrl || user.deletedAt) return "skipped";
  const batchId = job.batchId === undefined ? null : BigInt(job.batchId);

  const data = await eventData(deps, job, user.lang === "en" ? "en" : "zh");
  if (data === null) return "skipped";
  if (!user.secretKeyHash) {
    // Callbacks are always signed; without a key there is nothing to sign with. Recorded so the customer sees why.
    await recordAttempt(deps, job, batchId, ctx, { httpStatus: null, durationMs: 0, error: "no_secret_key" });
    return "skipped";
  }

  const body = JSON.stringify({ event: job.event, eventId: ctx.eventId, createdAt: now.toISOString(), data });
  const outcome = await postCallback(
    {
      url: user.notifyUrl,
      body,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "user-agent": "Switchboard-Callback/1.0",
        "x-switchboard-event": job.event,
        [CALLBACK_SIGNATURE_HEADER.toLowerCase()]: signCallback(
          user.secretKeyHash,
          body,
          Math.floor(now.getTime() / 1000),
        ),
      },
    },
    { timeoutMs: deps.tuning.callbackTimeoutMs, egress: deps.egress },
  );
  await recordAttempt(deps, job, batchId, ctx, outcome);
  if (!outcome.delivered) throw new CallbackNotDelivered(outcome.error ?? "failed");
  return "delivered";
}

async function recordAttempt(
  deps: Deps,
  job: CallbackJob,
  batchId: bigint | null,
  ctx: CallbackContext,
  outcome: { httpStatus: number | null; durationMs: number; error: string | null },
): Promise<void> {
  const event = await deps.prisma.notifyEvent.upsert({
    where: { eventId: ctx.eventId },
    create: {
      userId: job.userId,
      eventId: ctx.eventId,
      event: job.event,
      batchId,
      recipientIds: (job.recipientIds ?? []).map((id) => BigInt(id)),
      inboundId: job.inboundId === undefined ? null : BigInt(job.inboundId),
      fromStatus: job.statusChange?.from ?? null,
      toStatus: job.statusChange?.to ?? null,
      changedAt: job.statusChange ? new Date(job.statusChange.at) : null,
    },
    update: {},
    select: { id: true },
  });
  await deps.prisma.notifyAttempt.create({
    data: {
      userId: job.userId,
      batchId,
      event: job.event,
      attempt: Math.min(ctx.attempt, 32_767),
      httpStatus: outcome.httpStatus,
      error: outcome.error?.slice(0, 200) ?? null,
      durationMs: outcome.durationMs,
      notifyEventId: event.id,
      manual: ctx.manual ?? false,
    },
  });
}

/**
 * The event's data as the webhook catalogue describes it (packages/contracts/src/webhooks.ts), read now, texts in
 * the customer's language; null when the batch is not the user's (or gone).
 */
async function eventData(
  deps: Deps,
  job: CallbackJob,
  lang: Lang,
): Promise<
  BatchFinishedData | BatchStatusData | DeliveryReportData | MessageFallbackData | InboundData | OptOutData | null
> {
  if (job.event === "inbound") return inboundEventData(deps, job);
  if (job.event === "opt_out") return optOutEventData(deps, job);
  if (job.batchId === undefined) return null;
  const batch = await deps.prisma.messageBatch.findFirst({
    where: { id: BigInt(job.batchId), userId: job.userId },
    select: {
      id: true,
      status: true,
      productCode: true,
      totalCount: true,
      validCount: true,
      sentCount: true,
      successCount: true,
      failedCount: true,
      deliveredCount: true,
      undeliveredCount: true,
      cost: true,
      refunded: true,
      reason: true,
      finishedAt: true,
      scheduledAt: true,
    },
  });
  if (!batch) return null;
  if (job.event === "batch_status") {
    const change = job.statusChange && batchStatusChange(job.statusChange.from, job.statusChange.to);
    if (!job.statusChange || !change) return null;
    // Only a stop or a refusal has a reason; a batch's reason column may hold one from an earlier change.
    const withReason: readonly number[] = [
      BatchStatus.REVIEW_REJECTED,
      BatchStatus.SEND_TERMINATED,
      BatchStatus.SEND_FAILED,
    ];
    return {
      batchId: batch.id.toString(),
      change,
      previousStatus: job.statusChange.from,
      status: job.statusChange.to,
      productCode: batch.productCode,
      scheduledAt: batch.scheduledAt?.toISOString() ?? null,
      reason: withReason.includes(job.statusChange.to) ? decodeBatchReason(batch.reason, lang) : null,
      changedAt: job.statusChange.at,
    } satisfies BatchStatusData;
  }
  if (job.event === "batch_finished") {
    return {
      batchId: batch.id.toString(),
      status: batch.status,
      productCode: batch.productCode,
      totalCount: batch.totalCount,
      validCount: batch.validCount,
      sentCount: batch.sentCount,
      successCount: batch.successCount,
      failedCount: batch.failedCount,
      deliveredCount: batch.deliveredCount,
      undeliveredCount: batch.undeliveredCount,
      cost: formatMoney(batch.cost),
      refunded: formatMoney(batch.refunded),
      reason: decodeBatchReason(batch.reason, lang),
      finishedAt: batch.finishedAt?.toISOString() ?? null,
    } satisfies BatchFinishedData;
  }
  const recipients = await deps.prisma.recipient.findMany({
    where: { batchId: batch.id, id: { in: (job.recipientIds ?? []).map((id) => BigInt(id)) } },
    select: {
      id: true,
      phone: true,
      sendResult: true,
      receiveResult: true,
      errorCode: true,
      sentAt: true,
      receivedAt: true,
      readAt: true,
      fallbackFrom: true,
    },
    orderBy: { id: "asc" },
  });
  if (job.event === "message_fallback") {
    return {
      batchId: batch.id.toString(),
      messages: recipients
        .filter((r) => r.fallbackFrom !== null)
        .map((r) => ({ recipientId: r.id.toString(), phone: r.phone, fromChannel: "rcs", toChannel: "sms" })),
    } satisfies MessageFallbackData;
  }
  return {
    batchId: batch.id.toString(),
    reports: recipients.map((r) => ({
      recipientId: r.id.toString(),
      phone: r.phone,
      sendResult: r.sendResult,
      receiveResult: r.receiveResult,
      errorCode: r.errorCode,
      sentAt: r.sentAt?.toISOString() ?? null,
      receivedAt: r.receivedAt?.toISOString() ?? null,
      readAt: r.readAt?.toISOString() ?? null,
      /** An RCS message that could not be delivered and was sent as SMS instead. */
      fellBackToSms: r.fallbackFrom !== null,
    })),
  } satisfies DeliveryReportData;
}

/** An inbound message (a reply, a suggestion tap) as its customer receives it; null when it is not theirs. */
async function inboundEventData(deps: Deps, job: CallbackJob): Promise<InboundData | null> {
  if (job.inboundId === undefined) return null;
  const m = await deps.prisma.inboundMessage.findFirst({
    where: { id: BigInt(job.inboundId), userId: job.userId },
  });
  return m ? toInboundData(m) : null;
}

/**
 * The opt-out a keyword reply made, as its customer receives it; null when the reply is not theirs or the number
 * has left the list since (the customer removed it: nothing to tell any more).
 */
async function optOutEventData(deps: Deps, job: CallbackJob): Promise<OptOutData | null> {
  if (job.inboundId === undefined) return null;
  const reply = await deps.prisma.inboundMessage.findFirst({
    where: { id: BigInt(job.inboundId), userId: job.userId },
    select: { id: true, phone: true, batchId: true, channelId: true },
  });
  if (!reply) return null;
  const channel = await deps.prisma.channel.findUnique({ where: { id: reply.channelId }, select: { kind: true } });
  const entry = await deps.prisma.optOut.findUnique({
    where: { userId_phone: { userId: job.userId, phone: reply.phone } },
    select: { id: true, source: true, createdAt: true },
  });
  if (!entry || entry.source !== OptOutSource.KEYWORD) return null;
  return {
    optOutId: entry.id,
    phone: reply.phone,
    source: "keyword_reply",
    channel: channel?.kind ?? "unknown",
    inboundId: reply.id.toString(),
    batchId: reply.batchId?.toString() ?? null,
    createdAt: entry.createdAt.toISOString(),
  };
}
