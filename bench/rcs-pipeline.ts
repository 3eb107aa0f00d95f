// The RCS pipeline benchmark of issue 13 (not a test; results go in docs/benchmarks.md):
//   npm run bench:rcs                          100,000 RCS recipients, 20 % not RCS-capable (SMS fallback)
//   npm run bench:rcs -- --n 20000 --non-capable 0.3 --profile
//
// A file of N numbers is submitted to the real API as an RCS batch with fallback text; the real workers send it
// to the RBM simulator (a child process: token endpoint, agentMessages, 404 for non-capable numbers, signed
// DELIVERED events pushed to the API's webhook) and fall the non-capable numbers back to SMS over the seed's SMPP
// channel, pointed at the SMSC simulator (another child process, receipts on). Figures: messages/s from status 20
// until 22 with every delivery recorded (RCS by webhook event, SMS by receipt), and the event lag (k-th delivery
// recorded - k-th message sent, from the batch's counters every 50 ms).
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { BatchStatus, ProductCode } from "@switchboard/contracts";
import {
  arg,
  cpuMeter,
  fmt,
  log,
  pollUntil,
  postgresPids,
  ROOT,
  receiptLag,
  startPlatform,
  WORK,
} from "./lib/platform";
import { printProfile, profiled } from "./lib/profile";

const N = arg("n", 100_000);
const NON_CAPABLE = arg("non-capable", 0.2);
const PROFILE = process.argv.includes("--profile");
const RBM_PORT = arg("rbm-port", 28787);
/** Event pushes in flight (Pub/Sub raises its push concurrency with the subscriber's acknowledgement rate). */
const PUSH_CONCURRENCY = arg("push-concurrency", 64);
const SMSC_PORT = arg("smsc-port", 22775);
const CLIENT_TOKEN = "bench-client-token";
const AGENT_ID = "bench-agent";

/** N distinct US numbers (the RCS simulator decides which are capable by a hash of the number). */
async function writeNumbers(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    if (!out.write(`+1212${String(2_000_000 + i).padStart(7, "0")}\n`))
      await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

function child(script: string, args: string[]): ChildProcess {
  const proc = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, script), ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  proc.on("exit", (code, signal) => {
    if (code !== 0 && signal === null) log(`${path.basename(script)} exited with ${code}`);
  });
  return proc;
}

