// One BullMQ Worker per queue, each calling its job handler (jobs/*.ts) with the process's deps. The handlers
// are plain functions so tests can call them directly too; this file adds what only BullMQ knows: payload
// validation, attempt numbers, "run again later" (moved to delayed without counting a failure), and logging.

import {
  bullQueuePrefix,
  callbackJob,
  callbackJobId,
  DISPATCH_SINGLES,
  deliveryReportJob,
  dispatchBatchJob,
  dispatchChunkJob,
  dispatchSinglesJob,
  finishBatchJob,
  ingestBatchJob,
  QUEUE,
  type QueueName,
  type QueueRetryPolicies,
  retryDelayMs,
} from "@switchboard/contracts";
import { batchJobKeys } from "@switchboard/db";
import { redisRetryStrategy } from "@switchboard/domain/outage-log";
import { duplicateRedis, isClustered, type RedisConnection } from "@switchboard/domain/redis";
import { DelayedError, type Job, Worker } from "bullmq";
import type { z } from "zod";
import { deliverCallback } from "./jobs/callback";
import { ChannelEventLoop } from "./jobs/channel-events";
import { recordDeliveryReports } from "./jobs/delivery-report";
import { dispatchBatch } from "./jobs/dispatch-batch";
import { dispatchChunk } from "./jobs/dispatch-chunk";
import { dispatchSingles } from "./jobs/dispatch-singles";
import { finishBatch } from "./jobs/finish-batch";
import { ingestBatch, ingestBatchFailed } from "./jobs/ingest-batch";
import { scheduleTick } from "./jobs/schedule";
import type { WorkerDeps } from "./lib/deps";
import { isRunAgain } from "./lib/job-result";
import { ReceiptListeners } from "./lib/receipt-listeners";
import { SchedulerGuard } from "./lib/scheduler-guard";
import { SinglesQueue } from "./lib/singles-queue";

/** Jobs one worker process runs at once, per queue. Chunks mostly wait on the network, callbacks on customers. */
export const DEFAULT_CONCURRENCY: Partial<Record<QueueName, number>> = {
  // Small batches are sent inside their dispatch-batch job (dispatch-batch.ts): many at once, like chunks.
  [QUEUE.dispatchBatch]: 16,
  [QUEUE.dispatchChunk]: 8,
  // 4: with 2, receipts fell seconds behind the sends in bench:batch (p50 lag 6.3 s -> 0.4 s).
  [QUEUE.deliveryReport]: 4,
  [QUEUE.finishBatch]: 2,
  [QUEUE.callback]: 16,
  [QUEUE.schedule]: 1,
};

/** Groups of single sends one worker process runs at once (singles-queue.ts): as many as dispatch-batch jobs. */
const SINGLES_CONCURRENCY = 16;

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for the jobs in hand (a chunk finishes what it started). */
  close(): Promise<void>;
}

/** Resolves with a RunAgain to be run again later; anything else means done. */
type Processor = (job: Job) => Promise<unknown>;

function attemptOf(job: Job) {
  // attemptsStarted counts every run, those moved to run again later too (a chunk handed on: dispatch-chunk.ts).
  return { number: job.attemptsMade + 1, max: job.opts.attempts ?? 1, runs: job.attemptsStarted };
}

/**
 * Whether a job was left in Redis by an earlier life of the database (recreated, or restored from a backup): its
 * id holds the job key of a batch that no longer exists as it was (batchJobKey: id and creation time), so it would
 * act on another batch that reuses the id. Only ids of our own scheme (`<queue>-...`) are checked.
 */
async function fromAnotherDatabase(deps: WorkerDeps, name: QueueName, job: Job): Promise<boolean> {
  const batchId = (job.data as { batchId?: unknown }).batchId;
  if (typeof batchId !== "string" || !job.id?.startsWith(`${name}-`)) return false;
  const key = (await batchJobKeys(deps.prisma, [batchId])).get(batchId);
  if (key !== undefined && (job.id.endsWith(`-${key}`) || job.id.includes(`-${key}-`))) return false;
  deps.logger.warn({ queue: name, jobId: job.id }, "a job of a batch this database does not have: dropped");
  return true;
}

/** Queues whose jobs name a batch by its job key. */
const KEYED: readonly QueueName[] = [
  QUEUE.ingestBatch,
  QUEUE.dispatchBatch,
  QUEUE.dispatchChunk,
  QUEUE.finishBatch,
  QUEUE.callback,
];

function processors(deps: WorkerDeps): Partial<Record<QueueName, Processor>> {
  const all = handlers(deps);
  for (const name of KEYED) {
    const handle = all[name];
    if (handle) all[name] = async (job) => ((await fromAnotherDatabase(deps, name, job)) ? undefined : handle(job));
  }
  return all;
}

