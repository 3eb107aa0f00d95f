// An RCS batch with SMS fallback end to end: the workers send RBM agent messages to the RBM simulator, which
// pushes signed DELIVERED / READ events to the API's webhook (stored, then applied by the workers); numbers the
// simulator says are not RCS-capable fall back to SMS over the customer's SMS route (the SMSC simulator), each
// once. Billing stays exact: RCS recipients pay the RCS price, fallen-back ones the SMS price, the rest refunded.
import type { AddressInfo } from "node:net";
import { encryptSecrets } from "@switchboard/channels";
import {
  type RbmSimulator,
  type SimulatorSubmit,
  type SmscSimulator,
  startRbmSimulator,
  startSmscSimulator,
} from "@switchboard/channels/simulators";
import { BatchStatus, countSegments, ProductCode, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../apps/api/src/app";
import { DEFAULT_TUNING } from "../src/index";
import {
  createCustomer,
  createPendingBatch,
  createSmppChannel,
  demoTenant,
  type Harness,
  startHarness,
  TEST_SECRET_KEY,
  TEST_TUNING,
  testConfig,
  testPrisma,
  uniqueName,
  waitFor,
  waitSettled,
} from "./helpers";

let prisma: PrismaClient;
let h: Harness;
let rbm: RbmSimulator;
let smsc: SmscSimulator;
let api: Awaited<ReturnType<typeof buildApp>>;
let apiRedis: Redis;
let rcsChannelId: number;
let smsChannelId: number;
const smsSubmits: SimulatorSubmit[] = [];
const clientToken = "rbm-test-client-token";

beforeAll(async () => {
  prisma = testPrisma();
  // Content's fallback windows are minutes long; here a minute lasts 1.2 s.
  // Retries as the product has them (3 rounds within a chunk run, 5 runs 2 s apart doubling; the tests' 1 round
  // and 3 runs 100 ms apart elsewhere): the 5,000-recipient case runs a 429 storm and 2 % 5xx, which spent the
  // tests' budget in 4 s on a loaded machine and failed the batch as "channel still refusing" (CI, intermittent).
  h = await startHarness({
    tuning: {
      fallbackWindowScale: 0.02,
      sendRetries: DEFAULT_TUNING.sendRetries,
      retries: {
        ...DEFAULT_TUNING.retries,
        ...TEST_TUNING.retries,
        dispatchChunk: DEFAULT_TUNING.retries.dispatchChunk,
      },
    },
  });
  const config = testConfig(undefined, h.deps.redisPrefix);
  apiRedis = new Redis(config.REDIS_URL);
  api = await buildApp({ config: { ...config, LOG_LEVEL: "silent" }, prisma, redis: apiRedis });
  await api.listen({ host: "127.0.0.1", port: 0 });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;

  smsc = await startSmscSimulator({ onSubmit: (s) => smsSubmits.push(s) });
  smsChannelId = await createSmppChannel(prisma, { port: smsc.port });
  rbm = await startRbmSimulator({
    agentId: "rbm-test-agent",
    clientToken,
    deliveryDelayMs: 5,
    readShare: 0.5,
    readDelayMs: 5,
    duplicateShare: 0.2,
    reorderShare: 0.3,
  });
  const { tenantId } = await demoTenant(prisma);
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: uniqueName("rbm"),
      kind: "rcs",
      productCode: ProductCode.RCS,
      config: { baseUrl: rbm.url, agentId: rbm.agentId, tokenUrl: rbm.tokenUrl, capabilityCheck: "batch" },
      secrets: encryptSecrets(TEST_SECRET_KEY, tenantId, {
        serviceAccountKey: rbm.serviceAccountKey,
        webhookClientToken: clientToken,
      }),
      throughput: 1_000,
    },
  });
  rcsChannelId = channel.id;
  rbm.setOptions({ webhookUrl: `${apiUrl}/webhooks/rcs/${rcsChannelId}` });
});

afterAll(async () => {
  await rbm?.close();
  await smsc?.close();
  await h?.stop();
  await api?.close();
  apiRedis?.disconnect();
  await prisma?.$disconnect();
});

/** Numbers ending 404 are not RCS-capable at the simulator. */
function numbers(count: number, nonCapableEvery: number): string[] {
  const base = 2_000 + Math.floor(Math.random() * 5_000);
  return Array.from({ length: count }, (_, i) =>
    i % nonCapableEvery === nonCapableEvery - 1 ? `+1202${base + i}404` : `+1202${base + i}${100 + (i % 300)}`,
  );
}

const RCS_PRICE = 300n;
const SMS_PRICE = 80n;

