// What the job handlers need from the outside world, created once per process (main.ts, or a test) and passed
// in. Handlers never read process.env.

import type { EgressPolicy, SmppConfigInput } from "@switchboard/channels";
import { channelSecretKey, createEgressPolicy, egressAgent } from "@switchboard/channels";
import {
  bullPrefix,
  DEFAULT_RETRY_POLICIES,
  DISPATCH_SINGLES,
  type QueueName,
  type QueueRetryPolicies,
  singlesListKey,
} from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import type { Config } from "@switchboard/domain/config";
import { type LinkSettings, linkSettings } from "@switchboard/domain/links";
import { createOutages, type Outages, redisRetryStrategy } from "@switchboard/domain/outage-log";
import { connectRedis, type RedisConnection, slotPrefix } from "@switchboard/domain/redis";
import { createFileStorage, type FileStorage, type StorageConfig } from "@switchboard/domain/storage";
import type { Logger as PinoLogger } from "pino";
import { AdapterPool } from "./adapter-pool";
import { ChunkLeases } from "./chunk-leases";
import { IdRestarts } from "./id-restarts";
import { JobQueues } from "./job-queues";
import { QUEUE_NAMES, WorkerMetrics } from "./metrics";
import { moIntake } from "./mo-intake";
import { OutcomeJournal } from "./outcome-journal";
import { DEFAULT_PART_RECEIPTS, PartReceipts } from "./part-receipts";
import { DEFAULT_RECEIPT_JOURNAL, ReceiptJournal, type ReceiptJournalOptions } from "./receipt-journal";
import { RedisThread } from "./redis-thread";
import { DEFAULT_REPORT_BATCHING, ReceiptRouter, ReportBatcher, type ReportBatcherOptions } from "./report-batcher";
import { DEFAULT_OUTCOME_WRITES, type OutcomeWriterOptions, UnwrittenOutcomes } from "./send-outcomes";
import { SmppBinds } from "./smpp-binds";

export type WorkerConfig = Pick<
  Config,
  "DATABASE_URL" | "REDIS_URL" | "REDIS_PREFIX" | "CHANNEL_SECRET_KEY" | "EGRESS_ALLOW"
> &
  Partial<Pick<Config, "REDIS_CLUSTER_NODES" | "DATABASE_PREPARED_STATEMENTS">> &
  Parameters<typeof linkSettings>[0] &
  StorageConfig;

export interface Tuning {
  /** Recipients per dispatch-chunk job. */
  chunkSize: number;
  /** A batch with at most this many unsent recipients on one channel is sent inside its dispatch-batch job. */
  inlineChunkMax: number;
  /** Rounds of resending retryable failures inside one chunk job, and the first pause between them (doubling). */
  sendRetries: number;
  sendRetryDelayMs: number;
  /** How often a sending chunk re-reads its batch's status (terminate / fail) and renews its lease. */
  statusCheckMs: number;
  /** Chunk lease lifetime: how long a crashed worker can hold up the finishing of a stopped batch. */
  leaseTtlMs: number;
  /** Tokens taken from a channel's bucket per round trip. */
  tokenBatch: number;
  /**
   * A chunk whose channel cannot bind here while another process holds a bind of the SMSC account goes back to the
   * queue for another process, to run again after this long, doubling per run up to 5 s (dispatch-chunk.ts).
   */
  bindRefusedDelayMs: number;
  /** How long finish-batch waits before looking again while chunks of a stopped batch are still sending. */
  finishWaitMs: number;
  /** Delays between looks for receipts whose submit outcome is not written yet; their count bounds the wait. */
  reportRetryDelaysMs: readonly number[];
  /** Interval of the scheduler's repeatable job. */
  scheduleEveryMs: number;
  /** How often each process checks that the SMPP channels awaiting receipts are bound (receipt-listeners.ts). */
  receiptListenEveryMs: number;
  /** A sending batch without progress this long gets its chunks enqueued again (lost jobs). */
  stalledBatchMs: number;
  callbackTimeoutMs: number;
  /** Multiplies RCS contents' fallbackAfterSeconds (1 in production; tests shrink the minute-long windows). */
  fallbackWindowScale: number;
  /** WhatsApp: least time between two messages of one channel to one user (pair-gate.ts). */
  pairIntervalMs: number;
  outcomeWrites: OutcomeWriterOptions;
  reportBatching: ReportBatcherOptions;
  /** Receipts kept in Redis until enqueued or recorded, taken over from dead processes (receipt-journal.ts). */
  receiptJournal: ReceiptJournalOptions;
  retries: QueueRetryPolicies;
}

