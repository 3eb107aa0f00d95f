// What services need from the outside world, created once by main.ts (or a test) and passed in.
import type { PrismaClient } from "@switchboard/db";
import type { Config } from "@switchboard/domain/config";
import type { RedisConnection } from "@switchboard/domain/redis";
import type { FileStorage } from "@switchboard/domain/storage";

export interface Deps {
  config: Config;
  prisma: PrismaClient;
  /** One Redis or a Redis Cluster (connectRedis). */
  redis: RedisConnection;
  /** Where uploaded files are kept; by default the one config.STORAGE names (createFileStorage). */
  storage?: FileStorage;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: Deps;
    /** Uploaded files (batch files, documents, proofs, logos): UPLOAD_DIR or an S3 bucket. */
    storage: FileStorage;
  }
}
