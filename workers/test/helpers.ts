// Test harness: the real workers in-process on the run's throwaway database, with a Redis prefix of their own
// (so no other test's jobs are taken), and fixtures that set up what the submission side leaves behind: a
// customer with money, an SMPP channel pointing at a simulator, a batch in status 20 with its recipients and
// its consume row in the ledger.

import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { type SimulatorSubmit, type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import {
  AuthStatus,
  BalanceLogType,
  type BatchContent,
  BatchStatus,
  ProductCode,
  SendResult,
  smppChannelConfig,
  UserType,
  webhookBody,
} from "@switchboard/contracts";
import { createPrisma, type Prisma, type PrismaClient } from "@switchboard/db";
import { loadConfig } from "@switchboard/domain/config";
import { applyBalanceChange, verifyLedger } from "@switchboard/domain/ledger";
import { DEMO_TENANT_CODE } from "@switchboard/domain/seed";
import pino from "pino";
import { expect, inject } from "vitest";
import { testSecrets } from "../../apps/api/test/secrets";
import {
  type CreateDepsOptions,
  closeWorkerDeps,
  createWorkerDeps,
  DEFAULT_TUNING,
  type RunningWorkers,
  type StartOptions,
  startWorkers,
  type Tuning,
  type WorkerDeps,
} from "../src/index";

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(4).toString("hex")}`;

/** Short waits and few retries: the same code paths, at test speed. */
export const TEST_TUNING: Partial<Tuning> = {
  sendRetries: 1,
  sendRetryDelayMs: 50,
  statusCheckMs: 200,
  leaseTtlMs: 15_000,
  finishWaitMs: 100,
  reportRetryDelaysMs: [100, 200, 400, 800, 1_600, 3_200],
  scheduleEveryMs: 200,
  pairIntervalMs: 300,
  retries: {
    ...DEFAULT_TUNING.retries,
    dispatchBatch: { attempts: 3, backoffMs: 100 },
    dispatchChunk: { attempts: 3, backoffMs: 100 },
    deliveryReport: { attempts: 3, backoffMs: 100 },
    finishBatch: { attempts: 5, backoffMs: 100 },
    callback: { attempts: 6, backoffMs: 100 },
  },
};

export const TEST_SMPP: CreateDepsOptions["smpp"] = {
  submitTimeoutMs: 5_000,
  reconnectInitialMs: 50,
  reconnectMaxMs: 200,
  bindTimeoutMs: 2_000,
  throttleBackoffMs: 20,
  throttleBackoffMaxMs: 200,
};

export interface Harness {
  deps: WorkerDeps;
  running: RunningWorkers;
  stop(): Promise<void>;
}

export interface HarnessOptions {
  databaseUrl?: string;
  /** Another harness's prefix, to pick up the jobs it left (a restarted worker). */
  redisPrefix?: string;
  tuning?: Partial<Tuning>;
  smpp?: CreateDepsOptions["smpp"];
  scheduler?: boolean;
  concurrency?: StartOptions["concurrency"];
  /** Off unless given: other tests' channels share this database. */
  receiptListeners?: StartOptions["receiptListeners"];
  /** More settings, as the environment would give them (STORAGE=s3 and its S3_* settings). */
  env?: Record<string, string>;
}

/** Under the run's prefix (cleaned up at the end), but queues of our own: no other test's jobs are taken. */
export const workerPrefix = () => `${inject("redisPrefix")}${uniqueName("w")}:`;

export function testConfig(
  databaseUrl = inject("databaseUrl"),
  redisPrefix = workerPrefix(),
  env: Record<string, string> = {},
) {
  return loadConfig({
    ...testSecrets(),
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    REDIS_URL: inject("redisUrl"),
    REDIS_PREFIX: redisPrefix,
    // The tests' SMSC simulators and callback receivers listen on loopback, on ports the OS picks.
    EGRESS_ALLOW: "127.0.0.1",
    // Never the checkout's .data/uploads: the scheduler's upload sweep would judge a developer's files by the
    // tests' databases.
    UPLOAD_DIR: path.join(tmpdir(), "switchboard-worker-test-uploads"),
    ...env,
  });
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const config = testConfig(opts.databaseUrl, opts.redisPrefix, opts.env);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const deps = createWorkerDeps({
    config,
    logger,
    tuning: { ...TEST_TUNING, ...opts.tuning },
    smpp: { ...TEST_SMPP, ...opts.smpp },
    poolSize: 6,
  });
  const running = await startWorkers(deps, {
    scheduler: opts.scheduler ?? false,
    receiptListeners: opts.receiptListeners ?? false,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  return {
    deps,
    running,
    stop: async () => {
      await running.close();
      await closeWorkerDeps(deps);
    },
  };
}

export function testPrisma(databaseUrl = inject("databaseUrl")): PrismaClient {
  return createPrisma(databaseUrl, { max: 3 });
}

/** Polls until `check` returns a value other than undefined; fails after timeoutMs with what it waited for. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${String(last)})`);
    last = value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

