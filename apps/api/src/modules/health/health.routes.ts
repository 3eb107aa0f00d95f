// Plain HTTP health checks (no envelope): for load balancers, docker compose and kubernetes.
import type { FastifyPluginAsync } from "fastify";

export const healthRoutes: FastifyPluginAsync = async (app) => {
  const { prisma, redis } = app.deps;

  app.get("/healthz", { config: { envelope: false }, schema: { hide: true } }, async () => ({ status: "ok" }));

  app.get("/readyz", { config: { envelope: false }, schema: { hide: true } }, async (req, reply) => {
    const check = async (name: string, fn: () => Promise<unknown>) => {
      try {
        await fn();
        return [name, "ok"] as const;
      } catch (err) {
        req.log.warn({ err, dependency: name }, "readiness check failed");
        return [name, "down"] as const;
      }
    };
    const results = Object.fromEntries(
      await Promise.all([check("postgres", () => prisma.$queryRaw`SELECT 1`), check("redis", () => redis.ping())]),
    );
    const ready = Object.values(results).every((s) => s === "ok");
    return reply.status(ready ? 200 : 503).send({ status: ready ? "ok" : "unavailable", ...results });
  });
};
