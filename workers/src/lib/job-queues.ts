// The producer side of the queue contract (queues.ts): one BullMQ Queue per queue name, with each queue's retry
// policy as its default job options, and typed enqueue functions that validate payloads (ids only) before they
// reach Redis. Job ids make re-enqueueing idempotent where the work is per batch or per chunk; they hold the
// batch's job key (id and creation time, batchJobKey), looked up here, so a job that an earlier life of the
// database left in Redis never blocks a new batch reusing its id.

import {
  batchJobId,
  bullQueuePrefix,
  type CallbackJob,
  callbackJob,
  callbackJobId,
  DEFAULT_RETRY_POLICIES,
  type DeliveryReportJob,
  type DispatchChunkJob,
  deliveryReportJob,
  dispatchBatchJob,
  dispatchChunkJob,
  finishBatchJob,
  ingestBatchJob,
  QUEUE,
  type QueueName,
  type QueueRetryPolicies,
  type RetryPolicy,
  retryJobOptions,
} from "@switchboard/contracts";
import { batchJobKeys, type Db } from "@switchboard/db";
import { isClustered } from "@switchboard/domain/redis";
import { type ConnectionOptions, type JobsOptions, Queue } from "bullmq";

// Batch-level and chunk jobs keep their state in the database, so a failed job is removed rather than kept:
// a kept job would block its id, and the scheduler's re-enqueue of a stuck batch would then be a silent no-op.
// Failures are logged by the worker. Callbacks and receipts keep a day of failures for inspection.
const STATE_IN_DB: JobsOptions = { removeOnComplete: true, removeOnFail: true };
const KEEP_FAILURES: JobsOptions = { removeOnComplete: true, removeOnFail: { age: 24 * 3600, count: 10_000 } };

function withRetries(policy: RetryPolicy, base: JobsOptions): JobsOptions {
  return { ...base, ...retryJobOptions(policy) };
}

/**
 * A chunk within its batch: channel and id range. A fallback round's first id is its own (a recipient falls back
 * once), so its range names it uniquely too.
 */
export const chunkName = (job: DispatchChunkJob) =>
  `${job.channelId}-${job.fromId}-${job.toId}${job.ids ? `-n${job.ids.length}` : ""}`;

export const chunkJobId = (job: DispatchChunkJob, batchKey: string) =>
  `${QUEUE.dispatchChunk}-${batchKey}-${chunkName(job)}`;

export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    connection: ConnectionOptions,
    /** BullMQ key prefix (REDIS_PREFIX without its trailing colon). */
    prefix: string,
    /** Where batches' job keys are read. */
    private readonly db: Db,
    readonly retries: QueueRetryPolicies = DEFAULT_RETRY_POLICIES,
    /** A queue's connection error (Redis away); without a listener BullMQ prints each one raw to the console. */
    onError?: (err: Error) => void,
  ) {
    const clustered = isClustered(connection);
    const make = (name: QueueName, defaultJobOptions: JobsOptions) => {
      const queue = new Queue(name, {
        connection,
        prefix: bullQueuePrefix(prefix, name, clustered),
        defaultJobOptions,
      });
      if (onError) queue.on("error", onError);
      this.queues.set(name, queue);
    };
    make(QUEUE.ingestBatch, withRetries(retries.ingestBatch, STATE_IN_DB));
    make(QUEUE.dispatchBatch, withRetries(retries.dispatchBatch, STATE_IN_DB));
    make(QUEUE.dispatchChunk, withRetries(retries.dispatchChunk, STATE_IN_DB));
    make(QUEUE.deliveryReport, withRetries(retries.deliveryReport, KEEP_FAILURES));
    make(QUEUE.finishBatch, withRetries(retries.finishBatch, STATE_IN_DB));
    make(QUEUE.callback, withRetries(retries.callback, KEEP_FAILURES));
    make(QUEUE.schedule, { removeOnComplete: true, removeOnFail: { count: 100 } });
  }

  queue(name: QueueName): Queue {
    const q = this.queues.get(name);
    if (!q) throw new Error(`no queue ${name}`);
    return q;
  }

  async ingestBatches(batchIds: readonly string[]): Promise<void> {
    await this.addBatchJobs(QUEUE.ingestBatch, batchIds, (batchId) => ingestBatchJob.parse({ batchId }));
  }

  async dispatchBatches(batchIds: readonly string[]): Promise<void> {
    await this.addBatchJobs(QUEUE.dispatchBatch, batchIds, (batchId) => dispatchBatchJob.parse({ batchId }));
  }

  async dispatchChunks(jobs: readonly DispatchChunkJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const keys = await batchJobKeys(
      this.db,
      jobs.map((j) => j.batchId),
    );
    await this.queue(QUEUE.dispatchChunk).addBulk(
      jobs.flatMap((job) => {
        const key = keys.get(job.batchId);
        return key === undefined
          ? [] // the batch is gone: nothing to send
          : [{ name: QUEUE.dispatchChunk, data: dispatchChunkJob.parse(job), opts: { jobId: chunkJobId(job, key) } }];
      }),
    );
  }

  async deliveryReport(job: DeliveryReportJob): Promise<void> {
    await this.queue(QUEUE.deliveryReport).add(QUEUE.deliveryReport, deliveryReportJob.parse(job));
  }

  /** Has these batches' finish jobs run now: a delayed one (a fallback window's wait) is promoted, else one added. */
  async finishNow(batchIds: readonly string[]): Promise<void> {
    const queue = this.queue(QUEUE.finishBatch);
    const keys = await batchJobKeys(this.db, batchIds);
    const missing: string[] = [];
    for (const [batchId, key] of keys) {
      const job = await queue.getJob(batchJobId(QUEUE.finishBatch, key));
      if (job && (await job.isDelayed())) await job.promote().catch(() => missing.push(batchId));
      else missing.push(batchId);
    }
    await this.finishBatches(missing);
  }

  async finishBatches(batchIds: readonly string[]): Promise<void> {
    await this.addBatchJobs(QUEUE.finishBatch, batchIds, (batchId) => finishBatchJob.parse({ batchId }));
  }

  /**
   * Adds one job per batch under its batch job id. BullMQ ignores an add whose id it still holds, which is the
   * point while that job waits or runs; but a finished job kept by a producer with other removal options (the
   * API's) would make it ignore the add for good, so a finished one is removed first.
   */
  private async addBatchJobs(name: QueueName, batchIds: readonly string[], data: (batchId: string) => object) {
    if (batchIds.length === 0) return;
    const queue = this.queue(name);
    const keys = await batchJobKeys(this.db, batchIds);
    const jobs = [...keys].map(([batchId, key]) => ({ batchId, jobId: batchJobId(name, key) }));
    for (const { jobId } of jobs) {
      const kept = await queue.getJob(jobId);
      const state = kept ? await kept.getState() : undefined;
      if (kept && (state === "completed" || state === "failed")) await kept.remove();
    }
    await queue.addBulk(jobs.map(({ batchId, jobId }) => ({ name, data: data(batchId), opts: { jobId } })));
  }

  async callbacks(jobs: readonly CallbackJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const keys = await batchJobKeys(
      this.db,
      jobs.flatMap((j) => (j.batchId === undefined ? [] : [j.batchId])),
    );
    await this.queue(QUEUE.callback).addBulk(
      jobs.map((job) => ({
        name: job.event,
        data: callbackJob.parse(job),
        // A callback naming no batch (an opt-out from a reply to none) is named by the user.
        opts: { jobId: callbackJobId(job, (job.batchId && keys.get(job.batchId)) || `u${job.userId}`) },
      })),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
