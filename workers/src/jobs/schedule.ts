// schedule (repeatable, every few seconds): the safety net that makes every batch move on even when a job was
// lost or a time came due. Everything it enqueues has a per-batch job id, so a tick that finds the same batch
// as the last one adds nothing.
//   - 20 pending send, unscheduled or due            -> dispatch-batch
//   - 21 sending with no unsent recipient left       -> finish-batch (its last chunk's enqueue was lost)
//   - 23 / 24 stopped but not settled (no finishedAt) -> finish-batch
//   - 21 sending, recipients left, no progress for stalledBatchMs -> dispatch-batch again (lost chunk jobs; the
//     chunk plan is deterministic, so chunks still queued or running are not duplicated)
//   - 11 a file batch still ingesting with no progress for stalledBatchMs -> ingest-batch again (the API died
//     between creating the batch and queueing its ingest; one still running holds its job id, so none doubles)
//   - outcomes kept in the journal while the database was away -> written back (outcome-journal.ts)
//   - batch number files no batch names, untouched for an hour -> removed (upload-sweep.ts; every 10 minutes)
//   - recipients partitions for the ids to come -> created ahead (recipient-partitions.ts; every minute)
import { BatchStatus, SendResult, SubmitMode } from "@switchboard/contracts";
import type { WorkerDeps } from "../lib/deps";
import { RECOVERY_STALL_MS, recoveringKey } from "../lib/scheduler-guard";
import { replayJournal } from "./finish-batch";
import { ensureRecipientPartitions } from "./recipient-partitions";
import { sweepUploads } from "./upload-sweep";

type Deps = Pick<
  WorkerDeps,
  "prisma" | "queues" | "logger" | "tuning" | "redis" | "redisPrefix" | "storage" | "journal"
>;

/** Batches handled per kind and tick; the rest wait for the next tick. */
const PER_TICK = 1_000;

export async function scheduleTick(deps: Deps, now = new Date()): Promise<void> {
  // Outcomes the database could not take while it was away go in first: receipts waiting for them match, and
  // no chunk sends their recipients again.
  for (const batchId of await deps.journal.batches()) {
    // outcomes only: an intent's chunk may be running (its own next run writes it back)
    const n = await replayJournal(deps, BigInt(batchId), { allIntents: false });
    if (n > 0) deps.logger.warn({ batchId, outcomes: n }, "outcomes kept while the database was away written back");
    else await deps.journal.unlistIfEmpty(batchId);
  }

  const due = await deps.prisma.messageBatch.findMany({
    where: { status: BatchStatus.PENDING_SEND, OR: [{ scheduledAt: null }, { scheduledAt: { lte: now } }] },
    select: { id: true },
    orderBy: { id: "asc" },
    take: PER_TICK,
  });

  const toFinish = await deps.prisma.$queryRaw<Array<{ id: bigint }>>`
    SELECT b.id FROM message_batches b
    WHERE (b.status = ${BatchStatus.SENDING} AND NOT EXISTS (
            SELECT 1 FROM recipients r WHERE r."batchId" = b.id AND r."sendResult" = ${SendResult.NOT_SENT}))
       OR (b.status IN (${BatchStatus.SEND_TERMINATED}, ${BatchStatus.SEND_FAILED}) AND b."finishedAt" IS NULL)
    ORDER BY b.id LIMIT ${PER_TICK}`;

  // Just after Redis lost its data (scheduler-guard.ts), lost chunk jobs are found sooner.
  const recovering = (await deps.redis.exists(recoveringKey(deps.redisPrefix))) === 1;
  const stallMs = recovering ? Math.min(RECOVERY_STALL_MS, deps.tuning.stalledBatchMs) : deps.tuning.stalledBatchMs;
  const stalledSince = new Date(now.getTime() - stallMs);
  const stalled = await deps.prisma.$queryRaw<Array<{ id: bigint }>>`
    SELECT b.id FROM message_batches b
    WHERE b.status = ${BatchStatus.SENDING} AND b."updatedAt" < ${stalledSince}
      AND EXISTS (SELECT 1 FROM recipients r WHERE r."batchId" = b.id AND r."sendResult" = ${SendResult.NOT_SENT})
    ORDER BY b.id LIMIT ${PER_TICK}`;
  if (stalled.length > 0) deps.logger.warn({ batches: stalled.length }, "sending batches without progress: re-planned");

  const ingestStalled = await deps.prisma.messageBatch.findMany({
    where: {
      status: BatchStatus.UNDER_REVIEW,
      submitMode: SubmitMode.FILE,
      filePath: { not: null },
      updatedAt: { lt: stalledSince },
    },
    select: { id: true },
    orderBy: { id: "asc" },
    take: PER_TICK,
  });
  if (ingestStalled.length > 0)
    deps.logger.warn({ batches: ingestStalled.length }, "file batches not being read: ingest queued again");

  await deps.queues.ingestBatches(ingestStalled.map((b) => b.id.toString()));
  await deps.queues.dispatchBatches([...due, ...stalled].map((b) => b.id.toString()));
  await deps.queues.finishBatches(toFinish.map((b) => b.id.toString()));
  await sweepUploads(deps, now.getTime()).catch((err: unknown) => deps.logger.warn({ err }, "upload sweep failed"));
  await ensureRecipientPartitions(deps).catch((err: unknown) =>
    deps.logger.warn({ err }, "recipients partitions could not be created ahead"),
  );
}
