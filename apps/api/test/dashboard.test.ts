// Dashboards: exact figures over batches and ledger rows made for a fresh tenant, tenant and agent isolation,
// roles, and the UTC day/month cut.
import {
  type BackendDashboard,
  BalanceLogType,
  BatchStatus,
  type CustomerDashboard,
  DASHBOARD_SERIES_DAYS,
  ProductCode,
  UserType,
} from "@switchboard/contracts";
import { applyBalanceChange, verifyLedger } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardWindow } from "../src/modules/dashboard/dashboard.service";
import { type Account, get, makeAccount, makeTenant, superAdminToken } from "./accounts";
import { createTestApp, type TestContext } from "./helpers";

const DAY = 24 * 3600 * 1000;

let t: TestContext;
let tenantId: number;
let admin: Account;
let agent1: Account;
let agent2: Account;
let c1: Account; // agent1's
let c2: Account; // agent1's
let c3: Account; // agent2's
let foreignAdmin: Account;
let foreignCustomer: Account;

interface Fixture {
  user: Account;
  agentId: number | null;
  tenantId: number;
  productCode: number;
  status: number;
  createdAt: Date;
  sent: number;
  success: number;
  delivered: number;
  read?: number;
  fallback?: number;
  /** Money units taken at creation and given back later. */
  cost: bigint;
  refund: bigint;
  /** Tracked links: the batch's content holds one, and this many distinct recipients clicked (one twice). */
  clickers?: number;
}
const fixtures: Fixture[] = [];
const touched = new Set<number>();

async function credit(a: Account, units: bigint) {
  touched.add(a.id);
  await t.prisma.$transaction((tx) =>
    applyBalanceChange(tx, {
      tenantId: a.tenantId!,
      userId: a.id,
      type: BalanceLogType.RECHARGE,
      amount: units,
      remark: "opening",
    }),
  );
}

/** A batch row with its counters, its consume row and (when given) a refund row, all dated createdAt. */
async function batch(f: Omit<Fixture, "tenantId" | "agentId"> & { tenantId?: number; agentId?: number | null }) {
  const full: Fixture = { tenantId: f.tenantId ?? tenantId, agentId: f.agentId ?? null, ...f } as Fixture;
  const product = await t.prisma.product.findFirstOrThrow({
    where: { tenantId: full.tenantId, code: full.productCode },
  });
  const b = await t.prisma.messageBatch.create({
    data: {
      tenantId: full.tenantId,
      userId: full.user.id,
      agentId: full.agentId,
      productId: product.id,
      productCode: full.productCode,
      taskType: 2,
      submitMode: 2,
      status: full.status,
      content: { text: full.clickers === undefined ? "hello" : "hello {{link:https://shop.example/a}}" },
      totalCount: full.sent,
      validCount: full.sent,
      sentCount: full.sent,
      successCount: full.success,
      failedCount: full.sent - full.success,
      deliveredCount: full.delivered,
      readCount: full.read ?? 0,
      fallbackCount: full.fallback ?? 0,
      cost: full.cost,
      refunded: full.refund,
      createdAt: full.createdAt,
    },
  });
  touched.add(full.user.id);
  if (full.clickers) {
    const clicks = Array.from({ length: full.clickers }, (_, i) => ({ batchId: b.id, recipientId: BigInt(i + 1) }));
    await t.prisma.linkClick.createMany({ data: [...clicks, clicks[0]!].map((c) => ({ ...c, linkIndex: 0 })) });
  }
  for (const [type, amount] of [
    [BalanceLogType.CONSUME, -full.cost],
    [BalanceLogType.REFUND, full.refund],
  ] as const) {
    if (amount === 0n) continue;
    const applied = await t.prisma.$transaction((tx) =>
      applyBalanceChange(tx, { tenantId: full.tenantId, userId: full.user.id, type, amount, batchId: b.id }),
    );
    await t.prisma.balanceLog.update({ where: { id: applied.logId }, data: { createdAt: full.createdAt } });
  }
  fixtures.push(full);
  return b;
}

