// npm run test:prod-start (CI, after npm run build): the production build started the way its container runs it,
// outside Docker, then one batch end to end.
// - The runtime image's file tree, laid out in a temporary folder by scripts/runtime-deps.mjs: production
//   dependencies only (as the Dockerfile's `npm ci --omit=dev` + prune) and dist/; no sources, no tsx.
// - NODE_ENV=production, plain `node` on dist/start.js (npm run start:prod: migrations, production seed, API,
//   workers, web server), a fresh database, Redis key prefix and an empty data directory (UPLOAD_DIR) owned by an
//   unprivileged user the processes run as (nobody through `setpriv` when this runs as root, as CI does; otherwise
//   the current user).
// - The demo seed (node dist/prisma/bin/seed.js --demo) gives a customer and an SMS channel pointed at the SMSC
//   simulator (dist/simulators/smsc-cli.js) on a free port.
// - Through the API: the customer signs in, checks a number file (a worker thread of the compiled API), uploads it
//   as a batch (kept on the data directory, read by the workers), and the batch reaches 22 with every message
//   delivered. The web server answers the client compressed with the run-time API address, the workers' health
//   endpoint answers, and SIGTERM stops everything cleanly.
// Everything it made is removed at the end. Needs PostgreSQL and Redis as npm test does (DATABASE_URL, REDIS_URL).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { BatchStatus, ProductCode } from "@switchboard/contracts";
import { Redis } from "ioredis";
import pg from "pg";

const ROOT = path.resolve(import.meta.dirname, "..");
const BATCH_TIMEOUT_MS = 90_000;
const NUMBERS = Array.from({ length: 25 }, (_, i) => `+1201555${String(7000 + i)}`);
const t0 = performance.now();

