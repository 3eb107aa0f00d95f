// The ledger under concurrency, through the real routes: the balance never goes below zero, every success is
// one ledger row, and a remittance is credited once however many confirmations race.
import { BalanceLogType, RemittanceStatus, UserType } from "@switchboard/contracts";
import { verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures, post } from "./finance-fixtures";
import { createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let tenantId: number;
let admin: Account;

beforeAll(async () => {
  t = await createTestApp();
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
  admin = await fx.account(UserType.ADMIN, tenantId);
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

function tally(statuses: number[]) {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

describe("concurrency", () => {
  it("50 parallel deducts against a balance covering 20: exactly 20 succeed, 30 get 402", async () => {
    const c = await fx.account(UserType.USER, tenantId, { balance: "20.00" });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(t, "/finance/deduct", admin.token, { userId: c.id, amount: "1.00", remark: `d${i}` }, "en"),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 20, 402: 30 });
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body.message).toMatch(/^insufficient balance \(current balance [\d,]+\.\d{2}\)$/);
    }
    expect(await fx.balance(c.id)).toBe("0.0000");
    expect(await t.prisma.balanceLog.count({ where: { userId: c.id, type: BalanceLogType.DEDUCT } })).toBe(20);
    const check = await verifyLedger(t.prisma, c.id);
    expect(check).toMatchObject({ ok: true, rows: 21, balance: 0n, recordedBalance: 0n });
  });

  it("50 parallel agent recharges against an agent balance covering 20: 20 succeed, both ledgers replay", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "20.00" });
    const customers = await Promise.all(
      Array.from({ length: 5 }, () => fx.account(UserType.USER, tenantId, { agentId: ag.id })),
    );
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(t, "/finance/recharge", ag.token, { userId: customers[i % 5]!.id, amount: "1" }),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 20, 402: 30 });
    expect(await fx.balance(ag.id)).toBe("0.0000");
    const credited = await t.prisma.user.aggregate({
      where: { id: { in: customers.map((c) => c.id) } },
      _sum: { balance: true },
    });
    expect(credited._sum.balance).toBe(200_000n);
    for (const u of [ag, ...customers]) expect((await verifyLedger(t.prisma, u.id)).ok).toBe(true);
  });

  it("10 parallel confirmations of one remittance credit it exactly once", async () => {
    const ag = await fx.account(UserType.AGENT, tenantId, { balance: "500" });
    const c = await fx.account(UserType.USER, tenantId, { agentId: ag.id });
    const created = await post<{ id: number }>(t, "/finance/remit/create", c.token, { amount: "60", payer: "Race" });
    const id = created.body.data.id;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(t, "/finance/remit/confirm", i % 2 ? ag.token : admin.token, { id }, "en"),
      ),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ 200: 1, 409: 9 });
    expect(await fx.balance(c.id)).toBe("60.0000");
    expect(await t.prisma.balanceLog.count({ where: { remittanceId: id, userId: c.id } })).toBe(1);
    const row = await t.prisma.remittance.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe(RemittanceStatus.CONFIRMED);
    // whoever won, the agent paid only if it was the agent
    const agentPaid = row.reviewerId === ag.id;
    expect(await fx.balance(ag.id)).toBe(agentPaid ? "440.0000" : "500.0000");
  });
});