async function products(tid: number) {
  for (const code of Object.values(ProductCode)) {
    await t.prisma.product.create({ data: { tenantId: tid, code, name: `P${code}`, category: "test" } });
  }
}

const w = dashboardWindow(new Date());
const at = (from: Date, ms: number) => new Date(from.getTime() + ms);

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await makeTenant(t);
  tenantId = tenant.id;
  await products(tenantId);
  admin = await makeAccount(t, UserType.ADMIN, tenantId);
  agent1 = await makeAccount(t, UserType.AGENT, tenantId, { balance: 0n });
  agent2 = await makeAccount(t, UserType.AGENT, tenantId);
  c1 = await makeAccount(t, UserType.USER, tenantId, { agentId: agent1.id, authStatus: 2 });
  c2 = await makeAccount(t, UserType.USER, tenantId, { agentId: agent1.id, authStatus: 3 });
  c3 = await makeAccount(t, UserType.USER, tenantId, { agentId: agent2.id });
  const foreign = await makeTenant(t);
  await products(foreign.id);
  foreignAdmin = await makeAccount(t, UserType.ADMIN, foreign.id);
  foreignCustomer = await makeAccount(t, UserType.USER, foreign.id);
  for (const c of [c1, c2, c3, foreignCustomer]) await credit(c, 10_000_000n); // 1,000.00 each

  // c1 today: SMS finished, 100 sent, 90 accepted, 80 delivered; 10 failed refunded; a tracked link 18 clicked.
  await batch({
    user: c1,
    agentId: agent1.id,
    productCode: ProductCode.SMS,
    status: BatchStatus.SEND_FINISHED,
    createdAt: at(w.todayFrom, 1000),
    sent: 100,
    success: 90,
    delivered: 80,
    cost: 35_000n,
    refund: 3_500n,
    clickers: 18,
  });
  // c1 two days ago: WS (in the series; in this month unless the month began since).
  await batch({
    user: c1,
    agentId: agent1.id,
    productCode: ProductCode.WS,
    status: BatchStatus.SEND_FINISHED,
    createdAt: at(w.todayFrom, -2 * DAY + 3600_000),
    sent: 50,
    success: 50,
    delivered: 25,
    cost: 20_000n,
    refund: 0n,
  });
  // c1 before the window: counted nowhere.
  await batch({
    user: c1,
    agentId: agent1.id,
    productCode: ProductCode.SMS,
    status: BatchStatus.SEND_FINISHED,
    createdAt: at(w.since, -DAY),
    sent: 7,
    success: 7,
    delivered: 7,
    cost: 7_000n,
    refund: 0n,
    clickers: 3,
  });
  // c2 today: RCS waiting for review (nothing sent yet).
  await batch({
    user: c2,
    agentId: agent1.id,
    productCode: ProductCode.RCS,
    status: BatchStatus.UNDER_REVIEW,
    createdAt: at(w.todayFrom, 2000),
    sent: 0,
    success: 0,
    delivered: 0,
    cost: 12_000n,
    refund: 0n,
  });
  // c3 (agent2) today: SMS sending.
  await batch({
    user: c3,
    agentId: agent2.id,
    productCode: ProductCode.SMS,
    status: BatchStatus.SENDING,
    createdAt: at(w.todayFrom, 3000),
    sent: 40,
    success: 30,
    delivered: 10,
    cost: 50_000n,
    refund: 0n,
  });
  // Another tenant's customer today: never in this tenant's figures.
  await batch({
    tenantId: foreignCustomer.tenantId!,
    user: foreignCustomer,
    productCode: ProductCode.SMS,
    status: BatchStatus.UNDER_REVIEW,
    createdAt: at(w.todayFrom, 4000),
    sent: 999,
    success: 999,
    delivered: 999,
    cost: 99_000n,
    refund: 0n,
  });
});

afterAll(async () => {
  for (const id of touched) expect((await verifyLedger(t.prisma, id)).ok).toBe(true);
  await t.close();
});

