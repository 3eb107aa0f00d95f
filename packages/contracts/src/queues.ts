// The queues between the API and the workers, and between workers (a contract both sides import). Payloads carry ids only: never phone
// numbers or message text (DOMAIN.md, house style).
//
//   API (mode 3 upload) --ingest-batch--> ingest: parse file, numbers, prices, routes, charge, review?
//   API / scheduler      --dispatch-batch--> dispatch: status 20 -> 21, send recipients in chunks per channel
//   API (single sends)   --dispatch-singles (a Redis list, not a BullMQ queue: singlesListKey)--> a group of
//                          one-number batches started, sent and settled together (what is out of the ordinary
//                          goes back as dispatch-batch)
//   dispatch             --dispatch-chunk--> one chunk of recipients (by id range) through its channel
//   receipts (adapter)   --delivery-report--> record receive results by provider message id
//   dispatch / API stop  --finish-batch--> counts, refunds of failed/terminated recipients, final status
//   finish, receipts     --callback--> signed POST to the customer's notify URL, retried with backoff
import { z } from "zod";
import { WEBHOOK_EVENTS } from "./webhooks";

export const QUEUE = {
  ingestBatch: "ingest-batch",
  dispatchBatch: "dispatch-batch",
  dispatchChunk: "dispatch-chunk",
  deliveryReport: "delivery-report",
  finishBatch: "finish-batch",
  callback: "callback",
  schedule: "schedule",
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

/**
 * Retry policy of a queue's jobs: how often a failing job runs, and the first backoff delay (doubling after, up to
 * maxBackoffMs when given: then every later delay is maxBackoffMs).
 */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
  maxBackoffMs?: number;
}

export type QueueRetryPolicies = Record<
  "ingestBatch" | "dispatchBatch" | "dispatchChunk" | "deliveryReport" | "finishBatch" | "callback",
  RetryPolicy
>;

/**
 * The one retry table of the queues: every producer (the API's batch jobs, the workers' JobQueues) adds jobs
 * with these attempts and backoffs, so a job retries the same way whoever enqueued it.
 */
export const DEFAULT_RETRY_POLICIES: QueueRetryPolicies = {
  // the scheduler re-adds a lost one
  ingestBatch: { attempts: 3, backoffMs: 5_000 },
  dispatchBatch: { attempts: 5, backoffMs: 1_000 },
  dispatchChunk: { attempts: 5, backoffMs: 2_000 },
  // Receipts the SMSC saw acknowledged exist nowhere else: enough attempts (1 s doubling, ~68 minutes in all) to
  // outlast a database outage instead of being dropped after 15 s of it.
  deliveryReport: { attempts: 13, backoffMs: 1_000 },
  finishBatch: { attempts: 13, backoffMs: 1_000 },
  // A customer's receiver may be down for hours: 10 s doubling up to an hour (10 s, 20 s, ... 42 min 40 s), then
  // hourly, 33 attempts in all: the last one about 24 h 25 min after the first, never more than an hour apart.
  callback: { attempts: 33, backoffMs: 10_000, maxBackoffMs: 3_600_000 },
};

/**
 * BullMQ's name of the capped exponential backoff: a custom strategy, so every Worker of a queue whose policy has
 * maxBackoffMs gives BullMQ `settings.backoffStrategy` computing it (retryDelayMs).
 */
export const CAPPED_BACKOFF = "capped-exponential";

/**
 * The delay before the next run after attemptsMade failed runs (1 after the first): backoffMs doubling, capped
 * at maxBackoffMs when the policy has one.
 */
export function retryDelayMs(policy: RetryPolicy, attemptsMade: number): number {
  const delay = policy.backoffMs * 2 ** Math.max(0, attemptsMade - 1);
  return policy.maxBackoffMs === undefined ? delay : Math.min(delay, policy.maxBackoffMs);
}

/** Every delay between the runs of a job that fails each time: attempts - 1 of them. */
export const retryDelaysMs = (policy: RetryPolicy): number[] =>
  Array.from({ length: Math.max(0, policy.attempts - 1) }, (_, i) => retryDelayMs(policy, i + 1));

/**
 * A retry policy as BullMQ job options: attempts, and an exponential backoff from backoffMs (BullMQ's own), or
 * the capped one (CAPPED_BACKOFF, computed by the worker's backoffStrategy) when the policy has maxBackoffMs.
 */
export const retryJobOptions = (policy: RetryPolicy) => ({
  attempts: policy.attempts,
  backoff: {
    type: policy.maxBackoffMs === undefined ? ("exponential" as const) : CAPPED_BACKOFF,
    delay: policy.backoffMs,
  },
});

/** BigInt ids travel as decimal strings. */
const bigId = z.string().regex(/^\d{1,19}$/);

export const ingestBatchJob = z.object({ batchId: bigId });
export const dispatchBatchJob = z.object({ batchId: bigId });
/**
 * A group of single sends (the API's single-send lane, one number each) written in one transaction: sent together
 * on the dispatch-batch queue under the job name DISPATCH_SINGLES. Each batch travels with its creation time (its
 * job key: a batch of another life of the database never matches) and its one recipient's id.
 */
