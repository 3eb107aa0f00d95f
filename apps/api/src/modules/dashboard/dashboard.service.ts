// The dashboards' figures (definitions: packages/contracts/src/dashboard.ts). Everything is an SQL aggregate
// over message_batches rows (their counters) and balance_logs rows; recipients are never read.
//
// One grouped query per source covers the whole window (this month and the 30-day series, whichever starts
// earlier): batches by (UTC day of createdAt, product), spend by UTC day of the balance log row. Today, this month
// and the series are then summed from those day rows, so the three always agree.
//
// Scope (lib/scope.ts, the same rules as the batch lists): a customer its own batches; an agent the batches of
// its customers (the owning agent recorded on the batch at submission); an admin its tenant; a super admin every
// tenant or the one its tenant-id header names.
import {
  type BackendDashboard,
  BalanceLogType,
  BatchStatus,
  type CustomerDashboard,
  DASHBOARD_SERIES_DAYS,
  DASHBOARD_TIME_ZONE,
  DASHBOARD_TOP_CUSTOMERS,
  type DashboardDay,
  formatMoney,
  type PeriodFigures,
  ProductCode,
  type ProductCount,
  UserType,
} from "@switchboard/contracts";
import { Prisma, type PrismaClient } from "@switchboard/db";
import { notFound } from "../../lib/errors";
import { managedCustomersWhere, visibleBatchesWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { tenantCurrency } from "../catalog/prices.service";

const DAY_MS = 24 * 3600 * 1000;
const PRODUCTS: readonly number[] = Object.values(ProductCode);
const SPEND_TYPES = [BalanceLogType.CONSUME, BalanceLogType.REFUND];
/** What a tracked link placeholder starts with: a batch whose stored content holds it has links. */
const LINK_MARK = "{{link:";

export interface DashboardWindow {
  todayFrom: Date;
  monthFrom: Date;
  seriesFrom: Date;
  /** The earliest of monthFrom and seriesFrom: what the queries read. */
  since: Date;
}

/** Start of today, of this month and of the series, in UTC (the dashboards' time zone). */
export function dashboardWindow(now: Date): DashboardWindow {
  const todayFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const monthFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const seriesFrom = new Date(todayFrom.getTime() - (DASHBOARD_SERIES_DAYS - 1) * DAY_MS);
  return { todayFrom, monthFrom, seriesFrom, since: monthFrom < seriesFrom ? monthFrom : seriesFrom };
}

const dayKey = (d: Date) => d.toISOString().slice(0, 10);

/** The batches a caller's dashboard counts, as SQL over `message_batches b` (mirrors visibleBatchesWhere). */
function batchScopeSql(p: Principal): Prisma.Sql {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
      return p.tenantId === null ? Prisma.sql`TRUE` : Prisma.sql`b."tenantId" = ${p.tenantId}`;
    case UserType.ADMIN:
      return Prisma.sql`b."tenantId" = ${p.tenantId ?? -1}`;
    case UserType.AGENT:
      return Prisma.sql`b."tenantId" = ${p.tenantId ?? -1} AND b."agentId" = ${p.userId}`;
    default:
      return Prisma.sql`b."userId" = ${p.userId}`;
  }
}

interface BatchDayRow {
  day: string;
  productCode: number;
  batches: bigint;
  sent: bigint;
  success: bigint;
  delivered: bigint;
  read: bigint;
  fallback: bigint;
}

interface SpendDayRow {
  day: string;
  spend: bigint;
}

async function batchDays(prisma: PrismaClient, scope: Prisma.Sql, since: Date): Promise<BatchDayRow[]> {
  return prisma.$queryRaw<BatchDayRow[]>`
    SELECT to_char(b."createdAt" AT TIME ZONE ${DASHBOARD_TIME_ZONE}, 'YYYY-MM-DD') AS day,
      b."productCode"::int AS "productCode",
      count(*)::bigint AS batches,
      coalesce(sum(b."sentCount"), 0)::bigint AS sent,
      coalesce(sum(b."successCount"), 0)::bigint AS success,
      coalesce(sum(b."deliveredCount"), 0)::bigint AS delivered,
      coalesce(sum(b."readCount"), 0)::bigint AS read,
      coalesce(sum(b."fallbackCount"), 0)::bigint AS fallback
    FROM message_batches b
    WHERE ${scope} AND b."createdAt" >= ${since}
    GROUP BY 1, 2`;
}

interface LinkDayRow {
  day: string;
  sent: bigint;
  clickers: bigint;
}

/**
 * Batches in scope with tracked links, per day: what they sent and their distinct clickers (link_clicks by batch,
 * its index). A batch has links when its content holds a placeholder (docs/batches.md, "Tracked links").
 */
