// The developer API (/v1) and the pre-submit check. The key, IP whitelist, API toggle, frozen account and
// Idempotency-Key rules; 20 parallel requests with one key make one batch and one charge.
import { randomBytes } from "node:crypto";
import {
  AccountStatus,
  ActiveStatus,
  BalanceLogType,
  BatchStatus,
  PRE_REJECTED_SAMPLE_MAX,
  RejectReason,
} from "@switchboard/contracts";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post, smsContent } from "./batch-fixtures";
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
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

/** A customer with a secret key and the API turned on (unless said otherwise). */
async function developer(o: { apiEnabled?: boolean; ipWhitelist?: string[]; balance?: string } = {}) {
  const c = await fx.customer(w, o.balance ?? "10.00");
  const key = `sk_${randomBytes(32).toString("base64url")}`;
  await t.prisma.user.update({
    where: { id: c.id },
    data: { secretKeyHash: secretKeyHash(key), apiEnabled: o.apiEnabled ?? true, ipWhitelist: o.ipWhitelist ?? [] },
  });
  return { ...c, key };
}

type V1Answer = { batch: { id: string; status: number; validCount: number; cost: string } };

function v1(key: string | null, body: unknown, headers: Record<string, string> = {}, ip?: string) {
  return post<V1Answer>(t, "/v1/messages", undefined, body, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(ip ? { ip } : {}),
  });
}

describe("developer API: who may call", () => {
  it("submits with the key in Authorization or X-Api-Key; the batch is marked as from the API", async () => {
    const d = await developer();
    const res = await v1(d.key, multiple(w, ["+12025550123"]));
    expect(res.status).toBe(200);
    expect(res.body.data.batch).toMatchObject({ status: BatchStatus.PENDING_SEND, validCount: 1, cost: "0.0080" });
    const row = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(res.body.data.batch.id) } });
    expect(row.source).toBe(2);
    const alt = await v1(null, multiple(w, ["+12025550123"]), { "x-api-key": d.key });
    expect(alt.status).toBe(200);
    const status = await get<{ id: string; status: number }>(
      t,
      `/v1/batches/${res.body.data.batch.id}`,
      undefined,
      {},
      {
        headers: { "x-api-key": d.key },
      },
    );
    expect(status.body.data).toMatchObject({ id: res.body.data.batch.id, status: BatchStatus.PENDING_SEND });
  });

  it("401 without a key or with an unknown one; a session token is not a key", async () => {
    const d = await developer();
    const none = await v1(null, multiple(w, ["+12025550123"]));
    expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 401 });
    expect(none.body.message).toMatch(/missing secret key/);
    expect((await v1(`sk_${randomBytes(32).toString("base64url")}`, multiple(w, ["+1"]))).status).toBe(401);
    expect((await v1(d.token, multiple(w, ["+12025550123"]))).status).toBe(401);
  });

  it("403 when the API is off, the account frozen, or the caller outside the whitelist", async () => {
    const off = await developer({ apiEnabled: false });
    const r1 = await v1(off.key, multiple(w, ["+12025550123"]));
    expect(r1.status).toBe(403);
    expect(r1.body.message).toMatch(/turned off/);

    const frozen = await developer();
    await t.prisma.user.update({ where: { id: frozen.id }, data: { status: AccountStatus.FROZEN } });
    const r2 = await v1(frozen.key, multiple(w, ["+12025550123"]));
    expect(r2.status).toBe(403);
    expect(r2.body.message).toMatch(/frozen/);

    const listed = await developer({ ipWhitelist: ["10.0.0.0/8", "2001:db8::1"] });
    const r3 = await v1(listed.key, multiple(w, ["+12025550123"]), {}, "192.0.2.7");
    expect(r3.status).toBe(403);
    expect(r3.body.message).toMatch(/192\.0\.2\.7 is not in the IP whitelist/);
    expect((await v1(listed.key, multiple(w, ["+12025550123"]), {}, "10.1.2.3")).status).toBe(200);
    for (const d of [off, frozen, listed])
      expect(await fx.balance(d.id)).toBe(d === listed ? 100_000n - 80n : 100_000n);
  });

  it("another customer's batch answers 404", async () => {
    const a = await developer();
    const b = await developer();
    const made = await v1(a.key, multiple(w, ["+12025550123"]));
    const res = await get(
      t,
      `/v1/batches/${made.body.data.batch.id}`,
      undefined,
      {},
      { headers: { "x-api-key": b.key } },
    );
    expect(res.status).toBe(404);
  });

  it("402 when the balance is short, nothing written", async () => {
    const d = await developer({ balance: "0.0100" });
    const res = await v1(d.key, multiple(w, ["+12025550123", "+12015550123"]));
    expect(res.status).toBe(402);
    expect(await fx.batchCount(d.id)).toBe(0);
  });
});

