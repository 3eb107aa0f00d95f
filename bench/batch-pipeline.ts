// The batch pipeline benchmark of issue 5 (not a test; results go in docs/benchmarks.md):
//   npm run bench:batch                     1,000,000-number ingest, 100,000-message dispatch, Kannel beside it
//   npm run bench:batch -- --ingest 200000 --dispatch 20000 --no-kannel --profile
//   npm run bench:batch -- --ingest 0 --no-kannel --dlr-delay-ms 2000   receipts 2 s after the submit answer
//   npm run bench:batch -- --ingest 200000 --dispatch 0 --no-kannel --variables   a personalised file (2 columns)
//   npm run bench:batch -- --ingest 200000 --dispatch 0 --no-kannel --columns     the same file, columns unused
//
// 1. Ingest: a CSV of N numbers is uploaded to the real API (POST /batch/submit/file, the customer's session) and
//    read by the real ingest worker: numbers normalised, sorted, priced, written, charged in one transaction.
//    Figures: numbers/s from the upload's answer to the batch being written, and this process's peak RSS. For
//    reference, a plain server-side COPY of the same rows into a copy of the recipients table (same indexes).
// 2. Dispatch: a file of M numbers for the seed's SMS channel, pointed at the SMSC simulator of
//    ../shared/bench/kannel (smsc-sim.js, the one Kannel is measured against), SMPP window 100, no throughput
//    limit (as Kannel's run), a receipt for every message. Figures: messages/s from status 20 (dispatch starts)
//    until 22 with every receipt recorded on its recipient, and the receipt lag (receipt recorded - sent).
// 3. Kannel: ../shared/bench/kannel/run.sh with the same M and delivery reports on (HTTP sendsms -> bearerbox
//    -> SMPP -> the same simulator -> dlr-url callbacks), and the ratio of the two.
//
// It makes its own database (dropped at the end) and Redis prefix; needs PostgreSQL and Redis as `npm test` does.
// Everything runs in this one process (API + workers), so the profile (--profile) covers both.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { BatchStatus, ProductCode } from "@switchboard/contracts";
import pg from "pg";
import { reachedStatus20, sampleProgress } from "./lib/pipeline";
import { arg, fmt, log, pollUntil, ROOT, receiptLag, startPlatform, WORK } from "./lib/platform";
import { printProfile, profiled } from "./lib/profile";

const KANNEL_SRC = path.resolve(ROOT, "../shared/bench/kannel");

