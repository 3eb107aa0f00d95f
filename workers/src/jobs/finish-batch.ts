// finish-batch {batchId}: settles a batch that has nothing left to send, in ONE transaction:
//   - a batch stopped while sending gets its unsent recipients closed: 23 terminated -> send result 3,
//     24 failed (channel dead) -> send result 2 with the reason as error code;
//   - counts recomputed from the recipients;
//   - refund through the ledger of what was charged and not delivered to the provider, so that always
//       cost - refunded == sum(price of recipients with send result 1)
//     The refund is the difference to what message_batches.refunded already records, so running this twice
//     refunds nothing the second time; the batch update is conditional on the refunded amount it read;
//   - the final status with finishedAt: 21 -> 22 finished, or 24 when every recipient failed; 23 and 24 stay.
// Then the customer's notify URL gets a batch_finished callback, and a batch_status one for the change made here
// (21 -> 22 or 24; a batch stopped by a terminate or failSendingBatch was told of its change where it was made).
//
// A stopped batch (23 by an admin, 24 by a dead channel) may still have chunks with messages in flight; they
// notice the status within a status check and stop. Until their leases are gone this job waits, so a message the
// provider accepts at the last moment is recorded as sent and not refunded.

import type { FinishBatchJob } from "@switchboard/contracts";
import {
  BalanceLogType,
  BatchStatus,
  batchReasonKey,
  canTransition,
  encodeBatchReason,
  type MessageKey,
  SendResult,
} from "@switchboard/contracts";
import type { Prisma } from "@switchboard/db";
import { applyBalanceChange } from "@switchboard/domain/ledger";
import type { WorkerDeps } from "../lib/deps";
import { type JobResult, runAgain } from "../lib/job-result";
import { recordSendOutcomes, type SettledSingle } from "../lib/send-outcomes";
import { enqueueBatchStatusCallbacks } from "./callback";
import { enqueueReportCallbacks } from "./delivery-report";
import { runFallbackWindow } from "./fallback-window";
import { revokeUndelivered } from "./revoke";

/**
 * Why a batch failed: the machine code (the unsent recipients' error code, in upper case) and the message the
 * batch's reason is stored as (encodeBatchReason), translated when the batch is read.
 */
const FAILURE_MESSAGES = {
  all_recipients_failed: "batch.failure.all_recipients_failed",
  channel_unavailable: "batch.failure.channel_unavailable",
  channel_missing: "batch.failure.channel_missing",
  channel_paused: "batch.failure.channel_paused",
  channel_kind_unsupported: "batch.failure.channel_kind_unsupported",
  channel_config_invalid: "batch.failure.channel_config_invalid",
  content_unsupported: "batch.failure.content_unsupported",
  screening_unsupported: "batch.failure.screening_unsupported",
  template_refused: "batch.failure.template_refused",
} as const satisfies Record<string, MessageKey>;
export type FailureReason = keyof typeof FAILURE_MESSAGES;
const FAILURE_REASONS = Object.keys(FAILURE_MESSAGES) as FailureReason[];

/** The stored form of a failure reason (message_batches.reason). */
export function failureReason(reason: FailureReason): string {
  return encodeBatchReason({ key: FAILURE_MESSAGES[reason] });
}

/** Error code of the recipients a failed batch leaves unsent: its reason, in the error codes' upper case. */
function unsentErrorCode(stored: string | null): string {
  const key = batchReasonKey(stored);
  // Rows failed before reasons were stored as messages hold the machine code itself.
  const known = FAILURE_REASONS.find((r) => FAILURE_MESSAGES[r] === key || r === stored);
  return (known ?? "channel_unavailable").toUpperCase();
}

type Deps = Pick<WorkerDeps, "prisma" | "queues" | "leases" | "logger" | "tuning" | "adapters" | "journal">;

/**
 * Ends a sending batch as failed (21 -> 24) with a reason, and has it settled. A no-op when the batch is no
 * longer sending (terminated or finished meanwhile): the conditional update decides.
 */
