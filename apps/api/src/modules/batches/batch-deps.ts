// What the batch services need from the outside world.
import type { PrismaClient } from "@switchboard/db";
import type { BatchJobs } from "@switchboard/domain/batches/batch-jobs";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { OutcomeSignal } from "./outcome-signal";

export interface BatchDeps {
  prisma: PrismaClient;
  redis: Redis;
  /** config.REDIS_PREFIX */
  redisPrefix: string;
  /** config.UPLOAD_DIR */
  uploadDir: string;
  jobs: BatchJobs;
  /** Mode 1: how long the answer waits for the provider's outcome before saying "sending". */
  singleWaitMs: number;
  /** Wakes mode 1 answers when the workers have written their outcome. */
  outcomes: OutcomeSignal;
  log: FastifyBaseLogger;
}
