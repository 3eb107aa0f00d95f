// The worker process's small HTTP server for operations (config WORKERS_OPS_HOST / WORKERS_OPS_PORT, 9464 on
// loopback by default; main.ts starts it, tests and the library's startWorkers do not):
//
//   GET /health   200 when Redis and PostgreSQL answer and every queue's worker runs unpaused, else 503; the JSON
//                 body says which part fails: { status, redis, postgres, queues, notConsumed? }. For docker
//                 compose's healthcheck and load balancers; open to every caller (it names no figures).
//   GET /metrics  Prometheus text (metrics.ts), for METRICS_ALLOW addresses or the METRICS_TOKEN bearer only;
//                 404 for everybody else, like any other path.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type MetricsAccess, metricsGuard } from "@switchboard/domain/metrics-guard";
import type { Worker } from "bullmq";
import type { WorkerDeps } from "./deps";

export interface OpsServerOptions {
  host: string;
  /** 0: any free port (tests); main.ts starts no server at all when the configured port is 0. */
  port: number;
  deps: Pick<WorkerDeps, "redis" | "prisma" | "metrics" | "outages" | "logger">;
  /** The queue workers, once started (undefined while startWorkers is still connecting). */
  workers: () => readonly Worker[] | undefined;
  access: MetricsAccess;
  /** Longest a health check waits for Redis or PostgreSQL before calling it down. */
  checkTimeoutMs?: number;
}

export interface OpsServer {
  /** http://host:port */
  url: string;
  close(): Promise<void>;
}

export interface Health {
  status: "ok" | "unavailable";
  redis: "ok" | "down";
  postgres: "ok" | "down";
  /** ok: every queue is consumed; starting: the workers are not running yet; paused/stopped: some are not. */
  queues: "ok" | "starting" | "paused" | "stopped";
  /** The queues whose worker is paused or stopped. */
  notConsumed?: string[];
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Redis, PostgreSQL and the queue workers, as GET /health reports them. */
export async function checkHealth(
  deps: OpsServerOptions["deps"],
  workers: readonly Worker[] | undefined,
  timeoutMs: number,
): Promise<Health> {
  const { redis, prisma, outages } = deps;
  const probe = async (what: "redis" | "postgres", fn: () => Promise<unknown>) => {
    try {
      await within(fn(), timeoutMs);
      return "ok" as const;
    } catch (err) {
      // A connection failure is its outage's line (at a bounded rate); a timeout is said by the answer alone.
      outages[what].report(err);
      return "down" as const;
    }
  };
  const [redisState, postgresState] = await Promise.all([
    // While the client waits to reconnect, a ping would only queue: down now, not after the timeout.
    probe("redis", () =>
      redis.status === "ready" ? redis.ping() : Promise.reject(new Error(`redis connection ${redis.status}`)),
    ),
    probe("postgres", () => prisma.$queryRaw`SELECT 1`),
  ]);
  let queues: Health["queues"] = "ok";
  let notConsumed: string[] = [];
  if (workers === undefined) queues = "starting";
  else {
    notConsumed = workers.filter((w) => !w.isRunning() || w.isPaused()).map((w) => w.name);
    if (workers.some((w) => !w.isRunning())) queues = "stopped";
    else if (notConsumed.length > 0) queues = "paused";
  }
  const ok = redisState === "ok" && postgresState === "ok" && queues === "ok";
  return {
    status: ok ? "ok" : "unavailable",
    redis: redisState,
    postgres: postgresState,
    queues,
    ...(notConsumed.length > 0 ? { notConsumed } : {}),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}

export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const allowed = metricsGuard(opts.access);
  const timeoutMs = opts.checkTimeoutMs ?? 2_000;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/health") {
      const health = await checkHealth(opts.deps, opts.workers(), timeoutMs);
      send(res, health.status === "ok" ? 200 : 503, "application/json; charset=utf-8", JSON.stringify(health));
      return;
    }
    if (
      req.method === "GET" &&
      path === "/metrics" &&
      allowed(req.socket.remoteAddress ?? "", req.headers.authorization)
    ) {
      const { registry } = opts.deps.metrics;
      send(res, 200, registry.contentType, await registry.metrics());
      return;
    }
    send(res, 404, "text/plain; charset=utf-8", "Not Found");
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      opts.deps.logger.error({ err, path: (req.url ?? "").split("?")[0] }, "ops server request failed");
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", "Internal Server Error");
      else res.destroy();
    });
  });
  // Health checks and scrapes are short; a client that keeps a connection open must not hold up a stop.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
