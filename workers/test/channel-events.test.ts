// Stored provider webhook events applied by the workers (jobs/channel-events.ts): forward-only states, duplicates
// and reordering, reports that overtake the send's answer, batch counters, inbound messages and their callbacks.
import { encryptSecrets } from "@switchboard/channels";
import { BatchStatus, ProductCode, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyChannelEvents, DEFAULT_CHANNEL_EVENT_TUNING } from "../src/jobs/channel-events";
import {
  againstSettlement,
  createCustomer,
  demoTenant,
  type Harness,
  startHarness,
  TEST_SECRET_KEY,
  testPrisma,
  uniqueName,
  waitFor,
} from "./helpers";

let prisma: PrismaClient;
let h: Harness;
let channelId: number;
let tenantId: number;

beforeAll(async () => {
  prisma = testPrisma();
  h = await startHarness();
  ({ tenantId } = await demoTenant(prisma));
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: uniqueName("wa"),
      kind: "whatsapp",
      productCode: ProductCode.WS,
      config: { baseUrl: "https://graph.facebook.com", apiVersion: "v21.0", phoneNumberId: "106540352242922" },
      secrets: encryptSecrets(TEST_SECRET_KEY, tenantId, { accessToken: "t", appSecret: "s", webhookVerifyToken: "v" }),
      throughput: 80,
    },
  });
  channelId = channel.id;
});

afterAll(async () => {
  await h.stop();
  await prisma.$disconnect();
});

/** A WS batch in 21 whose recipients were accepted by the provider under the given wamids. */
async function sentBatch(wamids: string[], opts: { notifyUrl?: string } = {}) {
  const customer = await createCustomer(prisma, opts);
  const { productId } = await demoTenant(prisma);
  const batch = await prisma.messageBatch.create({
    data: {
      tenantId,
      userId: customer.id,
      productId,
      productCode: ProductCode.WS,
      taskType: 2,
      submitMode: 2,
      status: BatchStatus.SENDING,
      content: { product: ProductCode.WS, body: { type: "text", text: "Hi", previewUrl: false } },
      totalCount: wamids.length,
      validCount: wamids.length,
    },
  });
  const sentAt = new Date(Date.now() - 60_000);
  await prisma.recipient.createMany({
    data: wamids.map((wamid, i) => ({
      batchId: batch.id,
      phone: `+1202555${String(1000 + i)}`,
      countryCode: "US",
      channelId,
      price: 100n,
      sendResult: SendResult.SUCCESS,
      providerMessageId: wamid,
      sentAt,
    })),
  });
  return { batchId: batch.id, customer };
}

// One base for the whole file: a base read at each call moved when a second boundary passed mid-test.
const base = Math.floor(Date.now() / 1000) - 30;
const at = (s: number) => String(base + s);

/** A WhatsApp webhook POST carrying one change's value (statuses or messages), as Meta sends it. */
function webhookEnvelope(value: Record<string, unknown>): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              ...value,
            },
          },
        ],
      },
    ],
  });
}

function statusPayload(statuses: Array<{ id: string; status: string; t: number; errors?: unknown[] }>) {
  return webhookEnvelope({
    statuses: statuses.map((s) => ({
      id: s.id,
      status: s.status,
      timestamp: at(s.t),
      recipient_id: "12025551000",
      ...(s.errors ? { errors: s.errors } : {}),
    })),
  });
}

async function store(body: string) {
  await prisma.channelEvent.create({ data: { channelId, body } });
}

/**
 * Applies rounds until none of this channel's events are due. The harness's loop may be running too (both are
 * safe): a round that finds the other holding the rounds' lock applies nothing, so "nothing applied" alone does
 * not mean done; the table says.
 */
