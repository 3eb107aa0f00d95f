// The TypeScript SDK (@switchboard/sdk, issue 18) against the real API on a loopback port, the way a customer's
// system uses it: a secret key from the developer page, a batch sent, listed and read, a message, the balance, the
// prices; a refusal as the typed error envelope in the request's language; a wrong key 401. And its webhook check
// agrees with the platform's signer both ways, on a real signed request too (the notify URL's test delivery).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type NotifyModResult, type SecretKeyRefreshResult, translate } from "@switchboard/contracts";
import { secretKeyHash, signCallback, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { createSwitchboardClient, signWebhookPayload, verifyWebhookSignature } from "@switchboard/sdk";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  // The real server: the SDK goes through fetch, HTTP and the whole Fastify stack, as in production.
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

/** A customer with the API on and its secret key from the developer page (the `default` key, every scope). */
async function developer(balance = "10.00"): Promise<Account & { key: string }> {
  const c = await fx.customer(w, balance);
  await t.prisma.user.update({ where: { id: c.id }, data: { apiEnabled: true } });
  const res = await post<SecretKeyRefreshResult>(t, "/user/sk/refresh", c.token, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...c, key: res.body.data.secretKey };
}

describe("@switchboard/sdk against the API", () => {
  it("sends a batch, lists and reads it, reads a message, the balance and the prices", async () => {
    const c = await developer();
    const sb = createSwitchboardClient({ baseUrl, apiKey: c.key, lang: "en" });

    const sent = await sb.POST("/v1/messages", {
      body: {
        productId: w.productId,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025550181", "+12025550182", "not a number"],
        content: { product: 3000, text: "Hello from the SDK" },
      },
      headers: { "Idempotency-Key": `sdk-${c.id}` },
    });
    expect(sent.response.status, JSON.stringify(sent.error)).toBe(200);
    const batch = sent.data!.data.batch;
    expect(batch).toMatchObject({ userId: c.id, productId: w.productId, validCount: 2, invalidCount: 1 });
    expectTypeOf(batch.id).toEqualTypeOf<string>();
    // the same Idempotency-Key again: the same batch, said so, never a second charge
    const again = await sb.POST("/v1/messages", {
      body: {
        productId: w.productId,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025550181", "+12025550182", "not a number"],
        content: { product: 3000, text: "Hello from the SDK" },
      },
      headers: { "Idempotency-Key": `sdk-${c.id}` },
    });
    expect(again.data?.data.batch.id).toBe(batch.id);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(await fx.batchCount(c.id)).toBe(1);

    const list = await sb.GET("/v1/batches", { params: { query: { page: 1, pageSize: 10 } } });
    expect(list.data?.data.total).toBe(1);
    expect(list.data?.data.list.map((b) => b.id)).toEqual([batch.id]);
    expect(list.response.headers.get("x-ratelimit-limit")).toBe(String(t.config.DEVELOPER_API_BURST));

    const one = await sb.GET("/v1/batches/{id}", { params: { path: { id: batch.id } } });
    expect(one.data?.data).toMatchObject({ id: batch.id, totalCount: 3, validCount: 2, cost: batch.cost });

    const messages = await sb.GET("/v1/batches/{id}/messages", { params: { path: { id: batch.id } } });
    expect(messages.data?.data.list.map((m) => m.phone)).toEqual(["+12025550181", "+12025550182"]);
    const messageId = messages.data!.data.list[0]!.id;
    const message = await sb.GET("/v1/messages/{id}", { params: { path: { id: messageId } } });
    expect(message.data?.data).toMatchObject({ id: messageId, batchId: batch.id, phone: "+12025550181" });

    const balance = await sb.GET("/v1/balance");
    expect(balance.error).toBeUndefined();
    // 10.00 less the two US messages at the test price (PRICES.US: 80 units, 0.0080 each)
    expect(balance.data?.data.balance).toBe("9.9840");

    const prices = await sb.GET("/v1/prices", { params: { query: { productCode: 3000 } } });
    expect(prices.error).toBeUndefined();
    const byCountry = Object.fromEntries(prices.data!.data.list.map((p) => [p.countryCode, p.unitPrice]));
    expect(byCountry).toMatchObject({ CN: "0.0350", US: "0.0080", GB: "0.0400" });
    await fx.expectLedgersReplay();
  });

  it("answers a refusal as the typed error envelope, its message in the client's language", async () => {
    const c = await developer();
    const en = createSwitchboardClient({ baseUrl, apiKey: c.key, lang: "en" });
    const zh = createSwitchboardClient({ baseUrl, apiKey: c.key, lang: "zh" });
    const path = { params: { path: { id: "999999999999" } } };

    const [inEn, inZh] = [await en.GET("/v1/batches/{id}", path), await zh.GET("/v1/batches/{id}", path)];
    expect([inEn.response.status, inZh.response.status]).toEqual([404, 404]);
    expect(inEn.data).toBeUndefined();
    expect(inEn.error).toMatchObject({ code: 1, data: null });
    expect(inEn.error?.message).toMatch(/not found/i);
    expect(inZh.error?.message).toMatch(/不存在/);
    expectTypeOf(inEn.error!.message).toEqualTypeOf<string>();

    // a 400 from the API's own validation, typed the same way
    const invalid = await en.GET("/v1/messages/{id}", { params: { path: { id: "abc" } } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ code: 1, data: null });

    // 402: more than the balance holds; nothing is created
    const poor = await developer("0.01");
    const short = await createSwitchboardClient({ baseUrl, apiKey: poor.key, lang: "en" }).POST("/v1/messages", {
      body: {
        productId: w.productId,
        taskType: 2,
        submitMode: 2,
        numbers: ["+8613800138001", "+8613800138002"],
        content: { product: 3000, text: "Too dear" },
      },
    });
    expect(short.response.status).toBe(402);
    expect(short.error?.code).toBe(1);
    expect(await fx.batchCount(poor.id)).toBe(0);
  });

  it("answers 401 for a wrong key, in the client's language", async () => {
    const c = await developer();
    for (const lang of ["en", "zh"] as const) {
      const wrong = createSwitchboardClient({ baseUrl, apiKey: `${c.key.slice(0, -2)}xx`, lang });
      const res = await wrong.GET("/v1/balance");
      expect(res.response.status).toBe(401);
      expect(res.data).toBeUndefined();
      expect(res.error?.message).toBe(translate(lang, "batch.api_key_invalid"));
    }
  });
});

describe("verifyWebhookSignature and the platform's signer", () => {
  const body = JSON.stringify({ event: "batch_finished", eventId: "e-1", createdAt: "2027-01-01T00:00:00.000Z" });
  const key = "sk_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZn";

  it("agrees both ways, over a range of times and bodies", async () => {
    for (const [text, ts] of [
      [body, 1_800_000_000],
      ["", 0],
      ['{"text":"回复 ✓ \\u0000"}', 1_700_000_123],
    ] as const) {
      const platform = signCallback(secretKeyHash(key), text, ts);
      expect(await signWebhookPayload(text, key, ts)).toBe(platform);
      const headers = { "x-switchboard-signature": platform };
      expect(await verifyWebhookSignature(text, headers, key, { now: ts * 1000 })).toBe(true);
      expect(await verifyWebhookSignature(`${text}.`, headers, key, { now: ts * 1000 })).toBe(false);
      const sdk = await signWebhookPayload(text, key, ts);
      expect(verifyCallbackSignature(sdk, text, secretKeyHash(key), ts)).toBe(true);
    }
    // the tolerance is the platform's: 300 s either way
    const header = { "x-switchboard-signature": signCallback(secretKeyHash(key), body, 1_800_000_000) };
    for (const delta of [-301, -300, 300, 301]) {
      const now = 1_800_000_000 + delta;
      expect(await verifyWebhookSignature(body, header, key, { now: now * 1000 })).toBe(
        verifyCallbackSignature(header["x-switchboard-signature"], body, secretKeyHash(key), now),
      );
    }
  });

  it("accepts the API's real signed delivery (the notify URL's test) with the customer's key", async () => {
    const c = await developer();
    const verdicts: boolean[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const ok = await verifyWebhookSignature(Buffer.concat(chunks), req.headers, c.key);
        verdicts.push(ok);
        res.writeHead(ok ? 200 : 401).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const res = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: url, test: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(verdicts).toEqual([true]);
      expect(res.body.data.test).toMatchObject({ delivered: true, httpStatus: 200 });
      // after a new key, the old one no longer verifies what the platform signs
      await post(t, "/user/sk/refresh", c.token, {});
      const stale = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: url, test: true });
      expect(stale.body.data.test).toMatchObject({ delivered: false, httpStatus: 401 });
      expect(verdicts).toEqual([true, false]);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
