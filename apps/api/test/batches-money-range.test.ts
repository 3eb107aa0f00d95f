// Money stays inside its columns (BIGINT money units): unit prices are bounded (MAX_UNIT_PRICE_UNITS, 400 naming
// the field), a batch whose cost no balance may hold is unaffordable (402, nothing written, in every submission
// mode) instead of overflowing a column (500), and a credit that would take a balance past MAX_BALANCE_UNITS is
// refused with 409 (issue 12, finding 6).
import {
  BalanceLogType,
  BatchStatus,
  batchReasonKey,
  displayMoney,
  formatMoney,
  MAX_BALANCE_UNITS,
  MAX_UNIT_PRICE_UNITS,
  RemittanceStatus,
  UserType,
} from "@switchboard/contracts";
import { ingestBatch } from "@switchboard/domain/batches";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { type Account, BatchFixtures, type BatchWorld, multiple, post, smsContent } from "./batch-fixtures";
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

/** 1,530 GSM-7 characters: 10 segments, the most an SMS may have. */
const tenSegments = smsContent("m".repeat(1530));

/** Distinct GB mobile numbers. */
const gbNumbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+447400${String(100_000 + from + i).padStart(6, "0")}`);

/** Everything a refused submission must leave as it was. */
async function footprint(c: Account) {
  return {
    balance: await fx.balance(c.id),
    logs: (await fx.logs(c.id)).length,
    batches: await fx.batchCount(c.id),
  };
}

/**
 * A balance set straight in the database (beyond what any request may credit), with its opening ledger row so
 * the ledger still replays: what an account that grew before the limit existed looks like.
 */
async function setBalance(userId: number, tenantId: number, units: bigint) {
  await t.prisma.$transaction(async (tx) => {
    const u = await tx.user.update({ where: { id: userId }, data: { balance: { increment: units } } });
    await tx.balanceLog.create({
      data: { tenantId, userId, type: BalanceLogType.RECHARGE, amount: units, balanceAfter: u.balance, remark: "set" },
    });
  });
}

describe("unit prices are bounded", () => {
  const max = formatMoney(MAX_UNIT_PRICE_UNITS);

  it("refuses a default or customer price above the bound with 400 naming the field, in both languages", async () => {
    const c = await fx.customer(w, "");
    const bodies = [
      { url: "/price/default/set", body: {} },
      { url: "/price/customer/set", body: { userId: c.id } },
    ];
    for (const { url, body } of bodies) {
      for (const unitPrice of ["10000.0001", "999999999999.9999", 20_000]) {
        const res = await post(t, url, w.admin.token, {
          ...body,
          productId: w.productId,
          action: 1,
          countryScope: 2,
          countryCodes: ["US"],
          unitPrice,
        });
        expect({ url, unitPrice, status: res.status, message: res.body.message }).toEqual({
          url,
          unitPrice,
          status: 400,
          message: `field unitPrice must be at most ${max}`,
        });
      }
      const zh = await post(
        t,
        url,
        w.admin.token,
        { ...body, productId: w.productId, action: 1, countryScope: 2, countryCodes: ["US"], unitPrice: "10001" },
        { lang: "zh" },
      );
      expect(zh.body.message).toBe(`字段 unitPrice 不能超过 ${max}`);
    }
    expect(
      (await t.prisma.price.findFirstOrThrow({ where: { productId: w.productId, countryCode: "US" } })).unitPrice,
    ).toBe(80n);
    expect(await t.prisma.customerPrice.count({ where: { userId: c.id } })).toBe(0);
  });

  it("accepts the bound itself, and a batch at that price is charged exactly (10 segments)", async () => {
    const world = await fx.world();
    const set = await post(t, "/price/default/set", world.admin.token, {
      productId: world.productId,
      action: 1,
      countryScope: 2,
      countryCodes: ["GB"],
      unitPrice: max,
    });
    expect(set.status).toBe(200);
    const c = await fx.customer(world, "200000");
    const res = await post<{ batch: { id: string; cost: string } }>(
      t,
      "/batch/submit",
      c.token,
      multiple(world, gbNumbers(2), { content: tenSegments }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.batch.cost).toBe("200000.0000");
    await fx.expectExactCharge(res.body.data.batch.id);
    expect(await fx.balance(c.id)).toBe(0n);
  });
});

describe("a batch costing more than any balance may hold answers 402 and writes nothing", () => {
  let legacy: BatchWorld;
  /** The largest price the contract accepted before the bound: 999,999,999,999.9999. */
  const legacyPrice = 9_999_999_999_999_999n;

  beforeAll(async () => {
    legacy = await fx.world();
    await t.prisma.price.updateMany({
      where: { productId: legacy.productId, countryCode: "GB" },
      data: { unitPrice: legacyPrice },
    });
  });

  it("mode 2: 100 numbers x 10 segments at a price set before the bound (a cost past BIGINT)", async () => {
    const c = await fx.customer(legacy, "50.00");
    const before = await footprint(c);
    const res = await post(t, "/batch/submit", c.token, multiple(legacy, gbNumbers(100), { content: tenSegments }));
    expect({ status: res.status, message: res.body.message }).toEqual({
      status: 402,
      message: "insufficient balance (current balance 50.00)",
    });
    expect(await footprint(c)).toEqual(before);
    const zh = await post(t, "/batch/submit", c.token, multiple(legacy, gbNumbers(100), { content: tenSegments }), {
      lang: "zh",
    });
    expect(zh.body.message).toBe("余额不足，当前余额 50.00");
  });

  it("the pre-submit check answers the same batch as unaffordable, with its exact cost (writes nothing)", async () => {
    const c = await fx.customer(legacy, "50.00");
    const before = await footprint(c);
    const res = await post<{ totalCost: string; sufficient: boolean }>(t, "/user/submit/pre", c.token, {
      productId: legacy.productId,
      numbers: gbNumbers(100),
      content: tenSegments,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ totalCost: formatMoney(legacyPrice * 10n * 100n), sufficient: false });
    expect(await footprint(c)).toEqual(before);
  });

  it("mode 2: one number whose cost alone is past the largest balance, even for a customer holding it all", async () => {
    const c = await fx.customer(legacy, "");
    await setBalance(c.id, legacy.tenantId, MAX_BALANCE_UNITS);
    const before = await footprint(c);
    const res = await post(t, "/batch/submit", c.token, multiple(legacy, gbNumbers(1), { content: tenSegments }));
    expect(res.status).toBe(402);
    expect(res.body.message).toBe(`insufficient balance (current balance ${displayMoney(MAX_BALANCE_UNITS)})`);
    expect(await footprint(c)).toEqual(before);
  });

  it("mode 3: the file's ingest refuses the batch (11 -> 13, reason: insufficient balance), charges nothing", async () => {
    const c = await fx.customer(legacy, "50.00");
    const form = multipart(
      { productId: String(legacy.productId), taskType: "2", content: JSON.stringify(tenSegments) },
      [{ name: "numbers.csv", data: Buffer.from(gbNumbers(100).join("\n")), field: "file" }],
    );
    const uploaded = await t.app.inject({
      method: "POST",
      url: "/batch/submit/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang: "en" },
      payload: form.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const batchId = (uploaded.json() as { data: { batch: { id: string } } }).data.batch.id;
    const deps = {
      prisma: t.prisma,
      storage: t.app.storage,
      jobs: { dispatch: async () => {} },
      log: { info: () => {}, warn: () => {} },
    };
    expect(await ingestBatch(deps, { batchId })).toBe("refused");
    const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
    expect(batch).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, cost: 0n, validCount: 0 });
    expect(batchReasonKey(batch.reason)).toBe("finance.insufficient_balance");
    expect(await t.prisma.recipient.count({ where: { batchId: batch.id } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(500_000n);
  });
});

describe("a credit never takes a balance past MAX_BALANCE_UNITS", () => {
  // message texts show amounts as people read them (2 decimals, thousands separators)
  const max = displayMoney(MAX_BALANCE_UNITS);

  it("refuses a recharge that would overflow the balance column with 409, not 500, and writes nothing", async () => {
    const c = await fx.customer(w, "");
    // 922,337,203,685,477.5000: a recharge of 100,000,000.00 does not fit a BIGINT any more
    await setBalance(c.id, w.tenantId, 9_223_372_036_854_775_000n);
    const before = await footprint(c);
    const res = await post(t, "/finance/recharge", w.admin.token, { userId: c.id, amount: "100000000" });
    expect({ status: res.status, message: res.body.message }).toEqual({
      status: 409,
      message: `the balance may not exceed ${max} (current balance 922,337,203,685,477.50)`,
    });
    expect(await footprint(c)).toEqual(before);
    // what is there can still be taken
    expect((await post(t, "/finance/deduct", w.admin.token, { userId: c.id, amount: "1", remark: "x" })).status).toBe(
      200,
    );
  });

  it("credits up to the limit exactly, then refuses recharge, gift and remittance (which stays pending)", async () => {
    const c = await fx.customer(w, "");
    await setBalance(c.id, w.tenantId, MAX_BALANCE_UNITS - 100n);
    expect((await post(t, "/finance/recharge", w.admin.token, { userId: c.id, amount: "0.01" })).status).toBe(200);
    expect(await fx.balance(c.id)).toBe(MAX_BALANCE_UNITS);
    const before = await footprint(c);
    for (const url of ["/finance/recharge", "/user/gift/send"]) {
      const res = await post(t, url, w.admin.token, { userId: c.id, amount: "0.01" }, { lang: "zh" });
      expect({ url, status: res.status, message: res.body.message }).toEqual({
        url,
        status: 409,
        message: `余额不能超过 ${max}，当前余额 ${max}`,
      });
    }
    const remit = await post<{ id: number }>(t, "/finance/remit/create", c.token, { amount: "1", payer: "P" });
    const confirm = await post(t, "/finance/remit/confirm", w.admin.token, { id: remit.body.data.id });
    expect(confirm.status).toBe(409);
    const row = await t.prisma.remittance.findUniqueOrThrow({ where: { id: remit.body.data.id } });
    expect(row.status).toBe(RemittanceStatus.PENDING);
    expect(await footprint(c)).toEqual(before);
  });

  it("refuses an agent's deduct whose return would take the agent's own balance past the limit (409, worded for it)", async () => {
    const agent = await fx.account(UserType.AGENT, w.tenantId);
    const c = await fx.account(UserType.USER, w.tenantId, { agentId: agent.id });
    await setBalance(agent.id, w.tenantId, MAX_BALANCE_UNITS - 10_000n);
    expect((await post(t, "/finance/recharge", agent.token, { userId: c.id, amount: "1" })).status).toBe(200);
    expect((await post(t, "/finance/recharge", w.admin.token, { userId: agent.id, amount: "2" })).status).toBe(200);
    expect(await fx.balance(agent.id)).toBe(MAX_BALANCE_UNITS);
    const res = await post(t, "/finance/deduct", agent.token, { userId: c.id, amount: "1", remark: "back" });
    expect({ status: res.status, message: res.body.message }).toEqual({
      status: 409,
      message: `your own balance may not exceed ${max} (your balance is ${max})`,
    });
    expect(await fx.balance(agent.id)).toBe(MAX_BALANCE_UNITS);
    expect(await fx.balance(c.id)).toBe(10_000n);
  });
});