export const DEFAULT_TUNING: Tuning = {
  chunkSize: 2_000,
  // a transactional send (one number, or a handful): one job instead of three
  inlineChunkMax: 100,
  sendRetries: 3,
  sendRetryDelayMs: 500,
  statusCheckMs: 1_000,
  // renewed every statusCheckMs while the chunk sends: a dead worker's chunk is free again within 20 s
  leaseTtlMs: 20_000,
  tokenBatch: 50,
  bindRefusedDelayMs: 500,
  finishWaitMs: 1_000,
  // About nine minutes in all. A receipt acknowledged to the SMSC exists nowhere else, and its message's outcome
  // may be waiting in a dead process's outcome journal until that chunk is taken over and written back (the
  // chunk's lease, BullMQ's stalled-job check, a busy queue): a minute was not always enough on a loaded machine
  // (issue 17's SIGKILL experiment lost 18 of 3,958 acknowledged receipts once). A receipt that never matches
  // costs one delayed job meanwhile.
  reportRetryDelaysMs: [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 60_000, 120_000, 300_000],
  scheduleEveryMs: 5_000,
  receiptListenEveryMs: 30_000,
  stalledBatchMs: 60_000,
  callbackTimeoutMs: 5_000,
  fallbackWindowScale: 1,
  // Meta's 6 s, and half a second for the way from this check to WhatsApp's servers.
  pairIntervalMs: 6_500,
  outcomeWrites: DEFAULT_OUTCOME_WRITES,
  reportBatching: DEFAULT_REPORT_BATCHING,
  receiptJournal: DEFAULT_RECEIPT_JOURNAL,
  retries: DEFAULT_RETRY_POLICIES,
};

export interface WorkerDeps {
  prisma: PrismaClient;
  /** Token buckets and chunk leases: one Redis or a Redis Cluster (connectRedis). */
  redis: RedisConnection;
  /** REDIS_PREFIX: our own keys start with it; BullMQ's prefix is the same without the trailing colon. */
  redisPrefix: string;
  queues: JobQueues;
  adapters: AdapterPool;
  /** Every adapter's receipts: written with their unwritten outcome, or batched into delivery-report jobs. */
  receipts: ReceiptRouter;
  /** Every receipt from before its acknowledgement until it is enqueued or recorded (receipt-journal.ts). */
  receiptJournal: ReceiptJournal;
  /** Runs the SMPP receipts' scripts so that they are answered within the turn (redis-thread.ts). */
  redisThread: RedisThread;
  /** When each SMSC account's message ids last started again (id-restarts.ts). */
  idRestarts: IdRestarts;
  /** Which processes hold a bind of each SMSC account (smpp-binds.ts). */
  smppBinds: SmppBinds;
  /** Outcomes not written yet: a receipt for one of them is written with it. */
  unwrittenOutcomes: UnwrittenOutcomes;
  /** Outcomes a failed database write left in Redis (outcome-journal.ts). */
  journal: OutcomeJournal;
  leases: ChunkLeases;
  logger: PinoLogger;
  /** Where callbacks and channel connections may go (EGRESS_ALLOW): their addresses are customers' input. */
  egress: EgressPolicy;
  tuning: Tuning;
  /** Redis connection settings for the BullMQ workers (each opens its own blocking connection). */
  redisUrl: string;
  /** Where the API stores batch files for ingest (STORAGE: UPLOAD_DIR or an S3 bucket). */
  storage: FileStorage;
  /** This process's Prometheus metrics (metrics.ts), read by the ops server. */
  metrics: WorkerMetrics;
  /** Tracked links: the key of the short codes the messages carry (docs/batches.md, "Tracked links"). */
  links: LinkSettings;
  /** A lost Redis or PostgreSQL: one log line at a bounded rate (@switchboard/domain/outage-log). */
  outages: Outages;
}

export interface CreateDepsOptions {
  config: WorkerConfig;
  logger: PinoLogger;
  tuning?: Partial<Tuning>;
  /** SMPP timings that are not channel settings (submit timeout, reconnect backoff). */
  smpp?: Partial<SmppConfigInput>;
  /** Database connections of this process. */
  poolSize?: number;
}

