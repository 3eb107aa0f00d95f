// The jobs the API's batch routes hand to the workers, always after their transaction committed: ingest a file
// (mode 3), dispatch a batch that reached 20 (delayed until its schedule), finish a terminated one.
// Payloads carry the batch id only (house style). One BullMQ job id per batch and queue, so enqueueing twice
// while the job waits is a no-op; the id holds the batch's job key (id and creation time, batchJobKey), so a job
// left in Redis by an earlier life of the database never blocks a new batch that reuses its id.
//
// The queue names, payload shapes and retry policies are the queue contract (@switchboard/contracts queues.ts),
// shared with the workers.

import {
  batchJobId,
  batchJobKey,
  bullPrefix,
  bullQueuePrefix,
  DEFAULT_RETRY_POLICIES,
  type DispatchSinglesJob,
  dispatchSinglesJob,
  QUEUE,
  type QueueName,
  type RetryPolicy,
  retryJobOptions,
  singlesListKey,
} from "@switchboard/contracts";
import { batchJobKeys, type Db } from "@switchboard/db";
import { type JobsOptions, Queue } from "bullmq";
import { isClustered, type RedisConnection } from "../redis";

/** BullMQ's key prefix for a REDIS_PREFIX: the workers' rule, so both sides meet on the same queues. */
export { bullPrefix };

export interface BatchJobs {
  ingest(batchId: bigint): Promise<void>;
  /** scheduledAt in the future: the job waits until then. */
  dispatch(batchId: bigint, scheduledAt: Date | null): Promise<void>;
  /** Batches due now whose creation time the caller holds (no read for their job keys), in one round trip. */
  dispatchNow(batches: ReadonlyArray<{ id: bigint; createdAt: Date }>): Promise<void>;
  /**
   * Single sends of one number each, due now, as one group (the workers start, send and settle them together):
   * one entry of the singles list (singlesListKey), one round trip.
   */
  dispatchSingles(batches: ReadonlyArray<{ id: bigint; createdAt: Date; recipientId: bigint }>): Promise<void>;
  /**
   * A new schedule for a batch already in 20: a dispatch job still waiting gets the new delay, else one is
   * added. (A job that fires early finds the batch not due and does nothing; the scheduler comes back for it.)
   */
  reschedule(batchId: bigint, scheduledAt: Date | null): Promise<void>;
  finish(batchId: bigint): Promise<void>;
  close(): Promise<void>;
}

/**
 * Retries from the queues' one table (DEFAULT_RETRY_POLICIES, as the workers' own producer uses it); batch state
 * lives in the database, so finished jobs are dropped and a later enqueue of the same id is never blocked.
 */
const stateInDb = (policy: RetryPolicy): JobsOptions => ({
  ...retryJobOptions(policy),
  removeOnComplete: true,
  removeOnFail: true,
});
const JOB_OPTIONS: Record<"ingest" | "dispatch" | "finish", JobsOptions> = {
  ingest: stateInDb(DEFAULT_RETRY_POLICIES.ingestBatch),
  dispatch: stateInDb(DEFAULT_RETRY_POLICIES.dispatchBatch),
  finish: stateInDb(DEFAULT_RETRY_POLICIES.finishBatch),
};

/** BullMQ queues on an existing Redis connection (not closed here: its owner closes it). */
export function bullBatchJobs(
  connection: RedisConnection,
  redisPrefix: string,
  db: Db,
  now: () => number = Date.now,
): BatchJobs {
  const queues = new Map<QueueName, Queue>();
  const queue = (name: QueueName) => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection, prefix: bullQueuePrefix(redisPrefix, name, isClustered(connection)) });
      queues.set(name, q);
    }
    return q;
  };
  /** The batch's job id in a queue; undefined when the batch is gone (nothing to run). */
  const jobId = async (name: QueueName, batchId: bigint) => {
    const key = (await batchJobKeys(db, [batchId])).get(batchId.toString());
    return key === undefined ? undefined : batchJobId(name, key);
  };
  const add = async (name: QueueName, batchId: bigint, opts: JobsOptions) => {
    const id = await jobId(name, batchId);
    if (id !== undefined) await queue(name).add(name, { batchId: batchId.toString() }, { ...opts, jobId: id });
  };
  return {
    ingest: (batchId) => add(QUEUE.ingestBatch, batchId, JOB_OPTIONS.ingest),
    dispatch: (batchId, scheduledAt) =>
      add(QUEUE.dispatchBatch, batchId, {
        ...JOB_OPTIONS.dispatch,
        delay: scheduledAt ? Math.max(0, scheduledAt.getTime() - now()) : 0,
      }),
    dispatchNow: async (batches) => {
      if (batches.length === 0) return;
      await queue(QUEUE.dispatchBatch).addBulk(
        batches.map((b) => ({
          name: QUEUE.dispatchBatch,
          data: { batchId: b.id.toString() },
          opts: { ...JOB_OPTIONS.dispatch, jobId: batchJobId(QUEUE.dispatchBatch, batchJobKey(b.id, b.createdAt)) },
        })),
      );
    },
    dispatchSingles: async (batches) => {
      if (batches.length === 0) return;
      const data: DispatchSinglesJob = {
        batches: batches.map((b) => ({
          batchId: b.id.toString(),
          createdAt: b.createdAt.toISOString(),
          recipientId: b.recipientId.toString(),
        })),
      };
      // A list entry, not a job (DISPATCH_SINGLES says why); the workers pop from the other end, oldest first.
      await connection.lpush(singlesListKey(redisPrefix), JSON.stringify(dispatchSinglesJob.parse(data)));
    },
    reschedule: async (batchId, scheduledAt) => {
      const delay = scheduledAt ? Math.max(0, scheduledAt.getTime() - now()) : 0;
      const id = await jobId(QUEUE.dispatchBatch, batchId);
      const job = id === undefined ? undefined : await queue(QUEUE.dispatchBatch).getJob(id);
      if (job && (await job.isDelayed())) {
        try {
          await job.changeDelay(delay);
          return;
        } catch {
          // It left the delayed set meanwhile (ran or was removed): fall through to a fresh add.
        }
      }
      await add(QUEUE.dispatchBatch, batchId, { ...JOB_OPTIONS.dispatch, delay });
    },
    finish: (batchId) => add(QUEUE.finishBatch, batchId, JOB_OPTIONS.finish),
    close: async () => {
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
    },
  };
}
