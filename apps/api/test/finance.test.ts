// Recharge, deduct and gift by staff (reseller model: an agent's side moves too), and who may do it.
import { BalanceLogType, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures, post } from "./finance-fixtures";
import { call, createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let tenantId: number;
let admin: Account;
let superToken: string;

beforeAll(async () => {
  t = await createTestApp();
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
  admin = await fx.account(UserType.ADMIN, tenantId);
  const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN } });
  superToken = t.app.signToken(sa).token;
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

async function lastLog(userId: number) {
  return t.prisma.balanceLog.findFirstOrThrow({ where: { userId }, orderBy: { id: "desc" } });
}

describe("POST /finance/recharge", () => {
  it("lets an admin credit a customer: balance, answer and a ledger row with the balance after it", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "3.00" });
    const res = await post(t, "/finance/recharge", admin.token, { userId: c.id, amount: "12.5", remark: "bank 88" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 0,
      data: { userId: c.id, balance: "15.5000", agentBalance: null },
    });
    const log = await lastLog(c.id);
    expect(log).toMatchObject({
      type: BalanceLogType.RECHARGE,
      amount: 125_000n,
      balanceAfter: 155_000n,
      operatorId: admin.id,
      remark: "bank 88",
      tenantId,
    });
    expect((res.body.data as { logId: string }).logId).toBe(log.id.toString());
  });

  it("accepts a JSON number amount and lets an admin recharge an agent (drawing from no one)", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId);
    const res = await post(t, "/finance/recharge", admin.token, { userId: ag.id, amount: 250.75 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "250.7500", agentBalance: null });
  });

  it("draws an agent's recharge of its customer from the agent's own balance, in one transaction", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "100.00" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: ag.id });
    const res = await post(t, "/finance/recharge", ag.token, { userId: c.id, amount: "30.25", remark: "May" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ userId: c.id, balance: "30.2500", agentBalance: "69.7500" });
    expect(await lastLog(ag.id)).toMatchObject({
      type: BalanceLogType.RECHARGE,
      amount: -302_500n,
      balanceAfter: 697_500n,
      operatorId: ag.id,
      remark: `[${c.username}] May`,
    });
    expect(await lastLog(c.id)).toMatchObject({ amount: 302_500n, balanceAfter: 302_500n, operatorId: ag.id });
  });

  it("refuses an agent whose own balance is short with 402, and writes nothing", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "5.00" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: ag.id });
    const res = await post(t, "/finance/recharge", ag.token, { userId: c.id, amount: "5.01" }, "en");
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 1,
      message: "insufficient agent balance (your balance is 5.00); recharge your own account first",
      data: null,
    });
    expect(await fx.balance(ag.id)).toBe("5.0000");
    expect(await fx.balance(c.id)).toBe("0.0000");
    expect(await fx.logCount(ag.id)).toBe(1);
    expect(await fx.logCount(c.id)).toBe(0);
    const zh = await post(t, "/finance/recharge", ag.token, { userId: c.id, amount: "6" });
    expect(zh.body.message).toBe("代理商余额不足，当前余额 5.00，请先充值");
  });

  it("allows recharging a frozen account (freezing stops use, not bookkeeping)", async () => {
    const c = await fx.account(UserType.USER, tenantId, { status: 2 });
    const res = await post(t, "/finance/recharge", admin.token, { userId: c.id, amount: "1" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "1.0000" });
  });

  describe("scope: anything outside it answers exactly like an unknown id", () => {
    let agA: Account;
    let agB: Account;
    let custB: Account;
    let otherTenantCust: Account;
    let otherAdmin: Account;
    beforeAll(async () => {
      agA = await fx.account(UserType.AGENT, tenantId, { balance: "50" });
      agB = await fx.account(UserType.AGENT, tenantId, { balance: "50" });
      custB = await fx.account(UserType.USER, tenantId, { agentId: agB.id });
      const other = await fx.tenant();
      otherTenantCust = await fx.account(UserType.USER, other);
      otherAdmin = await fx.account(UserType.ADMIN, other);
    });

    async function expectNotFound(token: string, userId: number) {
      const res = await post(t, "/finance/recharge", token, { userId, amount: "1" }, "en");
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 1, message: "user not found", data: null });
    }

    it("an unknown id", async () => {
      await expectNotFound(admin.token, 2_000_000_000);
    });
    it("an agent touching another agent's customer, another agent, itself or an admin", async () => {
      await expectNotFound(agA.token, custB.id);
      await expectNotFound(agA.token, agB.id);
      await expectNotFound(agA.token, agA.id);
      await expectNotFound(agA.token, admin.id);
      expect(await fx.balance(custB.id)).toBe("0.0000");
      expect(await fx.balance(agA.id)).toBe("50.0000");
    });
    it("an admin recharging an admin, or another tenant's customer; another tenant's admin ours", async () => {
      const admin2 = await fx.account(UserType.ADMIN, tenantId);
      await expectNotFound(admin.token, admin2.id);
      await expectNotFound(admin.token, otherTenantCust.id);
      await expectNotFound(otherAdmin.token, custB.id);
    });
    it("a deleted customer", async () => {
      const c = await fx.account(UserType.USER, tenantId);
      await t.prisma.user.update({ where: { id: c.id }, data: { deletedAt: new Date() } });
      await expectNotFound(admin.token, c.id);
    });
  });

  it("refuses customers (403) and callers without a session (401)", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "1" });
    const own = await post(t, "/finance/recharge", c.token, { userId: c.id, amount: "1" });
    expect(own.status).toBe(403);
    expect(own.body.code).toBe(1);
    const anon = await post(t, "/finance/recharge", undefined, { userId: c.id, amount: "1" });
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe(401);
    expect(await fx.balance(c.id)).toBe("1.0000");
  });

  it("lets a super admin act inside the tenant named by the tenant-id header, and only then", async () => {
    const c = await fx.account(UserType.USER, tenantId);
    const bare = await call(t.app, "POST", "/finance/recharge", {
      token: superToken,
      body: { userId: c.id, amount: "2" },
      lang: "en",
    });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe("name the tenant with the tenant-id header");
    const other = await fx.tenant();
    const wrong = await call(t.app, "POST", "/finance/recharge", {
      token: superToken,
      body: { userId: c.id, amount: "2" },
      headers: { "tenant-id": String(other) },
    });
    expect(wrong.status).toBe(404);
    const ok = await call(t.app, "POST", "/finance/recharge", {
      token: superToken,
      body: { userId: c.id, amount: "2" },
      headers: { "tenant-id": String(tenantId) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ balance: "2.0000", agentBalance: null });
  });

  describe("bad input: 400 naming the field, nothing written", () => {
    let c: Account;
    beforeAll(async () => {
      c = await fx.account(UserType.USER, tenantId, { balance: "10" });
    });
    const cases: Array<[string, (id: number) => unknown, string]> = [
      ["missing userId", () => ({ amount: "1" }), "field userId is required"],
      ["missing amount", (id) => ({ userId: id }), "field amount is required"],
      ["zero", (id) => ({ userId: id, amount: "0" }), "field amount must be a positive amount with at most 2 decimals"],
      ["zero number", (id) => ({ userId: id, amount: 0 }), "field amount must be a positive amount"],
      ["0.00", (id) => ({ userId: id, amount: "0.00" }), "field amount must be a positive amount"],
      ["negative", (id) => ({ userId: id, amount: "-1" }), "field amount must be a positive amount"],
      ["negative number", (id) => ({ userId: id, amount: -5 }), "field amount must be a positive amount"],
      ["three decimals", (id) => ({ userId: id, amount: "1.234" }), "at most 2 decimals"],
      ["float noise", (id) => ({ userId: id, amount: 0.1 + 0.2 }), "at most 2 decimals"],
      ["non-numeric", (id) => ({ userId: id, amount: "abc" }), "field amount must be a positive amount"],
      ["exponent", (id) => ({ userId: id, amount: "1e3" }), "field amount must be a positive amount"],
      ["empty", (id) => ({ userId: id, amount: "" }), "field amount must be a positive amount"],
      ["too large", (id) => ({ userId: id, amount: "100000000.01" }), "field amount must be at most 100000000.00"],
      ["oversized string", (id) => ({ userId: id, amount: "1".repeat(21) }), "field amount must be at most 20 long"],
      ["object", (id) => ({ userId: id, amount: {} }), "field amount"],
      ["userId not a number", () => ({ userId: "abc", amount: "1" }), "field userId"],
      ["userId zero", () => ({ userId: 0, amount: "1" }), "field userId"],
      ["userId beyond int4", () => ({ userId: 3_000_000_000, amount: "1" }), "field userId"],
      ["remark too long", (id) => ({ userId: id, amount: "1", remark: "r".repeat(201) }), "field remark"],
    ];
    it.each(cases)("%s", async (_name, body, message) => {
      const before = await fx.logCount(c.id);
      const res = await post(t, "/finance/recharge", admin.token, body(c.id), "en");
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(1);
      expect(res.body.message).toContain(message);
      expect(await fx.logCount(c.id)).toBe(before);
      expect(await fx.balance(c.id)).toBe("10.0000");
    });

    it("a body that is not JSON", async () => {
      const res = await t.app.inject({
        method: "POST",
        url: "/finance/recharge",
        headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json", lang: "en" },
        payload: "{not json",
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 1, message: "request body is not valid JSON" });
    });
  });
});

