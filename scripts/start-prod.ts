// npm run start:prod: the production build (npm run build: dist/) outside Docker, the way docker compose runs it.
// 1. Migrations, then the seed (NODE_ENV=production: the first super admin from SUPER_ADMIN_USERNAME /
//    SUPER_ADMIN_PASSWORD, no demo data).
// 2. The API, the workers and the web server, each its own `node` process with this environment (see README,
//    Configuration; the web server reads WEB_HOST, WEB_PORT, API_BASE).
// SIGINT / SIGTERM stop them all (each finishes what it has in hand); one of them exiting stops the others.
// It runs as dist/start.js: every path below is relative to dist/.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { WORKERS_NODE_FLAGS } from "./lib/node-flags";

process.env.NODE_ENV ??= "production";
const DIST = import.meta.dirname;
const children: ChildProcess[] = [];
let stopping = false;

function say(line: string) {
  process.stdout.write(`[start] ${line}\n`);
}

function node(script: string, args: string[] = [], flags: readonly string[] = []): ChildProcess {
  const file = path.join(DIST, script);
  if (!existsSync(file)) {
    say(`${file} is missing: run npm run build first`);
    process.exit(1);
  }
  return spawn(process.execPath, [...flags, "--enable-source-maps", file, ...args], {
    stdio: "inherit",
    env: process.env,
  });
}

function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await Promise.all(children.map(exited));
  }
  process.exit(code);
}

async function once(name: string, script: string, args: string[] = []) {
  const code = await exited(node(script, args));
  if (code !== 0) {
    say(`${name} failed (exit ${code})`);
    process.exit(code);
  }
}

await once("migrate", "prisma/bin/migrate.js", ["deploy"]);
await once("seed", "prisma/bin/seed.js");
for (const [name, script] of [
  ["api", "api/main.js"],
  ["workers", "workers/main.js"],
  ["web", "web/server.js"],
] as const) {
  const child = node(script, [], name === "workers" ? WORKERS_NODE_FLAGS : []);
  children.push(child);
  void exited(child).then((code) => {
    if (stopping) return;
    say(`${name} exited (${code}); stopping everything`);
    void stopAll(code === 0 ? 1 : code);
  });
}
process.once("SIGINT", () => void stopAll(0));
process.once("SIGTERM", () => void stopAll(0));
say(`api, workers and web started (NODE_ENV=${process.env.NODE_ENV})`);