const mib = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MiB`;
const INGEST_N = arg("ingest", 1_000_000);
const DISPATCH_N = arg("dispatch", 100_000);
const KANNEL = !process.argv.includes("--no-kannel") && DISPATCH_N > 0;
const PROFILE = process.argv.includes("--profile");
/** Delay between a submit_sm_resp and its receipt at the simulator (our side only: Kannel's run.sh has 0). */
const DLR_DELAY_MS = arg("dlr-delay-ms", 0);
/**
 * --variables: a personalised campaign (docs/batches.md): the file has two more columns (name, code) and the text
 * uses both, so each row is filled, counted and priced on its own and keeps its values.
 */
const VARIABLES = process.argv.includes("--variables");
/** --columns: the same two more columns, unused (what a wider file costs without personalisation). */
const COLUMNS = VARIABLES || process.argv.includes("--columns");
const TEXT = VARIABLES ? "Hello {{name}}, your code is {{code}}" : "Benchmark message";

/**
 * N distinct valid numbers: US +1 201 2xx xxxx for 90 %, CN mobiles +86 138 xxxx xxxx for 10 % (two prices), and
 * 0.1 % duplicates and 0.1 % invalid lines, as a real customer file has.
 */
async function writeNumberFile(file: string, n: number): Promise<{ valid: number }> {
  const out = createWriteStream(file);
  const write = (s: string) =>
    out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once("drain", () => r()));
  await write(COLUMNS ? "phone,name,code\n" : "phone\n");
  let valid = 0;
  let chunk = "";
  for (let i = 0; i < n; i++) {
    const cells = COLUMNS ? `,Name${i},${(i * 7919) % 1_000_000}\n` : "\n";
    if (i % 1000 === 999) chunk += `12345${cells}`;
    else if (i % 1000 === 998 && i > 0) chunk += `+12012000000${cells}`;
    else if (i % 10 === 9) {
      chunk += `+86138${String(i).padStart(8, "0")}${cells}`;
      valid++;
    } else {
      chunk += `+1201${200 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, "0")}${cells}`;
      valid++;
    }
    if (chunk.length > 64_000) {
      await write(chunk);
      chunk = "";
    }
  }
  await write(chunk);
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  // The duplicate line repeats +1 201 200 0000, written at i = 0.
  return { valid };
}

interface KannelResult {
  dlr_e2e_rate?: number;
  dlr_all_done_s?: number;
  smsc_e2e_rate?: number;
  [key: string]: unknown;
}

/** A scratch copy of the Kannel bench (it installs its npm packages and writes results beside itself). */
function kannelCopy(): string {
  const dir = path.join(WORK, "kannel");
  if (!existsSync(path.join(dir, "run.sh"))) {
    mkdirSync(WORK, { recursive: true });
    execFileSync("cp", ["-r", KANNEL_SRC, dir]);
  }
  if (!existsSync(path.join(dir, "node_modules/smpp"))) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

function startKannelSimulator(dir: string, port: number, statsPort: number, expect: number): ChildProcess {
  const child = spawn(
    "node",
    [
      "smsc-sim.js",
      "--port",
      String(port),
      "--dlr",
      "--dlr-delay-ms",
      String(DLR_DELAY_MS),
      "--window",
      "100",
      "--stats-port",
      String(statsPort),
      "--expect",
      String(expect),
      "--idle-exit-s",
      "120",
      "--max-s",
      "900",
      "--linger-s",
      "30",
    ],
    { cwd: dir, stdio: ["ignore", "pipe", "inherit"] },
  );
  const simLog = createWriteStream(path.join(WORK, "smsc-sim.log"));
  child.stdout?.pipe(simLog);
  return child;
}

async function simStats(statsPort: number): Promise<Record<string, number>> {
  const res = await fetch(`http://127.0.0.1:${statsPort}/stats`);
  return (await res.json()) as Record<string, number>;
}

function runKannel(dir: string, n: number): KannelResult {
  const out = path.join(dir, "results", `sb-${Date.now()}`);
  log(`Kannel: run.sh with N=${fmt(n)}, delivery reports on (HTTP sendsms -> bearerbox -> SMPP -> smsc-sim.js)`);
  execFileSync("bash", ["run.sh"], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      OUT: out,
      REPS: "1",
      SIZES: String(n),
      DLR_MODES: "on",
      MTBATCH_SIZES: "",
      QUIET_WAIT_S: "30",
    },
  });
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !e.name.includes("noisy")) walk(p);
      else if (e.name === "result.json") files.push(p);
    }
  };
  walk(out);
  if (files.length === 0) throw new Error(`Kannel's run left no result.json under ${out}`);
  return JSON.parse(readFileSync(files[0] as string, "utf8")) as KannelResult;
}

/**
 * Receipt lag from the two curves: for each level k (every 1 % of the batch), the time the k-th receipt was
 * recorded minus the time the k-th message had been sent (both first seen at or above k).
 */
