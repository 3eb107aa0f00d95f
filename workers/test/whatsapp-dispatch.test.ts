// A WS batch end to end through the WhatsApp Cloud API simulator: the workers send template messages over the
// WhatsApp channel, the simulator pushes signed status webhooks to the API, which stores them; the workers apply
// them. The batch reaches 22 with every message delivered, some read, and the charge exact.
import type { AddressInfo } from "node:net";
import { encryptSecrets } from "@switchboard/channels";
import { DEMO_TEMPLATES, startWhatsappSimulator, type WhatsappSimulator } from "@switchboard/channels/simulators";
import { type BatchContent, BatchStatus, ProductCode } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../apps/api/src/app";
import {
  callbackReceiver,
  createCustomer,
  createPendingBatch,
  demoTenant,
  type Harness,
  phoneNumbers,
  startHarness,
  TEST_SECRET_KEY,
  testConfig,
  testPrisma,
  uniqueName,
  waitFor,
  waitSettled,
} from "./helpers";

let prisma: PrismaClient;
let h: Harness;
let sim: WhatsappSimulator;
let api: Awaited<ReturnType<typeof buildApp>>;
let apiRedis: Redis;
let channelId: number;

const secrets = { accessToken: "wa-test-token", appSecret: "wa-app-secret", webhookVerifyToken: "wa-verify" };

beforeAll(async () => {
  prisma = testPrisma();
  h = await startHarness();
  // The API's webhook intake, with the same database and Redis prefix as these workers (its wake-ups reach them).
  const config = testConfig(undefined, h.deps.redisPrefix);
  apiRedis = new Redis(config.REDIS_URL);
  api = await buildApp({ config: { ...config, LOG_LEVEL: "silent" }, prisma, redis: apiRedis });
  await api.listen({ host: "127.0.0.1", port: 0 });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;

  sim = await startWhatsappSimulator({
    accessToken: secrets.accessToken,
    appSecret: secrets.appSecret,
    verifyToken: secrets.webhookVerifyToken,
    deliveryDelayMs: 5,
    readShare: 0.5,
    readDelayMs: 5,
    duplicateShare: 0.2,
    reorder: true,
  });
  const { tenantId } = await demoTenant(prisma);
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: uniqueName("wa"),
      kind: "whatsapp",
      productCode: ProductCode.WS,
      config: { baseUrl: sim.url, apiVersion: "v21.0", phoneNumberId: "106540352242922" },
      secrets: encryptSecrets(TEST_SECRET_KEY, tenantId, secrets),
      throughput: 1_000,
    },
  });
  channelId = channel.id;
  sim.setOptions({ webhookUrl: `${apiUrl}/webhooks/whatsapp/${channelId}` });
});

afterAll(async () => {
  await sim?.close();
  await h?.stop();
  await api?.close();
  apiRedis?.disconnect();
  await prisma?.$disconnect();
});

