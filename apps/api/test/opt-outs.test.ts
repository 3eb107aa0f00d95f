// Opt-outs: customers and staff manage a customer's list (another tenant's or customer's entry answers 404 like a
// missing one); a batch refuses the numbers on it (reason 5), never charges them, and counts them (optOutCount);
// the pre-submit check counts them; the developer API lists, adds and removes; a STOP reply adds the sender.
import { randomBytes } from "node:crypto";
import {
  type OptOutList,
  type OptOutRow,
  OptOutSource,
  ProductCode,
  RejectReason,
  SubmitMode,
  TaskType,
} from "@switchboard/contracts";
import { ingestBatch } from "@switchboard/domain/batches";
import { loadSubmitContext, numberReading } from "@switchboard/domain/batches/context";
import { materializeBatch } from "@switchboard/domain/batches/materialize";
import { NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { optOutByKeyword } from "@switchboard/domain/opt-outs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { BatchFixtures, type BatchWorld, get, multiple, PRICES, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let other: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  other = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

const US = "+12025550123";
const GB = "+447400123456";

describe("the list", () => {
  it("a customer adds (E.164, once), lists, searches, exports and removes its own entries", async () => {
    const c = await fx.customer(w);
    const added = await post<OptOutRow>(t, "/opt-out/add", c.token, { phone: "0044 7400 123456" });
    expect(added.body.code, added.body.message).toBe(0);
    expect(added.body.data).toMatchObject({ userId: c.id, phone: GB, source: OptOutSource.MANUAL });
    const again = await post<OptOutRow>(t, "/opt-out/add", c.token, { phone: GB });
    expect(again.body.data.id).toBe(added.body.data.id);
    const bad = await post(t, "/opt-out/add", c.token, { phone: "12ab" });
    expect(bad.status).toBe(400);

    const imported = await post(t, "/opt-out/import", c.token, { numbers: [US, GB, "nonsense", US] });
    expect(imported.body.data).toEqual({ total: 4, added: 1, existing: 1, invalid: 1 });

    const all = await get<OptOutList>(t, "/opt-out/list", c.token);
    expect(all.body.data.total).toBe(2);
    const found = await get<OptOutList>(t, "/opt-out/list", c.token, { keyword: "202555" });
    expect(found.body.data.list.map((r) => [r.phone, r.source])).toEqual([[US, OptOutSource.IMPORT]]);

    const csv = await t.app.inject({
      method: "GET",
      url: "/opt-out/export",
      headers: { authorization: `Bearer ${c.token}` },
    });
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body.split("\n")[0]).toBe("phone,source,createdAt");
    expect(csv.body).toContain(`${GB},1,`);

    const removed = await post(t, "/opt-out/remove", c.token, { id: added.body.data.id });
    expect(removed.body.code).toBe(0);
    expect((await get<OptOutList>(t, "/opt-out/list", c.token)).body.data.total).toBe(1);
  });

  it("staff manage their customers' lists; another tenant's or customer's entry answers 404", async () => {
    const c = await fx.customer(w);
    const byAgent = await post<OptOutRow>(t, "/opt-out/add", w.agent.token, { phone: US, userId: c.id });
    expect(byAgent.body.data).toMatchObject({ userId: c.id, phone: US });
    expect((await post(t, "/opt-out/add", w.agent.token, { phone: US })).status).toBe(400);
    // Not the other agent's customer, not the other tenant's admin's.
    expect((await post(t, "/opt-out/add", w.otherAgent.token, { phone: US, userId: c.id })).status).toBe(404);
    expect((await post(t, "/opt-out/add", other.admin.token, { phone: US, userId: c.id })).status).toBe(404);
    const id = byAgent.body.data.id;
    const stranger = await fx.customer(w);
    for (const token of [other.admin.token, w.otherAgent.token, stranger.token]) {
      const res = await post(t, "/opt-out/remove", token, { id });
      expect(res.status).toBe(404);
      expect((await get<OptOutList>(t, "/opt-out/list", token, { userId: String(c.id) })).body.data.total).toBe(0);
    }
    const missing = await post(t, "/opt-out/remove", w.admin.token, { id: 2_000_000_000 });
    expect(missing.status).toBe(404);
    expect((await get<OptOutList>(t, "/opt-out/list", w.admin.token, { userId: String(c.id) })).body.data.total).toBe(
      1,
    );
    expect((await post(t, "/opt-out/remove", w.admin.token, { id })).body.code).toBe(0);
  });
});