async function main() {
  const platform = await startPlatform();
  const { prisma, base, token, runId, databaseUrl } = platform;
  const results: Record<string, unknown> = { ...platform.machine };
  let kannelSim: ChildProcess | null = null;
  try {
    const product = await prisma.product.findFirstOrThrow({
      where: { tenantId: platform.customer.tenantId, code: ProductCode.SMS },
    });
    const submitFile = (file: string, scheduledAt?: Date) =>
      platform.submitFile(file, {
        productId: product.id,
        content: { product: ProductCode.SMS, text: TEXT },
        ...(scheduledAt ? { scheduledAt } : {}),
      });

    // ------------------------------------------------------------------ 1. ingest
    if (INGEST_N > 0) {
      const file = path.join(WORK, `numbers-${INGEST_N}.csv`);
      const { valid } = await writeNumberFile(file, INGEST_N);
      log(`ingest: ${fmt(INGEST_N)} lines (${fmt(valid)} valid), scheduled tomorrow so that nothing is sent`);
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 50);
      const { result: ingest, profile } = await profiled(PROFILE, async () => {
        const t0 = performance.now();
        const batchId = await submitFile(file, new Date(Date.now() + 86_400_000));
        const tUploaded = performance.now();
        const batch = await pollUntil(
          "the ingest",
          async () => {
            const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
            return b.filePath === null ? b : undefined;
          },
          15 * 60_000,
        );
        const tDone = performance.now();
        return { batch, uploadS: (tUploaded - t0) / 1000, ingestS: (tDone - tUploaded) / 1000 };
      });
      clearInterval(sampler);
      const { batch } = ingest;
      if (batch.status !== BatchStatus.PENDING_SEND) throw new Error(`ingest ended in status ${batch.status}`);
      const written = await prisma.recipient.count({ where: { batchId: batch.id } });
      if (written !== valid) throw new Error(`ingest wrote ${written} recipients, expected ${valid}`);

      // Reference: a plain COPY of the same rows into a copy of the recipients table with its indexes.
      const copyFile = path.join("/tmp", `sb-bench-copy-${runId}.csv`);
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      await db.query(
        `COPY (SELECT "batchId", phone, "countryCode", "channelId", segments, price, vars FROM recipients
                       WHERE "batchId" = $1) TO '${copyFile}' CSV`.replace("$1", batch.id.toString()),
      );
      await db.query(`CREATE TABLE copy_reference (LIKE recipients INCLUDING ALL)`);
      const c0 = performance.now();
      await db.query(
        `COPY copy_reference ("batchId", phone, "countryCode", "channelId", segments, price, vars) FROM '${copyFile}' CSV`,
      );
      const copyS = (performance.now() - c0) / 1000;
      await db.query("DROP TABLE copy_reference");
      await db.end();
      rmSync(copyFile, { force: true });
      // Cancel the scheduled batch (refunded whole) so that it never sends.
      const cancel = await fetch(`${base}/batch/cancel`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ id: batch.id.toString() }),
      });
      if (((await cancel.json()) as { code: number }).code !== 0) throw new Error("could not cancel the ingest batch");

      const rate = INGEST_N / ingest.ingestS;
      results.ingest = {
        lines: INGEST_N,
        valid,
        uploadS: ingest.uploadS,
        ingestS: ingest.ingestS,
        numbersPerS: Math.round(rate),
        peakRssMiB: Math.round(peakRss / 1024 / 1024),
        rssBeforeMiB: Math.round(rssBefore / 1024 / 1024),
        copyReferenceS: copyS,
        copyRowsPerS: Math.round(valid / copyS),
        profile,
      };
      log(
        `ingest: upload answered in ${ingest.uploadS.toFixed(2)} s; ${fmt(INGEST_N)} numbers read, checked, priced, ` +
          `written and charged in ${ingest.ingestS.toFixed(2)} s = ${fmt(rate)} numbers/s; peak RSS ${mib(peakRss)} ` +
          `(${mib(rssBefore)} before)`,
      );
      log(
        `ingest: reference COPY of the same ${fmt(valid)} rows into an indexed table: ${copyS.toFixed(2)} s = ` +
          `${fmt(valid / copyS)} rows/s; ingest / COPY speed = ${(valid / ingest.ingestS / (valid / copyS)).toFixed(2)}`,
      );
      printProfile("the ingest", profile);
    }

    // ------------------------------------------------------------------ 2. dispatch through smsc-sim.js
    let ours: { rate: number } | null = null;
    if (DISPATCH_N > 0) {
      const kdir = kannelCopy();
      const simPort = 22775;
      const statsPort = 22776;
      kannelSim = startKannelSimulator(kdir, simPort, statsPort, DISPATCH_N);
      await pollUntil(
        "the simulator",
        () =>
          simStats(statsPort)
            .then(() => true)
            .catch(() => undefined),
        10_000,
        100,
      );
      const channel = await prisma.channel.findFirstOrThrow({ where: { id: product.defaultChannelId as number } });
      await prisma.channel.update({
        where: { id: channel.id },
        data: {
          config: { ...(channel.config as Record<string, unknown>), port: simPort, windowSize: 100 },
          throughput: 1_000_000,
        },
      });
      const file = path.join(WORK, `numbers-dispatch-${DISPATCH_N}.csv`);
      // Distinct from the ingest batch's numbers is not needed: another batch, another recipient set.
      const { valid } = await writeNumberFile(file, DISPATCH_N);
      log(`dispatch: ${fmt(valid)} messages through the seed's SMPP channel to smsc-sim.js (window 100, receipts on)`);
      const batchId = await submitFile(file);
      const { result: run, profile } = await profiled(PROFILE, async () => {
        const t20 = await reachedStatus20(prisma, batchId);
        const epoch20 = Date.now();
        let lastNote = Date.now();
        const { curve, stop: stopSampling } = sampleProgress(prisma, batchId);
        await pollUntil(
          "status 22 with every receipt",
          async () => {
            const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
            if (b.status !== BatchStatus.SEND_FINISHED) return undefined;
            const missing = await prisma.recipient.count({ where: { batchId, receiveResult: 0 } });
            if (missing > 0 && Date.now() - lastNote > 5000) {
              lastNote = Date.now();
              log(`dispatch: status 22, ${fmt(missing)} receipts still to record`);
            }
            return missing === 0 ? true : undefined;
          },
          15 * 60_000,
          50,
        );
        stopSampling();
        return { seconds: (performance.now() - t20) / 1000, epoch20, curve };
      });
      const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
      const stats = await simStats(statsPort);
      const rate = valid / run.seconds;
      ours = { rate };
      const l = receiptLag(run.curve, valid);
      // nth_submit_ms is only set when the simulator saw --expect submits (the file's invalid and duplicate
      // numbers are never sent), so the last submit's time stands in.
      const lastSubmitMs = stats.nth_submit_ms || stats.last_submit_ms;
      const lastReceiptAfterLastSubmitMs = lastSubmitMs
        ? Math.round(run.epoch20 + run.seconds * 1000 - lastSubmitMs)
        : null;
      results.dispatch = {
        messages: valid,
        seconds: run.seconds,
        messagesPerS: Math.round(rate),
        success: batch.successCount,
        delivered: batch.deliveredCount,
        receiptLagMs: l,
        simSideSubmitRate:
          lastSubmitMs && stats.first_submit_ms
            ? Math.round(valid / ((lastSubmitMs - stats.first_submit_ms) / 1000))
            : null,
        lastReceiptAfterLastSubmitMs,
        profile,
      };
      log(
        `dispatch: ${fmt(valid)} messages from status 20 to 22 with every receipt recorded in ${run.seconds.toFixed(2)} s ` +
          `= ${fmt(rate)} msg/s (sent ${fmt(batch.successCount)}, delivered ${fmt(batch.deliveredCount)})`,
      );
      log(
        `dispatch: receipt lag (k-th receipt recorded - k-th message sent, batch counters every 50 ms): p50 ${l.p50} ms, ` +
          `p95 ${l.p95} ms, max ${l.max} ms; all receipts recorded ${lastReceiptAfterLastSubmitMs} ms after the ` +
          "simulator took the last submit_sm",
      );
      printProfile("the dispatch", profile);
      kannelSim.kill("SIGTERM");
      kannelSim = null;
    }

    // ------------------------------------------------------------------ 3. Kannel, same simulator, same count
    if (KANNEL && ours) {
      // Our API and workers stay up but idle; close them first so that Kannel gets the machine to itself.
      await platform.stopServers();
      const k = runKannel(kannelCopy(), DISPATCH_N);
      const kannelRate = Number(k.dlr_e2e_rate);
      results.kannel = { messages: DISPATCH_N, dlrCallbacksPerS: Math.round(kannelRate), raw: k };
      log(
        `Kannel: ${fmt(DISPATCH_N)} messages with every DLR called back at ${fmt(kannelRate)} msg/s; ` +
          `Switchboard / Kannel = ${(ours.rate / kannelRate).toFixed(2)}x`,
      );
      results.ratio = Math.round((ours.rate / kannelRate) * 100) / 100;
    }
    const out = path.join(WORK, `batch-pipeline-${runId}.json`);
    const { writeFileSync } = await import("node:fs");
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    log(`results: ${out}`);
  } finally {
    kannelSim?.kill("SIGTERM");
    await platform.close();
  }
}

await main();
process.exit(0);