describe("RCS batch with SMS fallback", () => {
  it("reaches 22: capable numbers over RCS (delivered, some read), the others once over SMS, billed exactly", async () => {
    const phones = numbers(60, 4); // 15 not RCS-capable
    const customer = await createCustomer(prisma);
    // The customer's SMS route: every country over this run's SMSC (the seed's default points at npm start's).
    const { productId: smsProductId } = await demoTenant(prisma);
    await prisma.channelRoute.create({
      data: {
        tenantId: customer.tenantId,
        userId: customer.id,
        productId: smsProductId,
        countryCode: "*",
        channelId: smsChannelId,
      },
    });
    const { batchId, cost } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
      content: {
        product: ProductCode.RCS,
        body: {
          type: "card",
          title: "Your order shipped",
          description: "Track it any time",
          mediaHeight: "MEDIUM",
          orientation: "VERTICAL",
          suggestions: [{ type: "reply", text: "Thanks", postbackData: "thanks" }],
        },
        fallbackText: "Your order shipped. Track it at example.com",
      },
      prices: () => ({ price: RCS_PRICE, primaryPrice: RCS_PRICE, fallbackPrice: SMS_PRICE }),
    });
    await h.deps.queues.dispatchBatches([batchId]);
    const batch = await waitSettled(prisma, batchId);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    expect(batch.successCount).toBe(60);
    expect(batch.fallbackCount).toBe(15);

    const fallen = phones.filter((p) => p.endsWith("404"));
    const capable = phones.filter((p) => !p.endsWith("404"));
    for (const p of fallen) expect(rbm.sentTo(p)).toBe(0);
    for (const p of capable.slice(0, 10)) expect(rbm.sentTo(p)).toBe(1);
    const smsTo = smsSubmits.map((s) => `+${s.destination}`);
    expect(smsTo.filter((n) => fallen.includes(n)).sort()).toEqual([...fallen].sort());
    expect(smsTo.filter((n) => capable.includes(n))).toEqual([]);
    expect(smsSubmits.every((s) => s.text.startsWith("Your order shipped."))).toBe(true);

    const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
    for (const r of rows) {
      if (r.phone.endsWith("404")) {
        expect(r).toMatchObject({ channelId: smsChannelId, fallbackFrom: rcsChannelId, price: SMS_PRICE });
      } else {
        expect(r).toMatchObject({ channelId: rcsChannelId, fallbackFrom: null, price: RCS_PRICE });
      }
      expect(r.sendResult).toBe(SendResult.SUCCESS);
    }
    // cost - refunded = what the recipients paid
    expect(batch.cost).toBe(cost);
    expect(batch.cost - batch.refunded).toBe(45n * RCS_PRICE + 15n * SMS_PRICE);

    // every RCS delivery (by webhook) and SMS receipt recorded; some read
    const done = await waitFor("every delivery recorded", async () => {
      const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
      return b.deliveredCount === 60 ? b : undefined;
    });
    expect(done.readCount).toBeGreaterThan(5);
    expect(done.readCount).toBeLessThan(45);
    expect(await prisma.channelEvent.count({ where: { channelId: rcsChannelId } })).toBe(0);
  });

  it("personalised: each card is filled with its recipient's values, each fallback SMS too, with its own segments", async () => {
    const phones = numbers(8, 2); // 4 not RCS-capable
    const customer = await createCustomer(prisma);
    const { productId: smsProductId } = await demoTenant(prisma);
    await prisma.channelRoute.create({
      data: {
        tenantId: customer.tenantId,
        userId: customer.id,
        productId: smsProductId,
        countryCode: "*",
        channelId: smsChannelId,
      },
    });
    // A long name still fits a card title (200 characters) but makes the fallback SMS two segments.
    const nameOf = (i: number) => (i % 4 === 3 ? `Long${"o".repeat(150)}${i}` : `Name${i}`);
    const { batchId } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
      content: {
        product: ProductCode.RCS,
        body: {
          type: "card",
          title: "Hello {{name}}",
          description: "Order {{order}}",
          mediaHeight: "MEDIUM",
          orientation: "VERTICAL",
          suggestions: [],
        },
        fallbackText: "Hi {{name}}, order {{order}} shipped",
      },
      prices: () => ({ price: RCS_PRICE, primaryPrice: RCS_PRICE, fallbackPrice: SMS_PRICE }),
    });
    // What the ingest of a personalised file keeps per recipient (materialize.ts).
    for (const [i, phone] of phones.entries()) {
      await prisma.recipient.updateMany({
        where: { batchId: BigInt(batchId), phone },
        data: { vars: { name: nameOf(i), order: `A${i}` } },
      });
    }
    const before = smsSubmits.length;
    await h.deps.queues.dispatchBatches([batchId]);
    expect((await waitSettled(prisma, batchId)).status).toBe(BatchStatus.SEND_FINISHED);

    const cards = new Map(
      rbm
        .lastBodies()
        .filter((m) => phones.includes(m.phone) && m.status === 200)
        .map((m) => [m.phone, (m.body as { contentMessage: { richCard: unknown } }).contentMessage.richCard]),
    );
    const sms = new Map<string, string>();
    for (const s of smsSubmits.slice(before)) {
      const to = `+${s.destination}`;
      sms.set(to, (sms.get(to) ?? "") + s.text);
    }
    const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
    for (const [i, phone] of phones.entries()) {
      const row = rows.find((r) => r.phone === phone)!;
      if (phone.endsWith("404")) {
        const text = `Hi ${nameOf(i)}, order A${i} shipped`;
        expect(sms.get(phone)).toBe(text);
        // Moved to SMS with its own filled text's segments (the long name: two).
        expect(row).toMatchObject({ fallbackFrom: rcsChannelId, segments: countSegments(text).segments });
      } else {
        expect(JSON.stringify(cards.get(phone))).toContain(`"title":"Hello ${nameOf(i)}"`);
        expect(JSON.stringify(cards.get(phone))).toContain(`"description":"Order A${i}"`);
      }
    }
    expect(rows.filter((r) => r.segments === 2).length).toBeGreaterThan(0);
  });

  it("5,000 recipients, 30 % not RCS-capable, under 429s, 5xx and an expired token: each reached once, billed exactly", async () => {
    const count = 5_000;
    // +1 303 xxx 1000..5999: never an ending the SMSC simulator forces an outcome for (0000, 9997-9999).
    const base = String(100 + Math.floor(Math.random() * 900));
    const phones = Array.from({ length: count }, (_, i) => `+1303${base}${1_000 + i}`);
    const customer = await createCustomer(prisma);
    const { productId: smsProductId } = await demoTenant(prisma);
    await prisma.channelRoute.create({
      data: {
        tenantId: customer.tenantId,
        userId: customer.id,
        productId: smsProductId,
        countryCode: "*",
        channelId: smsChannelId,
      },
    });
    // The channel may send 5,000/s; RBM allows 100/s at first (a 429 storm, whatever speed this machine sends
    // at), then 1,500/s (429 beyond), and fails 2 % of creates with 5xx.
    await prisma.channel.update({ where: { id: rcsChannelId }, data: { throughput: 5_000 } });
    rbm.setOptions({ nonCapableShare: 0.3, rps: 100, serverErrorShare: 0.02, readShare: 0.2 });
    const before = rbm.stats();
    const smsBefore = smsSubmits.length;
    try {
      const { batchId, cost } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
        content: {
          product: ProductCode.RCS,
          body: { type: "text", text: "Big sale", suggestions: [] },
          fallbackText: "Big sale (SMS)",
        },
        prices: () => ({ price: RCS_PRICE, primaryPrice: RCS_PRICE, fallbackPrice: SMS_PRICE }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      await waitFor("RBM to refuse sends with 429", async () =>
        rbm.stats().throttled > before.throttled ? true : undefined,
      );
      rbm.setOptions({ rps: 1_500 });
      // Mid-batch, every token RBM issued stops working: the adapter must take a new one and go on.
      await waitFor("a first share sent", async () => {
        const n = await prisma.recipient.count({ where: { batchId: BigInt(batchId), sendResult: SendResult.SUCCESS } });
        return n >= 500 ? n : undefined;
      });
      rbm.expireTokens();
      const batch = await waitSettled(prisma, batchId, 120_000);
      expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
      const after = rbm.stats();
      expect(after.throttled - before.throttled).toBeGreaterThan(0);
      expect(after.serverErrors - before.serverErrors).toBeGreaterThan(0);
      expect(after.tokensIssued - before.tokensIssued).toBeGreaterThanOrEqual(1);

      const rows = await prisma.recipient.findMany({
        where: { batchId: BigInt(batchId) },
        select: { phone: true, sendResult: true, fallbackFrom: true, price: true },
      });
      const fellBack = rows.filter((r) => r.fallbackFrom !== null);
      expect(fellBack.length).toBeGreaterThan(count * 0.25);
      expect(fellBack.length).toBeLessThan(count * 0.35);
      expect(batch.fallbackCount).toBe(fellBack.length);
      // every recipient sent once, over exactly one channel
      const notSent = await prisma.recipient.groupBy({
        by: ["sendResult", "errorCode", "channelId"],
        where: { batchId: BigInt(batchId), sendResult: { not: SendResult.SUCCESS } },
        _count: { _all: true },
      });
      expect(notSent).toEqual([]);
      const smsTo = new Map<string, number>();
      for (const m of smsSubmits.slice(smsBefore))
        smsTo.set(`+${m.destination}`, (smsTo.get(`+${m.destination}`) ?? 0) + 1);
      for (const r of rows) {
        if (r.fallbackFrom !== null) {
          expect(smsTo.get(r.phone)).toBe(1);
          expect(rbm.sentTo(r.phone)).toBe(0);
        } else {
          expect(smsTo.get(r.phone)).toBeUndefined();
          expect(rbm.sentTo(r.phone)).toBe(1);
        }
      }
      const rcs = BigInt(count - fellBack.length);
      expect(batch.cost).toBe(cost);
      expect(batch.cost - batch.refunded).toBe(rcs * RCS_PRICE + BigInt(fellBack.length) * SMS_PRICE);
      // every delivery recorded (RCS by signed webhook, SMS by receipt)
      await waitFor(
        "every delivery recorded",
        async () => {
          const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
          return b.deliveredCount === count ? b : undefined;
        },
        60_000,
      );
    } finally {
      rbm.setOptions({ nonCapableShare: 0, rps: 0, serverErrorShare: 0, readShare: 0.5 });
      await prisma.channel.update({ where: { id: rcsChannelId }, data: { throughput: 1_000 } });
    }
  }, 180_000);

  it("timed fallback: RCS not delivered within the window is revoked, then sent once as SMS; the batch waits", async () => {
    const phones = numbers(30, 1000); // all RCS-capable
    const offline = phones.slice(5, 13); // accepted by RBM, never delivered
    for (const p of offline) rbm.setOffline(p, true);
    const revokedBefore = rbm.stats().revoked;
    try {
      const customer = await createCustomer(prisma);
      const { productId: smsProductId } = await demoTenant(prisma);
      await prisma.channelRoute.create({
        data: {
          tenantId: customer.tenantId,
          userId: customer.id,
          productId: smsProductId,
          countryCode: "*",
          channelId: smsChannelId,
        },
      });
      const { batchId, cost } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
        content: {
          product: ProductCode.RCS,
          body: { type: "text", text: "Your table is ready", suggestions: [] },
          fallbackText: "Your table is ready (SMS)",
          fallbackAfterSeconds: 60,
        },
        prices: () => ({ price: RCS_PRICE, primaryPrice: RCS_PRICE, fallbackPrice: SMS_PRICE }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      const settled = await waitSettled(prisma, batchId);
      expect(settled.status).toBe(BatchStatus.SEND_FINISHED);
      expect(rbm.stats().revoked - revokedBefore).toBe(offline.length);
      // Deliveries are applied from stored webhook events, possibly after the settlement.
      const batch = await waitFor("every delivery recorded", async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.deliveredCount === phones.length ? b : undefined;
      });
      const smsTo = smsSubmits.filter((m) => m.text === "Your table is ready (SMS)").map((m) => `+${m.destination}`);
      expect(smsTo.sort()).toEqual([...offline].sort());
      const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
      for (const r of rows) {
        expect(r.sendResult).toBe(SendResult.SUCCESS);
        if (offline.includes(r.phone))
          expect(r).toMatchObject({ channelId: smsChannelId, fallbackFrom: rcsChannelId, price: SMS_PRICE });
        else
          expect(r).toMatchObject({ channelId: rcsChannelId, fallbackFrom: null, price: RCS_PRICE, receiveResult: 1 });
      }
      expect(batch.successCount).toBe(30);
      expect(batch.sentCount).toBe(30);
      expect(batch.fallbackCount).toBe(offline.length);
      expect(batch.cost).toBe(cost);
      expect(batch.cost - batch.refunded).toBe(22n * RCS_PRICE + 8n * SMS_PRICE);
    } finally {
      for (const p of offline) rbm.setOffline(p, false);
    }
  });

  it("timed fallback: once every RCS message is delivered, the batch settles without waiting for its window", async () => {
    // A window of an hour (72 s at the tests' scale, beyond waitSettled's 60 s): only an early settlement passes.
    const phones = numbers(20, 2000);
    const customer = await createCustomer(prisma);
    const { batchId } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
      content: {
        product: ProductCode.RCS,
        body: { type: "text", text: "Your order is on its way", suggestions: [] },
        fallbackText: "Your order is on its way (SMS)",
        fallbackAfterSeconds: 3_600,
      },
      prices: () => ({ price: RCS_PRICE, primaryPrice: RCS_PRICE, fallbackPrice: SMS_PRICE }),
    });
    await h.deps.queues.dispatchBatches([batchId]);
    const settled = await waitSettled(prisma, batchId);
    expect(settled).toMatchObject({ status: BatchStatus.SEND_FINISHED, successCount: 20, deliveredCount: 20 });
    expect(settled.fallbackCount).toBe(0);
    expect(settled.cost - settled.refunded).toBe(20n * RCS_PRICE);
  });

  it("a screening batch asks RBM who is RCS-capable and sends nothing: reachable / not reachable per number", async () => {
    const phones = numbers(1_200, 4); // 300 not RCS-capable; more than one users:batchGet slice
    const customer = await createCustomer(prisma);
    const before = rbm.stats();
    const smsBefore = smsSubmits.length;
    const SCREEN_PRICE = 5n;
    const { batchId, cost } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
      content: { product: ProductCode.RCS, body: { type: "text", text: "never sent", suggestions: [] } },
      prices: () => ({ price: SCREEN_PRICE }),
      taskType: 1,
    });
    await h.deps.queues.dispatchBatches([batchId]);
    const batch = await waitSettled(prisma, batchId);
    expect(batch.status).toBe(BatchStatus.SEND_FINISHED);
    // nothing reached a phone, over RCS or SMS
    const after = rbm.stats();
    expect(after.sent).toBe(before.sent);
    expect(after.notFound).toBe(before.notFound);
    expect(after.batchGets - before.batchGets).toBeGreaterThanOrEqual(3);
    expect(smsSubmits.length).toBe(smsBefore);
    // reachable: receive result 1; not reachable: 2 with UNREACHABLE; both answered, so both paid
    expect(batch).toMatchObject({ successCount: 1_200, deliveredCount: 900, undeliveredCount: 300, failedCount: 0 });
    const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
    for (const r of rows) {
      expect(r.providerMessageId).toBeNull();
      expect(r.receiveResult).toBe(r.phone.endsWith("404") ? 2 : 1);
      if (r.phone.endsWith("404")) expect(r.errorCode).toBe("UNREACHABLE");
    }
    expect(batch.cost - batch.refunded).toBe(cost);
  });

  it("a terminated batch revokes what RBM accepted but did not deliver, and refunds it with the unsent", async () => {
    const phones = numbers(40, 1000); // all RCS-capable
    const offline = phones.slice(0, 10);
    for (const p of offline) rbm.setOffline(p, true);
    rbm.setOptions({ rps: 20 }); // slow enough to stop it half way
    try {
      const customer = await createCustomer(prisma);
      const { batchId, cost } = await createPendingBatch(prisma, customer, rcsChannelId, phones, {
        content: { product: ProductCode.RCS, body: { type: "text", text: "Flash sale", suggestions: [] } },
        prices: () => ({ price: RCS_PRICE }),
      });
      await h.deps.queues.dispatchBatches([batchId]);
      // the offline ones are sent first (lowest ids); once they are accepted, an admin terminates the batch
      await waitFor("the offline numbers accepted", async () => {
        const n = await prisma.recipient.count({
          where: { batchId: BigInt(batchId), phone: { in: offline }, sendResult: SendResult.SUCCESS },
        });
        return n === offline.length ? n : undefined;
      });
      await prisma.messageBatch.update({
        where: { id: BigInt(batchId) },
        data: { status: BatchStatus.SEND_TERMINATED },
      });
      await h.deps.queues.finishBatches([batchId]);
      const batch = await waitSettled(prisma, batchId);
      expect(batch.status).toBe(BatchStatus.SEND_TERMINATED);
      const rows = await prisma.recipient.findMany({ where: { batchId: BigInt(batchId) } });
      const revoked = rows.filter((r) => r.errorCode === "REVOKED");
      expect(revoked.map((r) => r.phone).sort()).toEqual([...offline].sort());
      for (const r of revoked) expect(r.sendResult).toBe(SendResult.TERMINATED);
      // refunded: everything not carried (revoked and never sent)
      const carried = rows.filter((r) => r.sendResult === SendResult.SUCCESS).length;
      expect(carried).toBeLessThan(30);
      expect(batch.cost - batch.refunded).toBe(BigInt(carried) * RCS_PRICE);
      expect(batch.cost).toBe(cost);
    } finally {
      for (const p of offline) rbm.setOffline(p, false);
      rbm.setOptions({ rps: 0 });
    }
  });
});
