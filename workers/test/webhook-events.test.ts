// Every event of the webhook catalogue (issue 18), fired through the real API and workers to a local receiver: a
// batch's status changes (review passed and rejected by staff, a new send time and a cancel by the developer API,
// sending and finished by the workers, terminated by staff, failed when every submit is refused), delivery reports,
// RCS messages handed to SMS (the RBM simulator's non-capable numbers), an SMS reply and a STOP reply that opts its
// number out (the SMSC simulator's mobile-originated messages). Each request's signature is checked with the
// customer's key, and each body against the schema the OpenAPI document publishes for its event (JSON Schema
// 2020-12, as a customer's validator reads it), not only against our own zod schema.
import type { AddressInfo } from "node:net";
import { encryptSecrets } from "@switchboard/channels";
import {
  type RbmSimulator,
  type SmscSimulator,
  startRbmSimulator,
  startSmscSimulator,
} from "@switchboard/channels/simulators";
import {
  BATCH_STATUS_CHANGES,
  BatchStatus,
  OptOutSource,
  ProductCode,
  WEBHOOK_EVENTS,
  type WebhookBody,
} from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { batchStatusCallbacks } from "@switchboard/domain/callback-jobs";
import { secretKeyHash, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../apps/api/src/app";
import { signIn } from "../../apps/api/test/helpers";
import { ingestBatch } from "../src/jobs/ingest-batch";
import {
  type Customer,
  callbackReceiver,
  createCustomer,
  createPendingBatch,
  createSmppChannel,
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
let smsc: SmscSimulator;
let rbm: RbmSimulator;
let api: Awaited<ReturnType<typeof buildApp>>;
let apiRedis: Redis;
let smsChannelId: number;
let rcsChannelId: number;
const clientToken = "rbm-webhook-events-token";

beforeAll(async () => {
  prisma = testPrisma();
  h = await startHarness();
  const config = testConfig(undefined, h.deps.redisPrefix);
  apiRedis = new Redis(config.REDIS_URL);
  api = await buildApp({ config: { ...config, LOG_LEVEL: "silent" }, prisma, redis: apiRedis });
  await api.listen({ host: "127.0.0.1", port: 0 });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;

  smsc = await startSmscSimulator({ systemId: "sb_test" });
  smsChannelId = await createSmppChannel(prisma, { port: smsc.port });
  rbm = await startRbmSimulator({ agentId: "rbm-events-agent", clientToken, deliveryDelayMs: 5 });
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

/** The webhook schemas as the OpenAPI document publishes them, compiled by a JSON Schema 2020-12 validator. */
async function documentedSchemas() {
  const res = await api.inject({ method: "GET", url: "/docs/json" });
  expect(res.statusCode).toBe(200);
  const doc = res.json() as {
    webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: object }> } } }>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return new Map(
    WEBHOOK_EVENTS.map((event) => {
      const schema = doc.webhooks[event]?.post.requestBody.content["application/json"]?.schema;
      expect(schema, `the document's schema of ${event}`).toBeDefined();
      return [event, ajv.compile(schema as object)] as const;
    }),
  );
}

/** A customer with a notify URL, the API on and a key with every scope; its callbacks are signed with that key. */
async function developer(notifyUrl: string) {
  const key = `sk_${uniqueName("events")}`;
  const customer = await createCustomer(prisma, { notifyUrl, secretKeyHash: secretKeyHash(key) });
  await prisma.user.update({ where: { id: customer.id }, data: { apiEnabled: true } });
  // The customer's default key (written from users.secretKeyHash), with every scope.
  await prisma.apiKey.upsert({
    where: { hash: secretKeyHash(key) },
    update: { scopes: ["send", "read", "manage"] },
    create: {
      tenantId: customer.tenantId,
      userId: customer.id,
      name: "default",
      prefix: key.slice(0, 10),
      hash: secretKeyHash(key),
      scopes: ["send", "read", "manage"],
    },
  });
  // The RCS batch's SMS fallback goes over this run's SMSC.
  const { productId } = await demoTenant(prisma);
  await prisma.channelRoute.create({
    data: { tenantId: customer.tenantId, userId: customer.id, productId, countryCode: "*", channelId: smsChannelId },
  });
  return { customer, key, keyHash: secretKeyHash(key) };
}

async function call(method: "POST", url: string, auth: string, body: Record<string, unknown>) {
  const res = await api.inject({
    method,
    url,
    headers: { authorization: `Bearer ${auth}`, lang: "en" },
    payload: body,
  });
  expect(res.json().code, `${url}: ${res.body}`).toBe(0);
}

const smsBatch = (c: Customer, phones: string[], opts: { status?: number; scheduledAt?: Date } = {}) =>
  createPendingBatch(prisma, c, smsChannelId, phones, opts);

describe("the webhook catalogue, end to end", () => {
  it("posts every event type, each signed and each body valid against the OpenAPI document's schema", async () => {
    const validators = await documentedSchemas();
    const receiver = await callbackReceiver();
    try {
      const { customer, key, keyHash } = await developer(receiver.url);
      const staff = await signIn(api, "staff", "admin", "Admin12345");

      // review passed (11 -> 20), then the workers send it: sending, delivery reports, finished, batch_finished
      const phones = phoneNumbers(4);
      const passed = await smsBatch(customer, phones, { status: BatchStatus.UNDER_REVIEW });
      await call("POST", "/batch/review/pass", staff, { id: passed.batchId });
      // review rejected (11 -> 13), with the reviewer's reason
      const rejected = await smsBatch(customer, phoneNumbers(2), { status: BatchStatus.UNDER_REVIEW });
      await call("POST", "/batch/review/reject", staff, { id: rejected.batchId, reason: "Not for this audience" });
      // a new send time (20 -> 20), then cancelled (20 -> 29), both by the developer API
      const later = await smsBatch(customer, phoneNumbers(2), { scheduledAt: new Date(Date.now() + 86_400_000) });
      const newTime = new Date(Date.now() + 2 * 86_400_000).toISOString();
      await call("POST", `/v1/batches/${later.batchId}/schedule`, key, { scheduledAt: newTime });
      await call("POST", `/v1/batches/${later.batchId}/cancel`, key, {});
      // terminated by staff while sending (21 -> 23)
      const stopped = await smsBatch(customer, phoneNumbers(3), { status: BatchStatus.SENDING });
      await call("POST", "/batch/terminate", staff, { id: stopped.batchId, reason: "Wrong list" });
      // failed: the SMSC refuses every number (21 -> 24)
      const refused = await smsBatch(customer, phoneNumbers(2, { every: 1, ending: "0000" }));
      await h.deps.queues.dispatchBatches([refused.batchId]);
      // RCS with a fallback text: the non-capable number (ending 404) is handed to SMS
      const rcsPhones = ["+12025550301", `+1202${1_000 + Math.floor(Math.random() * 8_000)}404`];
      const rcs = await createPendingBatch(prisma, customer, rcsChannelId, rcsPhones, {
        content: {
          product: ProductCode.RCS,
          body: { type: "text", text: "Your parcel is out", suggestions: [] },
          fallbackText: "Parcel out",
        },
        prices: () => ({ price: 300n, primaryPrice: 300n, fallbackPrice: 80n }),
      });
      await h.deps.queues.dispatchBatches([rcs.batchId]);

      expect((await waitSettled(prisma, passed.batchId)).status).toBe(BatchStatus.SEND_FINISHED);
      expect((await waitSettled(prisma, refused.batchId)).status).toBe(BatchStatus.SEND_FAILED);
      expect((await waitSettled(prisma, stopped.batchId)).status).toBe(BatchStatus.SEND_TERMINATED);
      expect((await waitSettled(prisma, rcs.batchId)).status).toBe(BatchStatus.SEND_FINISHED);

      // a reply, and a STOP reply that puts its number on the customer's list
      const [replier, stopper] = [phones[0] as string, phones[1] as string];
      smsc.sendMo({ systemId: "sb_test", from: replier, to: "Switchboard", text: "Thanks!" });
      smsc.sendMo({ systemId: "sb_test", from: stopper, to: "Switchboard", text: "STOP" });

      const events = await waitFor(
        "every event type and every batch status change",
        async () => {
          const got = receiver.requests.map((r) => r.body as WebhookBody);
          const kinds = new Set(got.map((b) => b.event));
          const changes = new Set(got.flatMap((b) => (b.event === "batch_status" ? [b.data.change] : [])));
          const done =
            WEBHOOK_EVENTS.every((e) => kinds.has(e)) &&
            BATCH_STATUS_CHANGES.every((c) => changes.has(c)) &&
            got.some((b) => b.event === "inbound" && b.data.text === "STOP");
          return done ? got : undefined;
        },
        60_000,
      );
      expect(receiver.invalid).toEqual([]);
      // The published schemas do check: a body missing its data, or with a change the catalogue does not name, fails.
      const first = events.find((b) => b.event === "batch_status");
      const checkStatus = validators.get("batch_status");
      expect(checkStatus?.({ ...first, data: undefined })).toBe(false);
      expect(checkStatus?.({ ...first, data: { ...first?.data, change: "paused" } })).toBe(false);

      // every request: signed with the customer's key, its body as the published schema says
      const now = Math.floor(Date.now() / 1000);
      for (const r of receiver.requests) {
        expect(verifyCallbackSignature(r.signature, r.raw, keyHash, now), `${r.event} signature`).toBe(true);
        const validate = validators.get(r.event as (typeof WEBHOOK_EVENTS)[number]);
        expect(validate, r.event).toBeDefined();
        const valid = validate?.(JSON.parse(r.raw));
        expect(valid, `${r.event}: ${JSON.stringify(validate?.errors)}`).toBe(true);
      }

      // each status change as it happened, with its batch and reason
      const status = (batchId: string) =>
        events.flatMap((b) => (b.event === "batch_status" && b.data.batchId === batchId ? [b.data] : []));
      expect(status(passed.batchId).map((d) => [d.change, d.previousStatus, d.status])).toEqual(
        expect.arrayContaining([
          ["review_passed", 11, 20],
          ["sending", 20, 21],
          ["finished", 21, 22],
        ]),
      );
      expect(status(rejected.batchId)).toEqual([
        expect.objectContaining({ change: "review_rejected", status: 13, reason: "Not for this audience" }),
      ]);
      expect(status(later.batchId).map((d) => [d.change, d.status, d.scheduledAt])).toEqual([
        ["scheduled", 20, expect.any(String)],
        ["cancelled", 29, newTime],
      ]);
      expect(status(stopped.batchId)).toEqual([
        expect.objectContaining({ change: "terminated", previousStatus: 21, status: 23, reason: "Wrong list" }),
      ]);
      expect(status(refused.batchId).map((d) => d.change)).toEqual(["sending", "failed"]);
      expect(status(refused.batchId)[1]?.reason).toBeTruthy();
      // batch_finished still comes once per batch at its end
      const finished = events.flatMap((b) => (b.event === "batch_finished" ? [b.data.batchId] : []));
      for (const b of [passed, refused, stopped, rcs])
        expect(finished.filter((id) => id === b.batchId)).toHaveLength(1);

      // the fallback, and its outcome as a delivery report that says so
      const fallback = events.find((b) => b.event === "message_fallback");
      expect(fallback?.event === "message_fallback" && fallback.data.messages.map((m) => m.phone)).toEqual([
        rcsPhones[1],
      ]);
      const fellBack = await waitFor("the fallback's delivery report", async () =>
        receiver.requests
          .map((r) => r.body as WebhookBody)
          .flatMap((b) => (b.event === "delivery_report" ? b.data.reports : []))
          .find((m) => m.phone === rcsPhones[1] && m.fellBackToSms),
      );
      expect(fellBack.recipientId).toBe(
        fallback?.event === "message_fallback" && fallback.data.messages[0]?.recipientId,
      );

      // the opt-out: its number, the reply that made it, and the list holds it
      const optOut = events.find((b) => b.event === "opt_out");
      expect(optOut?.event === "opt_out" && optOut.data).toMatchObject({
        phone: stopper,
        source: "keyword_reply",
        channel: "smpp",
        batchId: passed.batchId,
      });
      const listed = await prisma.optOut.findUniqueOrThrow({
        where: { userId_phone: { userId: customer.id, phone: stopper } },
      });
      expect(listed.source).toBe(OptOutSource.KEYWORD);
      expect(events.filter((b) => b.event === "opt_out")).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it("has no job for a customer without a notify URL: the producers ask batchStatusCallbacks, which leaves it out", async () => {
    const silent = await createCustomer(prisma);
    const receiver = await callbackReceiver();
    try {
      const told = await createCustomer(prisma, { notifyUrl: receiver.url, secretKeyHash: secretKeyHash("sk_x") });
      const [a, b] = [await smsBatch(silent, phoneNumbers(1)), await smsBatch(told, phoneNumbers(1))];
      const at = new Date();
      const jobs = await batchStatusCallbacks(prisma, [
        { batchId: BigInt(a.batchId), from: 20, to: 21, at },
        { batchId: BigInt(b.batchId), from: 20, to: 21, at },
        // not a change the catalogue reports
        { batchId: BigInt(b.batchId), from: 22, to: 22, at },
      ]);
      expect(jobs).toEqual([
        {
          userId: told.id,
          batchId: b.batchId,
          event: "batch_status",
          statusChange: { from: 20, to: 21, at: at.toISOString() },
        },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("tells a file refused while it is read (11 -> 13) as a rejection with the file's reason", async () => {
    const receiver = await callbackReceiver();
    try {
      const { customer } = await developer(receiver.url);
      const batch = await smsBatch(customer, phoneNumbers(2), { status: BatchStatus.UNDER_REVIEW });
      // Its upload is gone from storage: the ingest refuses the batch (batch.ingest_file_missing).
      await prisma.messageBatch.update({
        where: { id: BigInt(batch.batchId) },
        data: { filePath: `missing/${uniqueName("f")}.csv` },
      });
      expect(await ingestBatch(h.deps, { batchId: batch.batchId })).toBe("refused");
      const told = await waitFor("the refusal told", async () =>
        receiver.requests.find((r) => r.event === "batch_status"),
      );
      expect(told.body.data).toMatchObject({
        batchId: batch.batchId,
        change: "review_rejected",
        previousStatus: BatchStatus.UNDER_REVIEW,
        status: BatchStatus.REVIEW_REJECTED,
        reason: expect.any(String),
      });
      expect(receiver.invalid).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
