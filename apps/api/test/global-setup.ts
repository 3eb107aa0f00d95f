// Real PostgreSQL and Redis for every test run:
// - DATABASE_URL / REDIS_URL set: a throwaway database per run (dropped at the end) and a Redis key prefix
//   per run (its keys deleted at the end);
// - not set: Testcontainers starts both (needs a container engine; imported lazily so a machine without
//   one never loads it).
// The database gets the committed migrations and the demo seed, so tests start from known logins.
import { randomBytes } from "node:crypto";
import { createPrisma, migrate } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import { Redis } from "ioredis";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    redisPrefix: string;
    /** This run's secrets (no secret is written in the code: packages/domain/src/config.ts). */
    jwtSecret: string;
    channelSecretKey: string;
  }
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function container<T>(what: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    throw new Error(
      `${what}: no DATABASE_URL/REDIS_URL given and Testcontainers failed (${(e as Error).message}). ` +
        "Run `npm test` (it finds local services), or export DATABASE_URL and REDIS_URL.",
    );
  }
}

export default async function setup(project: TestProject) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  const teardown: Array<() => Promise<unknown>> = [];

  let databaseUrl: string;
  if (process.env.DATABASE_URL) {
    const admin = process.env.DATABASE_URL;
    const name = `test_${runId}`;
    await withClient(admin, (c) => c.query(`CREATE DATABASE "${name}"`));
    const u = new URL(admin);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    teardown.push(() => withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
  } else {
    const c = await container("postgres", async () => {
      const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
      return new PostgreSqlContainer("postgres:16-alpine").start();
    });
    databaseUrl = c.getConnectionUri();
    teardown.push(() => c.stop());
  }
  await migrate(databaseUrl, "deploy");
  const prisma = createPrisma(databaseUrl, { max: 2 });
  const jwtSecret = randomBytes(32).toString("hex");
  const channelSecretKey = randomBytes(32).toString("hex");
  await seed(prisma, { mode: "demo", channelSecretKey });
  await prisma.$disconnect();

  let redisUrl: string;
  const redisPrefix = `test:${runId}:`;
  if (process.env.REDIS_URL) {
    redisUrl = process.env.REDIS_URL;
    teardown.push(async () => {
      const r = new Redis(redisUrl);
      let cursor = "0";
      do {
        const [next, keys] = await r.scan(cursor, "MATCH", `${redisPrefix}*`, "COUNT", 1000);
        cursor = next;
        if (keys.length) await r.unlink(...keys);
      } while (cursor !== "0");
      await r.quit();
    });
  } else {
    const c = await container("redis", async () => {
      const { RedisContainer } = await import("@testcontainers/redis");
      return new RedisContainer("redis:7-alpine").start();
    });
    redisUrl = c.getConnectionUrl();
    teardown.push(() => c.stop());
  }

  project.provide("databaseUrl", databaseUrl);
  project.provide("redisUrl", redisUrl);
  project.provide("redisPrefix", redisPrefix);
  project.provide("jwtSecret", jwtSecret);
  project.provide("channelSecretKey", channelSecretKey);

  return async () => {
    for (const fn of teardown.reverse()) await fn();
  };
}
