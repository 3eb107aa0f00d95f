// The developer API's own resources (issue 18): with a secret key a customer lists its batches, cancels one not
// yet sending (refunded whole), reads a batch's messages and one message by id, its balance, its ledger and its
// prices. Another customer's batch or message answers 404 like a missing one; staff filters are refused; a key
// without the scope a route needs answers 403 and changes nothing. The OpenAPI document lists every webhook event.
import {
  type ApiKeyCreated,
  type BalanceLogList,
  BalanceLogType,
  type BatchList,
  type BatchRow,
  BatchStatus,
  CALLBACK_SIGNATURE_HEADER,
  inboundData,
  type RecipientList,
  SendResult,
  type UserProductPriceList,
  type V1Balance,
  type V1InboundList,
  type V1Message,
  WEBHOOK_EVENTS,
} from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

/** A customer with the API on, some balance, and a key with the given scopes. */
async function developer(scopes: string[] = ["send", "read"]): Promise<Account & { key: string }> {
  const c = await fx.customer(w, "10.00");
  await t.prisma.user.update({ where: { id: c.id }, data: { apiEnabled: true } });
  const created = await post<ApiKeyCreated>(t, "/user/api-keys", c.token, { name: "server", scopes });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { ...c, key: created.body.data.secretKey };
}

const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
const v1Get = <T>(key: string, url: string, query: Record<string, string> = {}) =>
  get<T>(t, url, undefined, query, auth(key));
const v1Post = <T>(key: string, url: string, body: unknown = {}) => post<T>(t, url, undefined, body, auth(key));

async function submit(key: string, numbers: string[], extra: Record<string, unknown> = {}) {
  const res = await v1Post<{ batch: BatchRow }>(key, "/v1/messages", multiple(w, numbers, extra));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.batch;
}

