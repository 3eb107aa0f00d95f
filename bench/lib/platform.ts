// The platform as the benchmarks run it: a database of its own (migrated, seeded, dropped at the end), a Redis
// prefix of its own, the real API and the real workers in this one process (so a --profile covers both) or, with
// `--split`, the workers in a process of their own as deployed (npm start, compose), and the seed's customer signed
// in with a balance and no review. Shared by bench/batch-pipeline.ts and
// bench/rcs-pipeline.ts; each adds its simulators and measurements.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, openAsBlob, readdirSync, readFileSync, rmSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createPrisma, migrate, type PrismaClient } from "@switchboard/db";
import { type Config, loadConfig } from "@switchboard/domain/config";
import { seed } from "@switchboard/domain/seed";
import { closeWorkerDeps, createWorkerDeps, startWorkers } from "@switchboard/workers";
import { Redis } from "ioredis";
import pg from "pg";
import pino from "pino";
import { buildApp } from "../../apps/api/src/app";
import { WORKERS_NODE_FLAGS } from "../../scripts/lib/node-flags";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const WORK = path.join(ROOT, ".bench-work");

export function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

export const log = (msg: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function pollUntil<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 20) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * From a batch's counters sampled over time: for each percent k of the batch, how long after the k-th message was
 * sent the k-th receipt (or delivery event) was recorded.
 */
export function receiptLag(curve: Array<{ t: number; sent: number; received: number }>, total: number) {
  const sorted = [...curve].sort((a, b) => a.t - b.t);
  const firstAt = (key: "sent" | "received", k: number) => sorted.find((p) => p[key] >= k)?.t;
  const lags: number[] = [];
  for (let pct = 1; pct <= 100; pct++) {
    const k = Math.ceil((total * pct) / 100);
    const sent = firstAt("sent", k);
    const received = firstAt("received", k);
    if (sent !== undefined && received !== undefined) lags.push(Math.max(0, received - sent));
  }
  lags.sort((a, b) => a - b);
  const at = (q: number) => Math.round(lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? Number.NaN);
  return { p50: at(0.5), p95: at(0.95), max: Math.round(lags[lags.length - 1] ?? Number.NaN) };
}

/** CPU seconds (user + system) a process has used so far; 0 when it is gone. Linux /proc only. */
export function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks, 100/s).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** A process's resident memory now (bytes; 0 when it is gone). Linux /proc only. */
export function residentBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** Process ids whose command name is `comm` (Linux /proc). */
export function pidsNamed(comm: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === comm;
      } catch {
        return false;
      }
    });
}

/** Every PostgreSQL server process (the server's whole CPU is the platform's: the benches are its only clients). */
export const postgresPids = (): number[] => pidsNamed("postgres");

/**
 * CPU used by each named process between start() and stop(): where a pipeline's CPU goes per message, which on a
 * machine whose cores are shared by the platform, its simulators and PostgreSQL says more than the rate alone.
 */
export function cpuMeter(procs: Record<string, () => number[]>) {
  const read = () =>
    Object.fromEntries(
      Object.entries(procs).map(([name, pids]) => [name, new Map(pids().map((pid) => [pid, cpuSecondsOf(pid)]))]),
    );
  let before = read();
  return {
    start() {
      before = read();
    },
    /** CPU seconds per process name since start(). */
    stop(): Record<string, number> {
      const after = read();
      return Object.fromEntries(
        Object.entries(after).map(([name, pids]) => {
          let sum = 0;
          for (const [pid, s] of pids) sum += s - (before[name]?.get(pid) ?? 0);
          return [name, Math.round(sum * 100) / 100];
        }),
      );
    },
  };
}

export interface BenchPlatform {
  runId: string;
  databaseUrl: string;
  config: Config;
  prisma: PrismaClient;
  /** The API's base URL. */
  base: string;
  /** The workers' process id (this process without --split). */
  workersPid: number;
  /** The seed customer's session token. */
  token: string;
  customer: { id: number; tenantId: number };
  /** The date and machine of the run, for the results file. */
  machine: { date: string; machine: string };
  /** POST /batch/submit/file as the customer; the batch id. */
  submitFile(
    file: string,
    fields: { productId: number; content: unknown; taskType?: number; scheduledAt?: Date },
  ): Promise<bigint>;
  /** Stops the API and the workers (the database stays until close). */
  stopServers(): Promise<void>;
  close(): Promise<void>;
}