export const dispatchSinglesJob = z.object({
  batches: z
    .array(z.object({ batchId: bigId, createdAt: z.iso.datetime(), recipientId: bigId }))
    .min(1)
    .max(500),
});
/**
 * What a group of single sends is handed over as: an entry of a plain Redis list (singlesListKey), which the
 * workers pop. A BullMQ job cost each group about six Redis round trips in the workers (a blocking wait, three
 * moves to active, a move to finished) and a script in the API, where the list costs one push and one pop: on
 * this sending path every round trip is CPU in three processes (docs/benchmarks.md, issue 20). Nothing is lost
 * with an entry popped by a process that then dies: its batches are due in 20 (the scheduler's tick sends them)
 * or started in 21 (its stalled-batch check re-plans them, the outcome journal replayed first). Also the job
 * name such a group had on the dispatch-batch queue before, which the workers still run if they meet one.
 */
export const DISPATCH_SINGLES = "dispatch-singles";

/** The Redis list of dispatch-singles groups (JSON of dispatchSinglesJob), under the deployment's REDIS_PREFIX. */
export function singlesListKey(redisPrefix: string): string {
  return `${redisPrefix}${DISPATCH_SINGLES}`;
}
export const dispatchChunkJob = z.object({
  batchId: bigId,
  channelId: z.number().int().positive(),
  /** Recipient id range, inclusive. */
  fromId: bigId,
  toId: bigId,
  /**
   * Only these recipients of the range: an SMS fallback round sends exactly the recipients it moved. Rounds
   * interleave ids, so their ranges overlap; their id sets never do (a recipient falls back once), so two rounds'
   * chunks running at once can never send one recipient twice.
   */
  ids: z.array(bigId).max(10_000).optional(),
});
export const deliveryReportJob = z.object({
  channelId: z.number().int().positive(),
  reports: z
    .array(
      z.object({
        providerMessageId: z.string().max(64),
        status: z.enum(["delivered", "read", "undelivered", "expired", "rejected", "failed", "unknown"]),
        errorCode: z.string().max(32).optional(),
        /** The receipt's own done date (minute resolution at most SMSCs): kept for reference, not recorded. */
        doneAt: z.string().optional(),
        /** When the receipt reached us: what is recorded as its time (never before its message's send). */
        arrivedAt: z.string().optional(),
      }),
    )
    .max(5000),
});
export const finishBatchJob = z.object({ batchId: bigId });
export const callbackJob = z.object({
  userId: z.number().int().positive(),
  batchId: bigId.optional(),
  event: z.enum(WEBHOOK_EVENTS),
  /** For delivery reports: the recipient ids whose outcome is reported (the payload is built when sent). */
  recipientIds: z.array(bigId).max(1000).optional(),
  /**
   * For inbound: the stored inbound message (its text is read when the callback is sent, never queued); for
   * opt_out: the keyword reply that put its number on the list.
   */
  inboundId: bigId.optional(),
  /**
   * For batch_status: the change itself (status codes and its time, no customer data), since the batch may have
   * moved on by the time the callback is sent.
   */
  statusChange: z
    .object({
      from: z.number().int().min(0).max(99),
      to: z.number().int().min(0).max(99),
      at: z.iso.datetime(),
    })
    .optional(),
  /**
   * A resend by hand (POST /user/notify/attempts/{id}/resend): the event's own eventId, which the body carries as
   * on every automatic attempt (the job id is the resend's: `<eventId>-resend`). Absent: the job id is the eventId.
   */
  eventId: z
    .string()
    .regex(/^[\w.-]{1,200}$/)
    .optional(),
});

/**
 * One event, one job id (and the callback's eventId): a batch finishes once, a recipient's receipt is reported
 * once (the first recipient names a delivery_report event), a recipient falls back to SMS once, an inbound message
 * is stored once (and opts its number out once), a batch leaves a status once (a new send time is told apart by
 * its time). `subject` is the batch's job key (batchJobKey) when the job names a batch, else `u<userId>`.
 */
export function callbackJobId(job: CallbackJob, subject: string): string {
  const tail =
    job.event === "batch_finished"
      ? ""
      : job.event === "inbound" || job.event === "opt_out"
        ? `-in${job.inboundId}`
        : job.event === "batch_status"
          ? `-${job.statusChange?.from}-${job.statusChange?.to}-${job.statusChange ? Date.parse(job.statusChange.at) : ""}`
          : `-${job.recipientIds?.[0]}`;
  return `${QUEUE.callback}-${job.event}-${subject}${tail}`;
}

/** The job id of a resend by hand of an event: one at a time per event (BullMQ dedupes by id). */
export const callbackResendJobId = (eventId: string) => `${eventId}-resend`;