export async function failSendingBatch(
  deps: Pick<WorkerDeps, "prisma" | "queues" | "logger">,
  batchId: string,
  reason: FailureReason,
): Promise<boolean> {
  const { count } = await deps.prisma.messageBatch.updateMany({
    where: { id: BigInt(batchId), status: BatchStatus.SENDING },
    data: { status: BatchStatus.SEND_FAILED, reason: failureReason(reason) },
  });
  if (count > 0) deps.logger.warn({ batchId, reason }, "batch failed");
  await deps.queues.finishBatches([batchId]);
  if (count > 0) {
    await enqueueBatchStatusCallbacks(deps, [
      { batchId: BigInt(batchId), from: BatchStatus.SENDING, to: BatchStatus.SEND_FAILED, at: new Date() },
    ]);
  }
  return count > 0;
}

interface Counts {
  total: number;
  unsent: number;
  success: number;
  failed: number;
  successPrice: bigint;
}

async function countRecipients(tx: Prisma.TransactionClient, batchId: bigint): Promise<Counts> {
  const [row] = await tx.$queryRaw<Counts[]>`
    SELECT count(*)::int AS total,
           count(*) FILTER (WHERE "sendResult" = ${SendResult.NOT_SENT})::int AS unsent,
           count(*) FILTER (WHERE "sendResult" = ${SendResult.SUCCESS})::int AS success,
           count(*) FILTER (WHERE "sendResult" = ${SendResult.FAILURE})::int AS failed,
           coalesce(sum(price) FILTER (WHERE "sendResult" = ${SendResult.SUCCESS}), 0)::bigint AS "successPrice"
    FROM recipients WHERE "batchId" = ${batchId}`;
  if (!row) throw new Error("count query returned no row");
  return row;
}

/** Closing a million unsent recipients of a terminated batch takes a while: more than the ledger's usual limit. */
const SETTLE_TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 } as const;

const STOPPED: readonly number[] = [BatchStatus.SEND_TERMINATED, BatchStatus.SEND_FAILED];

type Settled = { from: number; status: number; userId: number; firstTime: boolean; at: Date } | null;

/**
 * Writes back what the batch's outcome journals hold (outcome-journal.ts): outcomes not yet in the database, and
 * with `allIntents` (settlement: no chunk is live) the sends whose answer was lost, as lost_in_flight failures.
 */
export async function replayJournal(
  deps: Pick<WorkerDeps, "prisma" | "queues" | "logger" | "journal">,
  batchId: bigint,
  opts: { allIntents: boolean },
): Promise<number> {
  const counts = await deps.journal.replay(
    batchId,
    async (rows) => {
      const { withReceipt } = await recordSendOutcomes(deps.prisma, batchId, rows);
      await enqueueReportCallbacks(
        deps,
        withReceipt.map((recipientId) => ({ recipientId, batchId })),
      );
    },
    { allIntents: opts.allIntents },
  );
  if (counts.lostInFlight > 0) {
    deps.logger.warn(
      { batchId: batchId.toString(), lostInFlight: counts.lostInFlight },
      "sends whose answer was lost with their process: failed, not sent again",
    );
  }
  return counts.outcomes + counts.lostInFlight;
}

export async function finishBatch(deps: Deps, job: FinishBatchJob): Promise<JobResult> {
  const id = BigInt(job.batchId);
  const batch = await deps.prisma.messageBatch.findUnique({ where: { id }, select: { status: true, content: true } });
  if (!batch) {
    deps.logger.warn({ batchId: job.batchId }, "finish-batch: no such batch");
    return;
  }
  if (batch.status !== BatchStatus.SENDING && !STOPPED.includes(batch.status)) return;
  if (STOPPED.includes(batch.status) && (await deps.leases.active(job.batchId)) > 0) {
    return runAgain(deps.tuning.finishWaitMs);
  }

  // Outcomes a failed database write left in the journal count before anything is closed or refunded.
  await replayJournal(deps, id, { allIntents: true });
  // Terminated: what the provider accepted but has not delivered is withdrawn where it can be (RCS), and refunded.
  if (batch.status === BatchStatus.SEND_TERMINATED) await revokeUndelivered(deps, id);
  // Sending with a timed SMS fallback: not settled while an RCS message is inside its window (fallback-window.ts).
  if (batch.status === BatchStatus.SENDING) {
    const waitMs = await runFallbackWindow(deps, id, batch.content);
    if (waitMs !== null) return runAgain(waitMs);
  }
  const settled = await deps.prisma.$transaction((tx) => settle(tx, id), SETTLE_TX_OPTIONS);
  if (!settled) return;
  deps.logger.info({ batchId: job.batchId, status: settled.status }, "batch settled");
  if (settled.firstTime) await enqueueFinishedCallback(deps, settled.userId, job.batchId);
  if (settled.from !== settled.status) {
    await enqueueBatchStatusCallbacks(deps, [{ batchId: id, from: settled.from, to: settled.status, at: settled.at }]);
  }
}