// ---------------------------------------------------------------- fixtures

export const TEST_SECRET_KEY = channelSecretKey(testConfig().CHANNEL_SECRET_KEY);

export async function demoTenant(prisma: PrismaClient) {
  const tenant = await prisma.tenant.findUniqueOrThrow({ where: { code: DEMO_TENANT_CODE } });
  const product = await prisma.product.findFirstOrThrow({ where: { tenantId: tenant.id, code: ProductCode.SMS } });
  return { tenantId: tenant.id, productId: product.id };
}

/**
 * The money of a settled batch, as the fault experiments check it (issue 17: no double charge, balance = ledger
 * replay): the customer's ledger replays to its balance, and what the batch cost in the end (its consume less its
 * refunds) is exactly what its sent recipients were priced: a message neither charged twice nor left charged
 * without being sent.
 */
export async function expectMoneyExact(prisma: PrismaClient, customer: Customer, batchId: string): Promise<void> {
  expect(await verifyLedger(prisma, customer.id), `ledger of customer ${customer.id}`).toMatchObject({
    ok: true,
    firstMismatch: null,
  });
  const logs = await prisma.balanceLog.findMany({
    where: { userId: customer.id, batchId: BigInt(batchId) },
    select: { amount: true },
  });
  const [sent] = await prisma.$queryRaw<Array<{ charged: bigint }>>`
    SELECT coalesce(sum(price), 0)::bigint AS charged FROM recipients
    WHERE "batchId" = ${BigInt(batchId)} AND "sendResult" = ${SendResult.SUCCESS}`;
  expect(-logs.reduce((sum, l) => sum + l.amount, 0n), `batch ${batchId}'s net charge`).toBe(sent?.charged);
}

export interface Customer {
  id: number;
  tenantId: number;
  openingBalance: bigint;
}

export async function createCustomer(
  prisma: PrismaClient,
  opts: { balance?: bigint; notifyUrl?: string; secretKeyHash?: string } = {},
): Promise<Customer> {
  const { tenantId } = await demoTenant(prisma);
  const balance = opts.balance ?? 10_000n * 10_000n;
  const user = await prisma.$transaction(async (tx) => {
    const u = await tx.user.create({
      data: {
        tenantId,
        type: UserType.USER,
        username: uniqueName("cust"),
        passwordHash: "x",
        authStatus: AuthStatus.AUTHENTICATED,
        notifyUrl: opts.notifyUrl ?? null,
        secretKeyHash: opts.secretKeyHash ?? null,
      },
    });
    await applyBalanceChange(tx, { tenantId, userId: u.id, type: BalanceLogType.RECHARGE, amount: balance });
    return u;
  });
  return { id: user.id, tenantId, openingBalance: balance };
}

export async function createSmppChannel(
  prisma: PrismaClient,
  opts: { port: number; throughput?: number; windowSize?: number; systemId?: string },
): Promise<number> {
  const { tenantId } = await demoTenant(prisma);
  const { password: _password, ...config } = smppChannelConfig.parse({
    host: "127.0.0.1",
    port: opts.port,
    systemId: opts.systemId ?? "sb_test",
    windowSize: opts.windowSize ?? 50,
  });
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: uniqueName("smsc"),
      kind: "smpp",
      productCode: ProductCode.SMS,
      config: config as Prisma.InputJsonObject,
      secrets: encryptSecrets(TEST_SECRET_KEY, tenantId, { password: "secret" }),
      throughput: opts.throughput ?? 10_000,
    },
  });
  return channel.id;
}

/** An SMSC simulator that records every submit_sm it answered; added to `started` for the test to close. */
export async function recordingSmsc(started: SmscSimulator[], options: Parameters<typeof startSmscSimulator>[0] = {}) {
  const submits: SimulatorSubmit[] = [];
  const sim = await startSmscSimulator({ ...options, onSubmit: (s) => submits.push(s) });
  started.push(sim);
  return { sim, submits };
}

/** Unit prices in money units per segment (CN numbers cost more than US ones, so refunds are not uniform). */
export const PRICE = { CN: 350n, US: 80n } as const;

/**
 * `count` distinct numbers, alternating China and the US. None ends in 0000 / 9997-9999 (the simulator's
 * forced outcomes) unless `special` puts one of those endings on every n-th number.
 */