function handlers(deps: WorkerDeps): Partial<Record<QueueName, Processor>> {
  const parse = <S extends z.ZodType>(schema: S, job: Job): z.infer<S> => schema.parse(job.data);
  return {
    // Groups of single sends come through their own list (singles-queue.ts); one met here was queued as a job by
    // an API of an earlier version.
    [QUEUE.dispatchBatch]: async (job) =>
      job.name === DISPATCH_SINGLES
        ? dispatchSingles(deps, parse(dispatchSinglesJob, job))
        : dispatchBatch(deps, parse(dispatchBatchJob, job)),
    [QUEUE.dispatchChunk]: async (job) => dispatchChunk(deps, parse(dispatchChunkJob, job), attemptOf(job)),
    [QUEUE.finishBatch]: async (job) => finishBatch(deps, parse(finishBatchJob, job)),
    [QUEUE.deliveryReport]: async (job) => {
      const data = parse(deliveryReportJob, job);
      // attemptsStarted counts every run, delayed re-runs included: it bounds how long receipts wait for their
      // submit outcome.
      const delay = deps.tuning.reportRetryDelaysMs[job.attemptsStarted - 1];
      // First run: exact ids only; a receipt that overtook its submit outcome waits for the re-run. Last run: an
      // SMSC id restart no longer splits the candidates (delivery-report.ts).
      const { unmatched } = await recordDeliveryReports(deps, data, {
        firstRun: job.attemptsStarted <= 1,
        lastRun: delay === undefined,
      });
      if (unmatched.length === 0) return;
      if (delay === undefined) {
        deps.logger.warn({ channelId: data.channelId, unmatched: unmatched.length }, "receipts matched no message");
        return;
      }
      return { runAgainInMs: delay, data: { channelId: data.channelId, reports: unmatched } };
    },
    [QUEUE.callback]: async (job) => {
      const data = parse(callbackJob, job);
      await deliverCallback(deps, data, {
        // A resend by hand carries its event's id (its job id is its own); otherwise the job id is the eventId.
        eventId: data.eventId ?? job.id ?? callbackJobId(data, data.batchId ?? `u${data.userId}`),
        attempt: job.attemptsMade + 1,
        manual: data.eventId !== undefined,
      });
    },
    [QUEUE.schedule]: async () => scheduleTick(deps),
    [QUEUE.ingestBatch]: async (job) => {
      const data = parse(ingestBatchJob, job);
      try {
        return await ingestBatch(deps, data);
      } catch (err) {
        // Retries spent: the batch is refused (11 -> 13) rather than left waiting for a file nobody reads.
        const { number, max } = attemptOf(job);
        if (number >= max) await ingestBatchFailed(deps, data);
        throw err;
      }
    },
  };
}

/**
 * The capped exponential backoff (CAPPED_BACKOFF) of a queue whose retry policy has maxBackoffMs: BullMQ asks the
 * Worker's settings.backoffStrategy for every job whose backoff type is not one of its own. The delay starts from
 * the job's own backoff delay (its producer's policy), capped by this process's policy of the queue.
 */
function backoffStrategy(retries: QueueRetryPolicies, name: QueueName) {
  const key = (Object.keys(QUEUE) as Array<keyof typeof QUEUE>).find((k) => QUEUE[k] === name);
  const policy = key && key !== "schedule" ? retries[key] : undefined;
  return (attemptsMade: number, _type?: string, _err?: Error, job?: { opts: { backoff?: unknown } }) => {
    const backoff = job?.opts.backoff;
    const delay =
      typeof backoff === "object" && backoff !== null && typeof (backoff as { delay?: unknown }).delay === "number"
        ? (backoff as { delay: number }).delay
        : (policy?.backoffMs ?? 1_000);
    return retryDelayMs({ attempts: 0, backoffMs: delay, maxBackoffMs: policy?.maxBackoffMs }, attemptsMade);
  };
}

/**
 * A job whose worker died (SIGKILL, a crash, a lost machine) is handed to another worker once its lock has
 * lapsed and a stalled-job check has seen it: at most lockDuration + stalledInterval, 20 s here instead of
 * BullMQ's 60 s. Locks are renewed every lockDuration / 2 by a timer, which a busy event loop still serves
 * (a chunk never blocks it for seconds); a job wrongly taken for stalled would meet its chunk's lease anyway.
 */
const JOB_LOCKS = { lockDuration: 15_000, stalledInterval: 5_000 } as const;

