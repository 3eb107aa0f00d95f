// Review, cancel and terminate: every one a conditional update on the status it leaves (checked against the
// status machine), so a second or parallel action finds the status changed and is refused with 409, never
// applied twice. Rejected (13) and cancelled (29) batches are refunded whole in the same transaction.
import {
  BalanceLogType,
  type BatchRow,
  type BatchScheduleBody,
  BatchStatus,
  CANCELLABLE_BATCH_STATUSES,
  canTransition,
  encodeBatchReason,
  type Lang,
  RESCHEDULABLE_BATCH_STATUSES,
  type ReviewPassBody,
  type ReviewRejectBody,
  type TerminateBody,
} from "@switchboard/contracts";
import type { Prisma } from "@switchboard/db";
import { batchRowById, isIngesting } from "@switchboard/domain/batches/batch-row";
import { checkSchedule } from "@switchboard/domain/batches/context";
import { applyBalanceChange, LEDGER_TX_OPTIONS } from "@switchboard/domain/ledger";
import { conflict } from "../../lib/errors";
import { findVisibleBatch } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import type { BatchDeps } from "../batch-submit/batch-deps";
import { discardUpload } from "../batch-submit/batch-upload";

const illegal = (from: number) => conflict("batch.illegal_transition", { from });

/**
 * Moves a batch from one of `from` to `to` with `data`, or throws 409 naming the status it is in now.
 * `extra` narrows the condition further (e.g. "its file was read").
 */
async function transition(
  tx: Prisma.TransactionClient,
  id: bigint,
  from: readonly BatchStatus[],
  to: BatchStatus,
  data: Prisma.MessageBatchUpdateManyMutationInput,
  extra: Prisma.MessageBatchWhereInput = {},
) {
  for (const f of from) if (!canTransition(f, to)) throw new Error(`status machine: ${f} -> ${to} is not legal`);
  // The status it leaves (for the batch_status callback): read under the row's lock, so the update below, on the
  // same condition, moves exactly this one.
  const [before] = await tx.$queryRaw<Array<{ status: number }>>`
    SELECT status FROM message_batches WHERE id = ${id} FOR UPDATE`;
  const rows = await tx.messageBatch.updateManyAndReturn({
    where: { id, status: { in: [...from] }, ...extra },
    data: { ...data, status: to },
    select: { tenantId: true, userId: true, cost: true, refunded: true },
  });
  const row = rows[0];
  if (row && before) return { ...row, from: before.status };
  const now = await tx.messageBatch.findUnique({ where: { id }, select: { status: true } });
  throw illegal(now?.status ?? to);
}

/** Gives back what is left of the batch's charge (cost - refunded) as one refund row. */
async function refundWhole(
  tx: Prisma.TransactionClient,
  id: bigint,
  row: { tenantId: number; userId: number; cost: bigint; refunded: bigint },
  operatorId: number,
) {
  const amount = row.cost - row.refunded;
  if (amount <= 0n) return;
  await applyBalanceChange(tx, {
    tenantId: row.tenantId,
    userId: row.userId,
    type: BalanceLogType.REFUND,
    amount,
    operatorId,
    batchId: id,
  });
  await tx.messageBatch.update({ where: { id }, data: { refunded: row.cost } });
}

async function dropPendingFile(deps: BatchDeps, filePath: string | null): Promise<void> {
  if (filePath) await discardUpload(deps.storage, filePath, deps.log);
}

async function enqueueDispatch(deps: BatchDeps, id: bigint, scheduledAt: Date | null) {
  try {
    await deps.jobs.dispatch(id, scheduledAt);
  } catch (err) {
    deps.log.error({ err, batchId: id.toString() }, "could not enqueue dispatch-batch; the scheduler will");
  }
}

/**
 * Admin (its tenant) or owning agent passes a batch under review: 11 -> 12 -> 20, optionally (re)scheduled;
 * dispatch is enqueued, delayed until the schedule. A batch whose file is still being read cannot be passed.
 */
export async function passReview(
  deps: BatchDeps,
  p: Principal,
  body: ReviewPassBody,
  now: Date,
  lang: Lang,
): Promise<BatchRow> {
  const id = BigInt(body.id);
  const batch = await findVisibleBatch(deps.prisma, p, id, { submitMode: true, filePath: true, scheduledAt: true });
  if (isIngesting(batch)) throw conflict("batch.ingesting");
  const rescheduled = body.scheduledAt ? checkSchedule(body.scheduledAt, now) : undefined;
  const scheduledAt = rescheduled === undefined ? batch.scheduledAt : rescheduled;
  await deps.prisma.$transaction(async (tx) => {
    await transition(
      tx,
      id,
      [BatchStatus.UNDER_REVIEW],
      BatchStatus.REVIEW_PASSED,
      { reviewerId: p.userId, reviewedAt: now },
      { filePath: null },
    );
    await transition(tx, id, [BatchStatus.REVIEW_PASSED], BatchStatus.PENDING_SEND, { scheduledAt });
  }, LEDGER_TX_OPTIONS);
  // One change for the customer: 12 is passed through in the same transaction. Told before the dispatch is
  // queued, so its callback is queued before the sending one.
  await deps.callbacks.batchStatusChanged([
    { batchId: id, from: BatchStatus.UNDER_REVIEW, to: BatchStatus.PENDING_SEND, at: now },
  ]);
  await enqueueDispatch(deps, id, scheduledAt);
  return batchRowById(deps.prisma, id, lang);
}