export function phoneNumbers(count: number, special?: { every: number; ending: "0000" | "9999" }): string[] {
  const out: string[] = [];
  const seed = Number.parseInt(randomBytes(2).toString("hex"), 16) % 900;
  for (let i = 0; i < count; i++) {
    if (special && i % special.every === special.every - 1) {
      out.push(`+86138${String(i % 10_000).padStart(4, "0")}${special.ending}`);
      continue;
    }
    const tail = String(1_000 + (i % 8_000));
    const block = Math.floor(i / 8_000);
    out.push(
      i % 2 === 0
        ? `+86139${String(seed).padStart(3, "0")}${block % 10}${tail}`
        : `+1202${200 + ((seed + block) % 700)}${tail}`,
    );
  }
  return out;
}

export const countryOf = (phone: string) => (phone.startsWith("+86") ? "CN" : "US");

export interface BatchFixture {
  batchId: string;
  cost: bigint;
}

/** What the submission side leaves behind: a batch in 20 with recipients, and its cost taken by the ledger. */
/** A fixture transaction writing thousands of rows: a busy two-core machine can take far more than 5 s. */
const TX_SLOW = { maxWait: 20_000, timeout: 120_000 } as const;

export async function createPendingBatch(
  prisma: PrismaClient,
  customer: Customer,
  channelId: number | null,
  phones: readonly string[],
  opts: {
    text?: string;
    scheduledAt?: Date;
    status?: number;
    /** Another product's content (WS, RCS): the batch is of that product, one unit per number. */
    content?: BatchContent;
    /** Per recipient: RCS with fallback reserves the larger price, and keeps both (see quote.ts). */
    prices?: (phone: string) => { price: bigint; primaryPrice?: bigint; fallbackPrice?: bigint };
    /** 1: a screening batch (the channel's reachability check, nothing sent). */
    taskType?: number;
  } = {},
): Promise<BatchFixture> {
  const { productId } = await demoTenant(prisma);
  const text = opts.text ?? "Your code is 1234. Switchboard test message.";
  const priced = phones.map((p) => opts.prices?.(p) ?? { price: PRICE[countryOf(p)] });
  const prices = priced.map((p) => p.price);
  const cost = prices.reduce((a, b) => a + b, 0n);
  const batch = await prisma.$transaction(async (tx) => {
    const b = await tx.messageBatch.create({
      data: {
        tenantId: customer.tenantId,
        userId: customer.id,
        productId,
        taskType: opts.taskType ?? 2,
        submitMode: 3,
        status: opts.status ?? BatchStatus.PENDING_SEND,
        content: opts.content ?? { product: ProductCode.SMS, text, senderId: "Switchboard" },
        productCode: opts.content?.product ?? ProductCode.SMS,
        senderId: opts.content ? null : "Switchboard",
        segments: 1,
        scheduledAt: opts.scheduledAt ?? null,
        totalCount: phones.length,
        validCount: phones.length,
        cost,
      },
    });
    await tx.recipient.createMany({
      data: phones.map((phone, i) => ({
        batchId: b.id,
        phone,
        countryCode: countryOf(phone),
        channelId,
        segments: 1,
        price: prices[i]!,
        primaryPrice: priced[i]!.primaryPrice ?? null,
        fallbackPrice: priced[i]!.fallbackPrice ?? null,
        sendResult: SendResult.NOT_SENT,
      })),
    });
    await applyBalanceChange(tx, {
      tenantId: customer.tenantId,
      userId: customer.id,
      type: BalanceLogType.CONSUME,
      amount: -cost,
      batchId: b.id,
    });
    return b;
    // thousands of recipients on a loaded machine take more than the default 5 s
  }, TX_SLOW);
  return { batchId: batch.id.toString(), cost };
}

/** A single send's entry in a dispatch-singles job, with its number. */
export type SingleFixture = { batchId: string; createdAt: string; recipientId: string; phone: string };

/**
 * Single sends as the API's lane writes them (single-lane.ts): a batch in 20 per number, charged, its one
 * recipient within the batch's id bounds (recipientIdFrom/To, exclusive).
 */
export async function createSingles(
  prisma: PrismaClient,
  customer: Customer,
  channelId: number,
  phones: readonly string[],
): Promise<SingleFixture[]> {
  const made: string[] = [];
  for (const phone of phones) made.push((await createPendingBatch(prisma, customer, channelId, [phone])).batchId);
  const rows = await prisma.$queryRaw<Array<{ id: bigint; createdAt: Date; rid: bigint; phone: string }>>`
    UPDATE message_batches b
    SET "recipientIdFrom" = r.id - 1, "recipientIdTo" = r.id + 1, "submitMode" = 1, "totalCount" = 1
    FROM recipients r
    WHERE r."batchId" = b.id AND b.id = ANY(${made}::bigint[])
    RETURNING b.id, b."createdAt", r.id AS rid, r.phone`;
  const byId = new Map(rows.map((r) => [r.id.toString(), r]));
  return made.map((batchId) => {
    const r = byId.get(batchId) as (typeof rows)[number];
    return { batchId, createdAt: r.createdAt.toISOString(), recipientId: r.rid.toString(), phone: r.phone };
  });
}