/** An empty database of a benchmark's own on the server of `adminUrl`; `drop` removes it (`keep`: leaves it). */
export async function scratchDatabase(adminUrl: string, dbName: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  const drop = async (keep = false) => {
    try {
      if (!keep) await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  };
  return { databaseUrl: u.toString(), drop };
}

export async function startPlatform(opts: { env?: Record<string, string> } = {}): Promise<BenchPlatform> {
  mkdirSync(WORK, { recursive: true });
  const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const runId = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const { databaseUrl, drop } = await scratchDatabase(adminUrl, `bench_${runId}`);
  const uploadDir = path.join(WORK, `uploads-${runId}`);
  const cleanups: Array<() => Promise<unknown>> = [
    drop,
    async () => rmSync(uploadDir, { recursive: true, force: true }),
  ];
  const close = async () => {
    for (const fn of cleanups.splice(0)) await fn().catch((e) => log(`cleanup: ${(e as Error).message}`));
  };
  try {
    await migrate(databaseUrl, "deploy");
    const prisma = createPrisma(databaseUrl, { max: 12 });
    cleanups.unshift(() => prisma.$disconnect());
    const channelKey = randomBytes(32).toString("hex");
    await seed(prisma, { mode: "demo", channelSecretKey: channelKey });
    const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    // A balance for every batch, and no review (the tenant's default reviews every batch).
    await prisma.user.update({ where: { id: customer.id }, data: { balance: 10n ** 15n } });
    await prisma.tenantSetting.update({ where: { tenantId: customer.tenantId as number }, data: { reviewMode: 0 } });

    const env = {
      JWT_SECRET: randomBytes(32).toString("hex"),
      CHANNEL_SECRET_KEY: channelKey,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench:${runId}:`,
      LOG_LEVEL: "silent",
      HOST: "127.0.0.1",
      PORT: "0",
      UPLOAD_DIR: uploadDir,
      EGRESS_ALLOW: "127.0.0.1", // the simulators and the callback receiver are on loopback
      ...opts.env,
    };
    const config = loadConfig(env);
    cleanups.unshift(async () => {
      const r = new Redis(redisUrl);
      let cursor = "0";
      do {
        const [next, keys] = await r.scan(cursor, "MATCH", `bench:${runId}:*`, "COUNT", 1000);
        cursor = next;
        if (keys.length) await r.unlink(...keys);
      } while (cursor !== "0");
      await r.quit();
    });
    const redis = new Redis(redisUrl);
    const api = await buildApp({ config, prisma, redis });
    await api.listen({ host: "127.0.0.1", port: 0 });
    let stopWorkers: () => Promise<void>;
    let workersPid = process.pid;
    if (process.argv.includes("--split")) {
      // With --profile the workers write a .cpuprofile into .bench-work when they stop.
      const prof = process.argv.includes("--profile") ? ["--cpu-prof", "--cpu-prof-dir", WORK] : [];
      const proc = spawn(
        process.execPath,
        [...WORKERS_NODE_FLAGS, ...prof, "--import", "tsx", path.join(ROOT, "workers/src/main.ts")],
        {
          env: { ...process.env, ...env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn" },
          stdio: ["ignore", "inherit", "inherit"],
        },
      );
      workersPid = proc.pid as number;
      stopWorkers = async () => {
        if (proc.exitCode !== null) return;
        proc.kill("SIGTERM");
        await once(proc, "exit");
      };
      log("workers: a process of their own (--split)");
    } else {
      const deps = createWorkerDeps({ config, logger: pino({ level: process.env.BENCH_LOG_LEVEL ?? "silent" }) });
      const running = await startWorkers(deps);
      stopWorkers = async () => {
        await running.close();
        await closeWorkerDeps(deps);
      };
    }
    let serversUp = true;
    const stopServers = async () => {
      if (!serversUp) return;
      serversUp = false;
      await stopWorkers();
      await api.close();
      await redis.quit();
    };
    cleanups.unshift(stopServers);
    const base = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;

    const login = await fetch(`${base}/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "customer", password: "Customer123" }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    return {
      runId,
      databaseUrl,
      config,
      prisma,
      base,
      token,
      customer: { id: customer.id, tenantId: customer.tenantId as number },
      workersPid,
      machine: {
        date: new Date().toISOString(),
        machine: `${cpus().length} x ${cpus()[0]?.model ?? "?"}, ${fmt(totalmem() / 1024 ** 3)} GiB, node ${process.version}`,
      },
      async submitFile(file, fields) {
        const form = new FormData();
        form.set("productId", String(fields.productId));
        form.set("taskType", String(fields.taskType ?? 2));
        form.set("content", JSON.stringify(fields.content));
        if (fields.scheduledAt) form.set("scheduledAt", fields.scheduledAt.toISOString());
        form.set("file", await openAsBlob(file), path.basename(file));
        const res = await fetch(`${base}/batch/submit/file`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, lang: "en" },
          body: form,
        });
        const body = (await res.json()) as { code: number; message: string; data: { batch: { id: string } } };
        if (body.code !== 0) throw new Error(`submit refused: ${body.message}`);
        return BigInt(body.data.batch.id);
      },
      stopServers,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