export function createWorkerDeps(opts: CreateDepsOptions): WorkerDeps {
  const { config, logger } = opts;
  const tuning = { ...DEFAULT_TUNING, ...opts.tuning };
  const prisma = createPrisma(config.DATABASE_URL, {
    max: opts.poolSize ?? 10,
    preparedStatements: config.DATABASE_PREPARED_STATEMENTS,
  });
  const outages = createOutages({
    redisUrl: config.REDIS_URL,
    databaseUrl: config.DATABASE_URL,
    logger,
    probePostgres: () => prisma.$queryRaw`SELECT 1`,
  });
  // null: commands wait for a reconnect instead of failing after a few retries (BullMQ requires it). A lost Redis
  // is one line at a bounded rate, and one when this connection is ready again.
  const redis = connectRedis(config, { maxRetriesPerRequest: null, retryStrategy: redisRetryStrategy });
  redis.on("error", (err) => {
    if (!outages.redis.report(err)) logger.warn({ err }, "redis connection error");
  });
  redis.on("ready", () => outages.redis.up());
  // The receipt journal and the long SMS parts meet in one script: on a cluster they share a hash tag.
  const receiptPrefix = slotPrefix(redis, config.REDIS_PREFIX, "receipts");
  const queues = new JobQueues(redis, bullPrefix(config.REDIS_PREFIX), prisma, tuning.retries, (err) => {
    if (!outages.report(err)) logger.warn({ err }, "queue error");
  });
  const metrics = new WorkerMetrics();
  // A receipt is acknowledged to the SMSC once it is here, and leaves once enqueued or recorded.
  const receiptJournal = new ReceiptJournal(
    redis,
    receiptPrefix,
    (job) => queues.deliveryReport(job),
    logger,
    tuning.receiptJournal,
  );
  const receiptsDone = (tokens: string[]) => receiptJournal.done(tokens);
  // Keyed by the channel's provider account: a receipt may come in on a sibling channel's bind (adapters below).
  const unwrittenOutcomes: UnwrittenOutcomes = new UnwrittenOutcomes(
    (channelId) => adapters.accountOf(channelId),
    receiptsDone,
  );
  const receipts: ReceiptRouter = new ReceiptRouter(
    (channelId, report, token) => unwrittenOutcomes.attach(channelId, report, token),
    new ReportBatcher((job) => queues.deliveryReport(job), logger, tuning.reportBatching, receiptsDone),
    receiptJournal,
  );
  const idRestarts = new IdRestarts(redis, config.REDIS_PREFIX);
  // A receipt that is no long message's part is journaled by its part lookup's script: one round trip, as before.
  // Its scripts run on a thread of their own, so a turn's receipts are acknowledged within the turn.
  const redisThread = new RedisThread(config, redis, logger);
  const partReceipts = new PartReceipts(redis, receiptPrefix, logger, {
    ...DEFAULT_PART_RECEIPTS,
    journal: receiptJournal,
    thread: redisThread,
  });
  const smppBinds = new SmppBinds(redis, config.REDIS_PREFIX, logger);
  const egress = createEgressPolicy(config.EGRESS_ALLOW);
  // One keep-alive pool for every HTTP channel (RBM, WhatsApp) of this process, connecting through the policy.
  const dispatcher = egressAgent(egress, { connections: 256, keepAliveTimeout: 30_000 });
  const adapters: AdapterPool = new AdapterPool({
    prisma,
    egress,
    dispatcher,
    secretKey: channelSecretKey(config.CHANNEL_SECRET_KEY),
    logger,
    onReport: (channelId, report) => receipts.push(channelId, report),
    onInbound: moIntake(prisma, redis, config.REDIS_PREFIX),
    ...(opts.smpp ? { smpp: opts.smpp } : {}),
    onSmppReconnect: () => metrics.smppReconnects.inc(),
    // The account's highest id and its restarts, its long messages' part receipts, and who holds its binds, for
    // every process bound to it (the adapter logs a failure).
    smppShared: (account, channelId) => {
      // Its receipts' scripts run on the Redis thread: started now, while the adapter binds, not by the first receipt.
      redisThread.prepare();
      return {
        ids: idRestarts.of(account),
        parts: partReceipts.of(account, channelId),
        bind: smppBinds.of(account),
      };
    },
  });
  metrics.watch(
    {
      // The singles list's groups count as its waiting jobs (singles-queue.ts).
      queueNames: () => [...QUEUE_NAMES, DISPATCH_SINGLES],
      // While Redis is away a count would wait for the reconnect: the scrape goes without depths instead.
      counts: async (name, states) => {
        if (redis.status !== "ready") throw new Error(`redis ${redis.status}`);
        if (name === DISPATCH_SINGLES) return { waiting: await redis.llen(singlesListKey(config.REDIS_PREFIX)) };
        return queues.queue(name as QueueName).getJobCounts(...states);
      },
    },
    adapters,
  );
  return {
    prisma,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    queues,
    adapters,
    receipts,
    receiptJournal,
    redisThread,
    idRestarts,
    smppBinds,
    unwrittenOutcomes,
    journal: new OutcomeJournal(redis, config.REDIS_PREFIX),
    leases: new ChunkLeases(redis, config.REDIS_PREFIX, tuning.leaseTtlMs),
    logger,
    egress,
    tuning,
    redisUrl: config.REDIS_URL,
    storage: createFileStorage(config),
    metrics,
    links: linkSettings(config),
    outages,
  };
}

/** After the workers stopped: adapters drain and unbind, their last receipts are enqueued, connections close. */
export async function closeWorkerDeps(deps: WorkerDeps): Promise<void> {
  await deps.adapters.close();
  deps.smppBinds.close();
  await deps.receipts.flush();
  await deps.receiptJournal.close();
  await deps.redisThread.close();
  await deps.queues.close();
  await deps.prisma.$disconnect();
  deps.redis.disconnect();
  deps.outages.postgres.close();
}
