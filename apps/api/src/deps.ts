// What services need from the outside world, created once by main.ts (or a test) and passed in.
import type { PrismaClient } from "@switchboard/db";
import type { Config } from "@switchboard/domain/config";
import type { Redis } from "ioredis";

export interface Deps {
  config: Config;
  prisma: PrismaClient;
  redis: Redis;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: Deps;
  }
}
