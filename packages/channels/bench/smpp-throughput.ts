// Throughput check (not a test): SMSC simulator with receipts + SMPP adapter on loopback.
//   node --import tsx packages/channels/bench/smpp-throughput.ts [messages=20000] [window=50] [--inline|--process]
// A message counts as done when its delivery receipt is back; prints msg/s once a second and at the end, plus the
// CPU this process spent per message.
// Where the simulator runs: by default in a worker thread, so adapter and SMSC each get a core as they would in
// production (the SMSC is someone else's machine); --inline shares one thread with the adapter; --process runs
// the CLI simulator as a child process.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker } from "node:worker_threads";
import { createSmppAdapter } from "../src/index";
import { startSmscSimulator } from "../src/simulators/index";

interface RunningSimulator {
  port: number;
  stop(): Promise<void>;
}

async function simulatorInWorker(): Promise<RunningSimulator> {
  // Workers inherit execArgv, so `--import tsx` loads this same file as the worker entry.
  const worker = new Worker(fileURLToPath(import.meta.url));
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", (message: { port: number }) => resolve(message.port));
    worker.once("error", reject);
  });
  return {
    port,
    stop: async () => {
      worker.postMessage("stop");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

async function simulatorInProcess(): Promise<RunningSimulator> {
  const cli = fileURLToPath(new URL("../src/simulators/smsc-cli.ts", import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", "--receipts", "on"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /listening on port (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function simulatorInline(): Promise<RunningSimulator> {
  const sim = await startSmscSimulator({ receipts: true });
  return { port: sim.port, stop: () => sim.close() };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode = args.includes("--inline") ? "inline" : args.includes("--process") ? "process" : "worker";
  const [countArg, windowArg] = args.filter((a) => !a.startsWith("--"));
  const total = Number(countArg ?? 20_000);
  const windowSize = Number(windowArg ?? 50);

  const sim =
    mode === "inline"
      ? await simulatorInline()
      : mode === "process"
        ? await simulatorInProcess()
        : await simulatorInWorker();
  const adapter = createSmppAdapter({
    host: "127.0.0.1",
    port: sim.port,
    systemId: "bench",
    password: "bench",
    windowSize,
  });
  let receipts = 0;
  let failures = 0;
  let finish: () => void = () => {};
  const allReceipts = new Promise<void>((resolve) => {
    finish = resolve;
  });
  adapter.onReport(() => {
    if (++receipts === total) finish();
  });

  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let last = { at: started, receipts: 0 };
  const ticker = setInterval(() => {
    const now = performance.now();
    const rate = ((receipts - last.receipts) * 1000) / (now - last.at);
    process.stdout.write(`  ${receipts}/${total} receipts, ${Math.round(rate)} msg/s\n`);
    last = { at: now, receipts };
  }, 1_000);

  // The caller's concurrency bounds the adapter queue; keep enough in hand to fill the window many times over.
  const inHand = windowSize * 20;
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const outcome = await adapter.send({ ref: String(i), to: `4479${String(i).padStart(8, "0")}1`, text: "Bench" });
      if (!outcome.ok) failures++;
    }
  };
  await Promise.all(Array.from({ length: inHand }, worker));
  const submitted = performance.now();
  if (failures === 0) await allReceipts;
  const done = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(ticker);

  const seconds = (done - started) / 1000;
  process.stdout.write(
    `${total} messages, window ${windowSize}, simulator ${mode}: ` +
      `submits acknowledged in ${((submitted - started) / 1000).toFixed(2)} s, ` +
      `all receipts in ${seconds.toFixed(2)} s -> ${Math.round(total / seconds)} msg/s ` +
      `(process CPU ${Math.round((cpu.user + cpu.system) / total)} us/msg` +
      `${mode === "process" ? ", adapter side only" : ", adapter + simulator"})` +
      (failures ? ` (${failures} send failures)` : "") +
      "\n",
  );
  await adapter.close();
  await sim.stop();
}

if (isMainThread) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
} else {
  const port = parentPort;
  if (port === null) throw new Error("bench worker started without a parent port");
  // A rejection here is unhandled on purpose: it kills the worker, and the main thread sees its 'error'.
  void startSmscSimulator({ receipts: true }).then((sim) => {
    port.postMessage({ port: sim.port });
    port.once("message", () => void sim.close().then(() => port.close()));
  });
}
