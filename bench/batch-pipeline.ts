// The batch pipeline benchmark of issue 5 (not a test; results go in docs/benchmarks.md):
//   npm run bench:batch                     1,000,000-number ingest, 100,000-message dispatch, Kannel beside it
//   npm run bench:batch -- --ingest 200000 --dispatch 20000 --no-kannel --profile
//   npm run bench:batch -- --ingest 0 --no-kannel --dlr-delay-ms 2000   receipts 2 s after the submit answer
//   npm run bench:batch -- --ingest 200000 --dispatch 0 --no-kannel --variables   a personalised file (2 columns)
//   npm run bench:batch -- --ingest 200000 --dispatch 0 --no-kannel --columns     the same file, columns unused
//   npm run bench:batch -- --ingest 0 --dispatch 100000 --mtbatch    against Kannel's mtbatch only (no DLR side)
//   npm run bench:batch -- --ingest 0 --no-kannel --scale 10000,100000,1000000   one dispatch run per size
//   npm run bench:batch -- --ingest 0 --no-kannel --prefill 10000000   measured against a 10M-row recipients table
//   npm run bench:batch -- --ingest 0 --no-kannel --receiver-binds 2   our channel as a transmitter and 2 receivers
//   npm run bench:batch -- --ingest 0 --no-kannel --warmup 0   no warm-up batch: the measured run is a fresh process's
//
// 1. Ingest: a CSV of N numbers is uploaded to the real API (POST /batch/submit/file, the customer's session) and
//    read by the real ingest worker: numbers normalised, sorted, priced, written, charged in one transaction.
//    Figures: numbers/s from the upload's answer to the batch being written, and the ingesting process's peak RSS
//    (the workers' own with --split). For reference, a plain server-side COPY of the same rows into a copy of the
//    recipients table (same indexes). --ingest-rounds (3) rounds of both, alternating; medians.
// 2. Dispatch: a file of M numbers for the seed's SMS channel, pointed at the SMSC simulator of
//    ../shared/bench/kannel (smsc-sim.js, the one Kannel is measured against), SMPP window 100, no throughput
//    limit (as Kannel's run), a receipt for every message. Figures: messages/s from status 20 (dispatch starts)
//    until 22 with every receipt recorded on its recipient, and the receipt lag (receipt recorded - sent).
//    First a warm-up batch (--warmup, 10,000 messages), its figures printed as a fresh workers process's and left
//    out: the measured runs are a running platform's, as bench:api's are (a fresh process's first seconds on a busy
//    machine trail its receipts by up to a second: docs/benchmarks.md, 2026-11-28).
// 3. Kannel: ../shared/bench/kannel/run.sh with the same M and delivery reports on (HTTP sendsms -> bearerbox
//    -> SMPP -> the same simulator -> dlr-url callbacks), and the ratio of the two; then run.sh's mtbatch path
//    (Kannel's own mtbatch tool -> bearerbox -> SMPP -> the same simulator, no receipts, nothing persisted: its raw
//    rate) with the same M, and the ratio ours / mtbatch. --mtbatch runs only the latter, --no-kannel neither.
//    With --scale, Kannel runs with --dispatch's size (default 100,000) and is compared with that run.
//
// It makes its own database (dropped at the end) and Redis prefix; needs PostgreSQL and Redis as `npm test` does.
// Everything runs in this one process (API + workers), so the profile (--profile) covers both.
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { BatchStatus, ProductCode } from "@switchboard/contracts";
import pg from "pg";
import { kannelCopy, runKannel } from "./lib/kannel";
import { reachedStatus20, sampleProgress } from "./lib/pipeline";
import {
  arg,
  cpuMeter,
  fmt,
  log,
  pidsNamed,
  pollUntil,
  postgresPids,
  receiptLag,
  residentBytes,
  startPlatform,
  WORK,
} from "./lib/platform";
import type { ProfileSummary } from "./lib/profile";
import { printProfile, profiled } from "./lib/profile";

