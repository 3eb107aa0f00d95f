// Test harness: the real app on the run's throwaway database and Redis prefix (see global-setup.ts).
import { createHmac } from "node:crypto";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { type Config, loadConfig } from "@switchboard/domain/config";
import { Redis } from "ioredis";
import { inject } from "vitest";
import { type App, type BuildOptions, buildApp } from "../src/app";
import { testSecrets } from "./secrets";

export interface TestContext {
  app: App;
  prisma: PrismaClient;
  redis: Redis;
  config: Config;
  close: () => Promise<void>;
}

export async function createTestApp(env: Record<string, string> = {}, opts: BuildOptions = {}): Promise<TestContext> {
  const config = loadConfig({
    ...testSecrets(),
    NODE_ENV: "test",
    DATABASE_URL: inject("databaseUrl"),
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: inject("redisPrefix"),
    // TEST_LOG_LEVEL=error shows what a test's requests log (an unexpected 500's cause, say).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // Tests sign in often from one address; the per-IP limit has its own test with a low value.
    LOGIN_IP_PER_MINUTE: "100000",
    // The tests' simulators listen on loopback, on ports the OS picks, so the address without a port; the
    // egress tests refuse it with their own EGRESS_ALLOW.
    EGRESS_ALLOW: "127.0.0.1",
    ...env,
  });
  const prisma = createPrisma(config.DATABASE_URL, { max: 4 });
  const redis = new Redis(config.REDIS_URL);
  const app = await buildApp({ config, prisma, redis }, opts);
  await app.ready();
  return {
    app,
    prisma,
    redis,
    config,
    close: async () => {
      await app.close();
      await prisma.$disconnect();
      await redis.quit();
    },
  };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  lang?: "zh" | "en";
  ip?: string;
}

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export async function call<T = unknown>(app: App, method: "GET" | "POST", url: string, o: CallOptions = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.lang) headers.lang = o.lang;
  const res = await app.inject({
    method,
    url,
    query: o.query,
    headers,
    remoteAddress: o.ip,
    ...(o.body !== undefined ? { payload: o.body as object } : {}),
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() as Envelope<T> };
}

/** Signs in through the real route and returns the token. */
export async function signIn(
  app: App,
  area: "customer" | "staff",
  username: string,
  password: string,
  headers?: Record<string, string>,
) {
  const res = await call<{ token: string }>(app, "POST", area === "customer" ? "/auth/login" : "/auth/staff/login", {
    body: { username, password },
    headers,
  });
  if (res.body.code !== 0) throw new Error(`sign-in of ${username} failed: ${res.status} ${res.body.message}`);
  return res.body.data.token;
}

/** An HS256 JWT made by hand, for tokens the app would never issue (expired, foreign secret). */
export function handMadeToken(secret: string, claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const head = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims)}`;
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`;
}

let counter = 0;
/** A username no other test uses. */
export function uniqueName(prefix = "u"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter}`.slice(0, 64);
}

export async function demoTenantId(prisma: PrismaClient): Promise<number> {
  return (await prisma.tenant.findUniqueOrThrow({ where: { code: "demo" } })).id;
}