describe("POST /finance/deduct", () => {
  it("lets an admin deduct down to exactly zero, with the remark it requires", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "20" });
    const res = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "20.00", remark: "refund" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "0.0000", agentBalance: null });
    expect(await lastLog(c.id)).toMatchObject({
      type: BalanceLogType.DEDUCT,
      amount: -200_000n,
      balanceAfter: 0n,
      operatorId: admin.id,
      remark: "refund",
    });
  });

  it("refuses to go below zero with 402 naming the current balance, and writes nothing", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "7.5" });
    const res = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "7.51", remark: "x" }, "en");
    expect(res.status).toBe(402);
    expect(res.body).toEqual({ code: 1, message: "insufficient balance (current balance 7.50)", data: null });
    const zh = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "8", remark: "x" });
    expect(zh.body.message).toBe("余额不足，当前余额 7.50");
    expect(await fx.balance(c.id)).toBe("7.5000");
    expect(await fx.logCount(c.id)).toBe(1);
  });

  it("gives an agent's deduct of what it paid in back to the agent", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "14" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: ag.id });
    expect((await post(t, "/finance/recharge", ag.token, { userId: c.id, amount: "4" })).status).toBe(200);
    const res = await post(t, "/finance/deduct", ag.token, { userId: c.id, amount: "3", remark: "wrong top-up" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "1.0000", agentBalance: "13.0000" });
    expect(await lastLog(ag.id)).toMatchObject({ type: BalanceLogType.DEDUCT, amount: 30_000n });
    // the customer being short rolls the agent's side back too
    const short = await post(t, "/finance/deduct", ag.token, { userId: c.id, amount: "2", remark: "x" });
    expect(short.status).toBe(402);
    expect(await fx.balance(ag.id)).toBe("13.0000");
    // balance the platform gave the customer is not the agent's to take (finance-reseller.test.ts)
    await fx.credit(c.id, tenantId, "5");
    const platforms = await post(t, "/finance/deduct", ag.token, { userId: c.id, amount: "1.01", remark: "x" }, "en");
    expect(platforms.status).toBe(409);
    expect(platforms.body.message).toContain("you can take back at most 1.00");
    expect(await fx.balance(ag.id)).toBe("13.0000");
    expect(await fx.balance(c.id)).toBe("6.0000");
  });

  it("lets an admin deduct an agent's own balance", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "10" });
    const res = await post(t, "/finance/deduct", admin.token, { userId: ag.id, amount: "4", remark: "correction" });
    expect(res.body.data).toMatchObject({ balance: "6.0000" });
  });

  it("answers 404 for another agent's customer, 403 for a customer, 400 without a remark", async () => {
    const agA = await fx.account(UserType.AGENT, tenantId);
    const agB = await fx.account(UserType.AGENT, tenantId);
    const c = await fx.account(UserType.USER, tenantId, { agentId: agB.id, balance: "5" });
    expect((await post(t, "/finance/deduct", agA.token, { userId: c.id, amount: "1", remark: "x" })).status).toBe(404);
    expect((await post(t, "/finance/deduct", c.token, { userId: c.id, amount: "1", remark: "x" })).status).toBe(403);
    const noRemark = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "1" }, "en");
    expect(noRemark.status).toBe(400);
    expect(noRemark.body.message).toBe("field remark is required");
    const blank = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "1", remark: "  " }, "en");
    expect(blank.status).toBe(400);
    const bad = await post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "1.001", remark: "x" }, "en");
    expect(bad.status).toBe(400);
    expect(await fx.balance(c.id)).toBe("5.0000");
  });
});