async function linkDays(prisma: PrismaClient, scope: Prisma.Sql, since: Date): Promise<LinkDayRow[]> {
  return prisma.$queryRaw<LinkDayRow[]>`
    SELECT to_char(b."createdAt" AT TIME ZONE ${DASHBOARD_TIME_ZONE}, 'YYYY-MM-DD') AS day,
      coalesce(sum(b."successCount"), 0)::bigint AS sent,
      coalesce(sum(c.clickers), 0)::bigint AS clickers
    FROM message_batches b
    CROSS JOIN LATERAL (
      SELECT count(DISTINCT lc."recipientId") AS clickers FROM link_clicks lc WHERE lc."batchId" = b.id
    ) c
    WHERE ${scope} AND b."createdAt" >= ${since} AND strpos(b.content::text, ${LINK_MARK}) > 0
    GROUP BY 1`;
}

/** Consume and refund rows of batches in scope, netted per day (positive = spent). */
async function spendDays(prisma: PrismaClient, scope: Prisma.Sql, since: Date): Promise<SpendDayRow[]> {
  return prisma.$queryRaw<SpendDayRow[]>`
    SELECT to_char(bl."createdAt" AT TIME ZONE ${DASHBOARD_TIME_ZONE}, 'YYYY-MM-DD') AS day,
      (-sum(bl.amount))::bigint AS spend
    FROM balance_logs bl JOIN message_batches b ON b.id = bl."batchId"
    WHERE ${scope} AND bl.type = ANY(${SPEND_TYPES}::smallint[]) AND bl."createdAt" >= ${since}
    GROUP BY 1`;
}

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

function period(rows: BatchDayRow[], spends: SpendDayRow[], links: LinkDayRow[], fromDay: string): PeriodFigures {
  let batches = 0;
  let sent = 0;
  let success = 0;
  let delivered = 0;
  let read = 0;
  let fallback = 0;
  for (const r of rows) {
    if (r.day < fromDay) continue;
    batches += Number(r.batches);
    sent += Number(r.sent);
    success += Number(r.success);
    delivered += Number(r.delivered);
    read += Number(r.read);
    fallback += Number(r.fallback);
  }
  let spend = 0n;
  for (const s of spends) if (s.day >= fromDay) spend += s.spend;
  let linkSent = 0;
  let clickers = 0;
  for (const l of links) {
    if (l.day < fromDay) continue;
    linkSent += Number(l.sent);
    clickers += Number(l.clickers);
  }
  return {
    batches,
    sent,
    success,
    delivered,
    read,
    fallback,
    successRate: rate(success, sent),
    deliveryRate: rate(delivered, sent),
    readRate: rate(read, delivered),
    fallbackShare: rate(fallback, sent),
    spend: formatMoney(spend),
    linkSent,
    clickers,
    clickRate: rate(clickers, linkSent),
  };
}

function series(rows: BatchDayRow[], seriesFrom: Date, products: readonly number[]): DashboardDay[] {
  const byKey = new Map(rows.map((r) => [`${r.day}/${r.productCode}`, r]));
  return Array.from({ length: DASHBOARD_SERIES_DAYS }, (_, i) => {
    const date = dayKey(new Date(seriesFrom.getTime() + i * DAY_MS));
    return {
      date,
      products: products.map((productCode) => {
        const r = byKey.get(`${date}/${productCode}`);
        return {
          productCode,
          batches: Number(r?.batches ?? 0n),
          sent: Number(r?.sent ?? 0n),
          success: Number(r?.success ?? 0n),
          delivered: Number(r?.delivered ?? 0n),
          read: Number(r?.read ?? 0n),
          fallback: Number(r?.fallback ?? 0n),
        };
      }),
    };
  });
}

/** Today, this month and the day series of the batches in `scope` (of `products`, every product when absent). */
async function periods(prisma: PrismaClient, scope: Prisma.Sql, now: Date, products: readonly number[] = PRODUCTS) {
  const w = dashboardWindow(now);
  const [rows, spends, links] = await Promise.all([
    batchDays(prisma, scope, w.since),
    spendDays(prisma, scope, w.since),
    linkDays(prisma, scope, w.since),
  ]);
  return {
    window: w,
    figures: {
      timeZone: DASHBOARD_TIME_ZONE,
      todayFrom: w.todayFrom.toISOString(),
      monthFrom: w.monthFrom.toISOString(),
      today: period(rows, spends, links, dayKey(w.todayFrom)),
      month: period(rows, spends, links, dayKey(w.monthFrom)),
      series: series(rows, w.seriesFrom, products),
    },
  };
}