describe("batches", () => {
  it("a batch skips an opted-out number: rejected (reason 5), counted, not charged; the pre-submit check counts it", async () => {
    const c = await fx.customer(w, "10.00");
    await post(t, "/opt-out/add", c.token, { phone: GB });
    const pre = await post<{ valid: number; optOut: number; notServed: number; totalCost: string }>(
      t,
      "/user/submit/pre",
      c.token,
      { productId: w.productId, numbers: [US, GB] },
    );
    expect(pre.body.data).toMatchObject({ valid: 1, optOut: 1, notServed: 0, totalCost: "0.0080" });

    const before = await fx.balance(c.id);
    const res = await post<{ batch: { id: string }; numbers: Array<{ result: string }> }>(
      t,
      "/batch/submit",
      c.token,
      multiple(w, [US, GB]),
    );
    expect(res.body.code, res.body.message).toBe(0);
    const batch = await fx.expectExactCharge(res.body.data.batch.id);
    expect(batch).toMatchObject({ validCount: 1, optOutCount: 1, totalCount: 2, cost: PRICES.US });
    expect(await fx.balance(c.id)).toBe(before - (PRICES.US as bigint));
    const recipients = await t.prisma.recipient.findMany({ where: { batchId: batch.id }, select: { phone: true } });
    expect(recipients.map((r) => r.phone)).toEqual([US]);
    const rejected = await t.prisma.rejectedNumber.findMany({ where: { batchId: batch.id } });
    expect(rejected.map((r) => [r.raw, r.reason])).toEqual([[GB, RejectReason.OPTED_OUT]]);
    expect(res.body.data.numbers.map((n) => n.result)).toEqual(["accepted", "opted_out"]);
    const csv = await t.app.inject({
      method: "GET",
      url: `/batch/rejected/export?id=${res.body.data.batch.id}`,
      headers: { authorization: `Bearer ${c.token}` },
    });
    expect(csv.body).toContain(`${GB},opted_out`);
    const row = await get<{ optOutCount: number; notServedCount: number }>(t, "/batch/detail", c.token, {
      id: res.body.data.batch.id,
    });
    expect(row.body.data).toMatchObject({ optOutCount: 1, notServedCount: 0 });

    // Only opted-out numbers: refused, nothing written or charged.
    const none = await post(t, "/batch/submit", c.token, multiple(w, [GB]));
    expect(none.status).toBe(400);
    expect(none.body.message).toContain("opt-out");
    expect(await fx.batchCount(c.id)).toBe(1);
  });
});

describe("the opt-out lookup where batches are written", () => {
  // A list up to OPT_OUTS_HELD numbers is read once for the whole batch; a longer one is probed chunk by chunk.
  // Both ways must refuse the same numbers.
  it.each([
    ["held in memory", undefined],
    ["probed per chunk", 0],
  ])("refuses the listed numbers when the list is %s", async (_how, optOutsHeldMax) => {
    const c = await fx.customer(w, "10.00");
    await post(t, "/opt-out/add", c.token, { phone: GB });
    const { customer, rules } = await loadSubmitContext(t.prisma, c.id);
    const sorted = new NumberSorter(numberReading({ customer, rules }), false);
    for (const n of [US, GB]) sorted.add(n);
    const content = { product: ProductCode.SMS, text: "Hello" } as const;
    const made = await materializeBatch(t.prisma, {
      customer,
      rules,
      sorted,
      target: {
        kind: "create",
        spec: {
          productId: w.productId,
          productCode: ProductCode.SMS,
          taskType: TaskType.MESSAGE,
          submitMode: SubmitMode.MULTIPLE,
          source: 1,
          content,
          units: 1,
          scheduledAt: null,
          idempotencyKey: null,
        },
      },
      ...(optOutsHeldMax === undefined ? {} : { optOutsHeldMax }),
    });
    expect([...made.optedOut]).toEqual([GB]);
    expect(made.cost).toBe(PRICES.US);
    await fx.expectExactCharge(made.batchId.toString());
  });
});

