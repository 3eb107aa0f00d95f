// Throughput check (not a test): WhatsApp Cloud API simulator + WhatsApp adapter on loopback.
//   node --import tsx packages/channels/bench/whatsapp-throughput.ts [messages=20000] [concurrency=100] \
//     [--inline] [--no-webhooks] [--template]
// Sends N messages with C in flight and prints msg/s for the sends; unless --no-webhooks, a local endpoint also
// verifies and parses the signed status webhooks the simulator pushes, and a message counts as done when its
// "delivered" report is back (the whole loop, as the workers and the API will run it).
// Where the simulator runs: by default in a worker thread, so adapter and simulator each get a core as they would in
// production (Meta is someone else's machine); --inline shares one thread with the adapter.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { startWhatsappSimulator, type WhatsappSimulatorOptions } from "../src/simulators/index";
import { createWhatsappAdapter, parseWhatsappEvents, verifyWhatsappWebhook } from "../src/whatsapp/index";
import type { WhatsappBody } from "../src/whatsapp/message-body";

const APP_SECRET = "bench-secret";

interface RunningSimulator {
  url: string;
  stop(): Promise<void>;
}

function simulatorOptions(webhookUrl: string | undefined): Partial<WhatsappSimulatorOptions> {
  return { appSecret: APP_SECRET, webhookUrl, deliveryDelayMs: 0, keepBodies: 0, enforceWindow: false, batchMax: 200 };
}

async function simulatorInWorker(webhookUrl: string | undefined): Promise<RunningSimulator> {
  // Workers inherit execArgv, so `--import tsx` loads this same file as the worker entry.
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { webhookUrl } });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once("message", (message: { url: string }) => resolve(message.url));
    worker.once("error", reject);
  });
  return {
    url,
    stop: async () => {
      worker.postMessage("stop");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

async function simulatorInline(webhookUrl: string | undefined): Promise<RunningSimulator> {
  const sim = await startWhatsappSimulator(simulatorOptions(webhookUrl));
  return { url: sim.url, stop: () => sim.close() };
}

/** Our side of the webhooks: verify each POST, parse it, count delivered reports. */
async function webhookEndpoint(onDelivered: (n: number) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const verdict = verifyWhatsappWebhook(
        { method: "POST", headers: req.headers as Record<string, string | undefined>, query: {}, rawBody },
        { appSecret: APP_SECRET, verifyToken: undefined },
      );
      if (verdict.kind !== "accept") {
        res.writeHead(401).end();
        return;
      }
      let delivered = 0;
      for (const r of parseWhatsappEvents(rawBody).reports) if (r.status === "delivered") delivered++;
      res.writeHead(200).end();
      onDelivered(delivered);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const inline = args.includes("--inline");
  const webhooks = !args.includes("--no-webhooks");
  const [countArg, concurrencyArg] = args.filter((a) => !a.startsWith("--"));
  const total = Number(countArg ?? 20_000);
  const concurrency = Number(concurrencyArg ?? 100);
  const body: WhatsappBody = args.includes("--template")
    ? {
        type: "template",
        name: "appointment_reminder",
        language: "en_US",
        header: { type: "text", text: "Ana" },
        parameters: ["12 May", "10:30"],
        buttons: [{ index: 0, subType: "quick_reply", parameter: "confirm" }],
      }
    : { type: "text", text: "Bench message", previewUrl: false };

  let delivered = 0;
  let finish: () => void = () => {};
  const allDelivered = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const endpoint = webhooks
    ? await webhookEndpoint((n) => {
        delivered += n;
        if (delivered >= total) finish();
      })
    : undefined;
  const sim = inline ? await simulatorInline(endpoint?.url) : await simulatorInWorker(endpoint?.url);
  const adapter = createWhatsappAdapter(
    { baseUrl: sim.url, phoneNumberId: "106540352242922", accessToken: "sim-access-token" },
    { connections: concurrency },
  );

  let sent = 0;
  let failures = 0;
  const started = performance.now();
  // This thread only (adapter + webhook endpoint, and the simulator with --inline), not the simulator's worker.
  const cpuBefore = process.threadCpuUsage();
  let last = { at: started, sent: 0, delivered: 0 };
  const ticker = setInterval(() => {
    const now = performance.now();
    const secs = (now - last.at) / 1000;
    process.stdout.write(
      `  ${sent}/${total} sent (${Math.round((sent - last.sent) / secs)} msg/s)` +
        (webhooks ? `, ${delivered} delivered (${Math.round((delivered - last.delivered) / secs)}/s)` : "") +
        "\n",
    );
    last = { at: now, sent, delivered };
  }, 1_000);

  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const outcome = await adapter.send({
        kind: "whatsapp",
        ref: String(i),
        to: `4479${String(i).padStart(8, "0")}1`,
        body,
      });
      if (!outcome.ok) failures++;
      sent++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const sendsDone = performance.now();
  if (webhooks && failures === 0) await allDelivered;
  const done = performance.now();
  const cpu = process.threadCpuUsage(cpuBefore);
  clearInterval(ticker);

  const sendSeconds = (sendsDone - started) / 1000;
  const allSeconds = (done - started) / 1000;
  process.stdout.write(
    `${total} ${body.type} messages, concurrency ${concurrency}, simulator ${inline ? "inline" : "worker"}: ` +
      `sends ${sendSeconds.toFixed(2)} s -> ${Math.round(total / sendSeconds)} msg/s` +
      (webhooks
        ? `; all delivered reports in ${allSeconds.toFixed(2)} s -> ${Math.round(total / allSeconds)} msg/s`
        : "") +
      ` (main thread CPU ${Math.round((cpu.user + cpu.system) / total)} us/msg, ` +
      `${inline ? "adapter + webhook endpoint + simulator" : "adapter + webhook endpoint"})` +
      (failures ? ` (${failures} send failures)` : "") +
      "\n",
  );
  await adapter.close();
  await sim.stop();
  await endpoint?.close();
}

if (isMainThread) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
} else {
  const port = parentPort;
  if (port === null) throw new Error("bench worker started without a parent port");
  const { webhookUrl } = workerData as { webhookUrl: string | undefined };
  // A rejection here is unhandled on purpose: it kills the worker, and the main thread sees its 'error'.
  void startWhatsappSimulator(simulatorOptions(webhookUrl)).then((sim) => {
    port.postMessage({ url: sim.url });
    port.once("message", () => void sim.close().then(() => port.close()));
  });
}
