// Prints the OpenAPI document as JSON without PostgreSQL or Redis: `npm run --silent openapi > openapi.json`.
import { randomBytes } from "node:crypto";
import { createPrisma } from "@switchboard/db";
import { loadConfig } from "@switchboard/domain/config";
import { connectRedis } from "@switchboard/domain/redis";
import { buildApp } from "./app";

const config = loadConfig({
  // Nothing is signed or sealed here: throwaway secrets, so the document prints on a machine with none set.
  JWT_SECRET: randomBytes(32).toString("hex"),
  CHANNEL_SECRET_KEY: randomBytes(32).toString("hex"),
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://unused/unused",
  LOG_LEVEL: "silent",
});
// Neither client connects until a query runs; none runs here.
const prisma = createPrisma(config.DATABASE_URL);
const redis = connectRedis(config, { lazyConnect: true });
const app = await buildApp({ config, prisma, redis });
await app.ready();
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
redis.disconnect();