async function main() {
  const platform = await startPlatform();
  const { prisma, customer } = platform;
  const procs: ChildProcess[] = [];
  try {
    const results: Record<string, unknown> = { ...platform.machine, recipients: N, nonCapableShare: NON_CAPABLE };
    const rcsProduct = await prisma.product.findFirstOrThrow({
      where: { tenantId: customer.tenantId, code: ProductCode.RCS },
    });
    const smsProduct = await prisma.product.findFirstOrThrow({
      where: { tenantId: customer.tenantId, code: ProductCode.SMS },
    });
    // The seed's SMS channel (the fallback's route) at this run's SMSC simulator, without a throughput limit.
    const sms = await prisma.channel.findUniqueOrThrow({ where: { id: smsProduct.defaultChannelId as number } });
    await prisma.channel.update({
      where: { id: sms.id },
      data: { config: { ...(sms.config as object), port: SMSC_PORT, windowSize: 100 }, throughput: 1_000_000 },
    });
    const smsc = child("packages/channels/src/simulators/smsc-cli.ts", ["--port", String(SMSC_PORT)]);
    procs.push(smsc);

    // An RCS channel of the bench's own: its webhook URL names it, and the simulator's key is sealed into it.
    const rcs = await prisma.channel.create({
      data: {
        tenantId: customer.tenantId,
        name: "Bench RBM",
        kind: "rcs",
        productCode: ProductCode.RCS,
        config: {
          baseUrl: `http://127.0.0.1:${RBM_PORT}`,
          agentId: AGENT_ID,
          tokenUrl: `http://127.0.0.1:${RBM_PORT}/token`,
          capabilityCheck: "batch",
        },
        secrets: "",
        throughput: 1_000_000,
      },
    });
    await prisma.product.update({ where: { id: rcsProduct.id }, data: { defaultChannelId: rcs.id } });
    const keyFile = path.join(WORK, `rbm-key-${platform.runId}.json`);
    const rbm = child("packages/channels/src/simulators/rbm-cli.ts", [
      "--port",
      String(RBM_PORT),
      "--agent-id",
      AGENT_ID,
      "--client-token",
      CLIENT_TOKEN,
      "--webhook-url",
      `${platform.base}/webhooks/rcs/${rcs.id}`,
      "--key-file",
      keyFile,
      "--non-capable-share",
      String(NON_CAPABLE),
      "--delivery-delay-ms",
      "20",
      "--webhook-concurrency",
      String(PUSH_CONCURRENCY),
    ]);
    procs.push(rbm);
    await pollUntil("the RBM simulator's key", async () => (existsSync(keyFile) ? true : undefined), 20_000, 100);
    await prisma.channel.update({
      where: { id: rcs.id },
      data: {
        secrets: encryptSecrets(channelSecretKey(platform.config.CHANNEL_SECRET_KEY), customer.tenantId, {
          serviceAccountKey: readFileSync(keyFile, "utf8"),
          webhookClientToken: CLIENT_TOKEN,
        }),
      },
    });
    // Both simulators answer before the batch goes.
    await pollUntil(
      "the RBM simulator",
      () =>
        fetch(`http://127.0.0.1:${RBM_PORT}/token`, { method: "POST" })
          .then(() => true)
          .catch(() => undefined),
      20_000,
      100,
    );

    const file = path.join(WORK, `rcs-numbers-${N}.csv`);
    await writeNumbers(file, N);
    log(`rcs: ${fmt(N)} recipients, ${NON_CAPABLE * 100} % not RCS-capable (SMS fallback), every event recorded`);
    const batchId = await platform.submitFile(file, {
      productId: rcsProduct.id,
      content: {
        product: ProductCode.RCS,
        body: {
          type: "text",
          text: "Benchmark RCS message",
          suggestions: [{ type: "reply", text: "OK", postbackData: "ok" }],
        },
        fallbackText: "Benchmark SMS fallback",
      },
    });
    const split = platform.workersPid !== process.pid;
    const meter = cpuMeter({
      [split ? "API" : "API + workers"]: () => [process.pid],
      ...(split ? { workers: () => [platform.workersPid] } : {}),
      "RBM simulator": () => [rbm.pid as number],
      "SMSC simulator": () => [smsc.pid as number],
      PostgreSQL: postgresPids,
    });
    const { result: run, profile } = await profiled(
      PROFILE,
      async () => {
        const t20 = await pollUntil(
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
        meter.start();
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
        let lastNote = Date.now();
        await pollUntil(
          "status 22 with every delivery recorded",
          async () => {
            const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
            if (Date.now() - lastNote > 5000) {
              lastNote = Date.now();
              log(`rcs: status ${b.status}, sent ${fmt(b.sentCount)}, delivered ${fmt(b.deliveredCount)}`);
            }
            if (b.status !== BatchStatus.SEND_FINISHED) return undefined;
            return b.deliveredCount + b.undeliveredCount >= b.successCount ? true : undefined;
          },
          30 * 60_000,
          50,
        );
        clearInterval(sampler);
        return { seconds: (performance.now() - t20) / 1000, curve, cpu: meter.stop() };
      },
      path.join(WORK, `rcs-pipeline-${platform.runId}.cpuprofile`),
    );
    const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
    const failures = await prisma.recipient.groupBy({
      by: ["errorCode"],
      where: { batchId, sendResult: 2 },
      _count: { _all: true },
    });
    const rate = batch.successCount / run.seconds;
    const lag = receiptLag(run.curve, batch.successCount);
    results.rcs = {
      seconds: run.seconds,
      messagesPerS: Math.round(rate),
      sent: batch.successCount,
      failed: batch.failedCount,
      failures: Object.fromEntries(failures.map((f) => [f.errorCode ?? "?", f._count._all])),
      fellBackToSms: batch.fallbackCount,
      delivered: batch.deliveredCount,
      eventLagMs: lag,
      cpuSeconds: run.cpu,
      profile,
    };
    log(
      `rcs: ${fmt(batch.successCount)} messages (${fmt(batch.fallbackCount)} of them SMS fallbacks) from status 20 to ` +
        `22 with every delivery recorded in ${run.seconds.toFixed(2)} s = ${fmt(rate)} msg/s; failed ${fmt(batch.failedCount)} ` +
        `${JSON.stringify(Object.fromEntries(failures.map((f) => [f.errorCode, f._count._all])))}`,
    );
    log(
      `rcs: event lag (k-th delivery recorded - k-th message sent): p50 ${lag.p50} ms, p95 ${lag.p95} ms, max ${lag.max} ms`,
    );
    log(
      `rcs: CPU per message (us): ${Object.entries(run.cpu)
        .map(([name, s]) => `${name} ${fmt((s * 1e6) / batch.successCount)}`)
        .join(", ")}; all ${fmt((Object.values(run.cpu).reduce((a, b) => a + b, 0) * 1e6) / batch.successCount)}`,
    );
    printProfile("the RCS batch", profile);
    const out = path.join(WORK, `rcs-pipeline-${platform.runId}.json`);
    writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
    log(`results: ${out}`);
  } finally {
    for (const p of procs) p.kill("SIGTERM");
    await platform.close();
  }
}

await main();
process.exit(0);