describe("WS batch through the WhatsApp simulator", () => {
  it("a 5,000-recipient template batch reaches 22: each accepted once, delivered by webhook, some read, billed exactly", {
    timeout: 120_000,
  }, async () => {
    const count = 5_000;
    const phones = phoneNumbers(count);
    const customer = await createCustomer(prisma);
    const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phones, {
      content: {
        product: ProductCode.WS,
        body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-1001"], buttons: [] },
      },
      prices: () => ({ price: 300n }),
    });
    expect(cost).toBe(BigInt(count) * 300n);
    await h.deps.queues.dispatchBatches([batchId]);
    const batch = await waitSettled(prisma, batchId, 110_000);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(batch.successCount).toBe(count);
    expect(batch.refunded).toBe(0n);
    expect(batch.cost).toBe(cost);
    for (const phone of phones) expect(sim.acceptedFor(phone)).toBe(1);
    await sim.idle(60_000);
    const delivered = await waitFor(
      "every delivery report applied",
      async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.deliveredCount === count ? b : undefined;
      },
      60_000,
    );
    // Half are read (readShare 0.5): well inside these bounds at 5,000.
    expect(delivered.readCount).toBeGreaterThan(count * 0.4);
    expect(delivered.readCount).toBeLessThan(count * 0.6);
    const read = await prisma.recipient.count({ where: { batchId: BigInt(batchId), readAt: { not: null } } });
    expect(read).toBe(delivered.readCount);
    expect(await prisma.channelEvent.count({ where: { channelId } })).toBe(0);
    // What the customer paid is what the recipients cost, in the ledger too.
    const charged = await prisma.balanceLog.aggregate({ where: { batchId: BigInt(batchId) }, _sum: { amount: true } });
    expect(charged._sum.amount).toBe(-cost);
  });

  it("personalised: each template message carries its recipient's own body parameters", async () => {
    const phones = phoneNumbers(6);
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, channelId, phones, {
      content: {
        product: ProductCode.WS,
        body: {
          type: "template",
          name: "order_update",
          language: "en_US",
          parameters: ["{{name}}", "A-{{order}}"],
          buttons: [],
        },
      },
      prices: () => ({ price: 300n }),
    });
    // What the ingest of a personalised file keeps per recipient (materialize.ts).
    for (const [i, phone] of phones.entries()) {
      await prisma.recipient.updateMany({
        where: { batchId: BigInt(batchId), phone },
        data: { vars: { name: `Ana${i}`, order: String(1000 + i) } },
      });
    }
    await h.deps.queues.dispatchBatches([batchId]);
    expect((await waitSettled(prisma, batchId)).status).toBe(BatchStatus.SEND_FINISHED);
    const sent = new Map(
      sim
        .lastBodies()
        .filter((b) => b.wamid)
        .map((b) => {
          const body = b.body as {
            to: string;
            template: { components: Array<{ type: string; parameters: Array<{ text: string }> }> };
          };
          const params = body.template.components.find((c) => c.type === "body")?.parameters.map((p) => p.text);
          return [body.to.replace(/^\+?/, "+"), params] as const;
        }),
    );
    for (const [i, phone] of phones.entries()) expect(sent.get(phone)).toEqual([`Ana${i}`, `A-${1000 + i}`]);
  });

  it("holds one message per interval to a user across batches, so WhatsApp's pair limit (131056) is never hit", async () => {
    // WhatsApp here allows one message per 250 ms to a user; the workers keep 300 ms (TEST_TUNING) between them.
    sim.setOptions({ pairRateIntervalMs: 250, pairBurst: 1 });
    try {
      const phones = phoneNumbers(6);
      const customer = await createCustomer(prisma);
      const template: BatchContent = {
        product: ProductCode.WS,
        body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-1"], buttons: [] },
      };
      const batches = await Promise.all(
        [1, 2, 3].map(() => createPendingBatch(prisma, customer, channelId, phones, { content: template })),
      );
      const before = sim.stats().pairThrottled;
      await h.deps.queues.dispatchBatches(batches.map((b) => b.batchId));
      for (const b of batches) {
        const done = await waitSettled(prisma, b.batchId);
        expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 6, failedCount: 0 });
      }
      for (const phone of phones) expect(sim.acceptedFor(phone)).toBe(3);
      expect(sim.stats().pairThrottled - before).toBe(0);
    } finally {
      sim.setOptions({ pairRateIntervalMs: 0 });
    }
  });

  it("under a 130429 storm sends slow down and lose nothing; users' replies reach the customer's callback", {
    timeout: 60_000,
  }, async () => {
    // The business number takes 40 msg/s at WhatsApp while the channel would send 1,000/s; every user answers.
    sim.setOptions({ mps: 40, replyShare: 1, replyDelayMs: 20 });
    const receiver = await callbackReceiver();
    const keyHash = secretKeyHash(`sk_${uniqueName("wa")}`);
    try {
      const phones = phoneNumbers(120);
      const customer = await createCustomer(prisma, { notifyUrl: receiver.url, secretKeyHash: keyHash });
      const before = sim.stats().throttled;
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phones, {
        content: {
          product: ProductCode.WS,
          body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-7"], buttons: [] },
        },
        prices: () => ({ price: 300n }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      // Once the storm has been met, it ends: how long it would last against the retries is a matter of the
      // machine's speed, not of what is tested (nothing lost, nothing sent twice, the sends slowed).
      await waitFor("the storm met", async () => (sim.stats().throttled > before ? true : undefined), 30_000, 20);
      sim.setOptions({ mps: 0 });
      const done = await waitSettled(prisma, batchId);
      expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 120, failedCount: 0 });
      expect(done.cost - done.refunded).toBe(cost);
      expect(sim.stats().throttled - before).toBeGreaterThan(0);
      for (const phone of phones) expect(sim.acceptedFor(phone)).toBe(1);

      // Every reply is stored once against its batch and posted to the customer, signed with its key.
      // A callback that took longer than its timeout on a busy machine is posted again (same eventId): what is
      // waited for is every user's reply, not a count of posts.
      const inbound = await waitFor("every reply called back", async () => {
        const got = receiver.requests.filter((r) => r.event === "inbound" && r.answered === 200);
        return new Set(got.map((r) => r.body.data.from)).size >= phones.length ? got : undefined;
      });
      // Each inbound body is as the webhook catalogue describes it (the OpenAPI document's webhooks).
      expect(receiver.invalid).toEqual([]);
      const now = Math.floor(Date.now() / 1000);
      for (const r of inbound) {
        expect(verifyCallbackSignature(r.signature, r.raw, keyHash, now)).toBe(true);
        expect(r.body.data).toMatchObject({ batchId, text: "Thanks!" });
      }
      expect(new Set(inbound.map((r) => r.body.data.from)).size).toBe(phones.length);
      // One event per reply: a post made again carries its event's id.
      expect(new Set(inbound.map((r) => r.body.eventId)).size).toBe(phones.length);
      expect(await prisma.inboundMessage.count({ where: { batchId: BigInt(batchId) } })).toBe(phones.length);
    } finally {
      sim.setOptions({ mps: 0, replyShare: 0 });
      await receiver.close();
    }
  });

  it("a template paused mid-batch stops the batch: the rest are not sent and refunded, the template marked paused", {
    timeout: 60_000,
  }, async () => {
    const { tenantId } = await demoTenant(prisma);
    await prisma.whatsappTemplate.create({
      data: {
        tenantId,
        channelId,
        name: "appointment_reminder",
        language: "en_US",
        category: "UTILITY",
        status: "APPROVED",
        components: [],
        bodyParams: 2,
        headerKind: "TEXT",
        headerParam: true,
        buttonParams: [],
        syncedAt: new Date(),
      },
    });
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(300);
    sim.reset();
    sim.setOptions({ mps: 50 });
    try {
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phones, {
        content: {
          product: ProductCode.WS,
          body: {
            type: "template",
            name: "appointment_reminder",
            language: "en_US",
            parameters: ["May 3", "10:00"],
            header: { type: "text", text: "Dr Chen" },
            buttons: [],
          },
        },
        prices: () => ({ price: 100n }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      await waitFor("some sent", async () => (sim.stats().messagesAccepted >= 40 ? true : undefined), 20_000);
      sim.setOptions({
        templates: DEMO_TEMPLATES.map((d) => (d.name === "appointment_reminder" ? { ...d, status: "PAUSED" } : d)),
      });
      const batch = await waitSettled(prisma, batchId, 30_000);
      const accepted = sim.stats().messagesAccepted;
      const paused = sim.stats().failuresByCode["132015"] ?? 0;
      expect(batch.status).toBe(BatchStatus.SEND_FAILED);
      expect(batch.successCount).toBe(accepted);
      expect(accepted).toBeLessThan(phones.length);
      // Only what was in flight when WhatsApp paused the template met the refusal; the rest never left.
      expect(paused).toBeGreaterThan(0);
      expect(paused).toBeLessThan(20);
      expect(await prisma.recipient.count({ where: { batchId: BigInt(batchId), errorCode: "132015" } })).toBe(paused);
      expect(batch.refunded).toBe(cost - BigInt(accepted) * 100n);
      expect(batch.reason).toContain("template_refused");
      const row = await prisma.whatsappTemplate.findFirstOrThrow({
        where: { channelId, name: "appointment_reminder" },
      });
      expect(row.status).toBe("PAUSED");
    } finally {
      sim.setOptions({ mps: 0, templates: DEMO_TEMPLATES });
      await prisma.whatsappTemplate.deleteMany({ where: { channelId } });
    }
  });

  it("a revoked token pauses the channel instead of failing recipients one by one with 190", async () => {
    const customer = await createCustomer(prisma);
    const phones = phoneNumbers(30);
    sim.revokeToken();
    try {
      const { batchId, cost } = await createPendingBatch(prisma, customer, channelId, phones, {
        content: { product: ProductCode.WS, body: { type: "text", text: "Hello", previewUrl: false } },
        prices: () => ({ price: 100n }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      const batch = await waitSettled(prisma, batchId);
      const channel = await prisma.channel.findUniqueOrThrow({ where: { id: channelId } });
      expect(channel.status).toBe(2);
      // Nobody was charged for the provider's refusal of our credentials: the whole batch is given back.
      expect(batch.status).toBe(BatchStatus.SEND_FAILED);
      expect(batch.refunded).toBe(cost);
      expect(await prisma.recipient.count({ where: { batchId: BigInt(batchId), errorCode: "190" } })).toBe(0);
    } finally {
      sim.setAccessToken(secrets.accessToken);
      await prisma.channel.update({ where: { id: channelId }, data: { status: 1 } });
    }
  });
});
