// The API process: reads the configuration, connects, listens; SIGINT/SIGTERM close it cleanly.
import { createPrisma } from "@switchboard/db";
import { Redis } from "ioredis";
import { buildApp } from "./app";
import { loadConfig } from "./config";

const config = loadConfig();
const prisma = createPrisma(config.DATABASE_URL);
const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
const app = await buildApp({ config, prisma, redis });
// ioredis reconnects by itself; say so in the log rather than crash on its error event.
redis.on("error", (err) => app.log.warn({ err }, "redis connection error"));

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