async function settle(tx: Prisma.TransactionClient, id: bigint): Promise<Settled> {
  // The batch row is locked before its recipients are counted: a send failure reported meanwhile (a provider's
  // `failed` webhook, channel-events.ts) then either is counted here or, coming after, finds the batch settled
  // and is refunded on its own; never neither, never both.
  await tx.$executeRaw`SELECT 1 FROM message_batches WHERE id = ${id} FOR UPDATE`;
  const batch = await tx.messageBatch.findUnique({
    where: { id },
    select: {
      status: true,
      tenantId: true,
      userId: true,
      cost: true,
      refunded: true,
      finishedAt: true,
      reason: true,
    },
  });
  if (!batch) return null;

  if (batch.status === BatchStatus.SEND_TERMINATED) {
    await tx.recipient.updateMany({
      where: { batchId: id, sendResult: SendResult.NOT_SENT },
      data: { sendResult: SendResult.TERMINATED },
    });
  } else if (batch.status === BatchStatus.SEND_FAILED) {
    await tx.recipient.updateMany({
      where: { batchId: id, sendResult: SendResult.NOT_SENT },
      data: { sendResult: SendResult.FAILURE, errorCode: unsentErrorCode(batch.reason) },
    });
  } else if (batch.status !== BatchStatus.SENDING) {
    return null;
  }

  const counts = await countRecipients(tx, id);
  // Still sending with recipients left: the chunk that records the last outcome enqueues this job again.
  if (batch.status === BatchStatus.SENDING && counts.unsent > 0) return null;

  let status: number = batch.status;
  let reason: FailureReason | undefined;
  if (batch.status === BatchStatus.SENDING) {
    const allFailed = counts.total > 0 && counts.success === 0;
    status = allFailed ? BatchStatus.SEND_FAILED : BatchStatus.SEND_FINISHED;
    if (allFailed) reason = "all_recipients_failed";
    if (!canTransition(batch.status, status)) throw new Error(`illegal transition ${batch.status} -> ${status}`);
  }

  const refunded = batch.cost - counts.successPrice;
  const refund = refunded - batch.refunded;
  if (refund < 0n) {
    // More was already given back than was left undelivered: never taken back silently, a person must look.
    throw new Error(`batch ${id} refunded ${batch.refunded} but only ${refunded} is refundable`);
  }

  const at = new Date();
  const { count } = await tx.messageBatch.updateMany({
    where: { id, status: batch.status, refunded: batch.refunded },
    data: {
      status,
      sentCount: counts.success + counts.failed,
      successCount: counts.success,
      failedCount: counts.failed,
      refunded,
      finishedAt: batch.finishedAt ?? at,
      ...(reason ? { reason: failureReason(reason) } : {}),
    },
  });
  // Someone else settled or changed it between our read and this update: their outcome stands.
  if (count === 0) return null;
  if (refund > 0n) {
    await applyBalanceChange(tx, {
      tenantId: batch.tenantId,
      userId: batch.userId,
      type: BalanceLogType.REFUND,
      amount: refund,
      batchId: id,
    });
  }
  return { from: batch.status, status, userId: batch.userId, firstTime: batch.finishedAt === null, at };
}

/**
 * Settles a group of single sends (dispatch-singles.ts) in one transaction, each exactly as settle() would: the
 * batch rows locked first (in id order), then, for each still sending with nothing left unsent, counts from its
 * recipients (those within its id bounds), the refund of what did not go, the final status (22, or 24 when
 * nothing went) and finishedAt, in one statement; a refund through the ledger per batch that has one. A batch it
 * does not settle (stopped meanwhile, recipients unsent, more refunded than refundable) is left as it is: its
 * finish job settles it (or says why not).
 */
