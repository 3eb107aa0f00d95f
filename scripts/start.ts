// `npm start`: the whole platform on embedded defaults.
// 1. PostgreSQL: DATABASE_URL, else the local default port, else an embedded PostgreSQL under .data/.
// 2. Redis: REDIS_URL, else the local default port, else redis-server from PATH; else a clear message.
// 3. Migrations, then the seed (demo logins; NODE_ENV=production seeds none, see README).
// 4. The services as child processes with prefixed output (API, workers, web client, and the SMSC simulator the
//    demo SMS channel points at); Ctrl-C stops everything this script started.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createPrisma, migrate } from "@switchboard/db";
import { ConfigError, loadConfig } from "@switchboard/domain/config";
import { DEMO_HLR, DEMO_LOGINS, DEMO_RBM, DEMO_SMSC, DEMO_WHATSAPP, seed } from "@switchboard/domain/seed";
import { ChannelKeyMismatch, DEMO_SIMULATORS, demoSimulatorArgs, findDemoChannels } from "./lib/demo-simulators";
import { localSecrets } from "./lib/local-secrets";
import { logLineFormatter } from "./lib/log-lines";
import { WORKERS_NODE_FLAGS } from "./lib/node-flags";
import {
  DATA_DIR,
  ensureDatabase,
  LOCAL_POSTGRES,
  LOCAL_REDIS,
  postgresAnswers,
  ROOT,
  redisAnswers,
  redisServerOnPath,
  type Started,
  startEmbeddedPostgres,
  startRedisServer,
} from "./lib/services";

const production = process.env.NODE_ENV === "production";
const cleanups: Array<() => Promise<void>> = [];
const children: ChildProcess[] = [];
let stopping = false;

function say(line: string) {
  process.stdout.write(`[start] ${line}\n`);
}

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null)));
    for (const fn of cleanups.reverse()) await fn();
  }
  process.exit(code);
}
process.once("SIGINT", () => void stopAll(0));
process.once("SIGTERM", () => void stopAll(0));

async function postgres(): Promise<Started> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, how: "DATABASE_URL" };
  if (await postgresAnswers(LOCAL_POSTGRES)) {
    return { url: await ensureDatabase(LOCAL_POSTGRES, "switchboard"), how: "local PostgreSQL on 127.0.0.1:5432" };
  }
  say("no PostgreSQL on 127.0.0.1:5432: starting an embedded one");
  const embedded = await startEmbeddedPostgres();
  cleanups.push(embedded.stop!);
  return { ...embedded, url: await ensureDatabase(embedded.url, "switchboard") };
}

async function redis(): Promise<Started> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, how: "REDIS_URL" };
  if (await redisAnswers(LOCAL_REDIS)) return { url: LOCAL_REDIS, how: "local Redis on 127.0.0.1:6379" };
  if (!redisServerOnPath()) {
    process.stderr.write(
      "[start] Redis is needed and none answers on 127.0.0.1:6379, and no redis-server is on PATH.\n" +
        "        Install one (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)\n" +
        "        or point REDIS_URL at a running Redis, then run npm start again.\n",
    );
    return stopAll(1);
  }
  const started = await startRedisServer();
  cleanups.push(started.stop!);
  return started;
}

// Services log JSON; a demo start shows it readable (pino-pretty), a production start as it is (log-lines.ts).
const formatLine = await logLineFormatter({ production, colorize: process.stdout.isTTY === true, say });

function run(name: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = `[${name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = "";
    stream.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const l of lines) {
        for (const shown of formatLine(l).split("\n")) process.stdout.write(`${prefix}${shown}\n`);
      }
    });
  }
  child.once("exit", (code, signal) => {
    if (!stopping) {
      say(`${name} exited (${signal ?? code}); stopping everything`);
      void stopAll(code ?? 1);
    }
  });
  children.push(child);
  return child;
}

// The demo start generates its own secrets once (.data/secrets.json, owner-only) and reuses them; a production
// start must be given them and refuses to go on without, before touching any database.
if (!production) Object.assign(process.env, localSecrets(process.env));
let channelSecretKey: string;
try {
  ({ CHANNEL_SECRET_KEY: channelSecretKey } = loadConfig({
    ...process.env,
    DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://checked-later",
  }));
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`[start] ${err.message}\n`);
  process.exit(1);
}
if (production && !(process.env.SUPER_ADMIN_USERNAME && process.env.SUPER_ADMIN_PASSWORD)) {
  say("production start without SUPER_ADMIN_USERNAME/SUPER_ADMIN_PASSWORD: no super admin is created if none exists");
}

const db = await postgres();
const cache = await redis();
say(`PostgreSQL: ${db.how}`);
say(`Redis:      ${cache.how}`);

const t0 = performance.now();
const { applied } = await migrate(db.url, "deploy");
say(
  `migrations: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"} (${Math.round(performance.now() - t0)} ms)`,
);

