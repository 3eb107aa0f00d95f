// The producer side of the queue contract (queues.ts): one BullMQ Queue per queue name, with each queue's retry
// policy as its default job options, and typed enqueue functions that validate payloads (ids only) before they
// reach Redis. Job ids make re-enqueueing idempotent where the work is per batch or per chunk.

import {
  batchJobId,
  type CallbackJob,
  callbackJob,
  type DeliveryReportJob,
  type DispatchChunkJob,
  deliveryReportJob,
  dispatchBatchJob,
  dispatchChunkJob,
  finishBatchJob,
  QUEUE,
  type QueueName,
} from "@switchboard/contracts";
import { type ConnectionOptions, type JobsOptions, Queue } from "bullmq";

/** Retry policy per queue: how often a failing job runs, and the first backoff delay (doubling after). */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

export type QueueRetryPolicies = Record<
  "dispatchBatch" | "dispatchChunk" | "deliveryReport" | "finishBatch" | "callback",
  RetryPolicy
>;

export const DEFAULT_RETRY_POLICIES: QueueRetryPolicies = {
  dispatchBatch: { attempts: 5, backoffMs: 1_000 },
  dispatchChunk: { attempts: 5, backoffMs: 2_000 },
  deliveryReport: { attempts: 5, backoffMs: 1_000 },
  finishBatch: { attempts: 10, backoffMs: 1_000 },
  callback: { attempts: 6, backoffMs: 10_000 },
};

// Batch-level and chunk jobs keep their state in the database, so a failed job is removed rather than kept:
// a kept job would block its id, and the scheduler's re-enqueue of a stuck batch would then be a silent no-op.
// Failures are logged by the worker. Callbacks and receipts keep a day of failures for inspection.
const STATE_IN_DB: JobsOptions = { removeOnComplete: true, removeOnFail: true };
const KEEP_FAILURES: JobsOptions = { removeOnComplete: true, removeOnFail: { age: 24 * 3600, count: 10_000 } };

function withRetries(policy: RetryPolicy, base: JobsOptions): JobsOptions {
  return { ...base, attempts: policy.attempts, backoff: { type: "exponential", delay: policy.backoffMs } };
}

// A fallback round's first id is its own (a recipient falls back once), so its range names it uniquely too.
export const chunkJobId = (job: DispatchChunkJob) =>
  `${QUEUE.dispatchChunk}-${job.batchId}-${job.channelId}-${job.fromId}-${job.toId}${job.ids ? `-n${job.ids.length}` : ""}`;

/**
 * One event, one job id (and the callback's eventId): a batch finishes once, and a recipient's receipt is
 * reported once, so the first recipient names a delivery_report event.
 */
export function callbackJobId(job: CallbackJob): string {
  const subject = job.event === "batch_finished" ? job.batchId : `${job.batchId}-${job.recipientIds?.[0]}`;
  return `${QUEUE.callback}-${job.event}-${subject}`;
}

export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    connection: ConnectionOptions,
    /** BullMQ key prefix (REDIS_PREFIX without its trailing colon). */
    prefix: string,
    readonly retries: QueueRetryPolicies = DEFAULT_RETRY_POLICIES,
  ) {
    const make = (name: QueueName, defaultJobOptions: JobsOptions) =>
      this.queues.set(name, new Queue(name, { connection, prefix, defaultJobOptions }));
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

  async dispatchBatches(batchIds: readonly string[]): Promise<void> {
    await this.addBatchJobs(QUEUE.dispatchBatch, batchIds, (batchId) => dispatchBatchJob.parse({ batchId }));
  }

  async dispatchChunks(jobs: readonly DispatchChunkJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(QUEUE.dispatchChunk).addBulk(
      jobs.map((job) => ({
        name: QUEUE.dispatchChunk,
        data: dispatchChunkJob.parse(job),
        opts: { jobId: chunkJobId(job) },
      })),
    );
  }

  async deliveryReport(job: DeliveryReportJob): Promise<void> {
    await this.queue(QUEUE.deliveryReport).add(QUEUE.deliveryReport, deliveryReportJob.parse(job));
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
    for (const batchId of batchIds) {
      const kept = await queue.getJob(batchJobId(name, batchId));
      const state = kept ? await kept.getState() : undefined;
      if (kept && (state === "completed" || state === "failed")) await kept.remove();
    }
    await queue.addBulk(
      batchIds.map((batchId) => ({ name, data: data(batchId), opts: { jobId: batchJobId(name, batchId) } })),
    );
  }

  async callbacks(jobs: readonly CallbackJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.queue(QUEUE.callback).addBulk(
      jobs.map((job) => ({
        name: job.event,
        data: callbackJob.parse(job),
        opts: { jobId: callbackJobId(job) },
      })),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
