// The workers' live SMPP links obey the deployment's egress policy (EGRESS_ALLOW through createWorkerDeps and
// the adapter pool): a channel aimed at a refused address never gets a connection, an allowed one binds.
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWorkerDeps, createWorkerDeps, type WorkerDeps } from "../src/index";
import { createSmppChannel, TEST_SMPP, testConfig, testPrisma, waitFor } from "./helpers";

const prisma = testPrisma();
let sim: SmscSimulator;
let channelId: number;
const opened: WorkerDeps[] = [];

function deps(egressAllow: string): WorkerDeps {
  const d = createWorkerDeps({
    config: { ...testConfig(), EGRESS_ALLOW: egressAllow },
    logger: pino({ level: "silent" }),
    smpp: TEST_SMPP,
    poolSize: 2,
  });
  opened.push(d);
  return d;
}

beforeAll(async () => {
  sim = await startSmscSimulator({ systemId: "sb_test", password: "secret" });
  channelId = await createSmppChannel(prisma, { port: sim.port });
});
afterAll(async () => {
  for (const d of opened) await closeWorkerDeps(d);
  await sim.close();
  await prisma.$disconnect();
});

describe("the adapter pool and the egress policy", () => {
  it("a channel on loopback is never connected to without an allow entry", async () => {
    const strict = deps("");
    const channel = await strict.adapters.acquire(channelId);
    await new Promise((resolve) => setTimeout(resolve, 500)); // several reconnect rounds (50-200 ms)
    expect(sim.stats()).toMatchObject({ sessions: 0, binds: 0 });
    strict.adapters.release(channel);
  });

  it("an entry for the SMSC's address and port lets the link bind", async () => {
    const allowed = deps(`127.0.0.1:${sim.port}`);
    const channel = await allowed.adapters.acquire(channelId);
    await waitFor("the bind", async () => (sim.stats().binds > 0 ? true : undefined), 5_000, 20);
    allowed.adapters.release(channel);
  });
});