/** GET /dashboard/customer: every product, or one (the RCS portal's home asks for RCS). */
export async function customerDashboard(
  prisma: PrismaClient,
  p: Principal,
  now: Date,
  productCode?: number,
): Promise<CustomerDashboard> {
  const me = await prisma.user.findFirst({
    where: { id: p.userId, deletedAt: null },
    select: { balance: true, tenantId: true, authStatus: true, authRequirement: true, authExemptUntil: true },
  });
  if (!me?.tenantId) throw notFound("entity.user");
  const [{ figures }, currency, rejected] = await Promise.all([
    productCode === undefined
      ? periods(prisma, batchScopeSql(p), now)
      : periods(prisma, Prisma.sql`${batchScopeSql(p)} AND b."productCode" = ${productCode}`, now, [productCode]),
    tenantCurrency(prisma, me.tenantId),
    me.authStatus === 3
      ? prisma.authentication.findFirst({
          where: { userId: p.userId, status: 3 },
          orderBy: { id: "desc" },
          select: { reason: true },
        })
      : null,
  ]);
  return {
    ...figures,
    balance: formatMoney(me.balance),
    currency,
    authStatus: me.authStatus,
    authRequirement: me.authRequirement,
    authExemptUntil: me.authExemptUntil?.toISOString() ?? null,
    authRejectReason: rejected?.reason ?? null,
  };
}

function productCounts(
  groups: { productCode: number; status: number; _count: { _all: number } }[],
  status: number,
): ProductCount[] {
  return PRODUCTS.map((productCode) => ({
    productCode,
    count: groups.find((g) => g.productCode === productCode && g.status === status)?._count._all ?? 0,
  }));
}

/** This month's top spenders among the customers in scope, with what their month's batches sent. */
async function topCustomers(prisma: PrismaClient, scope: Prisma.Sql, monthFrom: Date) {
  const top = await prisma.$queryRaw<{ userId: number; spend: bigint }[]>`
    SELECT bl."userId" AS "userId", (-sum(bl.amount))::bigint AS spend
    FROM balance_logs bl JOIN message_batches b ON b.id = bl."batchId"
    WHERE ${scope} AND bl.type = ANY(${SPEND_TYPES}::smallint[]) AND bl."createdAt" >= ${monthFrom}
    GROUP BY bl."userId"
    HAVING sum(bl.amount) < 0
    ORDER BY spend DESC, bl."userId" ASC
    LIMIT ${DASHBOARD_TOP_CUSTOMERS}`;
  if (top.length === 0) return [];
  const ids = top.map((t) => t.userId);
  const [users, sent] = await Promise.all([
    prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } }),
    prisma.$queryRaw<{ userId: number; sent: bigint }[]>`
      SELECT b."userId" AS "userId", coalesce(sum(b."sentCount"), 0)::bigint AS sent
      FROM message_batches b
      WHERE ${scope} AND b."userId" = ANY(${ids}::int[]) AND b."createdAt" >= ${monthFrom}
      GROUP BY b."userId"`,
  ]);
  const names = new Map(users.map((u) => [u.id, u.username]));
  const sentBy = new Map(sent.map((s) => [s.userId, Number(s.sent)]));
  return top.map((t) => ({
    userId: t.userId,
    user: names.get(t.userId) ?? "",
    spend: formatMoney(t.spend),
    sent: sentBy.get(t.userId) ?? 0,
  }));
}

/** GET /dashboard/backend: admins (and super admins) the tenant, agents their own customers. */
export async function backendDashboard(prisma: PrismaClient, p: Principal, now: Date): Promise<BackendDashboard> {
  const scope = batchScopeSql(p);
  const { window, figures } = await periods(prisma, scope, now);
  const [top, queues, customers, currency, own] = await Promise.all([
    topCustomers(prisma, scope, window.monthFrom),
    prisma.messageBatch.groupBy({
      by: ["productCode", "status"],
      where: {
        AND: [visibleBatchesWhere(p), { status: { in: [BatchStatus.UNDER_REVIEW, BatchStatus.SENDING] } }],
      },
      _count: { _all: true },
    }),
    prisma.user.count({ where: managedCustomersWhere(p) }),
    p.tenantId === null ? null : tenantCurrency(prisma, p.tenantId),
    p.type === UserType.AGENT ? prisma.user.findUnique({ where: { id: p.userId }, select: { balance: true } }) : null,
  ]);
  return {
    ...figures,
    currency,
    ownBalance: own ? formatMoney(own.balance) : null,
    customers,
    topCustomers: top,
    reviewQueue: productCounts(queues, BatchStatus.UNDER_REVIEW),
    sending: productCounts(queues, BatchStatus.SENDING),
  };
}
