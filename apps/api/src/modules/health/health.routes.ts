// Plain HTTP health checks (no envelope): for load balancers, docker compose and kubernetes.
import type { FastifyPluginAsync } from "fastify";

export const healthRoutes: FastifyPluginAsync = async (app) => {
  const { prisma, redis } = app.deps;
  // A Redis the client is waiting to reconnect to answers nothing for seconds: it is down now, not after a timeout.
  const pingRedis = () =>
    redis.status === "reconnecting" || redis.status === "end"
      ? Promise.reject(new Error(`redis ${redis.status}`))
      : redis.ping();

  app.get("/healthz", { config: { envelope: false }, schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config: { envelope: false }, schema: { hide: true } }, async (req, reply) => {
    const check = async (name: "postgres" | "redis", fn: () => Promise<unknown>) => {
      try {
        await fn();
        return [name, "ok"] as const;
      } catch (err) {
        // A lost server is its outage's line (at a bounded rate, plugins/outages.ts); anything else is logged here.
        const outage = app.outages[name];
        if (!outage.report(err) && !outage.isDown) req.log.warn({ err, dependency: name }, "readiness check failed");
        return [name, "down"] as const;
      }
    };
    const results = Object.fromEntries(
      await Promise.all([check("postgres", () => prisma.$queryRaw`SELECT 1`), check("redis", pingRedis)]),
    );
    const ready = Object.values(results).every((s) => s === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ok" : "unavailable", ...results });
  });
};
