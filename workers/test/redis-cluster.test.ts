// The platform on a Redis Cluster (REDIS_CLUSTER_NODES, docs/operations.md "Redis Cluster"): three local
// redis-server nodes started here (free ports, a temporary folder each, torn down after). First the connection
// factory and each of our own multi-key scripts, MULTIs and pipelines (their keys in one slot, different groups
// on different slots), then the API and the workers on the cluster: a batch through the SMSC simulator from 20 to
// 22 with its receipts, a sign-out seen by another API process, the sign-in failures counted.
// Needs redis-server and redis-cli on PATH (CI installs redis-server); without them it is skipped, saying so.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import { BatchStatus, bullQueuePrefix, QUEUE, ReceiveResult, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import {
  connectRedis,
  isClustered,
  masters,
  parseClusterNodes,
  type RedisConnection,
  slotPrefix,
} from "@switchboard/domain/redis";
import type { Cluster } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../apps/api/src/app";
import { accountLockKey } from "../../apps/api/src/modules/auth/auth.service";
import { revokedKey } from "../../apps/api/src/plugins/session-cache";
import { call, signIn } from "../../apps/api/test/helpers";
import { ChunkLeases } from "../src/lib/chunk-leases";
import { IdRestarts } from "../src/lib/id-restarts";
import { OutcomeJournal } from "../src/lib/outcome-journal";
import { SmppBinds } from "../src/lib/smpp-binds";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  type Harness,
  phoneNumbers,
  startHarness,
  testConfig,
  testPrisma,
  waitFor,
  waitSettled,
} from "./helpers";

const hasRedis = ["redis-server", "redis-cli"].every((bin) => spawnSync(bin, ["--version"]).status === 0);
if (!hasRedis) console.warn("redis-cluster.test.ts skipped: redis-server and redis-cli are not on PATH");

/** A port whose cluster bus port (port + 10000) is free too. */
async function freePort(): Promise<number> {
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer();
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    try {
      await listen(port);
      await listen(port + 10_000);
      return port;
    } catch {
      // taken: another one
    }
  }
}

interface LocalCluster {
  nodes: string;
  stop(): Promise<void>;
}