describe("POST /user/gift/send", () => {
  it("lets an admin give a customer free balance, logged as gift", async () => {
    const c = await fx.account(UserType.USER, tenantId);
    const res = await post(t, "/user/gift/send", admin.token, { userId: c.id, amount: "8.88", remark: "welcome" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "8.8800", agentBalance: null });
    expect(await lastLog(c.id)).toMatchObject({ type: BalanceLogType.GIFT, amount: 88_800n, remark: "welcome" });
  });

  it("takes an agent's gift out of the agent's balance, and refuses it when that is short", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "10" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: ag.id });
    const res = await post(t, "/user/gift/send", ag.token, { userId: c.id, amount: "10" });
    expect(res.body.data).toMatchObject({ balance: "10.0000", agentBalance: "0.0000" });
    expect(await lastLog(ag.id)).toMatchObject({ type: BalanceLogType.GIFT, amount: -100_000n, balanceAfter: 0n });
    expect((await post(t, "/user/gift/send", ag.token, { userId: c.id, amount: "0.01" })).status).toBe(402);
  });

  it("gives only to customers in scope; customers cannot give; amounts are checked", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId);
    const c = await fx.account(UserType.USER, tenantId);
    expect((await post(t, "/user/gift/send", admin.token, { userId: ag.id, amount: "1" })).status).toBe(404);
    expect((await post(t, "/user/gift/send", ag.token, { userId: c.id, amount: "1" })).status).toBe(404);
    expect((await post(t, "/user/gift/send", c.token, { userId: c.id, amount: "1" })).status).toBe(403);
    for (const amount of ["0", "-3", "1.234", "x"]) {
      const res = await post(t, "/user/gift/send", admin.token, { userId: c.id, amount }, "en");
      expect(res.status, amount).toBe(400);
      expect(res.body.message).toContain("field amount");
    }
    expect((await post(t, "/user/gift/send", admin.token, { userId: c.id })).status).toBe(400);
    expect(await fx.balance(c.id)).toBe("0.0000");
  });
});
