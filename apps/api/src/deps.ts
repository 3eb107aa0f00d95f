// What services need from the outside world, created once by main.ts (or a test) and passed in.
import type { PrismaClient } from "@switchboard/db";
import type { Redis } from "ioredis";
import type { Config } from "./config";

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