/** The figures the dashboards must show, computed from the fixtures. */
function expected(rows: Fixture[], from: Date) {
  const r = rows.filter((f) => f.createdAt >= from);
  const sum = (k: "sent" | "success" | "delivered" | "read" | "fallback") => r.reduce((n, f) => n + (f[k] ?? 0), 0);
  const sent = sum("sent");
  const spendUnits = r.reduce((n, f) => n + f.cost - f.refund, 0n);
  const ratio = (n: number, whole: number) => (whole === 0 ? null : Math.round((n / whole) * 10_000) / 10_000);
  return {
    batches: r.length,
    sent,
    success: sum("success"),
    delivered: sum("delivered"),
    read: sum("read"),
    fallback: sum("fallback"),
    successRate: ratio(sum("success"), sent),
    deliveryRate: ratio(sum("delivered"), sent),
    readRate: ratio(sum("read"), sum("delivered")),
    fallbackShare: ratio(sum("fallback"), sent),
    spend: (Number(spendUnits) / 10_000).toFixed(4),
    linkSent: r.reduce((n, f) => n + (f.clickers === undefined ? 0 : f.success), 0),
    clickers: r.reduce((n, f) => n + (f.clickers ?? 0), 0),
    clickRate: ratio(
      r.reduce((n, f) => n + (f.clickers ?? 0), 0),
      r.reduce((n, f) => n + (f.clickers === undefined ? 0 : f.success), 0),
    ),
  };
}

const ofUsers = (...users: Account[]) => fixtures.filter((f) => users.some((u) => u.id === f.user.id));

describe("GET /dashboard/customer", () => {
  it("gives the customer's balance, authentication and exact figures of its own batches only", async () => {
    const res = await get<CustomerDashboard>(t, "/dashboard/customer", c1.token);
    expect(res.status).toBe(200);
    const d = res.body.data;
    // 1,000.00 - 3.50 + 0.35 - 2.00 - 0.70
    expect(d.balance).toBe("994.1500");
    expect(d.currency).toBe("CNY");
    expect(d.authStatus).toBe(2);
    expect(d.timeZone).toBe("UTC");
    expect(d.todayFrom).toBe(w.todayFrom.toISOString());
    expect(d.monthFrom).toBe(w.monthFrom.toISOString());
    expect(d.today).toEqual(expected(ofUsers(c1), w.todayFrom));
    expect(d.today).toMatchObject({ batches: 1, sent: 100, success: 90, delivered: 80, successRate: 0.9 });
    expect(d.today).toMatchObject({ deliveryRate: 0.8, spend: "3.1500" });
    // Tracked links: distinct clickers over what the batches with links sent (a repeat click counts once).
    expect(d.today).toMatchObject({ linkSent: 90, clickers: 18, clickRate: 0.2 });
    expect(d.month).toEqual(expected(ofUsers(c1), w.monthFrom));
  });

  it("gives 30 days by product, oldest first, zeros included", async () => {
    const d = (await get<CustomerDashboard>(t, "/dashboard/customer", c1.token)).body.data;
    expect(d.series).toHaveLength(DASHBOARD_SERIES_DAYS);
    expect(d.series[0]!.date).toBe(w.seriesFrom.toISOString().slice(0, 10));
    const today = d.series.at(-1)!;
    expect(today.date).toBe(w.todayFrom.toISOString().slice(0, 10));
    expect(today.products).toEqual([
      { productCode: 1000, batches: 0, sent: 0, success: 0, delivered: 0, read: 0, fallback: 0 },
      { productCode: 2000, batches: 0, sent: 0, success: 0, delivered: 0, read: 0, fallback: 0 },
      { productCode: 3000, batches: 1, sent: 100, success: 90, delivered: 80, read: 0, fallback: 0 },
    ]);
    const twoDaysAgo = d.series.at(-3)!;
    expect(twoDaysAgo.products.find((p) => p.productCode === 2000)).toEqual({
      productCode: 2000,
      batches: 1,
      sent: 50,
      success: 50,
      delivered: 25,
      read: 0,
      fallback: 0,
    });
    const total = d.series.flatMap((day) => day.products).reduce((n, p) => n + p.sent, 0);
    expect(total).toBe(150); // the batch before the window is not in it
  });

  it("has no rates when nothing was sent, and gives the rejection reason", async () => {
    await t.prisma.authentication.create({
      data: {
        tenantId,
        userId: c2.id,
        subjectType: 1,
        name: "N",
        idNumber: "1234",
        status: 3,
        reason: "blurred photo",
      },
    });
    const d = (await get<CustomerDashboard>(t, "/dashboard/customer", c2.token)).body.data;
    expect(d.today).toEqual({
      batches: 1,
      sent: 0,
      success: 0,
      delivered: 0,
      read: 0,
      fallback: 0,
      successRate: null,
      deliveryRate: null,
      readRate: null,
      fallbackShare: null,
      spend: "1.2000",
      linkSent: 0,
      clickers: 0,
      clickRate: null,
    });
    expect(d.authStatus).toBe(3);
    expect(d.authRejectReason).toBe("blurred photo");
  });

  it("is for customers only", async () => {
    expect((await get(t, "/dashboard/customer", undefined)).status).toBe(401);
    for (const a of [admin, agent1]) expect((await get(t, "/dashboard/customer", a.token)).status).toBe(403);
  });
});