async function drain() {
  for (let i = 0; i < 200; i++) {
    const r = await applyChannelEvents(h.deps, DEFAULT_CHANNEL_EVENT_TUNING);
    if (r.applied + r.deferred + r.dropped > 0) continue;
    const due = await prisma.channelEvent.count({ where: { channelId, notBefore: { lte: new Date() } } });
    if (due === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** This channel's deferred events are due now, as once their backoff has passed. */
async function dueNow() {
  await prisma.channelEvent.updateMany({ where: { channelId }, data: { notBefore: new Date() } });
}

/** A user's text reply to one of our messages (context.id), as WhatsApp posts it. */
const replyPayload = (id: string, contextId: string, text = "STOP please") =>
  webhookEnvelope({
    contacts: [{ profile: { name: "Kerry" }, wa_id: "12025551000" }],
    messages: [
      {
        from: "12025551000",
        id,
        timestamp: at(7),
        type: "text",
        text: { body: text },
        context: { from: "15550783881", id: contextId },
      },
    ],
  });

describe("webhook events", () => {
  it("records delivered and read once, whatever the order and however often they come", async () => {
    const ids = [uniqueName("wamid.a"), uniqueName("wamid.b"), uniqueName("wamid.c")];
    const { batchId } = await sentBatch(ids);
    // READ before DELIVERED for a; a duplicate of b's DELIVERED; c only delivered
    await store(statusPayload([{ id: ids[0]!, status: "read", t: 5 }]));
    await store(
      statusPayload([
        { id: ids[0]!, status: "delivered", t: 2 },
        { id: ids[1]!, status: "delivered", t: 3 },
      ]),
    );
    await store(
      statusPayload([
        { id: ids[1]!, status: "delivered", t: 3 },
        { id: ids[2]!, status: "delivered", t: 4 },
      ]),
    );
    await store(statusPayload([{ id: ids[0]!, status: "read", t: 5 }]));
    await drain();
    const rows = await prisma.recipient.findMany({ where: { batchId }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.receiveResult)).toEqual([1, 1, 1]);
    expect(rows[0]!.readAt?.getTime()).toBe(Number(at(5)) * 1000);
    // the earliest delivery time stands, even when it came after the read
    expect(rows[0]!.receivedAt?.getTime()).toBe(Number(at(2)) * 1000);
    expect(rows.map((r) => r.readAt !== null)).toEqual([true, false, false]);
    const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect({ delivered: batch.deliveredCount, undelivered: batch.undeliveredCount, read: batch.readCount }).toEqual({
      delivered: 3,
      undelivered: 0,
      read: 1,
    });
    expect(await prisma.channelEvent.count({ where: { channelId } })).toBe(0);
  });

  it("never moves a state backwards: a failure after delivery changes nothing", async () => {
    const ids = [uniqueName("wamid.d")];
    const { batchId } = await sentBatch(ids);
    await store(statusPayload([{ id: ids[0]!, status: "delivered", t: 1 }]));
    await drain();
    await store(
      statusPayload([
        { id: ids[0]!, status: "failed", t: 9, errors: [{ code: 131026, title: "Message undeliverable" }] },
      ]),
    );
    await drain();
    const [row] = await prisma.recipient.findMany({ where: { batchId } });
    expect(row).toMatchObject({ receiveResult: 1, errorCode: null });
  });

  it("keeps a report that overtook its send's answer, and applies it once the answer is written", async () => {
    const wamid = uniqueName("wamid.e");
    const { batchId } = await sentBatch([uniqueName("wamid.other")]);
    await store(statusPayload([{ id: wamid, status: "delivered", t: 1 }]));
    const first = await applyChannelEvents(h.deps, { ...DEFAULT_CHANNEL_EVENT_TUNING, retryBaseMs: 1 });
    expect(first.deferred + first.applied).toBeGreaterThanOrEqual(0);
    expect(await prisma.channelEvent.count({ where: { channelId } })).toBe(1);
    // the send's answer arrives: the recipient now carries the wamid
    await prisma.recipient.updateMany({ where: { batchId }, data: { providerMessageId: wamid } });
    // Its backoff has passed (the harness's own loop may have deferred it again meanwhile, by its default 0.5-1 s).
    await dueNow();
    await drain();
    const [row] = await prisma.recipient.findMany({ where: { batchId } });
    expect(row?.receiveResult).toBe(1);
    expect(await prisma.channelEvent.count({ where: { channelId } })).toBe(0);
  });

  it("stores a reply once, matched to the batch that reached the number, with an inbound callback", async () => {
    const wamid = uniqueName("wamid.f");
    const { batchId, customer } = await sentBatch([wamid], { notifyUrl: "http://127.0.0.1:9/hook" });
    const inboundId = uniqueName("wamid.in");
    await store(replyPayload(inboundId, wamid));
    await store(replyPayload(inboundId, wamid));
    await drain();
    const stored = await prisma.inboundMessage.findMany({ where: { channelId, providerMessageId: inboundId } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ userId: customer.id, batchId, phone: "+12025551000", text: "STOP please" });
    expect(stored[0]!.inReplyTo).toBe(wamid);
    // Not a keyword (the whole text must be one): the number stays off the opt-out list.
    expect(await prisma.optOut.count({ where: { userId: customer.id } })).toBe(0);
  });

  it("a STOP-style reply puts its sender on the opt-out list of the customer whose batch it answers", async () => {
    const wamid = uniqueName("wamid.f");
    const { customer } = await sentBatch([wamid]);
    await store(replyPayload(uniqueName("wamid.in"), wamid, "  Stop "));
    await drain();
    const entries = await prisma.optOut.findMany({ where: { userId: customer.id } });
    expect(entries.map((e) => [e.phone, e.source])).toEqual([["+12025551000", 3]]);
  });
});

describe("a reply that beats our send's answer", () => {
  it("waits for the message it names to be written, then is stored against its batch (not unmatched)", async () => {
    const written = uniqueName("wamid.p");
    const { batchId } = await sentBatch([written], { notifyUrl: "http://127.0.0.1:9/hook" });
    // The reply names the wamid WhatsApp gave our send, which is still in a write buffer here.
    const pending = uniqueName("wamid.q");
    const inboundId = uniqueName("wamid.in");
    await store(replyPayload(inboundId, pending));
    await applyChannelEvents(h.deps, DEFAULT_CHANNEL_EVENT_TUNING);
    expect(await prisma.inboundMessage.count({ where: { channelId, providerMessageId: inboundId } })).toBe(0);
    expect(await prisma.channelEvent.count({ where: { channelId } })).toBe(1);
    // The send's outcome is written: the reply now finds its message.
    await prisma.recipient.updateMany({ where: { batchId }, data: { providerMessageId: pending } });
    await dueNow();
    await waitFor("the reply stored", async () => {
      await applyChannelEvents(h.deps, DEFAULT_CHANNEL_EVENT_TUNING);
      const m = await prisma.inboundMessage.findFirst({ where: { channelId, providerMessageId: inboundId } });
      return m ?? undefined;
    });
    const stored = await prisma.inboundMessage.findFirstOrThrow({ where: { channelId, providerMessageId: inboundId } });
    expect(stored).toMatchObject({ batchId, inReplyTo: pending });
  });
});

describe("a failed status after acceptance", () => {
  it("turns the send into a failure refunded exactly once, also after the batch was settled", async () => {
    const ids = [uniqueName("wamid.g"), uniqueName("wamid.h")];
    const { batchId, customer } = await sentBatch(ids);
    // settled already (as finish-batch leaves it: everything sent, nothing refunded)
    await prisma.messageBatch.update({
      where: { id: batchId },
      data: { status: BatchStatus.SEND_FINISHED, cost: 200n, successCount: 2, sentCount: 2 },
    });
    const before = await prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
    const failed = statusPayload([
      { id: ids[0]!, status: "failed", t: 3, errors: [{ code: 131026, title: "Message undeliverable" }] },
    ]);
    await store(failed);
    await store(failed);
    await drain();
    const rows = await prisma.recipient.findMany({ where: { batchId }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.sendResult)).toEqual([SendResult.FAILURE, SendResult.SUCCESS]);
    expect(rows[0]!.errorCode).toBe("131026");
    const batch = await prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect({ refunded: batch.refunded, success: batch.successCount, failed: batch.failedCount }).toEqual({
      refunded: 100n,
      success: 1,
      failed: 1,
    });
    const after = await prisma.user.findUniqueOrThrow({ where: { id: customer.id } });
    expect(after.balance - before.balance).toBe(100n);
  });
});

describe("a round's lock order", () => {
  // A round moves the counters of every batch its reports name, over several statements of one transaction; a
  // group of single sends' settlement locks its batches in id order. The round locks its batches in the same
  // order first, or each could hold what the other waits for (PostgreSQL then aborts one). Here a transaction
  // plays the settlement: it holds the lowest batch, waits until the round is blocked, then takes the others.
  it("takes its batches in id order, so a settlement holding the lowest never deadlocks with it", async () => {
    const made = [];
    for (let i = 0; i < 8; i++) {
      const wamid = uniqueName(`wamid.lock${i}`);
      made.push({ wamid, ...(await sentBatch([wamid])) });
    }
    const ids = made.map((m) => m.batchId).sort((a, b) => (a < b ? -1 : 1));
    // Highest first, failures (a statement per batch) and deliveries (one statement for all) mixed.
    await store(
      statusPayload(
        [...made].reverse().map((m, i) => ({
          id: m.wamid,
          status: i % 2 === 0 ? "failed" : "delivered",
          t: 5,
          ...(i % 2 === 0 ? { errors: [{ code: 131026, title: "Message undeliverable" }] } : {}),
        })),
      ),
    );
    // Any statement of the round that touches message_batches counts as the round's.
    expect(await againstSettlement(prisma, ids, "message_batches", drain)).toEqual({ outcome: "done", blocked: true });
    const batches = await prisma.messageBatch.findMany({ where: { id: { in: ids } } });
    expect(batches.reduce((n, b) => n + b.failedCount, 0)).toBe(4);
    expect(batches.reduce((n, b) => n + b.deliveredCount, 0)).toBe(4);
  });
});
