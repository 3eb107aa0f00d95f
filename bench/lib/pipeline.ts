// What the HTTP channel pipeline benchmarks (bench:rcs, bench:ws) share: simulators as child processes, a file of
// distinct numbers, and the measured run of one batch from status 20 to 22 with every delivery recorded (rate,
// event lag from the batch's counters every 50 ms, failures by error code, CPU per message per process, an
// optional profile of this process).
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import path from "node:path";
import { BatchStatus } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { cpuMeter, fmt, log, pollUntil, postgresPids, ROOT, receiptLag, WORK } from "./platform";
import { type ProfileSummary, printProfile, profiled } from "./profile";

/** A simulator CLI of the project in a child process (its stderr shown, its counters line not). */
export function child(script: string, args: string[]): ChildProcess {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, script), ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  proc.on("exit", (code, signal) => {
    if (code !== 0 && signal === null) log(`${path.basename(script)} exited with ${code}`);
  });
  return proc;
}

/** Writes a run's figures to .bench-work/<name>-<runId>.json and says where. */
export function writeResults(name: string, runId: string, results: Record<string, unknown>): void {
  const out = path.join(WORK, `${name}-${runId}.json`);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  log(`results: ${out}`);
}

/** n distinct US numbers, one per line, from +1212<first>. */
export async function writeNumbers(file: string, n: number, first = 2_000_000): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    if (!out.write(`+1212${String(first + i).padStart(7, "0")}\n`))
      await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

/** Waits for a submitted batch to reach 20 (ingested, charged, no review); performance.now() when it did. */
export function reachedStatus20(prisma: PrismaClient, batchId: bigint): Promise<number> {
  return pollUntil(
    "status 20",
    async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({
        where: { id: batchId },
        select: { status: true, reason: true },
      });
      if (b.status === BatchStatus.REVIEW_REJECTED) throw new Error(`the batch was refused: ${b.reason}`);
      return b.status >= BatchStatus.PENDING_SEND ? performance.now() : undefined;
    },
    10 * 60_000,
    5,
  );
}

export interface MeasuredRun {
  seconds: number;
  messagesPerS: number;
  sent: number;
  failed: number;
  failures: Record<string, number>;
  fellBackToSms: number;
  delivered: number;
  read: number;
  eventLagMs: { p50: number; p95: number; max: number };
  cpuSeconds: Record<string, number>;
  profile: ProfileSummary | null;
}

/**
 * The batch's counters every 50 ms until stop(): when k messages had been sent and when k receipts had been
 * recorded (the receipt-lag curve of bench:batch, bench:rcs and bench:ws).
 */
export function sampleProgress(
  prisma: PrismaClient,
  batchId: bigint,
): { curve: Array<{ t: number; sent: number; received: number }>; stop: () => void } {
  const curve: Array<{ t: number; sent: number; received: number }> = [];
  const sampler = setInterval(() => {
    void prisma.messageBatch
      .findUniqueOrThrow({
        where: { id: batchId },
        select: { sentCount: true, deliveredCount: true, undeliveredCount: true },
      })
      .then((b) =>
        curve.push({ t: performance.now(), sent: b.sentCount, received: b.deliveredCount + b.undeliveredCount }),
      );
  }, 50);
  return { curve, stop: () => clearInterval(sampler) };
}

/**
 * Waits for the batch to reach 20, then measures it to 22 with every delivery recorded; prints and returns the
 * figures. `processes`: the simulators' process ids by name (this process and the workers are added).
 */
export async function measureBatch(opts: {
  label: string;
  prisma: PrismaClient;
  batchId: bigint;
  runId: string;
  workersPid: number;
  processes: Record<string, number>;
  profile: boolean;
}): Promise<MeasuredRun> {
  const { label, prisma, batchId } = opts;
  const split = opts.workersPid !== process.pid;
  const meter = cpuMeter({
    [split ? "API" : "API + workers"]: () => [process.pid],
    ...(split ? { workers: () => [opts.workersPid] } : {}),
    ...Object.fromEntries(Object.entries(opts.processes).map(([name, pid]) => [name, () => [pid]])),
    PostgreSQL: postgresPids,
  });
  const { result: run, profile } = await profiled(
    opts.profile,
    async () => {
      const t20 = await reachedStatus20(prisma, batchId);
      meter.start();
      const { curve, stop: stopSampling } = sampleProgress(prisma, batchId);
      let lastNote = Date.now();
      await pollUntil(
        "status 22 with every delivery recorded",
        async () => {
          const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
          if (Date.now() - lastNote > 5000) {
            lastNote = Date.now();
            log(`${label}: status ${b.status}, sent ${fmt(b.sentCount)}, delivered ${fmt(b.deliveredCount)}`);
          }
          if (b.status !== BatchStatus.SEND_FINISHED) return undefined;
          return b.deliveredCount + b.undeliveredCount >= b.successCount ? true : undefined;
        },
        30 * 60_000,
        50,
      );
      stopSampling();
      return { seconds: (performance.now() - t20) / 1000, curve, cpu: meter.stop() };
    },
    path.join(WORK, `${label}-pipeline-${opts.runId}.cpuprofile`),
  );
  const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
  const failures = await prisma.recipient.groupBy({
    by: ["errorCode"],
    where: { batchId, sendResult: 2 },
    _count: { _all: true },
  });
  const byCode = Object.fromEntries(failures.map((f) => [f.errorCode ?? "?", f._count._all]));
  const rate = batch.successCount / run.seconds;
  const lag = receiptLag(run.curve, batch.successCount);
  const fallbacks = batch.fallbackCount > 0 ? ` (${fmt(batch.fallbackCount)} of them SMS fallbacks)` : "";
  log(
    `${label}: ${fmt(batch.successCount)} messages${fallbacks} from status 20 to 22 with every delivery recorded in ` +
      `${run.seconds.toFixed(2)} s = ${fmt(rate)} msg/s; failed ${fmt(batch.failedCount)} ${JSON.stringify(byCode)}`,
  );
  log(
    `${label}: event lag (k-th delivery recorded - k-th message sent): p50 ${lag.p50} ms, p95 ${lag.p95} ms, ` +
      `max ${lag.max} ms; read ${fmt(batch.readCount)}`,
  );
  const total = Object.values(run.cpu).reduce((a, b) => a + b, 0);
  log(
    `${label}: CPU per message (us): ${Object.entries(run.cpu)
      .map(([name, s]) => `${name} ${fmt((s * 1e6) / batch.successCount)}`)
      .join(", ")}; all ${fmt((total * 1e6) / batch.successCount)}`,
  );
  printProfile(`the ${label} batch`, profile);
  return {
    seconds: run.seconds,
    messagesPerS: Math.round(rate),
    sent: batch.successCount,
    failed: batch.failedCount,
    failures: byCode,
    fellBackToSms: batch.fallbackCount,
    delivered: batch.deliveredCount,
    read: batch.readCount,
    eventLagMs: lag,
    cpuSeconds: run.cpu,
    profile,
  };
}
