// The worker process: reads the configuration, connects, runs every queue's worker. SIGTERM / SIGINT stop taking
// jobs, let the jobs in hand finish (a chunk completes what it started), close the channel adapters (their last
// receipts are enqueued) and exit.
import { ConfigError, loadConfig } from "@switchboard/domain/config";
import pino from "pino";
import { collectDefaultMetrics } from "prom-client";
import { closeWorkerDeps, createWorkerDeps } from "./lib/deps";
import { type OpsServer, startOpsServer } from "./lib/ops-server";
import { type RunningWorkers, startWorkers } from "./workers";

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

// Logs carry ids and counts only: never numbers, message text or credentials.
const logger = pino({ level: config.LOG_LEVEL, base: { service: "workers" } });
const deps = createWorkerDeps({ config, logger });
// CPU, memory, event loop delay and GC of this process, beside the queues' and channels' metrics.
collectDefaultMetrics({ register: deps.metrics.registry });
// Up before the workers: while Redis is away at start, GET /health already answers (503, "queues": "starting").
let running: RunningWorkers | undefined;
let ops: OpsServer | undefined;
if (config.WORKERS_OPS_PORT > 0) {
  ops = await startOpsServer({
    host: config.WORKERS_OPS_HOST,
    port: config.WORKERS_OPS_PORT,
    deps,
    workers: () => running?.workers,
    access: { allow: config.METRICS_ALLOW, token: config.METRICS_TOKEN },
  });
  logger.info({ url: ops.url }, "ops server listening (GET /health, GET /metrics)");
}
running = await startWorkers(deps);
logger.info("workers started");

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping: finishing the jobs in hand");
    try {
      await running?.close();
      await closeWorkerDeps(deps);
      await ops?.close();
      logger.info("stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "unclean stop");
      process.exit(1);
    }
  });
}
