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
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { ProductCode } from "@switchboard/contracts";
import { child, measureBatch, writeNumbers, writeResults } from "./lib/pipeline";
import { arg, fmt, log, pollUntil, startPlatform, WORK } from "./lib/platform";

const N = arg("n", 100_000);
const NON_CAPABLE = arg("non-capable", 0.2);
const PROFILE = process.argv.includes("--profile");
const RBM_PORT = arg("rbm-port", 28787);
/** Event pushes in flight (Pub/Sub raises its push concurrency with the subscriber's acknowledgement rate). */
const PUSH_CONCURRENCY = arg("push-concurrency", 64);
const SMSC_PORT = arg("smsc-port", 22775);
const CLIENT_TOKEN = "bench-client-token";
const AGENT_ID = "bench-agent";

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
    results.rcs = await measureBatch({
      label: "rcs",
      prisma,
      batchId,
      runId: platform.runId,
      workersPid: platform.workersPid,
      processes: { "RBM simulator": rbm.pid as number, "SMSC simulator": smsc.pid as number },
      profile: PROFILE,
    });
    writeResults("rcs-pipeline", platform.runId, results);
  } finally {
    for (const p of procs) p.kill("SIGTERM");
    await platform.close();
  }
}

await main();
process.exit(0);