describe("developer API: Idempotency-Key", () => {
  it("the same key returns the same batch without charging twice; another request under it is 409", async () => {
    const d = await developer();
    const body = multiple(w, ["+12025550123", "+447400123456"]);
    const first = await v1(d.key, body, { "idempotency-key": "order-1001" });
    expect(first.status).toBe(200);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await v1(d.key, { ...body, numbers: [...body.numbers] }, { "idempotency-key": "order-1001" });
    expect(again.status).toBe(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body.data.batch.id).toBe(first.body.data.batch.id);
    expect(await fx.batchCount(d.id)).toBe(1);
    expect(await fx.balance(d.id)).toBe(100_000n - 480n);

    const other = await v1(d.key, multiple(w, ["+12025550123"]), { "idempotency-key": "order-1001" });
    expect(other.status).toBe(409);
    expect(other.body.message).toMatch(/different request/);
    // Keys are per customer: another customer may use the same one.
    const e = await developer();
    expect((await v1(e.key, body, { "idempotency-key": "order-1001" })).status).toBe(200);
    expect((await v1(d.key, body, { "idempotency-key": "bad key with spaces" })).status).toBe(400);
  });

  it("20 parallel requests with one key make one batch and one charge", async () => {
    const d = await developer();
    const body = multiple(w, ["+12025550123", "+12015550123", "+14155552671"]);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => v1(d.key, body, { "idempotency-key": "burst-7" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.batch.id)).size).toBe(1);
    expect(await fx.batchCount(d.id)).toBe(1);
    const consume = await t.prisma.balanceLog.findMany({ where: { userId: d.id, type: BalanceLogType.CONSUME } });
    expect(consume.map((l) => l.amount)).toEqual([-240n]);
    expect(await fx.balance(d.id)).toBe(100_000n - 240n);
  });

  it("a failed request frees its key for a corrected one", async () => {
    const d = await developer({ balance: "0.0100" });
    const body = multiple(w, ["+12025550123", "+12015550123"]);
    expect((await v1(d.key, body, { "idempotency-key": "retry-me" })).status).toBe(402);
    expect((await v1(d.key, multiple(w, ["+12025550123"]), { "idempotency-key": "retry-me" })).status).toBe(200);
  });

  it("file submissions honour the key too", async () => {
    const d = await developer();
    const send = () => {
      const form = multipart({ productId: String(w.productId), taskType: "2", content: JSON.stringify(smsContent()) }, [
        { name: "n.csv", data: Buffer.from("+12025550123\n"), field: "file" },
      ]);
      return t.app.inject({
        method: "POST",
        url: "/v1/messages/file",
        headers: { "x-api-key": d.key, "idempotency-key": "file-1", "content-type": form.contentType },
        payload: form.payload,
      });
    };
    const a = await send();
    const b = await send();
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers["idempotent-replayed"]).toBe("true");
    expect(b.json().data.batch.id).toBe(a.json().data.batch.id);
    expect(await fx.batchCount(d.id)).toBe(1);
  });
});

