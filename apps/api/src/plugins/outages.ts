// The API's Redis and PostgreSQL outages, each one clear log line at a bounded rate (lib/outage-log.ts) instead of
// a stack per failed call: main.ts feeds it the Redis client's events, the error handler and the session cache
// their connection errors; PostgreSQL's end is found by a probe (SELECT 1 every few seconds while it is away).

import { createOutages, type Outages } from "@switchboard/domain/outage-log";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    outages: Outages;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { config, prisma, redis } = app.deps;
    const outages = createOutages({
      redisUrl: config.REDIS_URL,
      databaseUrl: config.DATABASE_URL,
      logger: app.log,
      probePostgres: () => prisma.$queryRaw`SELECT 1`,
    });
    app.decorate("outages", outages);
    // The shared client's reconnects say when Redis is back.
    const back = () => outages.redis.up();
    redis.on("ready", back);
    app.addHook("onClose", async () => {
      redis.off("ready", back);
      outages.redis.close();
      outages.postgres.close();
    });
  },
  { name: "outages" },
);