export async function settleSingles(
  deps: Pick<WorkerDeps, "prisma">,
  batchIds: readonly bigint[],
): Promise<SettledSingle[]> {
  if (batchIds.length === 0) return [];
  const ids = batchIds.map(String);
  return deps.prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<Array<{ id: bigint }>>`
      SELECT id FROM message_batches WHERE id = ANY(${ids}::bigint[]) AND status = ${BatchStatus.SENDING}
      ORDER BY id FOR UPDATE`;
    if (locked.length === 0) return [];
    const rows = await tx.$queryRaw<
      Array<{
        id: bigint;
        tenantId: number;
        userId: number;
        status: number;
        refund: bigint;
        at: Date;
        firstTime: boolean;
        notify: boolean;
      }>
    >`
      WITH c AS (
        SELECT b.id, b.cost, b.refunded, b."finishedAt" AS finished_before, k.*
        FROM message_batches b CROSS JOIN LATERAL (
          SELECT count(*)::int AS total,
                 count(*) FILTER (WHERE r."sendResult" = ${SendResult.NOT_SENT})::int AS unsent,
                 count(*) FILTER (WHERE r."sendResult" = ${SendResult.SUCCESS})::int AS success,
                 count(*) FILTER (WHERE r."sendResult" = ${SendResult.FAILURE})::int AS failed,
                 coalesce(sum(r.price) FILTER (WHERE r."sendResult" = ${SendResult.SUCCESS}), 0)::bigint AS success_price
          FROM recipients r
          WHERE r."batchId" = b.id AND r.id > b."recipientIdFrom" AND r.id < b."recipientIdTo"
        ) k
        WHERE b.id = ANY(${locked.map((l) => l.id.toString())}::bigint[]) AND b.status = ${BatchStatus.SENDING}
          AND b."recipientIdFrom" IS NOT NULL AND b."recipientIdTo" IS NOT NULL
      ), s AS (
        UPDATE message_batches b
        SET status = CASE WHEN c.total > 0 AND c.success = 0 THEN ${BatchStatus.SEND_FAILED}::smallint
                          ELSE ${BatchStatus.SEND_FINISHED}::smallint END,
            reason = CASE WHEN c.total > 0 AND c.success = 0 THEN ${failureReason("all_recipients_failed")}
                          ELSE b.reason END,
            "sentCount" = c.success + c.failed, "successCount" = c.success, "failedCount" = c.failed,
            refunded = c.cost - c.success_price, "finishedAt" = coalesce(b."finishedAt", now()), "updatedAt" = now()
        FROM c
        WHERE b.id = c.id AND c.unsent = 0 AND c.cost - c.success_price >= c.refunded
        RETURNING b.id, b."tenantId", b."userId", b.status, c.cost - c.success_price - c.refunded AS refund,
                  b."finishedAt" AS at, c.finished_before IS NULL AS "firstTime"
      )
      SELECT s.*, (u."notifyUrl" IS NOT NULL AND u."deletedAt" IS NULL) AS notify
      FROM s JOIN users u ON u.id = s."userId"`;
    for (const r of rows) {
      if (r.refund <= 0n) continue;
      await applyBalanceChange(tx, {
        tenantId: r.tenantId,
        userId: r.userId,
        type: BalanceLogType.REFUND,
        amount: r.refund,
        batchId: r.id,
      });
    }
    return rows.map((r) => ({
      batchId: r.id,
      status: r.status,
      at: r.at,
      firstTime: r.firstTime,
      notify: r.notify,
      userId: r.userId,
    }));
  }, SETTLE_TX_OPTIONS);
}

async function enqueueFinishedCallback(deps: Deps, userId: number, batchId: string): Promise<void> {
  const user = await deps.prisma.user.findUnique({ where: { id: userId }, select: { notifyUrl: true } });
  if (!user?.notifyUrl) return;
  await deps.queues.callbacks([{ userId, batchId, event: "batch_finished" }]);
}