function say(line: string) {
  process.stdout.write(`[prod-start ${((performance.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);
}

for (const f of ["start.js", "api/main.js", "workers/main.js", "web/server.js", "web/dist/index.html"]) {
  if (!existsSync(path.join(ROOT, "dist", f))) {
    say(`dist/${f} is missing: run npm run build first`);
    process.exit(1);
  }
}

const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const database = `sb_prod_start_${runId}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).href;
const redisPrefix = `sbprod${runId}:`;

// The unprivileged user: nobody when we are root (CI), else ourselves.
const asRoot = process.getuid?.() === 0;
const user = asRoot ? { name: "nobody", uid: 65534, gid: 65534 } : null;
const work = mkdtempSync(path.join(tmpdir(), "sb-prod-start-"));
const dataDir = path.join(work, "data");
mkdirSync(path.join(dataDir, "uploads"), { recursive: true });
if (user) {
  for (const d of [work, dataDir, path.join(dataDir, "uploads")]) chownSync(d, user.uid, user.gid);
}
// The image's /app: root-owned, read-only for the user the processes run as.
const app = path.join(work, "app");
const laid = spawnSync(process.execPath, [path.join(ROOT, "scripts/runtime-deps.mjs"), "copy", app], {
  stdio: "inherit",
});
if (laid.status !== 0) {
  say("could not lay out the runtime tree");
  process.exit(1);
}
const DIST = path.join(app, "dist");
// The node binary, as the unprivileged user can run it: this one, unless it sits where that user cannot reach
// (a checkout under /root), then a copy beside the tree.
const asUserArgs = (uid: number, gid: number) => [
  "setpriv",
  `--reuid=${uid}`,
  `--regid=${gid}`,
  "--clear-groups",
  "--",
];
let nodeBin = process.execPath;
if (user) {
  const [cmd, ...rest] = [...asUserArgs(user.uid, user.gid), nodeBin, "-e", "0"];
  if (spawnSync(cmd as string, rest, { stdio: "ignore" }).status !== 0) {
    nodeBin = path.join(work, "node");
    cpSync(process.execPath, nodeBin);
    say(`${user.name} cannot run ${process.execPath}: using a copy, ${nodeBin}`);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
const [apiPort, webPort, smscPort, opsPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
const apiUrl = `http://127.0.0.1:${apiPort}`;
const webUrl = `http://127.0.0.1:${webPort}`;

const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: work,
  NODE_ENV: "production",
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  REDIS_PREFIX: redisPrefix,
  JWT_SECRET: Array.from({ length: 48 }, () => Math.floor(Math.random() * 16).toString(16)).join(""),
  CHANNEL_SECRET_KEY: Array.from({ length: 64 }, () => Math.floor(Math.random() * 16).toString(16)).join(""),
  SUPER_ADMIN_USERNAME: "root",
  SUPER_ADMIN_PASSWORD: `Prod-${runId}-Start`,
  HOST: "127.0.0.1",
  PORT: String(apiPort),
  UPLOAD_DIR: path.join(dataDir, "uploads"),
  EGRESS_ALLOW: `127.0.0.1:${smscPort}`,
  WORKERS_OPS_PORT: String(opsPort),
  WEB_HOST: "127.0.0.1",
  WEB_PORT: String(webPort),
  API_BASE: `https://api.example.test`,
  LOG_LEVEL: "warn",
};

const children: ChildProcess[] = [];
/** `node <dist/script>` as the unprivileged user; its output prefixed with the name. */
function node(name: string, script: string, args: string[], extra: NodeJS.ProcessEnv = {}): ChildProcess {
  const argv = [nodeBin, "--enable-source-maps", path.join(DIST, script), ...args];
  // setpriv execs node itself (runuser would stay its parent): signals reach the process as docker's would.
  const asUser = user ? asUserArgs(user.uid, user.gid) : [];
  const [cmd, ...rest] = [...asUser, ...argv];
  // A process group of its own, so the clean-up can end whatever it started.
  const child = spawn(cmd as string, rest, {
    cwd: app,
    env: { ...env, ...extra },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream?.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) process.stdout.write(`[${name}] ${l}\n`);
    });
  }
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function check(ok: boolean, what: string) {
  if (!ok) throw new Error(`failed: ${what}`);
  say(`ok: ${what}`);
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}
async function api<T>(route: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("lang", "en");
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  const res = await fetch(`${apiUrl}${route}`, { ...init, headers });
  const body = (await res.json()) as Envelope<T>;
  if (body.code !== 0) throw new Error(`${route}: HTTP ${res.status}, ${body.message}`);
  return body.data;
}

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${database}"`);
let failed: unknown = null;
let start: ChildProcess | null = null;
try {
  say(`${app} as ${user ? user.name : "the current user"}, data directory ${dataDir} (empty), database ${database}`);
  const smsc = node("smsc", "simulators/smsc-cli.js", ["--port", String(smscPort), "--receipts", "on"]);
  start = node("start.js", "start.js", []);

  await until("the API's /readyz", 60_000, async () => ((await fetch(`${apiUrl}/readyz`)).ok ? true : undefined));
  check(true, "migrations, production seed and the API are up (/readyz)");
  // The workers' ops endpoint (WORKERS_OPS_PORT): refused all along means the build has none yet (said plainly);
  // an answer must be a healthy one.
  const health = await until("the workers' health endpoint", 20_000, async () => {
    try {
      return (await fetch(`http://127.0.0.1:${opsPort}/health`)).status;
    } catch (err) {
      return (err as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED" ? undefined : "error";
    }
  }).catch(() => null);
  if (health === null)
    say(`skipped: nothing answers on WORKERS_OPS_PORT ${opsPort}: this build's workers have no /health`);
  else check(health === 200, `the workers answer GET /health on WORKERS_OPS_PORT with 200 (got ${health})`);

  // The web client: compressed, the API address given at run time, hashed files cached for good.
  // fetch decodes the body and keeps the content-encoding it arrived with.
  const page = await until("the web server", 30_000, async () => {
    const res = await fetch(webUrl, { headers: { "accept-encoding": "br" } });
    return res.ok ? res : undefined;
  });
  const html = await page.text();
  check(
    page.headers.get("content-encoding") === "br" && html.includes('"apiBase":"https://api.example.test"'),
    "the web server sends index.html brotli-compressed with API_BASE injected",
  );
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  const asset = await fetch(`${webUrl}${script}`, { headers: { "accept-encoding": "gzip" } });
  check(
    asset.ok &&
      asset.headers.get("content-encoding") === "gzip" &&
      asset.headers.get("cache-control") === "public, max-age=31536000, immutable",
    `${script} is sent gzip'd (stored at build time) with an immutable cache header`,
  );
  check((await fetch(`${webUrl}/app/sms/message/task`)).ok, "client-side routes fall back to index.html");

  // The demo world's customer and SMS channel, the channel pointed at this run's SMSC simulator.
  const seed = node("seed", "prisma/bin/seed.js", ["--demo"], { DEMO_SMSC_ADDRESS: `127.0.0.1:${smscPort}` });
  check((await exited(seed)) === 0, "the demo seed (--demo) runs on the production build");

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const product = await db.query<{ id: number }>(
    `SELECT p.id FROM products p JOIN tenants t ON t.id = p."tenantId" WHERE t.code = 'demo' AND p.code = $1`,
    [ProductCode.SMS],
  );
  await db.end();
  const productId = product.rows[0]?.id;
  if (!productId) throw new Error("the demo seed made no SMS product");

  const { token } = await api<{ token: string }>("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "customer", password: "Customer123" }),
  });
  const csv = new Blob([`phone\n${NUMBERS.join("\n")}\n`], { type: "text/csv" });

  const pre = new FormData();
  pre.set("productCode", String(ProductCode.SMS));
  pre.set("file", csv, "numbers.csv");
  const summary = await api<{ total: number; valid: number }>("/user/submit/pre/file", {
    method: "POST",
    token,
    body: pre,
  });
  check(
    summary.total === NUMBERS.length && summary.valid === NUMBERS.length,
    `the pre-submit file check reads the file in the compiled API's worker thread (${summary.valid} valid)`,
  );

  const form = new FormData();
  form.set("productId", String(productId));
  form.set("taskType", "2");
  form.set("content", JSON.stringify({ product: ProductCode.SMS, text: "Production build check" }));
  form.set("file", csv, "numbers.csv");
  const { batch } = await api<{ batch: { id: string } }>("/batch/submit/file", { method: "POST", token, body: form });
  say(`batch ${batch.id} submitted (${NUMBERS.length} numbers from a file on the data directory)`);

  const uploads = path.join(dataDir, "uploads");
  const owners = new Set(readdirSync(uploads).map((e) => statSync(path.join(uploads, e)).uid));
  check(
    owners.size > 0 && (!user || [...owners].every((uid) => uid === user.uid)),
    `the upload is on the data directory, written as ${user ? user.name : "the current user"}`,
  );

  const done = await until(`batch ${batch.id} to reach status 22`, BATCH_TIMEOUT_MS, async () => {
    const b = await api<{ status: number; deliveredCount: number; sentCount: number }>(`/batch/detail?id=${batch.id}`, {
      token,
    });
    return b.status === BatchStatus.SEND_FINISHED && b.deliveredCount === NUMBERS.length ? b : undefined;
  });
  check(
    done.sentCount === NUMBERS.length && done.deliveredCount === NUMBERS.length,
    `batch ${batch.id}: status 22, ${done.sentCount} sent, ${done.deliveredCount} delivered through the SMSC simulator`,
  );

  // SIGTERM as docker stop sends it: every process finishes and exits 0.
  const stopped = Date.now();
  start.kill("SIGTERM");
  const code = await exited(start);
  check(code === 0, `SIGTERM stops the API, workers and web server cleanly (exit 0, ${Date.now() - stopped} ms)`);
  smsc.kill("SIGTERM");
  await exited(smsc);
} catch (err) {
  failed = err;
} finally {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null && c.pid) process.kill(-c.pid, "SIGKILL");
  }
  await Promise.all(children.map(exited));
  await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch((err: unknown) => {
    say(`could not drop ${database}: ${(err as Error).message}`);
  });
  await admin.end();
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${redisPrefix.replace(/:$/, "")}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== "0");
  redis.disconnect();
  rmSync(work, { recursive: true, force: true });
}
if (failed) {
  say(
    `FAILED after ${Math.round((performance.now() - t0) / 1000)} s: ${failed instanceof Error ? failed.message : String(failed)}`,
  );
  process.exit(1);
}
say(`passed in ${Math.round((performance.now() - t0) / 1000)} s`);