describe("pre-submit check", () => {
  let c: Account;
  beforeAll(async () => {
    c = await fx.customer(w, "0.0500");
  });

  it("counts, prices per country, the total against the balance; writes nothing", async () => {
    const res = await get<Record<string, unknown>>(t, "/user/submit/pre", c.token, {
      productId: String(w.productId),
      numbers: "+8613800138000,008613800138000,+12025550123,bad,+33612345678",
      content: JSON.stringify(smsContent("x".repeat(200))),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      total: 5,
      valid: 2,
      invalid: 1,
      duplicate: 1,
      notServed: 1,
      segments: 2,
      encoding: "gsm7",
      // (350 + 80) x 2 segments
      totalCost: "0.0860",
      balance: "0.0500",
      sufficient: false,
      authenticationAllowed: true,
      authenticationReason: null,
      reviewRequired: false,
      // the caller's own refused inputs, in the order sent, and why (2 duplicate, 1 invalid)
      rejected: [
        { raw: "008613800138000", reason: 2 },
        { raw: "bad", reason: 1 },
      ],
    });
    expect(res.body.data.countries).toEqual([
      {
        countryCode: "CN",
        count: 1,
        served: true,
        reason: null,
        unitPrice: "0.0350",
        fallbackPrice: null,
        cost: "0.0700",
      },
      {
        countryCode: "FR",
        count: 1,
        served: false,
        reason: "no price is set for this country",
        unitPrice: null,
        fallbackPrice: null,
        cost: "0.0000",
      },
      {
        countryCode: "US",
        count: 1,
        served: true,
        reason: null,
        unitPrice: "0.0080",
        fallbackPrice: null,
        cost: "0.0160",
      },
    ]);
    expect(await fx.batchCount(c.id)).toBe(0);
  });

  it("as POST with a JSON body, and for a file", async () => {
    const res = await post<{ valid: number; sufficient: boolean }>(t, "/user/submit/pre", c.token, {
      productId: w.productId,
      numbers: ["+12025550123"],
    });
    expect(res.body.data).toMatchObject({ valid: 1, sufficient: true });
    const form = multipart({ productCode: "3000" }, [
      { name: "n.csv", data: Buffer.from("phone\n+12025550123\n+447400123456\n"), field: "file" },
    ]);
    const file = await t.app.inject({
      method: "POST",
      url: "/user/submit/pre/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType },
      payload: form.payload,
    });
    expect(file.json().data).toMatchObject({ total: 2, valid: 2, totalCost: "0.0480" });
  });

  it("names at most 50 refused inputs, also of a file", async () => {
    const numbers = [...Array.from({ length: 60 }, (_, i) => `bad${i}`), "+12025550123", " +1 202 555 0123 "];
    const res = await post<{ invalid: number; duplicate: number; rejected: { raw: string; reason: number }[] }>(
      t,
      "/user/submit/pre",
      c.token,
      { productId: w.productId, numbers },
    );
    expect(res.body.data).toMatchObject({ invalid: 60, duplicate: 1 });
    expect(res.body.data.rejected).toHaveLength(PRE_REJECTED_SAMPLE_MAX);
    expect(res.body.data.rejected[0]).toEqual({ raw: "bad0", reason: RejectReason.INVALID });
    expect(res.body.data.rejected.at(-1)).toEqual({ raw: "bad49", reason: RejectReason.INVALID });

    const form = multipart({ productCode: "3000" }, [
      { name: "n.csv", data: Buffer.from("phone\n+12025550123\nnope\n+12025550123\n"), field: "file" },
    ]);
    const file = await t.app.inject({
      method: "POST",
      url: "/user/submit/pre/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType },
      payload: form.payload,
    });
    expect(file.json().data.rejected).toEqual([
      { raw: "nope", reason: RejectReason.INVALID },
      { raw: "+12025550123", reason: RejectReason.DUPLICATE },
    ]);
  });

  it("refuses a product no active channel carries for the customer; the product list says so too", async () => {
    const world = await fx.world();
    const customer = await fx.customer(world, "1.00");
    const check = () =>
      get<unknown>(t, "/user/submit/pre", customer.token, {
        productId: String(world.productId),
        numbers: "+12025550123",
      });
    const listed = async () =>
      (
        await get<{ list: { id: number; sendable?: boolean; unavailableReason?: string | null }[] }>(
          t,
          "/product/list",
          customer.token,
          { code: "3000" },
        )
      ).body.data.list.find((p) => p.id === world.productId);

    expect((await check()).status).toBe(200);
    expect(await listed()).toMatchObject({ sendable: true, unavailableReason: null });

    // no default channel and no route of the customer's
    await t.prisma.product.update({ where: { id: world.productId }, data: { defaultChannelId: null } });
    const none = await check();
    expect(none.status).toBe(409);
    expect(none.body.message).toBe(
      "product Test SMS cannot send now: no channel carries it for your account; please contact support",
    );
    expect(await listed()).toMatchObject({ sendable: false, unavailableReason: none.body.message });

    // only a paused channel
    await t.prisma.product.update({ where: { id: world.productId }, data: { defaultChannelId: world.channelId } });
    await t.prisma.channel.update({ where: { id: world.channelId }, data: { status: ActiveStatus.PAUSED } });
    const paused = await check();
    expect(paused.status).toBe(409);
    expect(paused.body.message).toMatch(/its channels are paused/);
    expect((await listed())?.sendable).toBe(false);

    // a route of the customer's to an active channel carries it
    const routed = await t.prisma.channel.create({
      data: { tenantId: world.tenantId, name: "Routed", kind: "smpp", productCode: 3000, config: {}, secrets: "" },
    });
    await t.prisma.channelRoute.create({
      data: { tenantId: world.tenantId, userId: customer.id, productId: world.productId, channelId: routed.id },
    });
    expect((await check()).status).toBe(200);
    expect((await listed())?.sendable).toBe(true);
    expect(await fx.batchCount(customer.id)).toBe(0);

    // staff see no such field
    const staff = await get<{ list: Record<string, unknown>[] }>(t, "/product/list", world.admin.token, {});
    expect(staff.body.data.list[0]).not.toHaveProperty("sendable");
  });

  it("says when authentication does not allow sending", async () => {
    const pending = await fx.customer(w, "1.00", { authStatus: 1 });
    const res = await get<{ authenticationAllowed: boolean; authenticationReason: string }>(
      t,
      "/user/submit/pre",
      pending.token,
      { productId: String(w.productId), numbers: "+12025550123" },
    );
    expect(res.body.data).toMatchObject({ authenticationAllowed: false });
    expect(res.body.data.authenticationReason).toMatch(/under review/);
  });
});
