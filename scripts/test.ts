// `npm test`: every workspace's tests against real PostgreSQL and Redis.
// DATABASE_URL / REDIS_URL are used when set; else the local default ports when they answer; else the
// tests' global setup falls back to Testcontainers. Prints a closing line `N passed, N failed`.
// Extra arguments go to vitest (e.g. `npm test -- --project api`).
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LOCAL_POSTGRES, LOCAL_REDIS, postgresAnswers, ROOT, redisAnswers } from "./lib/services";

const env = { ...process.env };
if (!env.DATABASE_URL && (await postgresAnswers(LOCAL_POSTGRES))) env.DATABASE_URL = LOCAL_POSTGRES;
if (!env.REDIS_URL && (await redisAnswers(LOCAL_REDIS))) env.REDIS_URL = LOCAL_REDIS;

const artifacts = path.join(ROOT, "artifacts");
mkdirSync(artifacts, { recursive: true });
const report = path.join(artifacts, "vitest-report.json");
const vitest = path.join(ROOT, "node_modules/vitest/vitest.mjs");
const args = [
  vitest,
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];

const code: number = await new Promise((resolve) => {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: "inherit" });
  child.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0)));
});

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const r = JSON.parse(readFileSync(report, "utf8")) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed = r.numPassedTests;
  failed = r.numFailedTests;
  skipped = r.numPendingTests + r.numTodoTests;
} catch (err) {
  process.stderr.write(`could not read the vitest report: ${(err as Error).message}\n`);
  failed = Math.max(failed, 1);
}
// A run that failed outside any test (a crashed setup, a type error in a config) still counts as failed.
if (code !== 0 && failed === 0) failed = 1;
process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
process.exit(code === 0 && failed === 0 ? 0 : 1);