describe("files", () => {
  it("a file's pre-submit check and its ingest count the opted-out numbers and charge only the others", async () => {
    const c = await fx.customer(w, "10.00");
    await post(t, "/opt-out/add", c.token, { phone: US });
    const form = (fields: Record<string, string>) =>
      multipart(fields, [{ name: "numbers.csv", data: Buffer.from(`phone\n${US}\n${GB}\n`), field: "file" }]);
    const send = async (url: string, fields: Record<string, string>) => {
      const f = form(fields);
      const res = await t.app.inject({
        method: "POST",
        url,
        headers: { authorization: `Bearer ${c.token}`, "content-type": f.contentType, lang: "en" },
        payload: f.payload,
      });
      return res.json() as { code: number; message: string; data: Record<string, unknown> };
    };
    const pre = await send("/user/submit/pre/file", { productId: String(w.productId) });
    expect(pre.code, pre.message).toBe(0);
    expect(pre.data).toMatchObject({ total: 2, valid: 1, optOut: 1, notServed: 0, totalCost: "0.0400" });

    const created = await send("/batch/submit/file", {
      productId: String(w.productId),
      taskType: "2",
      content: JSON.stringify({ product: 3000, text: "Hello" }),
    });
    expect(created.code, created.message).toBe(0);
    const id = (created.data.batch as { id: string }).id;
    const deps = {
      prisma: t.prisma,
      storage: t.app.storage,
      jobs: { dispatch: async () => {} },
      log: { info: () => {}, warn: () => {} },
    };
    await ingestBatch(deps, { batchId: id });
    const batch = await fx.expectExactCharge(id);
    expect(batch).toMatchObject({ totalCount: 2, validCount: 1, optOutCount: 1, cost: PRICES.GB });
  });
});

describe("keywords", () => {
  it("a reply that is a STOP keyword (any case, trimmed) adds the sender; other text does not", async () => {
    const c = await fx.customer(w);
    const base = { tenantId: w.tenantId, customerId: c.id };
    expect(await optOutByKeyword(t.prisma, { ...base, phone: US, text: "  stop " })).toBe("added");
    expect(await optOutByKeyword(t.prisma, { ...base, phone: US, text: "STOP" })).toBe("listed");
    expect(await optOutByKeyword(t.prisma, { ...base, phone: GB, text: "please stop" })).toBeNull();
    expect(await optOutByKeyword(t.prisma, { ...base, phone: GB, text: "退订" })).toBe("added");
    const list = await get<OptOutList>(t, "/opt-out/list", c.token);
    expect(list.body.data.list.map((r) => [r.phone, r.source]).sort()).toEqual(
      [
        [US, OptOutSource.KEYWORD],
        [GB, OptOutSource.KEYWORD],
      ].sort(),
    );
    await t.prisma.tenantSetting.update({ where: { tenantId: w.tenantId }, data: { optOutKeywords: ["HALT"] } });
    expect(await optOutByKeyword(t.prisma, { ...base, phone: "+12025550199", text: "stop" })).toBeNull();
    expect(await optOutByKeyword(t.prisma, { ...base, phone: "+12025550199", text: "halt" })).toBe("added");
  });
});

describe("developer API", () => {
  it("GET/POST /v1/opt-outs and /v1/opt-outs/remove act on the key's customer's list", async () => {
    const c = await fx.customer(w);
    const key = `sk_${randomBytes(32).toString("base64url")}`;
    await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
    const headers = { authorization: `Bearer ${key}` };
    const added = await post(t, "/v1/opt-outs", undefined, { phone: US }, { headers });
    expect(added.body.code, added.body.message).toBe(0);
    expect(added.body.data).toMatchObject({ phone: US, source: OptOutSource.API });
    const list = await get<{ list: Array<{ phone: string }>; total: number }>(
      t,
      "/v1/opt-outs",
      undefined,
      {},
      { headers },
    );
    expect(list.body.data.list.map((r) => r.phone)).toEqual([US]);
    expect((await post(t, "/v1/opt-outs/remove", undefined, { phone: US }, { headers })).body.code).toBe(0);
    expect((await post(t, "/v1/opt-outs/remove", undefined, { phone: US }, { headers })).status).toBe(404);
    expect((await get(t, "/v1/opt-outs", undefined, {})).status).toBe(401);
  });
});
