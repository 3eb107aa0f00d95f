// The workers' ops server: GET /health says which part fails (Redis, PostgreSQL, the queues' workers), GET
// /metrics is for allowed callers only; and the metrics a batch leaves behind: sends, receipts and their lag per
// channel kind and product, token-bucket waits, job durations, queue depths, SMPP windows and reconnects.
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import type { PrismaClient } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHealth, type OpsServer, startOpsServer } from "../src/lib/ops-server";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  startHarness,
  testPrisma,
  waitFor,
  waitSettled,
} from "./helpers";

let prisma: PrismaClient;
let harness: Harness;
let ops: OpsServer;
let workersStarted = true;
const simulators: SmscSimulator[] = [];

beforeAll(async () => {
  prisma = testPrisma();
  harness = await startHarness();
  ops = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    deps: harness.deps,
    workers: () => (workersStarted ? harness.running.workers : undefined),
    access: { allow: ["127.0.0.1"] },
  });
});
afterAll(async () => {
  await ops?.close();
  await harness?.stop();
  await Promise.all(simulators.map((s) => s.close()));
  await prisma?.$disconnect();
});

/** One sample's value from Prometheus text, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const scrape = async () => (await fetch(`${ops.url}/metrics`)).text();

describe("GET /health", () => {
  it("is 200 when Redis, PostgreSQL and every queue's worker are fine; names the queues not consumed", async () => {
    const ok = await fetch(`${ops.url}/health`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: "ok", redis: "ok", postgres: "ok", queues: "ok" });

    const worker = harness.running.workers[0]!;
    await worker.pause(true);
    try {
      const paused = await fetch(`${ops.url}/health`);
      expect(paused.status).toBe(503);
      expect(await paused.json()).toEqual({
        status: "unavailable",
        redis: "ok",
        postgres: "ok",
        queues: "paused",
        notConsumed: [worker.name],
      });
    } finally {
      worker.resume();
    }

    workersStarted = false;
    try {
      const starting = await fetch(`${ops.url}/health`);
      expect(starting.status).toBe(503);
      expect(((await starting.json()) as { queues: string }).queues).toBe("starting");
    } finally {
      workersStarted = true;
    }
    expect((await fetch(`${ops.url}/health`)).status).toBe(200);
  });

  it("says which server is down, and gives the failure to that server's outage line", async () => {
    const reported: string[] = [];
    const outage = (what: string) => ({
      report: (err: unknown) => {
        reported.push(`${what}: ${(err as { code?: string }).code ?? (err as Error).message}`);
        return true;
      },
    });
    const health = await checkHealth(
      {
        redis: { status: "reconnecting" } as never,
        prisma: {
          $queryRaw: () => Promise.reject(Object.assign(new Error("unreachable"), { code: "P1001" })),
        } as never,
        metrics: harness.deps.metrics,
        outages: { redis: outage("redis"), postgres: outage("postgres") } as never,
        logger: harness.deps.logger,
      },
      harness.running.workers,
      1_000,
    );
    expect(health).toEqual({ status: "unavailable", redis: "down", postgres: "down", queues: "ok" });
    expect(reported.sort()).toEqual(["postgres: P1001", "redis: redis connection reconnecting"]);
  });
});

describe("GET /metrics", () => {
  it("answers allowed addresses and the token bearer; 404 to everybody else, like an unknown path", async () => {
    expect((await fetch(`${ops.url}/metrics`)).status).toBe(200);
    expect((await fetch(`${ops.url}/nothing`)).status).toBe(404);
    const guarded = await startOpsServer({
      host: "127.0.0.1",
      port: 0,
      deps: harness.deps,
      workers: () => harness.running.workers,
      access: { allow: [], token: "a-token-for-the-scraper" },
    });
    try {
      const refused = await fetch(`${guarded.url}/metrics`);
      expect(refused.status).toBe(404);
      expect(await refused.text()).not.toContain("switchboard_");
      const withToken = await fetch(`${guarded.url}/metrics`, {
        headers: { authorization: "Bearer a-token-for-the-scraper" },
      });
      expect(withToken.status).toBe(200);
      // health stays open: it names no figures
      expect((await fetch(`${guarded.url}/health`)).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("counts a batch's sends, receipts and their lag, token waits, job durations, depths and SMPP reconnects", async () => {
    const sim = await startSmscSimulator({
      receiptDelayMs: 100,
      outcomeMix: { delivered: 9, undelivered: 1, expired: 0, rejected: 0 },
    });
    simulators.push(sim);
    // 100 messages a second for 300 recipients: the bucket's second of burst, then waits for tokens
    const channelId = await createSmppChannel(prisma, { port: sim.port, throughput: 100 });
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(300));
    await harness.deps.queues.dispatchBatches([batchId]);
    await waitSettled(prisma, batchId);
    await waitFor("every receipt recorded", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.deliveredCount + b.undeliveredCount === 300 ? b : undefined;
    });
    const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });

    const text = await scrape();
    const labels = '{kind="smpp",product="sms"}';
    expect(sample(text, `switchboard_messages_sent_total${labels}`)).toBe(300);
    expect(sample(text, `switchboard_messages_failed_total${labels}`) ?? 0).toBe(0);
    expect(sample(text, `switchboard_messages_delivered_total${labels}`)).toBe(batch.deliveredCount);
    expect(sample(text, `switchboard_messages_undelivered_total${labels}`) ?? 0).toBe(batch.undeliveredCount);
    expect(sample(text, `switchboard_receipt_lag_seconds_count${labels}`)).toBe(300);
    expect(sample(text, 'switchboard_token_bucket_wait_seconds_count{kind="smpp"}')).toBeGreaterThan(0);
    expect(
      sample(text, 'switchboard_job_duration_seconds_count{queue="dispatch-batch",status="completed"}'),
    ).toBeGreaterThan(0);
    expect(sample(text, 'switchboard_queue_jobs{queue="dispatch-chunk",state="waiting"}')).toBe(0);
    // the singles list (a Redis list, not a BullMQ queue) reports its waiting groups as well
    expect(sample(text, 'switchboard_queue_jobs{queue="dispatch-singles",state="waiting"}')).toBe(0);
    expect(sample(text, 'switchboard_smpp_links{bound="true"}')).toBeGreaterThan(0);
    expect(sample(text, "switchboard_smpp_window")).toBeGreaterThan(0);
    // no label carries a number, a batch or a channel id
    const labelSets = (text.match(/\{[^}]*\}/g) ?? []).join(" ");
    expect(labelSets).not.toMatch(/batch_?id|recipient|channel_?id|\d{6,}/i);

    const reconnectsBefore = sample(text, "switchboard_smpp_reconnects_total") ?? 0;
    sim.dropConnections();
    await waitFor("the SMPP link bound again", async () => {
      const now = sample(await scrape(), "switchboard_smpp_reconnects_total") ?? 0;
      return now > reconnectsBefore ? now : undefined;
    });
  }, 60_000);
});
