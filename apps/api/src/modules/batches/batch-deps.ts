// What the batch services need from the outside world.
import type { PrismaClient } from "@switchboard/db";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { BatchJobs } from "./batch-jobs";

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
  log: FastifyBaseLogger;
}