async function startCluster(size = 3): Promise<LocalCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), "sb-redis-cluster-"));
  const procs: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
            p.once("exit", () => resolve());
            p.kill("SIGKILL");
          }),
      ),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < size; i++) {
      const port = await freePort();
      ports.push(port);
      const cwd = path.join(dir, String(port));
      await mkdir(cwd);
      const args = ["--port", String(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes"];
      args.push("--cluster-config-file", "nodes.conf", "--save", "", "--appendonly", "no");
      procs.push(spawn("redis-server", args, { cwd, stdio: "ignore" }));
    }
    for (const port of ports) {
      await waitFor(
        `node ${port} up`,
        async () =>
          spawnSync("redis-cli", ["-p", String(port), "ping"])
            .stdout?.toString()
            .includes("PONG") || undefined,
        10_000,
      );
    }
    const create = spawnSync(
      "redis-cli",
      ["--cluster", "create", ...ports.map((p) => `127.0.0.1:${p}`), "--cluster-replicas", "0", "--cluster-yes"],
      { encoding: "utf8" },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create: ${create.stdout}${create.stderr}`);
    for (const port of ports) {
      await waitFor(
        `node ${port} sees the cluster ok`,
        async () =>
          spawnSync("redis-cli", ["-p", String(port), "cluster", "info"], { encoding: "utf8" }).stdout.includes(
            "cluster_state:ok",
          ) || undefined,
        15_000,
      );
    }
    return { nodes: ports.map((p) => `127.0.0.1:${p}`).join(","), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

let cluster: LocalCluster;
let redis: Cluster;
const slotOf = async (key: string) => Number(await redis.cluster("KEYSLOT", key));
/** The address of the master serving a key's slot. */
async function nodeOf(key: string): Promise<string> {
  const slot = await slotOf(key);
  const range = (await redis.cluster("SLOTS")).find(([from, to]) => slot >= from && slot <= to);
  const master = range?.[2];
  return master ? `${master[0]}:${master[1]}` : "?";
}

describe.skipIf(!hasRedis)("Redis Cluster", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    const conn = connectRedis({ REDIS_URL: "redis://unused:1", REDIS_CLUSTER_NODES: parseClusterNodes(cluster.nodes) });
    if (!isClustered(conn)) throw new Error("connectRedis made no Cluster");
    redis = conn;
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  describe("the connection factory and our multi-key scripts", () => {
    const prefix = "t:";

    it("parses REDIS_CLUSTER_NODES and connects to every master", async () => {
      expect(parseClusterNodes("a:1, rediss://:pw@b:2")).toEqual({
        nodes: [
          { host: "a", port: 1 },
          { host: "b", port: 2 },
        ],
        password: "pw",
        tls: true,
      });
      expect(() => parseClusterNodes("a")).toThrow(/host:port/);
      expect(() => parseClusterNodes("redis://a:1,rediss://b:2")).toThrow(/mix/);
      expect(await redis.ping()).toBe("PONG");
      expect(masters(redis)).toHaveLength(3);
      expect(slotPrefix(redis, "sb:", "receipts")).toBe("{sb:receipts}:");
    });

    it("gives each BullMQ queue one slot of its own", async () => {
      const keys = (queue: string) =>
        ["wait", "active", "meta", "events", "id"].map((s) => `${bullQueuePrefix("sb:", queue, true)}:${queue}:${s}`);
      for (const queue of Object.values(QUEUE)) {
        expect(new Set(await Promise.all(keys(queue).map(slotOf))).size).toBe(1);
      }
      const slots = new Set(await Promise.all(Object.values(QUEUE).map(async (q) => slotOf(keys(q)[0] ?? ""))));
      expect(slots.size).toBe(Object.values(QUEUE).length);
      expect(bullQueuePrefix("sb:", QUEUE.dispatchChunk, false)).toBe("sb");
    });

    it("chunk leases: a batch's leases in a slot of its own, batches spread over the nodes", async () => {
      const leases = new ChunkLeases(redis, prefix, 5_000);
      const nodes = new Set<string>();
      for (let batch = 1; batch <= 12; batch++) {
        const lease = await leases.acquire(String(batch), "0");
        expect(lease).not.toBeNull();
        expect(await leases.acquire(String(batch), "0")).toBeNull();
        expect(await leases.active(String(batch))).toBe(1);
        expect(await redis.exists(`{${prefix}chunk-leases:${batch}}`)).toBe(1);
        nodes.add(await nodeOf(`{${prefix}chunk-leases:${batch}}`));
        await lease?.release();
        expect(await leases.active(String(batch))).toBe(0);
      }
      expect(nodes.size).toBeGreaterThan(1);
      // A group's leases (dispatch-singles): batches on several nodes, each taken and released on its own slot.
      const group = Array.from({ length: 12 }, (_, i) => ({ batchId: String(100 + i), chunk: "0" }));
      const held = await leases.acquireAll(group);
      expect(held.every((l) => l !== null)).toBe(true);
      expect((await leases.acquireAll(group)).every((l) => l === null)).toBe(true);
      await leases.releaseAll(held.filter((l) => l !== null));
      expect((await Promise.all(group.map((g) => leases.active(g.batchId)))).every((n) => n === 0)).toBe(true);
    });

    it("SMSC id restarts: an account's two keys in one script", async () => {
      const ids = new IdRestarts(redis, prefix);
      for (const account of ["127.0.0.1:2775:a", "127.0.0.1:2775:b", "10.0.0.1:2775:c"]) {
        const of = ids.of(account);
        expect(await ids.mark(account, Date.now(), 41n)).toBe(true);
        await of.note(99n, Date.now());
        expect(await of.highest()).toBe(99n);
        expect(await redis.get(`${prefix}smsc-ids-highest:{${account}}`)).toBe("99");
      }
    });

    it("outcome journal: a chunk's rows and its batch's list in one MULTI, the list of batches apart", async () => {
      const journal = new OutcomeJournal(redis, prefix);
      for (const batch of ["501", "502", "503"]) {
        await journal
          .of(batch, "0")
          .keep([{ recipientId: 7n, result: SendResult.SUCCESS, providerMessageId: "m7", errorCode: null }]);
        expect(await redis.hlen(`${prefix}unwritten:{${batch}}:0`)).toBe(1);
        expect(await redis.smembers(`${prefix}unwritten-chunks:{${batch}}`)).toEqual(["0"]);
      }
      expect((await journal.batches()).sort()).toEqual(["501", "502", "503"]);
    });

    it("SMPP binds: one pipeline for every account's key", async () => {
      const logger = pino({ level: "silent" });
      const here = new SmppBinds(redis, prefix, logger);
      const there = new SmppBinds(redis, prefix, logger);
      here.of("acct-1").up();
      here.of("acct-2").up();
      await waitFor("binds shared", async () => ((await there.heldElsewhere("acct-2")) ? true : undefined), 5_000);
      expect(await there.heldElsewhere("acct-1")).toBe(true);
      expect(await here.heldElsewhere("acct-1")).toBe(false);
      here.close();
      there.close();
    });
  });

  describe("the API and the workers on the cluster", () => {
    let prisma: PrismaClient;
    let harness: Harness;
    let sim: SmscSimulator;
    const apis: Array<{ app: App; redis: RedisConnection }> = [];
    let env: Record<string, string>;

    async function startApi() {
      const config = { ...testConfig(undefined, harness.deps.redisPrefix, env), LOG_LEVEL: "silent" as const };
      const conn = connectRedis(config);
      const app = await buildApp({ config, prisma, redis: conn });
      await app.ready();
      apis.push({ app, redis: conn });
      return app;
    }

    beforeAll(async () => {
      env = { REDIS_CLUSTER_NODES: cluster.nodes };
      prisma = testPrisma();
      sim = await startSmscSimulator();
      harness = await startHarness({ env });
    }, 60_000);
    afterAll(async () => {
      for (const a of apis) {
        await a.app.close();
        a.redis.disconnect();
      }
      await harness?.stop();
      await sim?.close();
      await prisma?.$disconnect();
    });

    it("runs the workers on a Cluster connection", () => {
      expect(isClustered(harness.deps.redis)).toBe(true);
    });

    it("sends a batch through the SMSC simulator from 20 to 22 with its receipts recorded", async () => {
      const channelId = await createSmppChannel(prisma, { port: sim.port });
      const customer = await createCustomer(prisma);
      const { batchId } = await createPendingBatch(prisma, customer, channelId, phoneNumbers(200));
      await harness.deps.queues.dispatchBatches([batchId]);
      const settled = await waitSettled(prisma, batchId, 30_000);
      expect(settled.status).toBe(BatchStatus.SEND_FINISHED);
      const batch = await waitFor(
        "every receipt recorded",
        async () => {
          const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
          return b.deliveredCount + b.undeliveredCount === 200 ? b : undefined;
        },
        30_000,
      );
      expect(batch).toMatchObject({ sentCount: 200, successCount: 200, deliveredCount: 200 });
      const recipients = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
      expect(recipients.every((r) => r.sendResult === SendResult.SUCCESS)).toBe(true);
      expect(recipients.every((r) => r.receiveResult === ReceiveResult.RECEIVED)).toBe(true);

      // BullMQ's keys carry the queue's hash tag: the dispatch-chunk and delivery-report queues on their own slots.
      const bull = (queue: string) => `${bullQueuePrefix(harness.deps.redisPrefix, queue, true)}:${queue}:meta`;
      expect(await redis.exists(bull(QUEUE.dispatchChunk))).toBe(1);
      expect(await redis.exists(bull(QUEUE.deliveryReport))).toBe(1);
      expect(await slotOf(bull(QUEUE.dispatchChunk))).not.toBe(await slotOf(bull(QUEUE.deliveryReport)));
    }, 60_000);

    it("a sign-out is seen by another API process, and sign-in failures are counted", async () => {
      const api = await startApi();
      const token = await signIn(api, "customer", "customer", "Customer123");
      expect((await call(api, "GET", "/user/info", { token })).status).toBe(200);
      expect((await call(api, "POST", "/auth/logout", { token })).status).toBe(200);
      const prefix = harness.deps.redisPrefix;
      let revoked = 0;
      for (const node of masters(redis)) revoked += (await node.keys(revokedKey(prefix, "*"))).length;
      expect(revoked).toBe(1);
      // Another process started after the sign-out (its revocation set read by SCAN on every master)...
      const other = await startApi();
      expect((await call(other, "GET", "/user/info", { token })).status).toBe(401);
      expect((await call(api, "GET", "/user/info", { token })).status).toBe(401);

      const user = await prisma.user.findFirstOrThrow({ where: { username: "customer", deletedAt: null } });
      for (let i = 0; i < 2; i++) {
        const res = await call(other, "POST", "/auth/login", { body: { username: "customer", password: "wrong-one" } });
        expect(res.status).toBe(401);
      }
      expect(await redis.get(accountLockKey(prefix, user.id))).toBe("2");
      // the counts are shared: the first process refuses as many more before the lock as the second would
      expect(await redis.ttl(accountLockKey(prefix, user.id))).toBeGreaterThan(0);
    }, 30_000);
  });
});