const mib = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MiB`;
const INGEST_N = arg("ingest", 1_000_000);
/** Ingest rounds, each with its reference COPY (--ingest-rounds). */
const INGEST_ROUNDS = arg("ingest-rounds", 3);
const DISPATCH_N = arg("dispatch", 100_000);
/**
 * --scale 10000,100000,1000000: dispatch runs of each size one after the other (same platform, same simulator), each
 * with its msg/s, CPU per message and receipt lag, so that the per-message cost at each size can be read off.
 */
const SCALE = (() => {
  const at = process.argv.indexOf("--scale");
  return at > 0
    ? String(process.argv[at + 1])
        .split(",")
        .map(Number)
        .filter((n) => n > 0)
    : null;
})();
const SIZES = SCALE ?? (DISPATCH_N > 0 ? [DISPATCH_N] : []);
/** --warmup N: a batch of N sent first on the same platform and simulator, printed and not compared (0: none). */
const WARMUP = arg("warmup", 10_000);
/** --prefill N: N settled recipients in old batches written before anything is measured (a large table). */
const PREFILL = arg("prefill", 0);
const NO_KANNEL = process.argv.includes("--no-kannel");
/** --mtbatch: Kannel's mtbatch side only (no DLR side); by default, when Kannel runs, both sides run. */
const MTBATCH = !NO_KANNEL && SIZES.length > 0;
const KANNEL_DLR = !NO_KANNEL && SIZES.length > 0 && !process.argv.includes("--mtbatch");
const PROFILE = process.argv.includes("--profile");
/** Delay between a submit_sm_resp and its receipt at the simulator (our side only: Kannel's run.sh has 0). */
const DLR_DELAY_MS = arg("dlr-delay-ms", 0);
/**
 * --receiver-binds N: our channel binds a transmitter and N receivers (bindMode transmitter_receiver) instead of one
 * transceiver, as Kannel's run does; 0 (the default) keeps the transceiver.
 */
const RECEIVER_BINDS = arg("receiver-binds", 0);
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

interface DispatchFigures {
  size: number;
  messages: number;
  seconds: number;
  messagesPerS: number;
  success: number;
  delivered: number;
  receiptLagMs: { p50: number; p95: number; max: number };
  simSideSubmitRate: number | null;
  lastReceiptAfterLastSubmitMs: number | null;
  /** CPU per message (µs) of each process: this one (API + workers), PostgreSQL, Redis, the simulator. */
  cpuUsPerMessage: Record<string, number>;
  /** The same without the simulator: what the platform costs per message. */
  oursCpuUsPerMessage: number;
  loadBefore: number;
  loadAfter: number;
  profile: ProfileSummary | null;
}

/** The simulator for every dispatch run (no count to expect: its counters are zeroed before each run). */
function startKannelSimulator(dir: string, port: number, statsPort: number): ChildProcess {
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
      "--idle-exit-s",
      "600",
      "--max-s",
      "7200",
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

/** The machine's load average and how busy its cores were (all of them) since the previous call, for each figure. */
function loadNow(): string {
  const [l1, l5] = loadavg();
  return `load ${(l1 ?? 0).toFixed(2)} / ${(l5 ?? 0).toFixed(2)} (1 / 5 min)`;
}

/**
 * --prefill N: N settled recipients (sent, delivered, with provider ids and times from 30 days to a day old, one batch every 7 hours) in 100 finished
 * batches of the seed customer, written before anything is measured, so that the measured batches run against a
 * large recipients table (the partitioned one: N up to 50M stays in its first partition, as on a live system until
 * the sequence passes 50M). A few INSERT ... SELECT generate_series statements of 2M rows into the indexed table,
 * the sequence moved past them, then VACUUM ANALYZE. Their provider ids (old<n>) never equal the simulator's decimal
 * ids, so no receipt of a measured batch matches an old row: the old rows cost what a large table and its indexes cost.
 */
async function prefill(
  databaseUrl: string,
  n: number,
  who: { tenantId: number; userId: number; productId: number; channelId: number },
): Promise<void> {
  const t0 = performance.now();
  const BATCHES = 100;
  const per = Math.ceil(n / BATCHES);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO message_batches ("tenantId", "userId", "productId", "productCode", "taskType", "submitMode", status,
                                    content, segments, "totalCount", "validCount", "sentCount", "successCount",
                                    "deliveredCount", cost, "startedAt", "finishedAt", "createdAt", "updatedAt")
       SELECT $1, $2, $3, ${ProductCode.SMS}, 2, 3, ${BatchStatus.SEND_FINISHED}, '{"product":3000,"text":"Old batch"}',
              1, $4::int, $4::int, $4::int, $4::int, $4::int, $4::int * 100::bigint, t, t + interval '1 minute', t, t + interval '1 minute'
         FROM generate_series(1, ${BATCHES}) b, LATERAL (SELECT now() - interval '30 days' + (b - 1) * interval '7 hours' AS t) x
       ORDER BY b RETURNING id`,
      [who.tenantId, who.userId, who.productId, per],
    );
    const firstBatch = BigInt(rows[0]?.id as string);
    const START = (await db.query<{ v: string }>(`SELECT last_value AS v FROM recipients_id_seq`)).rows[0]?.v;
    const base = BigInt(START ?? "0") + 1n;
    const STEP = 2_000_000;
    for (let from = 0; from < n; from += STEP) {
      const to = Math.min(n, from + STEP);
      const s0 = performance.now();
      await db.query(
        `INSERT INTO recipients (id, "batchId", phone, "countryCode", "channelId", segments, price, "sendResult",
                                 "receiveResult", "providerMessageId", "sentAt", "receivedAt")
         SELECT ${base}::bigint + i, ${firstBatch}::bigint + i / ${per}, '+1303' || lpad((i % 10000000)::text, 7, '0'),
                'US', ${who.channelId}, 1, 100, 1, 1, 'old' || i::text, t, t + interval '3 seconds'
           FROM generate_series(${from}::bigint, ${to - 1}::bigint) i,
                LATERAL (SELECT now() - interval '30 days' + (i / ${per}) * interval '7 hours' + (i % ${per}) * interval '1 millisecond' AS t) x`,
      );
      log(`prefill: rows ${fmt(from)}..${fmt(to)} in ${((performance.now() - s0) / 1000).toFixed(1)} s`);
    }
    await db.query(
      `UPDATE message_batches SET "recipientIdFrom" = ${base}::bigint + (id - ${firstBatch}) * ${per},
              "recipientIdTo" = ${base}::bigint + (id - ${firstBatch} + 1) * ${per} - 1
        WHERE id BETWEEN ${firstBatch} AND ${firstBatch + BigInt(BATCHES - 1)}`,
    );
    await db.query(`SELECT setval('recipients_id_seq', ${base}::bigint + ${n})`);
    await db.query("SELECT ensure_recipient_partitions()");
    const v0 = performance.now();
    await db.query("VACUUM ANALYZE recipients");
    await db.query("VACUUM ANALYZE message_batches");
    const { rows: size } = await db.query<{ size: string; parts: string }>(
      `SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size, count(*) AS parts
         FROM pg_inherits WHERE inhparent = 'recipients'::regclass`,
    );
    log(
      `prefill: ${fmt(n)} settled recipients in ${BATCHES} old batches, written in ${((v0 - t0) / 1000).toFixed(1)} s, ` +
        `vacuumed in ${((performance.now() - v0) / 1000).toFixed(1)} s; recipients ${size[0]?.size} in ` +
        `${size[0]?.parts} partitions`,
    );
  } finally {
    await db.end();
  }
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
      // The process that ingests: the workers' own with --split, else this one (API, workers and the benchmark).
      const ingesting = platform.workersPid;
      const rssOf = () => (ingesting === process.pid ? process.memoryUsage().rss : residentBytes(ingesting));
      const rssBefore = rssOf();
      let peakRss = rssBefore;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, rssOf());
      }, 50);
      // Rounds of one ingest and one reference COPY each (the machine's pace moves between seconds): the figures are
      // the medians, the ratio is of the two medians.
      const rounds: Array<{ uploadS: number; ingestS: number; copyS: number }> = [];
      let profile: ProfileSummary | null = null;
      for (let round = 0; round < INGEST_ROUNDS; round++) {
        const { result: ingest, profile: roundProfile } = await profiled(PROFILE && round === 0, async () => {
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
        profile ??= roundProfile;
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
        // With the partitions' storage settings too (LIKE copies no fillfactor): the same pages to fill.
        const { rows: opts } = await db.query<{ options: string[] | null }>(
          `SELECT reloptions AS options FROM pg_class
           WHERE oid = (SELECT max(inhrelid) FROM pg_inherits WHERE inhparent = 'recipients'::regclass)`,
        );
        const withOptions = opts[0]?.options ? ` WITH (${opts[0].options.join(", ")})` : "";
        await db.query(`CREATE TABLE copy_reference (LIKE recipients INCLUDING ALL)${withOptions}`);
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
        if (((await cancel.json()) as { code: number }).code !== 0)
          throw new Error("could not cancel the ingest batch");
        rounds.push({ uploadS: ingest.uploadS, ingestS: ingest.ingestS, copyS });
        log(
          `ingest round ${round + 1}: ${ingest.ingestS.toFixed(2)} s, reference COPY ${copyS.toFixed(2)} s, ` +
            `ratio ${(copyS / ingest.ingestS).toFixed(2)}`,
        );
      }
      clearInterval(sampler);
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
      const ingestS = median(rounds.map((r) => r.ingestS));
      const copyS = median(rounds.map((r) => r.copyS));
      const uploadS = median(rounds.map((r) => r.uploadS));

      const rate = INGEST_N / ingestS;
      results.ingest = {
        lines: INGEST_N,
        valid,
        rounds,
        uploadS,
        ingestS,
        numbersPerS: Math.round(rate),
        peakRssMiB: Math.round(peakRss / 1024 / 1024),
        rssBeforeMiB: Math.round(rssBefore / 1024 / 1024),
        copyReferenceS: copyS,
        copyRowsPerS: Math.round(valid / copyS),
        profile,
      };
      log(
        `ingest: upload answered in ${uploadS.toFixed(2)} s; ${fmt(INGEST_N)} numbers read, checked, priced, ` +
          `written and charged in ${ingestS.toFixed(2)} s = ${fmt(rate)} numbers/s; peak RSS of the ` +
          `${ingesting === process.pid ? "one process" : "workers' process"} ${mib(peakRss)} (${mib(rssBefore)} before)`,
      );
      log(
        `ingest: reference COPY of the same ${fmt(valid)} rows into an indexed table: ${copyS.toFixed(2)} s = ` +
          `${fmt(valid / copyS)} rows/s; ingest / COPY speed = ${(copyS / ingestS).toFixed(2)} (medians of ` +
          `${rounds.length} rounds)`,
      );
      printProfile("the ingest", profile);
    }

    // ------------------------------------------------------------------ 2. dispatch through smsc-sim.js
    // One simulator for every run (--scale runs several sizes one after the other), its counters zeroed before each.
    const runs: DispatchFigures[] = [];
    if (SIZES.length > 0) {
      const kdir = kannelCopy();
      const simPort = 22775;
      const statsPort = 22776;
      kannelSim = startKannelSimulator(kdir, simPort, statsPort);
      const simPid = kannelSim.pid as number;
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
          config: {
            ...(channel.config as Record<string, unknown>),
            port: simPort,
            windowSize: 100,
            ...(RECEIVER_BINDS > 0 ? { bindMode: "transmitter_receiver", receiverBinds: RECEIVER_BINDS } : {}),
          },
          throughput: 1_000_000,
        },
      });
      if (PREFILL > 0) {
        await prefill(databaseUrl, PREFILL, {
          tenantId: platform.customer.tenantId,
          userId: platform.customer.id,
          productId: product.id,
          channelId: channel.id,
        });
      }
      const meter = cpuMeter({
        [platform.workersPid === process.pid ? "API + workers" : "API"]: () => [process.pid],
        ...(platform.workersPid === process.pid ? {} : { workers: () => [platform.workersPid] }),
        PostgreSQL: postgresPids,
        Redis: () => pidsNamed("redis-server"),
        simulator: () => [simPid],
      });
      const plan = [
        ...(WARMUP > 0 ? [{ size: WARMUP, warmup: true }] : []),
        ...SIZES.map((size) => ({ size, warmup: false })),
      ];
      for (const { size, warmup } of plan) {
        const label = `${warmup ? "warm-up (a fresh workers process's first batch, not compared)" : "dispatch"} ${fmt(size)}`;
        const file = path.join(WORK, `numbers-dispatch-${size}.csv`);
        // Distinct from the ingest batch's numbers is not needed: another batch, another recipient set.
        const { valid } = await writeNumberFile(file, size);
        await fetch(`http://127.0.0.1:${statsPort}/reset`);
        log(
          `dispatch: ${fmt(valid)} messages through the seed's SMPP channel to smsc-sim.js (window 100, receipts on, ` +
            `${RECEIVER_BINDS > 0 ? `a transmitter and ${RECEIVER_BINDS} receiver binds` : "one transceiver bind"}); ` +
            loadNow(),
        );
        const loadBefore = loadavg()[0] ?? 0;
        const batchId = await submitFile(file);
        const { result: run, profile } = await profiled(PROFILE && !warmup, async () => {
          const t20 = await reachedStatus20(prisma, batchId);
          meter.start();
          const epoch20 = Date.now();
          let lastNote = Date.now();
          const { curve, stop: stopSampling } = sampleProgress(prisma, batchId);
          await pollUntil(
            "status 22 with every receipt",
            async () => {
              const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
              if (b.status !== BatchStatus.SEND_FINISHED) {
                if (Date.now() - lastNote > 10_000) {
                  lastNote = Date.now();
                  log(`dispatch: sent ${fmt(b.sentCount)}, receipts ${fmt(b.deliveredCount + b.undeliveredCount)}`);
                }
                return undefined;
              }
              // The batch's receipt counters first (one row); the count of recipients without a receipt (a scan of the
              // batch's rows: 0.1-0.2 s of PostgreSQL at 1M, which polled every 50 ms would be measured as ours) only
              // once they say every receipt is in, to prove it on the rows themselves.
              const counted = b.deliveredCount + b.undeliveredCount;
              if (counted < b.successCount) {
                if (Date.now() - lastNote > 5000) {
                  lastNote = Date.now();
                  log(`dispatch: status 22, ${fmt(b.successCount - counted)} receipts still to record`);
                }
                return undefined;
              }
              const missing = await prisma.recipient.count({ where: { batchId, receiveResult: 0 } });
              if (missing > 0 && Date.now() - lastNote > 5000) {
                lastNote = Date.now();
                log(`dispatch: status 22, ${fmt(missing)} receipts still to record`);
              }
              return missing === 0 ? true : undefined;
            },
            60 * 60_000,
            50,
          );
          stopSampling();
          const cpu = meter.stop();
          return { seconds: (performance.now() - t20) / 1000, epoch20, curve, cpu };
        });
        const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
        const stats = await simStats(statsPort);
        const rate = valid / run.seconds;
        const l = receiptLag(run.curve, valid);
        const lastSubmitMs = stats.last_submit_ms;
        const lastReceiptAfterLastSubmitMs = lastSubmitMs
          ? Math.round(run.epoch20 + run.seconds * 1000 - lastSubmitMs)
          : null;
        const cpuUs = Object.fromEntries(
          Object.entries(run.cpu).map(([name, s]) => [name, Math.round((s * 1e6) / valid)]),
        );
        const oursUs = Object.entries(cpuUs)
          .filter(([name]) => name !== "simulator")
          .reduce((a, [, us]) => a + us, 0);
        const figures: DispatchFigures = {
          size,
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
          cpuUsPerMessage: cpuUs,
          oursCpuUsPerMessage: oursUs,
          loadBefore: Math.round(loadBefore * 100) / 100,
          loadAfter: Math.round((loadavg()[0] ?? 0) * 100) / 100,
          profile,
        };
        if (warmup) results.warmup = figures;
        else runs.push(figures);
        log(
          `${label}: ${fmt(valid)} messages from status 20 to 22 with every receipt recorded in ` +
            `${run.seconds.toFixed(2)} s = ${fmt(rate)} msg/s (sent ${fmt(batch.successCount)}, delivered ` +
            `${fmt(batch.deliveredCount)}); ${loadNow()}`,
        );
        log(
          `${label}: receipt lag (k-th receipt recorded - k-th message sent, batch counters every 50 ms): ` +
            `p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms; all receipts recorded ${lastReceiptAfterLastSubmitMs} ms ` +
            "after the simulator took the last submit_sm",
        );
        log(
          `${label}: CPU per message (us): ${Object.entries(cpuUs)
            .map(([name, us]) => `${name} ${fmt(us)}`)
            .join(", ")}; ours (without the simulator) ${fmt(oursUs)}`,
        );
        printProfile(`the dispatch of ${fmt(size)}`, profile);
      }
      kannelSim.kill("SIGTERM");
      kannelSim = null;
      results.dispatch = runs.length === 1 ? runs[0] : runs;
      if (runs.length > 1) {
        log("dispatch at every scale (msg/s, CPU per message of ours, receipt lag p50 / p95, load before -> after):");
        for (const r of runs) {
          log(
            `  ${fmt(r.size).padStart(10)}: ${fmt(r.messagesPerS).padStart(7)} msg/s, ${fmt(r.oursCpuUsPerMessage)} us/msg ` +
              `(+ simulator ${fmt(r.cpuUsPerMessage.simulator ?? 0)}), lag ${r.receiptLagMs.p50} / ${r.receiptLagMs.p95} ms, ` +
              `load ${r.loadBefore} -> ${r.loadAfter}`,
          );
        }
      }
    }
    // The run the Kannel sides are compared with: the one of --dispatch's size, else the last.
    const ours = runs.find((r) => r.size === DISPATCH_N) ?? runs[runs.length - 1];

    // ------------------------------------------------------------------ 3. Kannel, same simulator, same count
    if ((KANNEL_DLR || MTBATCH) && ours) {
      // Our API and workers stay up but idle; close them first so that Kannel gets the machine to itself.
      await platform.stopServers();
      const kdir = kannelCopy();
      if (KANNEL_DLR) {
        const k = runKannel(kdir, ours.size, "dlr-on");
        const kannelRate = Number(k.dlr_e2e_rate);
        results.kannel = { messages: ours.size, dlrCallbacksPerS: Math.round(kannelRate), raw: k, load: loadNow() };
        results.ratio = Math.round((ours.messagesPerS / kannelRate) * 100) / 100;
        log(
          `Kannel: ${fmt(ours.size)} messages with every DLR called back at ${fmt(kannelRate)} msg/s; ` +
            `Switchboard / Kannel with DLR = ${(ours.messagesPerS / kannelRate).toFixed(2)}x; ${loadNow()}, CPU outside ` +
            `Kannel and its simulator during its run ${Math.round(Number(k.untracked_cpu_pct))} %`,
        );
      }
      if (MTBATCH) {
        const k = runKannel(kdir, ours.size, "mtbatch");
        const e2e = Number(k.smsc_e2e_rate);
        const simSide = Number(k.smsc_side_rate);
        const procs = (k.processes ?? {}) as Record<string, { cpu_s?: number | null }>;
        const bbUs = procs.bearerbox?.cpu_s ? Math.round((procs.bearerbox.cpu_s * 1e6) / ours.size) : null;
        results.mtbatch = {
          messages: ours.size,
          endToEndPerS: Math.round(e2e),
          simSidePerS: Math.round(simSide),
          bearerboxCpuUsPerMessage: bbUs,
          raw: k,
          load: loadNow(),
        };
        results.ratioMtbatch = Math.round((ours.messagesPerS / e2e) * 100) / 100;
        log(
          `Kannel mtbatch: ${fmt(ours.size)} messages reached the simulator at ${fmt(e2e)} msg/s from mtbatch's start ` +
            `(${fmt(simSide)} msg/s first -> last submit_sm at the simulator; bearerbox ${bbUs ?? "?"} us/msg), ` +
            `nothing persisted, no receipts; ${loadNow()}, CPU outside Kannel and its simulator during its run ` +
            `${Math.round(Number(k.untracked_cpu_pct))} %`,
        );
        log(
          `Switchboard (every outcome and receipt persisted) / Kannel mtbatch = ${(ours.messagesPerS / e2e).toFixed(2)}x ` +
            `end-to-end, ${(ours.messagesPerS / simSide).toFixed(2)}x against its simulator-side rate`,
        );
      }
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
