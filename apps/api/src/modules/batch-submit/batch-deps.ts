// What the batch services need from the outside world, made once per API process and shared by the modules that
// make and move batches (batch submission, batch transitions, the developer API): one producer of batch jobs and
// one outcome subscriber (outcome-signal.ts). Registered in app.ts before those modules; they read app.batchDeps.
import { UserType } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { type BatchJobs, bullBatchJobs } from "@switchboard/domain/batches/batch-jobs";
import { type SingleSendRecord, singleSendRecords } from "@switchboard/domain/batches/batch-row";
import { bullCallbackJobs, type CallbackJobs } from "@switchboard/domain/callback-jobs";
import { type LinkSettings, linkSettings } from "@switchboard/domain/links";
import type { RedisConnection } from "@switchboard/domain/redis";
import type { FileStorage } from "@switchboard/domain/storage";
import DataLoader from "dataloader";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { OutcomeSignal } from "./outcome-signal";
import { SingleSendLane } from "./single-lane";
import { SubmitMemory } from "./submit-memory";

export interface BatchDeps {
  prisma: PrismaClient;
  redis: RedisConnection;
  /** config.REDIS_PREFIX */
  redisPrefix: string;
  /** Where batch files are stored (app.storage: UPLOAD_DIR or an S3 bucket). */
  storage: FileStorage;
  jobs: BatchJobs;
  /** batch_status callbacks of the changes the API makes (review, cancel, schedule, terminate). */
  callbacks: CallbackJobs;
  /** Mode 1: how long the answer waits for the provider's outcome before saying "sending". */
  singleWaitMs: number;
  /** Wakes mode 1 answers when the workers have written their outcome. */
  outcomes: OutcomeSignal;
  /**
   * Single sends' batches with their recipient, by batch id: the reads asked for on one turn (the requests one
   * outcome message wakes) go as one statement. Never cached: each read is of the rows as they are.
   */
  singleSends: DataLoader<bigint, SingleSendRecord | null, string>;
  /** Single sends written in groups, checked against what memory holds (single-lane.ts, submit-memory.ts). */
  lane: SingleSendLane;
  /** Tracked links: where short links are served (a submitted content keeps it) and their key. */
  links: LinkSettings;
  log: FastifyBaseLogger;
}

declare module "fastify" {
  interface FastifyInstance {
    batchDeps: BatchDeps;
  }
}

export const batchDepsPlugin = fp(
  async (app: FastifyInstance) => {
    const { prisma, config, redis } = app.deps;
    const jobs = bullBatchJobs(redis, config.REDIS_PREFIX, prisma);
    const outcomes = new OutcomeSignal(redis, config.REDIS_PREFIX);
    const memory = new SubmitMemory({
      prisma,
      databaseUrl: config.DATABASE_URL,
      // A lost database is the outage's one line at a bounded rate (plugins/outages.ts).
      onError: (err) => {
        if (!app.outages.report(err)) app.log.warn({ err: { message: err.message } }, "submit memory: notifications");
      },
    });
    memory.start();
    // Staff change what memory holds (prices, products, routes, settings, accounts): a change made through this
    // process is seen by its next request at once, without waiting for the notification's round trip.
    // Before the answer leaves (the change is committed by then), so the caller's next request cannot overtake it.
    app.addHook("onSend", async (req, _reply, payload) => {
      if (req.method !== "GET" && req.method !== "HEAD" && req.principal && req.principal.type !== UserType.USER)
        memory.forget();
      return payload;
    });
    const lane = new SingleSendLane(prisma, memory, app.log, jobs);
    const callbacks = bullCallbackJobs(redis, config.REDIS_PREFIX, prisma, (err) =>
      app.log.error({ err }, "could not enqueue batch_status callbacks"),
    );
    app.addHook("onClose", async () => {
      // Mode 2 answers before the lane hands its sends over: they go before the queues close.
      await lane.handedOver();
      await Promise.all([jobs.close(), outcomes.close(), callbacks.close(), memory.close()]);
    });
    app.decorate("batchDeps", {
      prisma,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      storage: app.storage,
      jobs,
      callbacks,
      singleWaitMs: config.BATCH_SINGLE_WAIT_MS,
      outcomes,
      singleSends: new DataLoader(
        async (ids: readonly bigint[]) => {
          const records = await singleSendRecords(prisma, ids);
          return ids.map((id) => records.get(id.toString()) ?? null);
        },
        { cache: false, maxBatchSize: 500 },
      ),
      lane,
      links: linkSettings(config),
      log: app.log,
    } satisfies BatchDeps);
  },
  { name: "batch-deps" },
);