describe("developer API resources", () => {
  it("lists the customer's own batches with filters, and reads their messages and one message by id", async () => {
    const a = await developer();
    const other = await developer();
    const first = await submit(a.key, ["+12025550101", "+12025550102"]);
    const second = await submit(a.key, ["+12025550103"]);
    const theirs = await submit(other.key, ["+12025550104"]);

    // The batch row keeps bounds around its recipients' ids (the recipient lists read only that id range).
    for (const b of [first, second]) {
      const row = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(b.id) } });
      const ids = (await t.prisma.recipient.findMany({ where: { batchId: row.id }, select: { id: true } })).map(
        (r) => r.id,
      );
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id > (row.recipientIdFrom ?? 0n) && id < (row.recipientIdTo ?? 0n))).toBe(true);
    }

    const list = await v1Get<BatchList>(a.key, "/v1/batches");
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((b) => b.id)).toEqual([second.id, first.id]);
    expect(list.body.data.total).toBe(2);
    const byId = await v1Get<BatchList>(a.key, "/v1/batches", { keyword: first.id, pageSize: "1" });
    expect(byId.body.data.list.map((b) => b.id)).toEqual([first.id]);
    const byStatus = await v1Get<BatchList>(a.key, "/v1/batches", { status: String(BatchStatus.SEND_FINISHED) });
    expect(byStatus.body.data.list).toEqual([]);
    // Staff filters are not part of /v1: refused, not silently widened or ignored.
    const staffFilter = await v1Get(a.key, "/v1/batches", { userId: String(other.id) });
    expect(staffFilter.status).toBe(400);

    const messages = await v1Get<RecipientList>(a.key, `/v1/batches/${first.id}/messages`);
    expect(messages.status).toBe(200);
    expect(messages.body.data.total).toBe(2);
    expect(messages.body.data.list.map((m) => [m.phone, m.sendResult, m.channelId])).toEqual([
      ["+12025550101", SendResult.NOT_SENT, null],
      ["+12025550102", SendResult.NOT_SENT, null],
    ]);
    const filtered = await v1Get<RecipientList>(a.key, `/v1/batches/${first.id}/messages`, { phone: "+12025550102" });
    expect(filtered.body.data.list.map((m) => m.phone)).toEqual(["+12025550102"]);

    const id = messages.body.data.list[0]!.id;
    const one = await v1Get<V1Message>(a.key, `/v1/messages/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id, batchId: first.id, phone: "+12025550101", channelId: null });

    // Another customer's batch and message answer like missing ones, in the request's language.
    const theirMessages = await v1Get(a.key, `/v1/batches/${theirs.id}/messages`);
    expect(theirMessages.status).toBe(404);
    const theirMessage = await t.prisma.recipient.findFirstOrThrow({ where: { batchId: BigInt(theirs.id) } });
    const notYours = await v1Get<unknown>(a.key, `/v1/messages/${theirMessage.id}`);
    const missing = await v1Get<unknown>(a.key, "/v1/messages/999999999999");
    expect([notYours.status, missing.status]).toEqual([404, 404]);
    expect(notYours.body).toEqual(missing.body);
    expect(JSON.stringify(notYours.body)).toContain("message");
    expect((await v1Get(a.key, "/v1/messages/abc")).status).toBe(400);
  });

  it("cancels a batch not yet sending and refunds it whole; a sending one answers 409 and changes nothing", async () => {
    const a = await developer();
    const opening = await fx.balance(a.id);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await submit(a.key, ["+12025550111", "+12025550112"], { scheduledAt: later });
    expect(await fx.balance(a.id)).toBeLessThan(opening);

    const cancelled = await v1Post<BatchRow>(a.key, `/v1/batches/${scheduled.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe(BatchStatus.SEND_CANCELLED);
    expect(await fx.balance(a.id)).toBe(opening);
    const again = await v1Post(a.key, `/v1/batches/${scheduled.id}/cancel`);
    expect(again.status).toBe(409);
    expect(await fx.balance(a.id)).toBe(opening);

    const sending = await submit(a.key, ["+12025550113"]);
    await fx.setStatus(sending.id, BatchStatus.SENDING);
    const refused = await v1Post(a.key, `/v1/batches/${sending.id}/cancel`);
    expect(refused.status).toBe(409);
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(sending.id) } })).status).toBe(
      BatchStatus.SENDING,
    );

    // Another customer cannot cancel it: 404, nothing changes.
    const b = await developer();
    const mine = await submit(a.key, ["+12025550114"]);
    expect((await v1Post(b.key, `/v1/batches/${mine.id}/cancel`)).status).toBe(404);
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(mine.id) } })).status).toBe(
      BatchStatus.PENDING_SEND,
    );
    await fx.expectLedgersReplay();
  });

  it("answers the customer's balance, its ledger and its prices", async () => {
    const a = await developer();
    const balance = await v1Get<V1Balance>(a.key, "/v1/balance");
    expect(balance.status).toBe(200);
    expect(balance.body.data).toMatchObject({ balance: "10.0000" });
    expect(typeof balance.body.data.currency).toBe("string");

    const batch = await submit(a.key, ["+12025550121"]);
    const logs = await v1Get<BalanceLogList>(a.key, "/v1/balance/logs");
    expect(logs.status).toBe(200);
    expect(logs.body.data.list.every((l) => l.userId === a.id)).toBe(true);
    const consume = logs.body.data.list.find((l) => l.type === BalanceLogType.CONSUME);
    expect(consume).toMatchObject({ batchId: batch.id, amount: `-${batch.cost}` });
    expect((await v1Get<V1Balance>(a.key, "/v1/balance")).body.data.balance).toBe(consume!.balanceAfter);
    expect((await v1Get(a.key, "/v1/balance/logs", { agentId: "1" })).status).toBe(400);

    const prices = await v1Get<UserProductPriceList>(a.key, "/v1/prices");
    expect(prices.status).toBe(200);
    expect(prices.body.data.list.some((p) => p.productId === w.productId && p.countryCode === "US")).toBe(true);
  });

  it("lists what users wrote back to the customer, newest first, as the inbound webhook posts it", async () => {
    const a = await developer();
    const other = await developer();
    const batch = await submit(a.key, ["+12025550141", "+12025550142"]);
    const theirs = await submit(other.key, ["+12025550143"]);
    const reply = (userId: number, batchId: string, phone: string, text: string, at: number) =>
      t.prisma.inboundMessage.create({
        data: {
          tenantId: w.tenantId,
          userId,
          batchId: BigInt(batchId),
          channelId: w.channelId,
          providerMessageId: `in-${batchId}-${phone}-${at}`,
          phone,
          text,
          receivedAt: new Date(Date.UTC(2026, 10, 20, 10, 0, at)),
        },
      });
    await reply(a.id, batch.id, "+12025550141", "yes", 1);
    await reply(a.id, batch.id, "+12025550142", "STOP", 2);
    await reply(other.id, theirs.id, "+12025550143", "not yours", 3);

    const all = await v1Get<V1InboundList>(a.key, "/v1/inbound");
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((m) => [m.from, m.text, m.batchId])).toEqual([
      ["+12025550142", "STOP", batch.id],
      ["+12025550141", "yes", batch.id],
    ]);
    // The same shape as the inbound webhook's data (one vocabulary for both).
    for (const m of all.body.data.list) expect(inboundData.parse(m)).toEqual(m);
    const one = await v1Get<V1InboundList>(a.key, "/v1/inbound", { phone: "12025550141" });
    expect(one.body.data.list.map((m) => m.text)).toEqual(["yes"]);
    const ofTheirBatch = await v1Get<V1InboundList>(a.key, "/v1/inbound", { batchId: theirs.id });
    expect(ofTheirBatch.body.data).toEqual({ list: [], total: 0, nextCursor: null });
    const before = await v1Get<V1InboundList>(a.key, "/v1/inbound", { to: "2026-11-20T10:00:01.500Z" });
    expect(before.body.data.list.map((m) => m.text)).toEqual(["yes"]);
    expect((await v1Get(a.key, "/v1/inbound", { phone: "abc" })).status).toBe(400);
  });

  it("pages every list by cursor: no row twice or missed while new rows arrive, and a bad cursor answers 400", async () => {
    const a = await developer();
    type Page = { list: Array<{ id: string }>; total: number; nextCursor: string | null };
    /** Every row of a list, page after page by cursor (sends a new batch after the first page when asked). */
    const walk = async (url: string, query: Record<string, string>, between?: () => Promise<unknown>) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query_: Record<string, string> = { ...query, pageSize: "2", ...(cursor ? { cursor } : {}) };
        const page: Page = (await v1Get<Page>(a.key, url, query_)).body.data;
        ids.push(...page.list.map((r) => r.id));
        cursor = page.nextCursor;
        if (pages++ === 0) await between?.();
      } while (cursor !== null && pages < 20);
      return ids;
    };
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await submit(a.key, [`+1202555016${i}`, `+1202555017${i}`]));
    const newestFirst = sent.map((b) => b.id).reverse();
    // A batch sent while the developer walks the list lands at its top: by page number the walk would see a row
    // twice; by cursor it goes on after the row it stopped at.
    expect(await walk("/v1/batches", {}, () => submit(a.key, ["+12025550169"]))).toEqual(newestFirst);

    // A batch's messages in their order, the ledger newest first: the same rows as one big page.
    const messages = await walk(`/v1/batches/${sent[0]!.id}/messages`, {});
    const whole = await v1Get<Page>(a.key, `/v1/batches/${sent[0]!.id}/messages`, { pageSize: "200" });
    expect(messages).toEqual(whole.body.data.list.map((r) => r.id));
    expect(messages).toHaveLength(2);
    const ledger = await walk("/v1/balance/logs", {});
    const ledgerWhole = await v1Get<Page>(a.key, "/v1/balance/logs", { pageSize: "200" });
    expect(ledger).toEqual(ledgerWhole.body.data.list.map((r) => r.id));
    expect(ledger.length).toBe(ledgerWhole.body.data.total);
    // Filters hold across pages: the batches created from the second one on.
    const since = (await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(sent[1]!.id) } })).createdAt;
    const recent = await walk("/v1/batches", { from: since.toISOString() });
    expect(recent.slice(1)).toEqual(newestFirst.slice(0, 4));

    // Inbound messages are ordered by when the user wrote, ties broken by id: three at the same instant.
    const at = new Date(Date.UTC(2026, 10, 21, 9, 0, 0));
    for (const [i, phone] of ["+12025550160", "+12025550170", "+12025550161"].entries()) {
      await t.prisma.inboundMessage.create({
        data: {
          tenantId: w.tenantId,
          userId: a.id,
          batchId: BigInt(sent[i]!.id),
          channelId: w.channelId,
          providerMessageId: `cursor-${a.id}-${i}`,
          phone,
          text: `reply ${i}`,
          receivedAt: i === 2 ? new Date(at.getTime() - 1000) : at,
        },
      });
    }
    type Inbound = { list: Array<{ text: string }>; nextCursor: string | null };
    const texts: string[] = [];
    let cursor: string | null = null;
    do {
      const query_: Record<string, string> = { pageSize: "1", ...(cursor ? { cursor } : {}) };
      const page: Inbound = (await v1Get<Inbound>(a.key, "/v1/inbound", query_)).body.data;
      texts.push(...page.list.map((m) => m.text));
      cursor = page.nextCursor;
    } while (cursor !== null && texts.length < 10);
    expect(texts).toEqual(["reply 1", "reply 0", "reply 2"]);

    // A cursor that is not one of ours, or a cursor with a page number, is refused in the caller's language.
    const bad = await v1Get(a.key, "/v1/batches", { cursor: "bm90LWEtY3Vyc29y" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("nextCursor");
    const malformed = await v1Get(a.key, "/v1/batches", { cursor: "not a cursor!" });
    expect(malformed.status).toBe(400);
    const first = await v1Get<Page>(a.key, "/v1/batches", { pageSize: "2" });
    const both = await v1Get(a.key, "/v1/batches", { page: "2", cursor: first.body.data.nextCursor as string });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain("page");
    const zh = await get(t, "/v1/batches", undefined, { cursor: "bm90LWEtY3Vyc29y" }, { ...auth(a.key), lang: "zh" });
    expect(JSON.stringify(zh.body)).toContain("cursor 无效");
  });

  it("needs the read scope for reads and the send scope to cancel", async () => {
    const sendOnly = await developer(["send"]);
    const readOnly = await developer(["read"]);
    expect((await v1Get(sendOnly.key, "/v1/batches")).status).toBe(403);
    expect((await v1Get(sendOnly.key, "/v1/balance")).status).toBe(403);
    const batch = await submit(sendOnly.key, ["+12025550131"]);
    const fromReader = await developer(["read"]);
    expect((await v1Post(readOnly.key, `/v1/batches/${batch.id}/cancel`)).status).toBe(403);
    expect((await v1Get(fromReader.key, "/v1/balance")).status).toBe(200);
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batch.id) } })).status).toBe(
      BatchStatus.PENDING_SEND,
    );
  });
});

