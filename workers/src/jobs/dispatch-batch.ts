// dispatch-batch {batchId}: starts sending a batch that is due (20 -> 21) and splits its recipients into
// dispatch-chunk jobs: per channel, consecutive runs of `chunkSize` recipients by id, never a job per recipient.
//
// Chunk boundaries are computed over ALL the batch's recipients of a channel, not only the unsent ones, so a
// second run (a retried job, or the scheduler re-enqueueing a batch that made no progress) produces the same
// ranges and therefore the same job ids: BullMQ ignores a job whose id is still queued or running, and a
// completed chunk run again finds nothing unsent in its range. Two jobs never send the same recipient.

//
// A batch of at most `inlineChunkMax` recipients on one channel (a single send of the developer API, a
// transactional alert) is sent right here instead: the one chunk runs in this job and the batch is settled in
// it, so a one-message batch costs one job instead of three (dispatch, chunk, finish) and waits on no queue.
// When the inline run cannot finish (the channel refuses for now, another worker holds the chunk), the chunk is
// handed to the queue as any other, with its retries and backoff.

import type { DispatchBatchJob, DispatchChunkJob } from "@switchboard/contracts";
import { BatchStatus, SendResult } from "@switchboard/contracts";
import { ChannelUnusable } from "../lib/adapter-pool";
import type { WorkerDeps } from "../lib/deps";
import { isRunAgain } from "../lib/job-result";
import { enqueueBatchStatusCallbacks } from "./callback";
import { ChunkIncomplete, dispatchChunk } from "./dispatch-chunk";

type Deps = WorkerDeps;

/** Error code of recipients that have no channel to go through (routing found none when the batch was made). */
export const NO_CHANNEL = "NO_CHANNEL";

export async function dispatchBatch(deps: Deps, job: DispatchBatchJob): Promise<void> {
  const id = BigInt(job.batchId);
  const now = new Date();
  const started = await deps.prisma.messageBatch.updateMany({
    where: {
      id,
      status: BatchStatus.PENDING_SEND,
      OR: [{ scheduledAt: null }, { scheduledAt: { lte: now } }],
    },
    data: { status: BatchStatus.SENDING, startedAt: now },
  });
  if (started.count === 0) {
    // Not due yet (the scheduler comes back for it), gone, or already sending: only the last is ours to continue.
    const batch = await deps.prisma.messageBatch.findUnique({ where: { id }, select: { status: true } });
    if (batch?.status !== BatchStatus.SENDING) return;
    // Marks the re-plan as progress, so the scheduler's stalled-batch sweep does not re-plan it every tick.
    await deps.prisma.messageBatch.update({ where: { id }, data: { updatedAt: now } });
  } else {
    deps.logger.info({ batchId: job.batchId }, "batch sending");
    await enqueueBatchStatusCallbacks(deps, [
      { batchId: id, from: BatchStatus.PENDING_SEND, to: BatchStatus.SENDING, at: now },
    ]);
  }

  await failUnroutable(deps, id);
  const chunks = await planChunks(deps, id);
  if (chunks.length === 0) {
    await deps.queues.finishBatches([job.batchId]);
    return;
  }
  const [only] = chunks;
  if (chunks.length === 1 && only && only.unsent <= deps.tuning.inlineChunkMax) {
    await sendInline(deps, only.job);
    return;
  }
  await deps.queues.dispatchChunks(chunks.map((c) => c.job));
}

/** Sends a small batch's one chunk in this job, settling the batch here when it is done. */
async function sendInline(deps: Deps, chunk: DispatchChunkJob): Promise<void> {
  try {
    // One attempt of two: a chunk the channel does not take completely throws ChunkIncomplete instead of
    // failing the batch, and the queue's retries take over.
    const result = await dispatchChunk(deps, chunk, { number: 1, max: 2 }, { settle: "inline" });
    if (isRunAgain(result)) await deps.queues.dispatchChunks([chunk]);
  } catch (err) {
    // A channel that refuses for now (or is paused): the chunk job's own retries and backoff deal with it.
    if (!(err instanceof ChunkIncomplete || (err instanceof ChannelUnusable && err.retryable))) throw err;
    await deps.queues.dispatchChunks([chunk]);
  }
}

/** Recipients without a channel cannot be sent: recorded as failures (refunded when the batch is settled). */
async function failUnroutable(deps: Deps, id: bigint): Promise<void> {
  const changed = await deps.prisma.$executeRaw`
    WITH u AS (
      UPDATE recipients SET "sendResult" = ${SendResult.FAILURE}, "errorCode" = ${NO_CHANNEL}
      WHERE "batchId" = ${id} AND "channelId" IS NULL AND "sendResult" = ${SendResult.NOT_SENT}
      RETURNING 1
    )
    UPDATE message_batches
    SET "sentCount" = "sentCount" + (SELECT count(*) FROM u), "failedCount" = "failedCount" + (SELECT count(*) FROM u)
    WHERE id = ${id} AND EXISTS (SELECT 1 FROM u)`;
  if (changed > 0) deps.logger.warn({ batchId: id.toString() }, "recipients without a channel marked failed");
}

async function planChunks(deps: Deps, id: bigint): Promise<Array<{ job: DispatchChunkJob; unsent: number }>> {
  const rows = await deps.prisma.$queryRaw<Array<{ channelId: number; fromId: bigint; toId: bigint; unsent: number }>>`
    SELECT "channelId", min(id) AS "fromId", max(id) AS "toId",
           count(*) FILTER (WHERE "sendResult" = ${SendResult.NOT_SENT})::int AS unsent
    FROM (
      SELECT id, "channelId", "sendResult",
             (row_number() OVER (PARTITION BY "channelId" ORDER BY id) - 1) / ${deps.tuning.chunkSize} AS n
      FROM recipients
      WHERE "batchId" = ${id} AND "channelId" IS NOT NULL
    ) r
    GROUP BY "channelId", n
    HAVING bool_or("sendResult" = ${SendResult.NOT_SENT})
    ORDER BY "channelId", n`;
  const batchId = id.toString();
  return rows.map((r) => ({
    job: { batchId, channelId: r.channelId, fromId: r.fromId.toString(), toId: r.toId.toString() },
    unsent: r.unsent,
  }));
}
