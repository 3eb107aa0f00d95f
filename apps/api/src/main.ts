// The API process: reads the configuration, connects, listens; SIGINT/SIGTERM close it cleanly.
import { createPrisma } from "@switchboard/db";
import { loadConfig } from "@switchboard/domain/config";
import { redisRetryStrategy } from "@switchboard/domain/outage-log";
import { connectRedis } from "@switchboard/domain/redis";
import { collectDefaultMetrics } from "prom-client";
import { buildApp } from "./app";

const config = loadConfig();
const prisma = createPrisma(config.DATABASE_URL, { preparedStatements: config.DATABASE_PREPARED_STATEMENTS });
// REDIS_URL, or the Redis Cluster REDIS_CLUSTER_NODES names.
const redis = connectRedis(config, { maxRetriesPerRequest: 2, retryStrategy: redisRetryStrategy });
// ioredis reconnects by itself; a lost Redis is one line at a bounded rate (plugins/outages.ts), not a crash on
// an unhandled error event nor a stack per reconnect attempt. The last error before the app exists is told too.
let early: unknown;
const onEarlyError = (err: unknown) => {
  early = err;
};
redis.on("error", onEarlyError);
const app = await buildApp({ config, prisma, redis });
redis.off("error", onEarlyError);
redis.on("error", (err) => {
  if (!app.outages.redis.report(err)) app.log.warn({ err }, "redis connection error");
});
if (early !== undefined && redis.status !== "ready") redis.emit("error", early);
// CPU, memory, event loop delay and GC of this process, beside the API's own metrics.
collectDefaultMetrics({ register: app.metrics.registry });

let closing = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    await app.close();
    await prisma.$disconnect();
    redis.disconnect();
    process.exit(0);
  });
}

await app.listen({ host: config.HOST, port: config.PORT });
