// Channel statistics ("channel api statistics" and "finance api" pages), read from the recipients the batch
// worker writes: per channel and per day, over recipients whose sentAt falls in [from, to).
//   sent      recipients handed to the channel      success   send result 1     failed  send result 2
//   delivered receive result 1 (delivery receipt)  cost      sum of the successful recipients' prices
// Always one tenant (a super admin names it): sums across tenants would mix currencies.
import {
  type ChannelStats,
  type ChannelStatsQuery,
  formatMoney,
  ReceiveResult,
  SendResult,
} from "@switchboard/contracts";
import { Prisma, type PrismaClient } from "@switchboard/db";
import { badRequest, notFound } from "../../lib/errors";
import { actingTenant } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { tenantCurrency } from "../catalog/prices.service";

const DAY_MS = 24 * 3600 * 1000;
const DEFAULT_DAYS = 7;
const MAX_DAYS = 366;

interface Counts {
  sent: bigint;
  success: bigint;
  failed: bigint;
  delivered: bigint;
  cost: bigint;
}

const ZERO: Counts = { sent: 0n, success: 0n, failed: 0n, delivered: 0n, cost: 0n };

function countsView(c: Counts) {
  return {
    sent: Number(c.sent),
    success: Number(c.success),
    failed: Number(c.failed),
    delivered: Number(c.delivered),
    cost: formatMoney(c.cost),
  };
}

const aggregates = Prisma.sql`
  count(*)::bigint AS sent,
  count(*) FILTER (WHERE r."sendResult" = ${SendResult.SUCCESS})::bigint AS success,
  count(*) FILTER (WHERE r."sendResult" = ${SendResult.FAILURE})::bigint AS failed,
  count(*) FILTER (WHERE r."receiveResult" = ${ReceiveResult.RECEIVED})::bigint AS delivered,
  coalesce(sum(r.price) FILTER (WHERE r."sendResult" = ${SendResult.SUCCESS}), 0)::bigint AS cost`;

function statsRange(q: ChannelStatsQuery): { from: Date; to: Date } {
  const to = q.to ? new Date(q.to) : new Date();
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - DEFAULT_DAYS * DAY_MS);
  if (from >= to || to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) {
    throw badRequest("channel.stats_range", { days: MAX_DAYS });
  }
  return { from, to };
}

export async function channelStats(prisma: PrismaClient, p: Principal, q: ChannelStatsQuery): Promise<ChannelStats> {
  const tenantId = actingTenant(p);
  const { from, to } = statsRange(q);
  if (q.channelId !== undefined && !(await prisma.channel.findFirst({ where: { id: q.channelId, tenantId } }))) {
    throw notFound("entity.channel");
  }
  const channels = await prisma.channel.findMany({
    where: { tenantId, id: q.channelId, productCode: q.productCode },
    select: { id: true, name: true, kind: true, productCode: true },
    orderBy: { id: "asc" },
  });

  // The channel ids let the (channelId, sentAt) index do the work; the batch join keeps the tenant exact.
  const ids = channels.map((c) => c.id);
  const where = Prisma.sql`
    r."channelId" = ANY(${ids}::int[])
    AND r."sentAt" >= ${from} AND r."sentAt" < ${to}
    AND b."tenantId" = ${tenantId}
    ${q.productCode ? Prisma.sql`AND b."productCode" = ${q.productCode}` : Prisma.empty}`;

  const perChannel = await prisma.$queryRaw<Array<Counts & { channelId: number }>>`
    SELECT r."channelId" AS "channelId", ${aggregates}
    FROM recipients r JOIN message_batches b ON b.id = r."batchId"
    WHERE ${where}
    GROUP BY r."channelId"`;

  const daily = await prisma.$queryRaw<Array<Counts & { day: string }>>`
    WITH days AS (
      SELECT generate_series(
        date_trunc('day', ${from}::timestamptz AT TIME ZONE ${q.timeZone}),
        date_trunc('day', (${to}::timestamptz - interval '1 millisecond') AT TIME ZONE ${q.timeZone}),
        interval '1 day') AS day
    ), agg AS (
      SELECT date_trunc('day', r."sentAt" AT TIME ZONE ${q.timeZone}) AS day, ${aggregates}
      FROM recipients r JOIN message_batches b ON b.id = r."batchId"
      WHERE ${where}
      GROUP BY 1
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
      coalesce(a.sent, 0)::bigint AS sent, coalesce(a.success, 0)::bigint AS success,
      coalesce(a.failed, 0)::bigint AS failed, coalesce(a.delivered, 0)::bigint AS delivered,
      coalesce(a.cost, 0)::bigint AS cost
    FROM days d LEFT JOIN agg a ON a.day = d.day
    ORDER BY d.day`;

  const byChannel = new Map(perChannel.map((row) => [row.channelId, row]));
  const list = channels.map((c) => ({
    channelId: c.id,
    channelName: c.name,
    kind: c.kind,
    productCode: c.productCode,
    ...countsView(byChannel.get(c.id) ?? ZERO),
  }));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    timeZone: q.timeZone,
    currency: await tenantCurrency(prisma, tenantId),
    list,
    total: list.length,
    daily: daily.map((d) => ({ day: d.day, ...countsView(d) })),
  };
}
