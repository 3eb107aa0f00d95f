// Prometheus metrics of the API: how long requests take, by route pattern (never the raw URL: ids and phone
// numbers stay out of the labels) and status; provider webhook intake. One registry per app (tests build many),
// read at GET /metrics by allowed callers only (metrics-guard.ts). Process metrics (CPU, memory, event loop)
// are added by main.ts, the process's owner.

import { metricsGuard } from "@switchboard/domain/metrics-guard";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Counter, Histogram, Registry } from "prom-client";

export interface ApiMetrics {
  registry: Registry;
  /** Provider webhook calls by provider (rcs, whatsapp) and outcome (accepted, rejected, unknown_channel, ...). */
  webhookEvents: Counter<"provider" | "outcome">;
}

declare module "fastify" {
  interface FastifyInstance {
    metrics: ApiMetrics;
  }
}

/** Seconds: from a fast cached read to the mode 1 single send's 30 s wait. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export default fp(
  async (app: FastifyInstance) => {
    const { config } = app.deps;
    const registry = new Registry();
    const duration = new Histogram({
      name: "switchboard_http_request_duration_seconds",
      help: "API request durations by method, route pattern and HTTP status",
      labelNames: ["method", "route", "status"] as const,
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    const webhookEvents = new Counter({
      name: "switchboard_webhook_events_total",
      help: "Provider webhook calls by provider and outcome (accepted, rejected, unknown_channel, not_stored, challenge)",
      labelNames: ["provider", "outcome"] as const,
      registers: [registry],
    });
    app.decorate("metrics", { registry, webhookEvents });

    app.addHook("onResponse", (req, reply, done) => {
      // The pattern the router matched (/user/:id); unknown paths share one label, whatever they were.
      const route = req.routeOptions.url ?? "unmatched";
      duration.observe({ method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
      done();
    });

    const allowed = metricsGuard({ allow: config.METRICS_ALLOW, token: config.METRICS_TOKEN });
    app.get("/metrics", { config: { envelope: false }, schema: { hide: true } }, async (req, reply) => {
      // req.ip: the connection's address, or the client's from a proxy listed in TRUST_PROXY.
      if (!allowed(req.ip, req.headers.authorization)) {
        return reply.code(404).type("text/plain").send("Not Found");
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  },
  { name: "metrics", dependencies: ["envelope"] },
);