/**
 * The BullMQ job (name, data, options) that re-sends a stored event by hand: the same event and ids, its eventId
 * in the data, one attempt (its answer is listed like any attempt; the customer may press again), removed once
 * done so the next resend is never blocked by it.
 */
export function callbackResendJob(e: {
  userId: number;
  eventId: string;
  /** One of WEBHOOK_EVENTS (checked here: a stored row's text). */
  event: string;
  batchId: bigint | null;
  recipientIds: readonly bigint[];
  inboundId: bigint | null;
  fromStatus: number | null;
  toStatus: number | null;
  changedAt: Date | null;
}) {
  const data = callbackJob.parse({
    userId: e.userId,
    event: e.event,
    eventId: e.eventId,
    ...(e.batchId === null ? {} : { batchId: e.batchId.toString() }),
    ...(e.event === "delivery_report" || e.event === "message_fallback"
      ? { recipientIds: e.recipientIds.map(String) }
      : {}),
    ...(e.inboundId === null ? {} : { inboundId: e.inboundId.toString() }),
    ...(e.fromStatus === null || e.toStatus === null || e.changedAt === null
      ? {}
      : { statusChange: { from: e.fromStatus, to: e.toStatus, at: e.changedAt.toISOString() } }),
  });
  return {
    name: data.event,
    data,
    opts: { jobId: callbackResendJobId(e.eventId), attempts: 1, removeOnComplete: true, removeOnFail: true },
  };
}

/**
 * Redis channel the API publishes on after storing provider webhook events, so the workers apply them at once
 * (they poll the table anyway).
 */
export const channelEventsWakeup = (redisPrefix: string) => `${redisPrefix}channel-events`;

/**
 * Redis channel the workers publish a batch id on after writing send outcomes of that batch: the API's mode 1
 * answer (one number, waiting for the provider's outcome) wakes on it instead of polling the database.
 */
export const sendOutcomesWritten = (redisPrefix: string) => `${redisPrefix}send-outcomes`;

export type IngestBatchJob = z.infer<typeof ingestBatchJob>;
export type DispatchBatchJob = z.infer<typeof dispatchBatchJob>;
export type DispatchSinglesJob = z.infer<typeof dispatchSinglesJob>;
export type DispatchChunkJob = z.infer<typeof dispatchChunkJob>;
export type DeliveryReportJob = z.infer<typeof deliveryReportJob>;
export type FinishBatchJob = z.infer<typeof finishBatchJob>;
export type CallbackJob = z.infer<typeof callbackJob>;

/**
 * BullMQ's key prefix for a REDIS_PREFIX: BullMQ joins prefix and queue name with ":", and REDIS_PREFIX already
 * ends with one ("sb:" -> "sb", keys "sb:dispatch-batch:..."). Every producer (API) and worker must use it.
 */
export const bullPrefix = (redisPrefix: string) => redisPrefix.replace(/:+$/, "") || "bull";

/**
 * BullMQ's key prefix of one queue. On one Redis, bullPrefix (an installation's keys keep their names). On a Redis
 * Cluster `{<bullPrefix>:<queue>}`: BullMQ's scripts touch several keys of a queue at once, which must hash to one
 * slot, and the hash tag gives each queue its own slot ("sb:dispatch-batch:wait" becomes
 * "{sb:dispatch-batch}:dispatch-batch:wait"). Takes a REDIS_PREFIX or a bullPrefix (the same result).
 */
export const bullQueuePrefix = (redisPrefix: string, queue: string, clustered: boolean) =>
  clustered ? `{${bullPrefix(redisPrefix)}:${queue}}` : bullPrefix(redisPrefix);

// What the API does at its end of the contract:
//   - a batch reaching 20 (created without review, review passed): add dispatch-batch {batchId} with jobId
//     batchJobId(QUEUE.dispatchBatch, batchJobKey(id, createdAt)); not due yet or enqueue lost: the workers' scheduler starts it anyway;
//   - terminate: the conditional update 21 -> 23 (with the reason), then add finish-batch {batchId} with jobId
//     batchJobId(QUEUE.finishBatch, key). Leave finishedAt to finish-batch: it waits for chunks still sending,
//     marks the unsent recipients 3, refunds them, sets finishedAt, and sends the batch_finished callback.

/**
 * What names a batch's jobs: its id and its creation time (base 36 ms). Ids alone repeat across the life of a
 * database (recreated, or restored from a backup, while Redis keeps its queues): a new batch would meet an old
 * batch's delayed job under its own id and BullMQ would ignore its enqueue. Look keys up with batchJobKeys
 * (@switchboard/db).
 */
export const batchJobKey = (batchId: bigint | string, createdAt: Date) =>
  `${batchId}.${createdAt.getTime().toString(36)}`;

/**
 * One job id per batch for batch-level jobs: enqueueing twice is a no-op while the job exists (BullMQ dedupes by
 * id). BullMQ refuses custom ids containing ":", hence the dash.
 */
export const batchJobId = (queue: QueueName, batchKey: string) => `${queue}-${batchKey}`;