const prisma = createPrisma(db.url, { max: 2 });
const { SUPER_ADMIN_USERNAME, SUPER_ADMIN_PASSWORD } = process.env;
const seeded = await seed(
  prisma,
  production
    ? {
        mode: "production",
        superAdmin:
          SUPER_ADMIN_USERNAME && SUPER_ADMIN_PASSWORD
            ? { username: SUPER_ADMIN_USERNAME, password: SUPER_ADMIN_PASSWORD }
            : undefined,
      }
    : { mode: "demo", channelSecretKey },
);
// The demo WhatsApp and RCS channels' ids name their webhook URLs, which the simulators push events to; the RBM
// simulator accepts the service-account key the demo channel holds: handed over as an owner-only file.
let demoChannels: Awaited<ReturnType<typeof findDemoChannels>> | null = null;
try {
  if (!production) demoChannels = await findDemoChannels(prisma, channelSecretKey);
} catch (err) {
  if (!(err instanceof ChannelKeyMismatch)) throw err;
  process.stderr.write(`[start] ${err.message}\n`);
  await prisma.$disconnect();
  process.exit(1);
}
const rbmKeyFile = path.join(DATA_DIR, "rbm-service-account.json");
if (demoChannels?.rcs) {
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  writeFileSync(rbmKeyFile, demoChannels.rcs.serviceAccountKey, { mode: 0o600 });
}
await prisma.$disconnect();
say(`seed: ${seeded.countries} countries${seeded.createdDemo ? ", demo tenant created" : ""}`);

const apiPort = Number(process.env.PORT ?? 3000);
// The demo's simulators listen on loopback, which the egress policy refuses: exactly their host:port are
// allowed, on top of any EGRESS_ALLOW given. A simulator this start runs adds its address here.
const DEMO_SIMULATOR_ADDRESSES = production
  ? []
  : [
      `${DEMO_SMSC.host}:${DEMO_SMSC.port}`,
      `${DEMO_WHATSAPP.host}:${DEMO_WHATSAPP.port}`,
      `${DEMO_RBM.host}:${DEMO_RBM.port}`,
      `${DEMO_HLR.host}:${DEMO_HLR.port}`,
    ];
const webPort = Number(process.env.WEB_PORT ?? 5173);
const env: NodeJS.ProcessEnv = {
  // The web client's origins are the only pages allowed to call the API from a browser.
  CORS_ORIGINS: `http://127.0.0.1:${webPort},http://localhost:${webPort}`,
  ...process.env,
  EGRESS_ALLOW: [process.env.EGRESS_ALLOW ?? "", ...DEMO_SIMULATOR_ADDRESSES].filter((e) => e !== "").join(","),
  DATABASE_URL: db.url,
  REDIS_URL: cache.url,
  PORT: String(apiPort),
  NODE_ENV: process.env.NODE_ENV ?? "development",
};
run("api", ["--import", "tsx", "apps/api/src/main.ts"], env);
run("workers", [...WORKERS_NODE_FLAGS, "--import", "tsx", "workers/src/main.ts"], env);
// The demo channels' simulators (scripts/lib/demo-simulators.ts, shared with docker compose's demo profile).
if (demoChannels) {
  for (const name of DEMO_SIMULATORS) {
    const args = demoSimulatorArgs(name, {
      channelSecretKey,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      channels: demoChannels,
      rbmKeyFile,
    });
    if (args) run(name, ["--import", "tsx", `packages/channels/src/simulators/${name}-cli.ts`, ...args], env);
  }
}

// The web client: built when its sources are newer than the last build, then served with the API's address.
const webDir = path.join(ROOT, "apps/web");
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}
const builtIndex = path.join(webDir, "dist/index.html");
const sourcesChanged =
  !existsSync(builtIndex) ||
  Math.max(newestMtime(path.join(webDir, "src")), statSync(path.join(webDir, "index.html")).mtimeMs) >
    statSync(builtIndex).mtimeMs;
if (sourcesChanged) {
  say("building the web client");
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: webDir,
      stdio: "inherit",
    },
  );
  if (build.status !== 0) {
    say("the web client did not build");
    await stopAll(1);
  }
}
run("web", ["--import", "tsx", "apps/web/server.ts"], {
  ...env,
  WEB_PORT: String(webPort),
  API_BASE: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${apiPort}`,
});

// Wait until the API answers before printing where everything is.
const apiUrl = `http://127.0.0.1:${apiPort}`;
for (let i = 0; i < 100; i++) {
  const ok = await fetch(`${apiUrl}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (ok) break;
  await new Promise((r) => setTimeout(r, 200));
}

const lines = [
  "",
  "Switchboard is running (Ctrl-C stops everything started here)",
  `  Web        http://127.0.0.1:${webPort}    (customer app /login, back office /system/login, RCS portal /control/login)`,
  `  API        ${apiUrl}    (OpenAPI UI ${apiUrl}/docs, readiness ${apiUrl}/readyz)`,
  "  Workers    batch dispatch, delivery receipts, refunds, callbacks",
];
if (!production) {
  lines.push(`  SMSC       ${DEMO_SMSC.host}:${DEMO_SMSC.port}    (SMPP simulator: the demo SMS channel sends here)`);
  lines.push(
    `  RBM        ${DEMO_RBM.host}:${DEMO_RBM.port}    (RCS Business Messaging simulator: the demo RCS channel sends here, numbers ending 404 fall back to SMS)`,
  );
  lines.push(`  HLR        ${DEMO_HLR.host}:${DEMO_HLR.port}    (HLR lookup simulator: screening of SMS numbers)`);
  lines.push(
    `  WhatsApp   ${DEMO_WHATSAPP.host}:${DEMO_WHATSAPP.port}    (Cloud API simulator: the demo WS channel sends here, templates order_update, appointment_reminder...)`,
  );
  lines.push("", "Demo logins (this demo start only; a production start seeds no known password):");
  for (const l of DEMO_LOGINS)
    lines.push(`  ${l.area.padEnd(24)} ${l.username.padEnd(12)} ${l.password.padEnd(12)} ${l.note}`);
  lines.push(
    "",
    "Try it:",
    `  curl -s ${apiUrl}/auth/login -H 'content-type: application/json' -d '{"username":"customer","password":"Customer123"}'`,
  );
}
process.stdout.write(`${lines.join("\n")}\n\n`);
