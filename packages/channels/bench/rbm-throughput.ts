// Throughput check (not a test): RBM simulator + RCS adapter on loopback.
//   node --import tsx packages/channels/bench/rbm-throughput.ts [messages=20000] [concurrency=100] \
//     [--inline] [--no-webhooks] [--card]
// Sends N agent messages with C in flight and prints msg/s for the sends; unless --no-webhooks, a local endpoint
// also verifies (X-Goog-Signature) and parses the events the simulator pushes, one Pub/Sub envelope per POST as
// RBM does, and a message counts as done when its DELIVERED report is back (the whole loop, as the workers and
// the API will run it).
// Where the simulator runs: by default in a worker thread, so adapter and simulator each get a core as they would in
// production (Google is someone else's machine); --inline shares one thread with the adapter.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { createRcsAdapter, parseRcsEvents, type RcsBody, verifyRcsWebhook } from "../src/rcs/index";
import { type RbmSimulatorOptions, startRbmSimulator } from "../src/simulators/index";

const CLIENT_TOKEN = "bench-client-token";

interface RunningSimulator {
  url: string;
  tokenUrl: string;
  agentId: string;
  serviceAccountKey: string;
  stop(): Promise<void>;
}

function simulatorOptions(webhookUrl: string | undefined): Partial<RbmSimulatorOptions> {
  return { clientToken: CLIENT_TOKEN, webhookUrl, deliveryDelayMs: 0, keepBodies: 0, webhookConcurrency: 64 };
}

type Started = Omit<RunningSimulator, "stop">;

async function simulatorInWorker(webhookUrl: string | undefined): Promise<RunningSimulator> {
  // Workers inherit execArgv, so `--import tsx` loads this same file as the worker entry.
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { webhookUrl } });
  const started = await new Promise<Started>((resolve, reject) => {
    worker.once("message", (message: Started) => resolve(message));
    worker.once("error", reject);
  });
  return {
    ...started,
    stop: async () => {
      worker.postMessage("stop");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

async function simulatorInline(webhookUrl: string | undefined): Promise<RunningSimulator> {
  const sim = await startRbmSimulator(simulatorOptions(webhookUrl));
  return {
    url: sim.url,
    tokenUrl: sim.tokenUrl,
    agentId: sim.agentId,
    serviceAccountKey: sim.serviceAccountKey,
    stop: () => sim.close(),
  };
}

/** Our side of the webhooks: verify each POST, parse it, count delivered reports. */
async function webhookEndpoint(onDelivered: (n: number) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const verdict = verifyRcsWebhook(
        { method: "POST", headers: req.headers as Record<string, string | undefined>, query: {}, rawBody },
        CLIENT_TOKEN,
      );
      if (verdict.kind !== "accept") {
        res.writeHead(401).end();
        return;
      }
      let delivered = 0;
      for (const r of parseRcsEvents(rawBody).reports) if (r.status === "delivered") delivered++;
      res.writeHead(200).end();
      onDelivered(delivered);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/rcs`,
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
  const body: RcsBody = args.includes("--card")
    ? {
        type: "card",
        title: "Spring sale",
        description: "Everything -20% until Sunday",
        mediaUrl: "https://cdn.example.com/sale.jpg",
        mediaHeight: "MEDIUM",
        orientation: "VERTICAL",
        suggestions: [{ type: "reply", text: "Show me", postbackData: "sale" }],
      }
    : { type: "text", text: "Bench message", suggestions: [] };

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
  const adapter = createRcsAdapter(
    { baseUrl: sim.url, tokenUrl: sim.tokenUrl, agentId: sim.agentId, serviceAccountKey: sim.serviceAccountKey },
    { connections: concurrency },
  );

  let sent = 0;
  let failures = 0;
  const failureCodes = new Map<string, number>();
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

  const batch = Date.now().toString(36);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const outcome = await adapter.send({
        kind: "rcs",
        ref: String(i),
        to: `+4479${String(i).padStart(8, "0")}1`,
        messageId: `sb-1-${i}-${batch}`,
        body,
      });
      if (!outcome.ok) {
        failures++;
        failureCodes.set(outcome.errorCode, (failureCodes.get(outcome.errorCode) ?? 0) + 1);
      }
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
        ? `; all DELIVERED events in ${allSeconds.toFixed(2)} s -> ${Math.round(total / allSeconds)} msg/s`
        : "") +
      ` (main thread CPU ${Math.round((cpu.user + cpu.system) / total)} us/msg, ` +
      `${inline ? "adapter + webhook endpoint + simulator" : "adapter + webhook endpoint"}; ` +
      `${adapter.stats().tokens} access token(s))` +
      (failures ? ` (${failures} send failures: ${JSON.stringify(Object.fromEntries(failureCodes))})` : "") +
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
  void startRbmSimulator(simulatorOptions(webhookUrl)).then((sim) => {
    port.postMessage({
      url: sim.url,
      tokenUrl: sim.tokenUrl,
      agentId: sim.agentId,
      serviceAccountKey: sim.serviceAccountKey,
    } satisfies Started);
    port.once("message", () => void sim.close().then(() => port.close()));
  });
}
