// The lists read from the ledger: recharge/deduct records, consume records and the balance log, with their
// filters, totals and who sees which rows.
import { BalanceLogType, BatchStatus, ProductCode, UserType } from "@switchboard/contracts";
import { applyBalanceChange } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures, get, post } from "./finance-fixtures";
import { createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let tenantId: number;
let admin: Account;
let agent: Account;
let c1: Account;
let c2: Account;
let otherAgent: Account;
let otherCust: Account;
let foreignAdmin: Account;
let batchId: bigint;

interface Row {
  id: string;
  userId: number;
  user: string;
  type: number;
  amount: string;
  balanceAfter: string;
  operator: string | null;
  batchId: string | null;
  remittanceId: number | null;
  remark: string | null;
  createdAt: string;
  productCode?: number | null;
}
type List = { list: Row[]; total: number; totalAmount: string };

beforeAll(async () => {
  t = await createTestApp();
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
  admin = await fx.account(UserType.ADMIN, tenantId);
  agent = await fx.account(UserType.AGENT, tenantId, { balance: "1000" });
  c1 = await fx.account(UserType.USER, tenantId, { agentId: agent.id });
  c2 = await fx.account(UserType.USER, tenantId, { agentId: agent.id });
  otherAgent = await fx.account(UserType.AGENT, tenantId, { balance: "1000" });
  otherCust = await fx.account(UserType.USER, tenantId, { agentId: otherAgent.id });
  foreignAdmin = await fx.account(UserType.ADMIN, await fx.tenant());

  const ok = (p: Promise<{ status: number }>) => p.then((r) => expect(r.status).toBe(200));
  await ok(post(t, "/finance/recharge", agent.token, { userId: c1.id, amount: "100", remark: "first top-up" }));
  await ok(post(t, "/finance/recharge", agent.token, { userId: c2.id, amount: "50" }));
  await ok(post(t, "/user/gift/send", agent.token, { userId: c1.id, amount: "5", remark: "welcome gift" }));
  await ok(post(t, "/finance/deduct", agent.token, { userId: c1.id, amount: "10", remark: "correction" }));
  await ok(post(t, "/finance/recharge", otherAgent.token, { userId: otherCust.id, amount: "70" }));
  await ok(post(t, "/finance/recharge", admin.token, { userId: agent.id, amount: "200", remark: "agent top-up" }));

  // A batch's charge and partial refund, as the batch module will write them.
  const product = await t.prisma.product.findFirstOrThrow({ where: { tenantId, code: ProductCode.SMS } });
  const batch = await t.prisma.messageBatch.create({
    data: {
      tenantId,
      userId: c1.id,
      agentId: agent.id,
      productId: product.id,
      productCode: ProductCode.SMS,
      taskType: 2,
      submitMode: 1,
      status: BatchStatus.SEND_FINISHED,
      content: {},
      cost: 30_000n,
      refunded: 10_000n,
    },
  });
  batchId = batch.id;
  await t.prisma.$transaction(async (tx) => {
    await applyBalanceChange(tx, { tenantId, userId: c1.id, type: BalanceLogType.CONSUME, amount: -30_000n, batchId });
    await applyBalanceChange(tx, { tenantId, userId: c1.id, type: BalanceLogType.REFUND, amount: 10_000n, batchId });
  });
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

describe("GET /finance/recharge/list", () => {
  it("shows an agent the credits of its customers and its own (not its mirror rows), with the total", async () => {
    const res = await get<List>(t, "/finance/recharge/list", agent.token, { type: "add" });
    expect(res.status).toBe(200);
    const rows = res.body.data.list;
    expect(rows.map((r) => [r.user, r.type, r.amount])).toEqual([
      [agent.username, BalanceLogType.RECHARGE, "200.0000"],
      [c1.username, BalanceLogType.GIFT, "5.0000"],
      [c2.username, BalanceLogType.RECHARGE, "50.0000"],
      [c1.username, BalanceLogType.RECHARGE, "100.0000"],
      [agent.username, BalanceLogType.RECHARGE, "1000.0000"],
    ]);
    expect(res.body.data).toMatchObject({ total: 5, totalAmount: "1355.0000" });
    expect(rows[3]).toMatchObject({
      userId: c1.id,
      balanceAfter: "100.0000",
      operator: agent.username,
      batchId: null,
      remark: "first top-up",
    });
    expect(rows[0]!.operator).toBe(admin.username);
    expect(rows[3]!.id).toMatch(/^\d+$/);
    expect(new Date(rows[3]!.createdAt).getTime()).toBeGreaterThan(0);
  });

  it("lists deducts with their signed total", async () => {
    const res = await get<List>(t, "/finance/recharge/list", agent.token, { type: "deduct" });
    expect(res.body.data).toMatchObject({ total: 1, totalAmount: "-10.0000" });
    expect(res.body.data.list[0]).toMatchObject({ user: c1.username, amount: "-10.0000", remark: "correction" });
  });

  it("filters by user, keyword, agent and time", async () => {
    const q = (extra: Record<string, string>) =>
      get<List>(t, "/finance/recharge/list", admin.token, { type: "add", ...extra }).then((r) => r.body.data);
    expect(await q({ userId: String(c1.id) })).toMatchObject({ total: 2, totalAmount: "105.0000" });
    expect((await q({ agentId: String(agent.id), keyword: "GIFT" })).list.map((r) => r.remark)).toEqual([
      "welcome gift",
    ]);
    expect((await q({ agentId: String(agent.id), keyword: c2.username })).total).toBe(1);
    expect((await q({ agentId: String(agent.id) })).total).toBe(3);
    expect((await q({ userId: String(c1.id), to: "2000-01-01T00:00:00Z" })).total).toBe(0);
    expect((await q({ userId: String(c1.id), from: "2000-01-01T00:00:00Z" })).total).toBe(2);
    const page = await q({ agentId: String(agent.id), page: "2", pageSize: "2" });
    expect(page.list).toHaveLength(1);
    expect(page.total).toBe(3);
  });

  it("shows a customer only its own rows, and another agent or tenant none of ours", async () => {
    const own = await get<List>(t, "/finance/recharge/list", c2.token, { type: "add" });
    expect(own.body.data).toMatchObject({ total: 1, totalAmount: "50.0000" });
    const peek = await get<List>(t, "/finance/recharge/list", c2.token, { type: "add", userId: String(c1.id) });
    expect(peek.body.data.total).toBe(0);
    for (const token of [otherAgent.token, foreignAdmin.token]) {
      const res = await get<List>(t, "/finance/recharge/list", token, { type: "add", userId: String(c1.id) });
      expect(res.body.data).toMatchObject({ total: 0, totalAmount: "0.0000", list: [] });
    }
  });

  it("refuses a missing or unknown type and malformed filters with 400", async () => {
    const missing = await get(t, "/finance/recharge/list", admin.token, {}, { lang: "en" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("field type");
    for (const q of [
      { type: "refund" },
      { type: "add", userId: "abc" },
      { type: "add", from: "2024-13-01" },
      { type: "add", pageSize: "201" },
      { type: "add", page: "0" },
      { type: "add", keyword: "k".repeat(65) },
    ])
      expect((await get(t, "/finance/recharge/list", admin.token, q)).status, JSON.stringify(q)).toBe(400);
    expect((await get(t, "/finance/recharge/list", undefined, { type: "add" })).status).toBe(401);
  });
});

describe("GET /finance/consume/list", () => {
  it("lists a batch's consume and refund rows with its product, and their net total", async () => {
    const res = await get<List>(t, "/finance/consume/list", c1.token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 2, totalAmount: "-2.0000" });
    expect(res.body.data.list.map((r) => [r.type, r.amount, r.batchId, r.productCode, r.operator])).toEqual([
      [BalanceLogType.REFUND, "1.0000", batchId.toString(), ProductCode.SMS, null],
      [BalanceLogType.CONSUME, "-3.0000", batchId.toString(), ProductCode.SMS, null],
    ]);
  });

  it("filters by batch, user and agent; others see none of it", async () => {
    const byBatch = await get<List>(t, "/finance/consume/list", admin.token, { batchId: batchId.toString() });
    expect(byBatch.body.data.total).toBe(2);
    const byAgent = await get<List>(t, "/finance/consume/list", admin.token, { agentId: String(agent.id) });
    expect(byAgent.body.data.total).toBe(2);
    expect((await get<List>(t, "/finance/consume/list", agent.token)).body.data.total).toBe(2);
    expect((await get<List>(t, "/finance/consume/list", c2.token)).body.data.total).toBe(0);
    const other = await get<List>(t, "/finance/consume/list", otherAgent.token, { batchId: batchId.toString() });
    expect(other.body.data.total).toBe(0);
    const foreign = await get<List>(t, "/finance/consume/list", foreignAdmin.token, { batchId: batchId.toString() });
    expect(foreign.body.data.total).toBe(0);
    const sms = await get<List>(t, "/finance/consume/list", admin.token, {
      productCode: String(ProductCode.SMS),
      agentId: String(agent.id),
    });
    expect(sms.body.data.total).toBe(2);
    const ws = await get<List>(t, "/finance/consume/list", admin.token, {
      productCode: String(ProductCode.WS),
      agentId: String(agent.id),
    });
    expect(ws.body.data.total).toBe(0);
    for (const q of [{ batchId: "x1" }, { batchId: "1".repeat(20) }, { agentId: "0" }, { productCode: "1234" }]) {
      expect((await get(t, "/finance/consume/list", admin.token, q)).status, JSON.stringify(q)).toBe(400);
    }
  });
});

describe("GET /user/balance/log", () => {
  it("shows a customer every movement of its own, newest first, replaying to its balance", async () => {
    const res = await get<List>(t, "/user/balance/log", c1.token);
    expect(res.body.data.list.map((r) => [r.type, r.amount, r.balanceAfter])).toEqual([
      [BalanceLogType.REFUND, "1.0000", "93.0000"],
      [BalanceLogType.CONSUME, "-3.0000", "92.0000"],
      [BalanceLogType.DEDUCT, "-10.0000", "95.0000"],
      [BalanceLogType.GIFT, "5.0000", "105.0000"],
      [BalanceLogType.RECHARGE, "100.0000", "100.0000"],
    ]);
    expect(res.body.data.totalAmount).toBe(await fx.balance(c1.id));
    const peek = await get<List>(t, "/user/balance/log", c1.token, { userId: String(c2.id) });
    expect(peek.body.data.total).toBe(0);
  });

  it("shows an agent its own rows (the reseller side) and its customers', filtered by type and user", async () => {
    const own = await get<List>(t, "/user/balance/log", agent.token, { userId: String(agent.id) });
    expect(own.body.data.list.map((r) => [r.type, r.amount, r.remark])).toEqual([
      [BalanceLogType.RECHARGE, "200.0000", "agent top-up"],
      [BalanceLogType.DEDUCT, "10.0000", `[${c1.username}] correction`],
      [BalanceLogType.GIFT, "-5.0000", `[${c1.username}] welcome gift`],
      [BalanceLogType.RECHARGE, "-50.0000", `[${c2.username}]`],
      [BalanceLogType.RECHARGE, "-100.0000", `[${c1.username}] first top-up`],
      [BalanceLogType.RECHARGE, "1000.0000", "opening"],
    ]);
    expect(own.body.data.totalAmount).toBe(await fx.balance(agent.id));
    const gifts = await get<List>(t, "/user/balance/log", agent.token, { type: String(BalanceLogType.GIFT) });
    expect(gifts.body.data.list.map((r) => r.userId).sort()).toEqual([agent.id, c1.id].sort());
    const theirs = await get<List>(t, "/user/balance/log", agent.token, { userId: String(otherCust.id) });
    expect(theirs.body.data.total).toBe(0);
  });

  it("shows an admin the tenant's rows; another tenant's admin none", async () => {
    const res = await get<List>(t, "/user/balance/log", admin.token, { userId: String(otherCust.id) });
    expect(res.body.data).toMatchObject({ total: 1, totalAmount: "70.0000" });
    const foreign = await get<List>(t, "/user/balance/log", foreignAdmin.token, { userId: String(otherCust.id) });
    expect(foreign.body.data.total).toBe(0);
  });

  it("refuses unknown types and malformed filters with 400", async () => {
    for (const q of [{ type: "7" }, { type: "0" }, { type: "gift" }, { to: "soon" }, { userId: "1.5" }]) {
      expect((await get(t, "/user/balance/log", admin.token, q)).status, JSON.stringify(q)).toBe(400);
    }
  });
});
