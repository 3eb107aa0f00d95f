// batch_status callbacks (the webhook catalogue, packages/contracts/src/webhooks.ts): who is told of a batch's
// status change, and the producer the API enqueues them with (the workers add theirs through their JobQueues,
// with the same job ids and retry policy).
//
// Every change is enqueued after the transaction that made it committed, never inside it: a rolled-back change
// posts nothing. A customer without a notify URL costs nothing (no job). The job carries the batch id and the
// change (its old and new status codes, its time) only; the body is built from the database when it is sent.
import {
  batchStatusChange,
  bullQueuePrefix,
  type CallbackJob,
  callbackJob,
  callbackJobId,
  DEFAULT_RETRY_POLICIES,
  QUEUE,
  retryJobOptions,
} from "@switchboard/contracts";
import { batchJobKeys, type Db } from "@switchboard/db";
import { type JobsOptions, Queue } from "bullmq";
import { isClustered, type RedisConnection } from "./redis";

export interface BatchStatusChanged {
  batchId: bigint;
  from: number;
  to: number;
  at: Date;
}

/**
 * The batch_status jobs for these committed changes: one per change the catalogue names (batchStatusChange), to
 * the batch's owner when it has a notify URL.
 */
export async function batchStatusCallbacks(db: Db, changes: readonly BatchStatusChanged[]): Promise<CallbackJob[]> {
  const reported = changes.filter((c) => batchStatusChange(c.from, c.to) !== null);
  if (reported.length === 0) return [];
  const owners = await db.messageBatch.findMany({
    where: {
      id: { in: [...new Set(reported.map((c) => c.batchId))] },
      user: { notifyUrl: { not: null }, deletedAt: null },
    },
    select: { id: true, userId: true },
  });
  const ownerOf = new Map(owners.map((b) => [b.id, b.userId]));
  return reported.flatMap((c) => {
    const userId = ownerOf.get(c.batchId);
    if (userId === undefined) return [];
    return [
      {
        userId,
        batchId: c.batchId.toString(),
        event: "batch_status" as const,
        statusChange: { from: c.from, to: c.to, at: c.at.toISOString() },
      },
    ];
  });
}

/** The callback queue's job options, as the workers' producer has them (failures kept a day for inspection). */
export const CALLBACK_JOB_OPTIONS: JobsOptions = {
  ...retryJobOptions(DEFAULT_RETRY_POLICIES.callback),
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

export interface CallbackJobs {
  /** batch_status callbacks for changes just committed (never throws: a lost callback must not undo the change). */
  batchStatusChanged(changes: readonly BatchStatusChanged[]): Promise<void>;
  close(): Promise<void>;
}

/** The callback queue on an existing Redis connection (not closed here: its owner closes it). */
export function bullCallbackJobs(
  connection: RedisConnection,
  redisPrefix: string,
  db: Db,
  onError: (err: unknown) => void,
): CallbackJobs {
  let queue: Queue | undefined;
  const callbacks = () => {
    queue ??= new Queue(QUEUE.callback, {
      connection,
      prefix: bullQueuePrefix(redisPrefix, QUEUE.callback, isClustered(connection)),
    });
    return queue;
  };
  return {
    batchStatusChanged: async (changes) => {
      try {
        const jobs = await batchStatusCallbacks(db, changes);
        if (jobs.length === 0) return;
        const keys = await batchJobKeys(
          db,
          jobs.flatMap((j) => (j.batchId === undefined ? [] : [j.batchId])),
        );
        await callbacks().addBulk(
          jobs.map((job) => ({
            name: job.event,
            data: callbackJob.parse(job),
            opts: {
              ...CALLBACK_JOB_OPTIONS,
              jobId: callbackJobId(job, (job.batchId && keys.get(job.batchId)) || `u${job.userId}`),
            },
          })),
        );
      } catch (err) {
        onError(err);
      }
    },
    close: async () => {
      await queue?.close();
      queue = undefined;
    },
  };
}
