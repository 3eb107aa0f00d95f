// The "who may do what" table of docs/finance.md, one assertion per cell: each finance route called by a super
// admin (inside the tenant named by tenant-id), an admin, the customer's own agent and the customer itself.
// Out-of-scope callers (another agent, another tenant) are covered route by route in the other finance tests.
import { UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures } from "./finance-fixtures";
import { call, createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let tenantId: number;
let roles: Record<Role, { token: string; headers: Record<string, string> }>;
let customer: Account;

type Role = "superAdmin" | "admin" | "agent" | "customer";
const ROLES: Role[] = ["superAdmin", "admin", "agent", "customer"];

beforeAll(async () => {
  t = await createTestApp();
  fx = new FinanceFixtures(t);
  tenantId = await demoTenantId(t.prisma);
  const admin = await fx.account(UserType.ADMIN, tenantId);
  const agent = await fx.account(UserType.AGENT, tenantId, { balance: "1000" });
  customer = await fx.account(UserType.USER, tenantId, { agentId: agent.id, balance: "100" });
  const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN } });
  roles = {
    superAdmin: { token: t.app.signToken(sa).token, headers: { "tenant-id": String(tenantId) } },
    admin: { token: admin.token, headers: {} },
    agent: { token: agent.token, headers: {} },
    customer: { token: customer.token, headers: {} },
  };
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

async function as(role: Role, method: "GET" | "POST", url: string, payload?: Record<string, unknown>) {
  const { token, headers } = roles[role];
  const res = await call<{ total?: number }>(t.app, method, url, {
    token,
    headers,
    ...(method === "GET" ? { query: payload as Record<string, string> } : { body: payload }),
  });
  return res;
}

/** A fresh pending remittance of the customer (each decision needs its own). */
async function pendingRemittance(): Promise<number> {
  const res = await as("customer", "POST", "/finance/remit/create", { amount: "1", payer: "Matrix" });
  expect(res.status).toBe(200);
  return (res.body.data as unknown as { id: number }).id;
}

const money = ["superAdmin", "admin", "agent"] as const;

describe("who may do what (docs/finance.md)", () => {
  const writes: Array<[string, () => Record<string, unknown>]> = [
    ["/finance/recharge", () => ({ userId: customer.id, amount: "1" })],
    ["/finance/deduct", () => ({ userId: customer.id, amount: "1", remark: "matrix" })],
    ["/user/gift/send", () => ({ userId: customer.id, amount: "1" })],
  ];
  for (const [url, body] of writes) {
    it.each(ROLES)(`POST ${url} as %s`, async (role) => {
      const res = await as(role, "POST", url, body());
      expect(res.status).toBe((money as readonly string[]).includes(role) ? 200 : 403);
    });
  }

  it.each(ROLES)("POST /finance/remit/create as %s", async (role) => {
    const res = await as(role, "POST", "/finance/remit/create", { amount: "1", payer: "Matrix" });
    expect(res.status).toBe(role === "customer" ? 200 : 403);
  });

  for (const url of ["/finance/remit/confirm", "/finance/remit/reject"]) {
    it.each(ROLES)(`POST ${url} as %s`, async (role) => {
      const id = await pendingRemittance();
      const res = await as(role, "POST", url, { id, reason: "matrix" });
      expect(res.status).toBe(role === "customer" ? 403 : 200);
    });
  }

  const reads: Array<[string, Record<string, string>]> = [
    ["/finance/recharge/list?type=add", { type: "add" }],
    ["/finance/recharge/list?type=deduct", { type: "deduct" }],
    ["/user/balance/log", {}],
    ["/finance/remit/list", {}],
  ];
  for (const [label, filters] of reads) {
    it.each(ROLES)(`GET ${label} as %s sees the customer's rows`, async (role) => {
      // every role moves or declares something first, so each list has rows whoever runs first
      await as("admin", "POST", "/finance/recharge", { userId: customer.id, amount: "1" });
      await as("admin", "POST", "/finance/deduct", { userId: customer.id, amount: "1", remark: "matrix" });
      await pendingRemittance();
      const url = label.split("?")[0]!;
      const res = await as(role, "GET", url, { ...filters, userId: String(customer.id) });
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBeGreaterThan(0);
    });
  }

  it.each(ROLES)("GET /finance/consume/list as %s", async (role) => {
    const res = await as(role, "GET", "/finance/consume/list", { userId: String(customer.id) });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(0);
  });
});
