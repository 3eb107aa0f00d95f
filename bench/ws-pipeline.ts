// The WhatsApp pipeline benchmark of issue 14 (not a test; results go in docs/benchmarks.md):
//   npm run bench:ws                          100,000 template messages, the simulator's throughput limit off
//   npm run bench:ws -- --n 30000 --mps 1000  the business number limited to 1,000 msg/s (the pipeline must hold it)
//   options: --read-share 0.3, --split (workers in their own process), --profile
//
// A file of N numbers is submitted to the real API as a WS template batch (the demo channel's approved
// order_update template, checked before charging); the real workers send it to the WhatsApp Cloud API simulator
// (a child process: token check, per-number throughput answering 130429 beyond --mps, signed status webhooks
// "sent", "delivered" and, for a share, "read", up to 1,000 statuses per POST as WhatsApp batches them) and the
// API's webhook stores every status, which the workers apply. Figures: messages/s from status 20 to 22 with every
// delivery recorded, the event lag, webhook posts and statuses per second, CPU per message per process.
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { ProductCode } from "@switchboard/contracts";
import { child, measureBatch, writeNumbers, writeResults } from "./lib/pipeline";
import { arg, log, pollUntil, startPlatform, WORK } from "./lib/platform";

const N = arg("n", 100_000);
/** The business number's messages per second at the simulator (0: unlimited). */
const MPS = arg("mps", 0);
const READ_SHARE = arg("read-share", 0.3);
const PROFILE = process.argv.includes("--profile");
const WA_PORT = arg("wa-port", 28788);
const SECRETS = {
  accessToken: "bench-access-token",
  appSecret: "bench-app-secret",
  webhookVerifyToken: "bench-verify",
};
const PHONE_NUMBER_ID = "106540352242922";

async function main() {
  const platform = await startPlatform();
  const { prisma, customer } = platform;
  const procs: ChildProcess[] = [];
  try {
    const results: Record<string, unknown> = { ...platform.machine, recipients: N, mps: MPS, readShare: READ_SHARE };
    const ws = await prisma.product.findFirstOrThrow({ where: { tenantId: customer.tenantId, code: ProductCode.WS } });
    // The seed's WhatsApp channel (its templates seeded as the simulator lists them) at this run's simulator; its
    // own throughput bucket as high as the simulator's limit (or off), so the provider's limit is what holds.
    const channel = await prisma.channel.findUniqueOrThrow({ where: { id: ws.defaultChannelId as number } });
    await prisma.channel.update({
      where: { id: channel.id },
      data: {
        config: { ...(channel.config as object), baseUrl: `http://127.0.0.1:${WA_PORT}` },
        secrets: encryptSecrets(channelSecretKey(platform.config.CHANNEL_SECRET_KEY), customer.tenantId, SECRETS),
        throughput: MPS > 0 ? MPS : 1_000_000,
      },
    });
    const sim = child("packages/channels/src/simulators/whatsapp-cli.ts", [
      "--port",
      String(WA_PORT),
      "--webhook-url",
      `${platform.base}/webhooks/whatsapp/${channel.id}`,
      "--app-secret",
      SECRETS.appSecret,
      "--verify-token",
      SECRETS.webhookVerifyToken,
      "--access-token",
      SECRETS.accessToken,
      "--phone-number-id",
      PHONE_NUMBER_ID,
      "--mps",
      String(MPS),
      "--read-share",
      String(READ_SHARE),
      "--delivery-delay-ms",
      "20",
      "--read-delay-ms",
      "50",
    ]);
    procs.push(sim);
    await pollUntil(
      "the WhatsApp simulator",
      () =>
        fetch(`http://127.0.0.1:${WA_PORT}/v21.0/${PHONE_NUMBER_ID}`, {
          headers: { authorization: `Bearer ${SECRETS.accessToken}` },
        })
          .then(() => true)
          .catch(() => undefined),
      20_000,
      100,
    );

    const file = path.join(WORK, `ws-numbers-${N}.csv`);
    await writeNumbers(file, N, 4_000_000);
    log(`ws: ${N.toLocaleString("en-US")} template messages, simulator limit ${MPS > 0 ? `${MPS} msg/s` : "off"}`);
    const batchId = await platform.submitFile(file, {
      productId: ws.id,
      content: {
        product: ProductCode.WS,
        body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-1001"] },
      },
    });
    const run = await measureBatch({
      label: "ws",
      prisma,
      batchId,
      runId: platform.runId,
      workersPid: platform.workersPid,
      processes: { "WhatsApp simulator": sim.pid as number },
      profile: PROFILE,
    });
    // Every accepted message has its "sent" and "delivered" statuses and, for a share, "read": all applied.
    const statuses = run.sent + run.delivered + run.read;
    log(
      `ws: webhook statuses stored and applied: ${statuses.toLocaleString("en-US")} = ${Math.round(statuses / run.seconds).toLocaleString("en-US")}/s`,
    );
    results.ws = { ...run, statusesPerS: Math.round(statuses / run.seconds) };
    writeResults("ws-pipeline", platform.runId, results);
  } finally {
    for (const p of procs) p.kill("SIGTERM");
    await platform.close();
  }
}

await main();
process.exit(0);