/** Admin or owning agent rejects a batch under review with a reason: 11 -> 13, refunded whole. */
export async function rejectReview(
  deps: BatchDeps,
  p: Principal,
  body: ReviewRejectBody,
  now: Date,
  lang: Lang,
): Promise<BatchRow> {
  const id = BigInt(body.id);
  const batch = await findVisibleBatch(deps.prisma, p, id, { filePath: true });
  await deps.prisma.$transaction(async (tx) => {
    const row = await transition(tx, id, [BatchStatus.UNDER_REVIEW], BatchStatus.REVIEW_REJECTED, {
      reviewerId: p.userId,
      reviewedAt: now,
      // The reviewer's own words, shown verbatim to every reader.
      reason: encodeBatchReason({ text: body.reason }),
      filePath: null,
      finishedAt: now,
    });
    await refundWhole(tx, id, row, p.userId);
  }, LEDGER_TX_OPTIONS);
  await dropPendingFile(deps, batch.filePath);
  await deps.callbacks.batchStatusChanged([
    { batchId: id, from: BatchStatus.UNDER_REVIEW, to: BatchStatus.REVIEW_REJECTED, at: now },
  ]);
  return batchRowById(deps.prisma, id, lang);
}

/** The customer cancels its own batch before it is sent: 11, 12 or 20 -> 29, refunded whole. */
export async function cancelBatch(
  deps: BatchDeps,
  p: Principal,
  batchId: string,
  now: Date,
  lang: Lang,
): Promise<BatchRow> {
  const id = BigInt(batchId);
  const batch = await findVisibleBatch(deps.prisma, p, id, { filePath: true });
  const from = await deps.prisma.$transaction(async (tx) => {
    const row = await transition(tx, id, CANCELLABLE_BATCH_STATUSES, BatchStatus.SEND_CANCELLED, {
      filePath: null,
      finishedAt: now,
    });
    await refundWhole(tx, id, row, p.userId);
    return row.from;
  }, LEDGER_TX_OPTIONS);
  await dropPendingFile(deps, batch.filePath);
  await deps.callbacks.batchStatusChanged([{ batchId: id, from, to: BatchStatus.SEND_CANCELLED, at: now }]);
  return batchRowById(deps.prisma, id, lang);
}

/**
 * Admin or owning agent stops a sending batch: 21 -> 23. The finish job (workers) closes its unsent recipients
 * (send result 3), refunds them and records the end.
 */
export async function terminateBatch(
  deps: BatchDeps,
  p: Principal,
  body: TerminateBody,
  lang: Lang,
  now: Date = new Date(),
): Promise<BatchRow> {
  const id = BigInt(body.id);
  await findVisibleBatch(deps.prisma, p, id, { id: true });
  await deps.prisma.$transaction(
    (tx) =>
      transition(tx, id, [BatchStatus.SENDING], BatchStatus.SEND_TERMINATED, {
        ...(body.reason ? { reason: encodeBatchReason({ text: body.reason }) } : {}),
      }),
    LEDGER_TX_OPTIONS,
  );
  try {
    await deps.jobs.finish(id);
  } catch (err) {
    // The stop is committed and the sending chunks see it; only the settling waits for a later finish job.
    deps.log.error({ err, batchId: id.toString() }, "could not enqueue finish-batch after a terminate");
  }
  await deps.callbacks.batchStatusChanged([
    { batchId: id, from: BatchStatus.SENDING, to: BatchStatus.SEND_TERMINATED, at: now },
  ]);
  return batchRowById(deps.prisma, id, lang);
}

/**
 * Admin or owning agent changes the send time of a batch pending send (20), or clears it to send at once:
 * one conditional update on the status, so a batch that started sending meanwhile answers 409 and keeps its
 * schedule. The waiting dispatch job is moved to the new time.
 */
export async function rescheduleBatch(
  deps: BatchDeps,
  p: Principal,
  body: BatchScheduleBody,
  now: Date,
  lang: Lang,
): Promise<BatchRow> {
  const id = BigInt(body.id);
  await findVisibleBatch(deps.prisma, p, id, { id: true });
  const scheduledAt = body.scheduledAt === null ? null : checkSchedule(body.scheduledAt, now);
  const changed = await deps.prisma.messageBatch.updateMany({
    where: { id, status: { in: [...RESCHEDULABLE_BATCH_STATUSES] } },
    data: { scheduledAt },
  });
  if (changed.count === 0) {
    const current = await deps.prisma.messageBatch.findUnique({ where: { id }, select: { status: true } });
    throw illegal(current?.status ?? BatchStatus.PENDING_SEND);
  }
  try {
    await deps.jobs.reschedule(id, scheduledAt);
  } catch (err) {
    deps.log.error({ err, batchId: id.toString() }, "could not move the dispatch job; the scheduler will");
  }
  await deps.callbacks.batchStatusChanged([
    { batchId: id, from: BatchStatus.PENDING_SEND, to: BatchStatus.PENDING_SEND, at: now },
  ]);
  return batchRowById(deps.prisma, id, lang);
}