describe("GET /dashboard/backend", () => {
  it("gives an admin the whole tenant, exactly, and nothing of another tenant", async () => {
    const res = await get<BackendDashboard>(t, "/dashboard/backend", admin.token);
    expect(res.status).toBe(200);
    const d = res.body.data;
    const mine = fixtures.filter((f) => f.tenantId === tenantId);
    expect(d.today).toEqual(expected(mine, w.todayFrom));
    expect(d.today).toMatchObject({ batches: 3, sent: 140, success: 120, delivered: 90, spend: "9.3500" });
    expect(d.today.successRate).toBe(0.8571);
    expect(d.today.deliveryRate).toBe(0.6429);
    expect(d.month).toEqual(expected(mine, w.monthFrom));
    expect(d.currency).toBe("CNY");
    expect(d.ownBalance).toBeNull();
    expect(d.customers).toBe(3);
    expect(d.reviewQueue).toEqual([
      { productCode: 1000, count: 1 },
      { productCode: 2000, count: 0 },
      { productCode: 3000, count: 0 },
    ]);
    expect(d.sending).toEqual([
      { productCode: 1000, count: 0 },
      { productCode: 2000, count: 0 },
      { productCode: 3000, count: 1 },
    ]);
    // This month's spend: c3 5.00; c1 3.15 (+ 2.00 when two days ago is in this month); c2 1.20.
    const c1Month = expected(ofUsers(c1), w.monthFrom);
    const top = [
      { userId: c3.id, user: c3.username, spend: "5.0000", sent: 40 },
      { userId: c1.id, user: c1.username, spend: c1Month.spend, sent: c1Month.sent },
      { userId: c2.id, user: c2.username, spend: "1.2000", sent: 0 },
    ];
    expect(d.topCustomers).toEqual(c1Month.spend === "5.1500" ? [top[1], top[0], top[2]] : top);
    const today = d.series.at(-1)!.products;
    expect(today.map((p) => p.batches)).toEqual([1, 0, 2]);
  });

  it("gives an agent only its own customers' batches, spend and queues", async () => {
    const d = (await get<BackendDashboard>(t, "/dashboard/backend", agent1.token)).body.data;
    expect(d.today).toEqual(expected(ofUsers(c1, c2), w.todayFrom));
    expect(d.month).toEqual(expected(ofUsers(c1, c2), w.monthFrom));
    expect(d.customers).toBe(2);
    expect(d.ownBalance).toBe("0.0000");
    expect(d.topCustomers.map((c) => c.userId)).toEqual([c1.id, c2.id]);
    expect(d.reviewQueue.find((q) => q.productCode === 1000)?.count).toBe(1);
    expect(d.sending.every((q) => q.count === 0)).toBe(true);

    const other = (await get<BackendDashboard>(t, "/dashboard/backend", agent2.token)).body.data;
    expect(other.today).toEqual(expected(ofUsers(c3), w.todayFrom));
    expect(other.topCustomers.map((c) => c.userId)).toEqual([c3.id]);
    expect(other.reviewQueue.every((q) => q.count === 0)).toBe(true);
    expect(other.sending.find((q) => q.productCode === 3000)?.count).toBe(1);
    expect(other.customers).toBe(1);
  });

  it("keeps tenants apart: another tenant's admin sees its own batch only", async () => {
    const d = (await get<BackendDashboard>(t, "/dashboard/backend", foreignAdmin.token)).body.data;
    expect(d.today).toEqual(expected(ofUsers(foreignCustomer), w.todayFrom));
    expect(d.topCustomers.map((c) => c.userId)).toEqual([foreignCustomer.id]);
    expect(d.reviewQueue.find((q) => q.productCode === 3000)?.count).toBe(1);
  });

  it("lets a super admin look inside the tenant its header names", async () => {
    const sa = await superAdminToken(t);
    const d = (
      await get<BackendDashboard>(t, "/dashboard/backend", sa.token, { headers: { "tenant-id": String(tenantId) } })
    ).body.data;
    expect(d.today).toEqual(
      expected(
        fixtures.filter((f) => f.tenantId === tenantId),
        w.todayFrom,
      ),
    );
    expect(d.currency).toBe("CNY");
    const all = (await get<BackendDashboard>(t, "/dashboard/backend", sa.token)).body.data;
    expect(all.currency).toBeNull();
    expect(all.today.batches).toBeGreaterThanOrEqual(4);
  });

  it("is for staff only", async () => {
    expect((await get(t, "/dashboard/backend", undefined)).status).toBe(401);
    const res = await get(t, "/dashboard/backend", c1.token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(1);
  });
});

describe("GET /dashboard/customer?productCode (the RCS portal's home)", () => {
  it("gives one product's figures only, with its read rate and SMS fallback share", async () => {
    const c4 = await makeAccount(t, UserType.USER, tenantId, { authStatus: 2 });
    await credit(c4, 10_000_000n);
    const rcs = {
      user: c4,
      productCode: ProductCode.RCS,
      status: BatchStatus.SEND_FINISHED,
      createdAt: at(w.todayFrom, 1000),
      sent: 50,
      success: 48,
      delivered: 40,
      read: 30,
      fallback: 10,
      cost: 5_000n,
      refund: 0n,
    };
    await batch(rcs);
    await batch({ ...rcs, productCode: ProductCode.SMS, read: 0, fallback: 0, sent: 70, success: 70, delivered: 70 });

    const res = await get<CustomerDashboard>(t, "/dashboard/customer?productCode=1000", c4.token);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.today).toMatchObject({ batches: 1, sent: 50, delivered: 40, read: 30, fallback: 10, spend: "0.5000" });
    expect(d.today).toMatchObject({ readRate: 0.75, fallbackShare: 0.2, deliveryRate: 0.8 });
    expect(d.series).toHaveLength(DASHBOARD_SERIES_DAYS);
    expect(d.series.at(-1)!.products).toEqual([
      { productCode: 1000, batches: 1, sent: 50, success: 48, delivered: 40, read: 30, fallback: 10 },
    ]);
    // Every product together still counts both.
    const all = (await get<CustomerDashboard>(t, "/dashboard/customer", c4.token)).body.data;
    expect(all.today).toMatchObject({ batches: 2, sent: 120, fallback: 10 });
  });

  it("refuses a product code that does not exist", async () => {
    const res = await get(t, "/dashboard/customer?productCode=1234", c1.token);
    expect(res.status).toBe(400);
  });
});

describe("dashboard window", () => {
  it("cuts today, the month and 30 days in UTC", () => {
    const x = dashboardWindow(new Date("2026-03-31T23:59:59.999+00:00"));
    expect(x.todayFrom.toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect(x.monthFrom.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(x.seriesFrom.toISOString()).toBe("2026-03-02T00:00:00.000Z");
    expect(x.since).toEqual(x.monthFrom);
    const y = dashboardWindow(new Date("2026-03-01T00:00:00.000+08:00")); // still Feb 28 in UTC
    expect(y.todayFrom.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(y.monthFrom.toISOString()).toBe("2026-02-01T00:00:00.000Z");
    expect(y.since).toEqual(y.seriesFrom);
  });
});