describe("the webhook catalogue", () => {
  it("lists every event the platform posts in the OpenAPI document's webhooks, with its signed body's schema", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: JsonSchema }> } } }>;
    };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    for (const event of WEBHOOK_EVENTS) {
      const post = doc.webhooks[event]!.post;
      expect(JSON.stringify(post)).toContain(CALLBACK_SIGNATURE_HEADER);
      const schema = post.requestBody.content["application/json"]!.schema;
      expect(schema.required).toEqual(expect.arrayContaining(["event", "eventId", "createdAt", "data"]));
      expect(schema.properties?.event).toMatchObject({ const: event });
    }
    const report = doc.webhooks.delivery_report!.post.requestBody.content["application/json"]!.schema;
    expect(JSON.stringify(report.properties?.data)).toContain("receiveResult");
  });

  it("declares the lang header on every /v1 operation and Idempotency-Key where a batch is created", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/docs/json" })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
    };
    const headers = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
    const v1 = Object.entries(doc.paths).filter(([path]) => path.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThan(10);
    for (const [path, item] of v1)
      for (const method of Object.keys(item)) expect(headers(path, method)).toContain("lang");
    expect(headers("/v1/messages", "post")).toContain("Idempotency-Key");
    expect(headers("/v1/messages/file", "post")).toContain("Idempotency-Key");
    expect(headers("/v1/balance", "get")).not.toContain("Idempotency-Key");
    // Only /v1: the web app's routes are not the SDK's.
    expect(headers("/user/info", "get")).toEqual([]);
  });
});

interface JsonSchema {
  required?: string[];
  properties?: Record<string, unknown>;
}