export interface StartOptions {
  concurrency?: Partial<Record<QueueName, number>>;
  /**
   * Run the scheduler's repeatable tick (default true). Off for a process that should only work the queues it
   * is given, e.g. a test sharing its database with others.
   */
  scheduler?: boolean;
  /**
   * Bind the SMPP channels awaiting receipts (default true). Off, or limited to some channels, for tests that
   * share their database with others.
   */
  receiptListeners?: boolean | { channelIds: readonly number[] };
}

export async function startWorkers(deps: WorkerDeps, opts: StartOptions = {}): Promise<RunningWorkers> {
  const concurrency = { ...DEFAULT_CONCURRENCY, ...opts.concurrency };
  const scheduler = opts.scheduler ?? true;
  // Reconnects at the pace the outage line announces (outage-log.ts), not BullMQ's own.
  const options = { maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy };
  // On a Redis Cluster BullMQ needs a Cluster instance (it cannot tell cluster options from a Redis's): each worker
  // gets its own, closed after it; on one Redis, options from which BullMQ opens (and closes) its own connections.
  const clustered = isClustered(deps.redis);
  const owned: RedisConnection[] = [];
  const connectionFor = () => {
    if (!clustered) return { url: deps.redisUrl, ...options };
    const conn = duplicateRedis(deps.redis, options);
    owned.push(conn);
    return conn;
  };
  const workers: Worker[] = [];
  for (const [name, handle] of Object.entries(processors(deps)) as Array<[QueueName, Processor]>) {
    if (name === QUEUE.schedule && !scheduler) continue;
    const took = {
      completed: deps.metrics.jobDuration.labels(name, "completed"),
      failed: deps.metrics.jobDuration.labels(name, "failed"),
      delayed: deps.metrics.jobDuration.labels(name, "delayed"),
    };
    const worker = new Worker(
      name,
      async (job, token) => {
        const started = performance.now();
        const seconds = () => (performance.now() - started) / 1000;
        let result: unknown;
        try {
          result = await handle(job);
        } catch (err) {
          took.failed.observe(seconds());
          throw err;
        }
        if (!isRunAgain(result)) {
          took.completed.observe(seconds());
          return;
        }
        took.delayed.observe(seconds());
        if (result.data !== undefined) await job.updateData(result.data);
        await job.moveToDelayed(Date.now() + result.runAgainInMs, token);
        throw new DelayedError();
      },
      {
        connection: connectionFor(),
        prefix: bullQueuePrefix(deps.redisPrefix, name, clustered),
        concurrency: concurrency[name] ?? 1,
        ...JOB_LOCKS,
        settings: { backoffStrategy: backoffStrategy(deps.tuning.retries, name) },
      },
    );
    worker.on("failed", (job, err) => {
      const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      // A failure because PostgreSQL or Redis is away is the outage's line (at a bounded rate), not one per job;
      // only a job that spent several attempts on it is still named (the scheduler's ticks have one each).
      if (deps.outages.report(err) && (!final || (job?.opts.attempts ?? 1) <= 1)) return;
      deps.logger[final ? "error" : "warn"](
        { queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: { name: err.name, message: err.message } },
        final ? "job failed for good" : "job failed; will retry",
      );
    });
    // Its connections' errors while Redis is away: the outage's one line, not a stack per reconnect attempt.
    worker.on("error", (err) => {
      if (!deps.outages.report(err)) deps.logger.error({ queue: name, err }, "worker error");
    });
    workers.push(worker);
  }
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  // Upserted on every start, so there is one repeatable job however many worker processes run; each process
  // re-creates it if Redis loses it (scheduler-guard.ts).
  const guard = new SchedulerGuard(deps);
  if (scheduler) await guard.start();

  // The API's groups of single sends: a Redis list, not a BullMQ queue (singles-queue.ts).
  const singles = new SinglesQueue(deps, SINGLES_CONCURRENCY);
  singles.start();

  // Provider webhook events (RCS, WhatsApp) are a table the API fills, not a BullMQ queue: see channel-events.ts.
  const events = new ChannelEventLoop(deps);
  await events.start();
  // Receipts waiting at an SMSC come in without a batch sending (receipt-listeners.ts).
  const listen = opts.receiptListeners ?? true;
  const listeners = new ReceiptListeners(
    deps,
    deps.tuning.receiptListenEveryMs,
    typeof listen === "object" ? new Set(listen.channelIds) : undefined,
  );
  if (listen !== false) listeners.start();

  return {
    workers,
    close: async () => {
      await Promise.all([
        ...workers.map((w) => w.close()),
        singles.close(),
        events.close(),
        listeners.close(),
        guard.close(),
      ]);
      for (const conn of owned) conn.disconnect();
    },
  };
}