export const FINAL_STATUSES: readonly number[] = [
  BatchStatus.SEND_FINISHED,
  BatchStatus.SEND_TERMINATED,
  BatchStatus.SEND_FAILED,
];

/** The batch once it is settled (final status and finishedAt), within timeoutMs. */
export function waitSettled(prisma: PrismaClient, batchId: string, timeoutMs = 60_000) {
  return waitFor(
    `batch ${batchId} settled`,
    async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return FINAL_STATUSES.includes(b.status) && b.finishedAt !== null ? b : undefined;
    },
    timeoutMs,
  );
}

/** Sums per send result, and the billing invariant's two sides. */
export async function recipientSummary(prisma: PrismaClient, batchId: string) {
  const rows = await prisma.recipient.groupBy({
    by: ["sendResult"],
    where: { batchId: BigInt(batchId) },
    _count: { _all: true },
    _sum: { price: true },
  });
  const count = (r: number) => rows.find((x) => x.sendResult === r)?._count._all ?? 0;
  const price = (r: number) => rows.find((x) => x.sendResult === r)?._sum.price ?? 0n;
  return {
    unsent: count(SendResult.NOT_SENT),
    success: count(SendResult.SUCCESS),
    failed: count(SendResult.FAILURE),
    terminated: count(SendResult.TERMINATED),
    successPrice: price(SendResult.SUCCESS),
    failedPrice: price(SendResult.FAILURE) + price(SendResult.TERMINATED),
  };
}

// ---------------------------------------------------------------- callbacks

export interface ReceivedCallback {
  event: string;
  raw: string;
  body: { event: string; eventId: string; data: Record<string, unknown> };
  signature: string;
  answered: number;
}

/** A loopback notify URL that takes every callback, except the first of `refuseFirst` (answered 500). */
export async function callbackReceiver(opts: { refuseFirst?: string } = {}) {
  const requests: ReceivedCallback[] = [];
  /** Bodies the catalogue does not describe (answered 400: the test waiting for them fails, and says why). */
  const invalid: string[] = [];
  let refused = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const event = String(req.headers["x-switchboard-event"]);
      const answered = event === opts.refuseFirst && !refused ? 500 : 200;
      if (answered === 500) refused = true;
      const body = JSON.parse(raw);
      // Every body the platform posts is one the webhook catalogue (and so the OpenAPI document) describes.
      const checked = webhookBody.safeParse(body);
      if (!checked.success) {
        invalid.push(`${event}: ${checked.error.message}`);
        res.writeHead(400).end();
        return;
      }
      requests.push({
        event,
        raw,
        body,
        signature: String(req.headers["x-switchboard-signature"]),
        answered,
      });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    invalid,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/**
 * Plays the settlement of a group of batches against `statement` (docs/operations.md, "lock order"): holds the
 * lowest batch, waits (5 s at most) until a statement whose text contains `marker` waits for a lock, then takes the
 * others in id order, as settleSingles does. A statement that takes its batches in any other order deadlocks with
 * it (PostgreSQL aborts one of the two). Returns how the statement ended ("done", or its error's message) and
 * whether it was seen waiting.
 */
export async function againstSettlement(
  prisma: PrismaClient,
  batchIds: readonly bigint[],
  marker: string,
  statement: () => Promise<unknown>,
): Promise<{ outcome: string; blocked: boolean }> {
  const [lowest, ...rest] = [...batchIds].sort((a, b) => (a < b ? -1 : 1));
  let blocked = false;
  const settlement = await prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT id FROM message_batches WHERE id = ${lowest} FOR UPDATE`;
      // Its outcome, kept (not a rejection left unhandled while this transaction goes on).
      const running = statement().then(
        () => "done",
        (err: Error) => err.message,
      );
      for (let i = 0; i < 250 && !blocked; i++) {
        const [row] = await prisma.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE ${`%${marker}%`}`;
        blocked = (row?.n ?? 0) > 0;
        if (!blocked) await new Promise((r) => setTimeout(r, 20));
      }
      await tx.$queryRaw`
        SELECT id FROM message_batches WHERE id = ANY(${rest.map(String)}::bigint[]) ORDER BY id FOR UPDATE`;
      // Wrapped: returned bare, the transaction would wait for the statement before committing.
      return { running };
    },
    { timeout: 20_000 },
  );
  return { outcome: await settlement.running, blocked };
}
