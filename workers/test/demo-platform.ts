// The demo world end to end, for the tests that go through the real API and the real workers to the SMSC simulator:
// a throwaway database with the demo seed (review off), its SMPP channels pointed at a simulator that keeps every
// submit_sm it received, the workers (startHarness) and the API on the same database and Redis prefix, and the demo
// customer signed in.
import type { SimulatorSubmit } from "@switchboard/channels/simulators";
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import { Redis } from "ioredis";
import { inject } from "vitest";
import { type App, buildApp } from "../../apps/api/src/app";
import { signIn } from "../../apps/api/test/helpers";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import { type Harness, startHarness, testConfig } from "./helpers";

export interface DemoPlatform {
  prisma: PrismaClient;
  api: App;
  harness: Harness;
  sim: Awaited<ReturnType<typeof startSmscSimulator>>;
  /** The demo customer's session token. */
  token: string;
  /** Every submit_sm the simulator received, in order. */
  submits: SimulatorSubmit[];
  close(): Promise<void>;
}

/** `name` names the throwaway database; `env` is the API's own settings beyond the tests' defaults. */
export async function startDemoPlatform(name: string, env: Record<string, string> = {}): Promise<DemoPlatform> {
  const db: ThrowawayDatabase = await throwawayDatabase(name);
  const prisma = createPrisma(db.url, { max: 3 });
  const submits: SimulatorSubmit[] = [];
  const closers: Array<() => Promise<unknown> | unknown> = [() => db.drop(), () => prisma.$disconnect()];
  const close = async () => {
    for (const fn of closers.splice(0).reverse()) await fn();
  };
  try {
    await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
    // Batches are sent at once, whatever their size (the demo tenant reviews batches above 10,000 recipients).
    await prisma.tenantSetting.updateMany({ data: { reviewMode: 0 } });
    const sim = await startSmscSimulator({ onSubmit: (s) => submits.push(s) });
    closers.push(() => sim.close());
    for (const c of await prisma.channel.findMany({ where: { kind: "smpp" } })) {
      await prisma.channel.update({
        where: { id: c.id },
        data: { config: { ...(c.config as Record<string, unknown>), port: sim.port }, throughput: 100_000 },
      });
    }
    const harness = await startHarness({ databaseUrl: db.url });
    closers.push(() => harness.stop());
    const redis = new Redis(inject("redisUrl"));
    closers.push(() => redis.disconnect());
    const config = { ...testConfig(db.url, harness.deps.redisPrefix, env), LOG_LEVEL: "silent" as const };
    const api = await buildApp({ config, prisma, redis });
    closers.push(() => api.close());
    const token = await signIn(api, "customer", "customer", "Customer123");
    return { prisma, api, harness, sim, token, submits, close };
  } catch (err) {
    await close();
    throw err;
  }
}
