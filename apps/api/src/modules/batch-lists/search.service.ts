// Message search: the messages sent to one number across the batches the caller may see, newest first, as a
// CPaaS console's "search by number". The number is read to E.164 as a submission reads it (national forms in the
// tenant's domestic mode), so what was sent is what is found. Who sees which batch: visibleBatchesSql, the SQL
// twin of the batch lists' visibleBatchesWhere (lib/scope.ts).
//
// Bounded and indexed: recipients are found through recipients(phone, batchId, id) walked backwards (newest batch
// first), each joined to its batch by primary key and kept when the caller may see it; at most
// RECIPIENT_SEARCH_MAX are counted and paged, so a number present in every batch of a tenant costs no more.
import {
  RECIPIENT_SEARCH_MAX,
  type RecipientSearchQuery,
  type RecipientSearchResult,
  UserType,
} from "@switchboard/contracts";
import { type Db, Prisma } from "@switchboard/db";
import { productNames } from "@switchboard/domain/batches/batch-row";
import { loadTenantRules } from "@switchboard/domain/batches/context";
import { normalizeNumber } from "@switchboard/numbers";
import { badRequest } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { visibleBatchesSql } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { channelNames } from "./lists.service";

/**
 * How the caller's numbers are read: a customer as it submits (its own numbering, its tenant's mode); staff by
 * their tenant's mode; a super admin across every tenant internationally ("+" or "00").
 */
async function domesticCountryOf(db: Db, p: Principal): Promise<string | undefined> {
  if (p.tenantId === null) return undefined;
  const rules = await loadTenantRules(db, p.tenantId);
  let domestic = !rules.international;
  if (!domestic && p.type === UserType.USER) {
    const me = await db.user.findUnique({ where: { id: p.userId }, select: { international: true } });
    domestic = me?.international === false;
  }
  return domestic ? rules.domesticCountry : undefined;
}

/** The number as submission would store it, or 400. */
export async function searchNumber(db: Db, p: Principal, raw: string): Promise<string> {
  const domesticCountry = await domesticCountryOf(db, p);
  const r = normalizeNumber(raw, domesticCountry ? { domesticCountry } : {});
  if (!r.ok) throw badRequest("batch.number_invalid");
  return r.e164;
}

interface Found {
  id: bigint;
  batchId: bigint;
  phone: string;
  countryCode: string;
  channelId: number | null;
  sendResult: number;
  receiveResult: number;
  errorCode: string | null;
  sentAt: Date | null;
  receivedAt: Date | null;
  readAt: Date | null;
  fallbackFrom: number | null;
  productId: number;
  productCode: number;
  taskType: number;
  status: number;
  userId: number;
  tenantId: number;
  createdAt: Date;
}

/**
 * The recipients of `e164` the caller may see, newest batch first, at most `limit` from `offset`: the index on
 * recipients(phone, batchId, id) read backwards, each row's batch found by its primary key.
 */
export function recipientSearchSql(
  p: Principal,
  e164: string,
  productCode: number | undefined,
  limit: number,
  offset = 0,
): Prisma.Sql {
  return Prisma.sql`
    SELECT r.id, r."batchId", r.phone, r."countryCode", r."channelId", r."sendResult", r."receiveResult",
           r."errorCode", r."sentAt", r."receivedAt", r."readAt", r."fallbackFrom",
           b."productId", b."productCode", b."taskType", b.status, b."userId", b."tenantId", b."createdAt"
    FROM recipients r
    JOIN message_batches b ON b.id = r."batchId"
    WHERE r.phone = ${e164}
      AND ${visibleBatchesSql(p, "b")}
      ${productCode !== undefined ? Prisma.sql`AND b."productCode" = ${productCode}` : Prisma.empty}
    ORDER BY r."batchId" DESC, r.id DESC
    LIMIT ${limit} OFFSET ${offset}`;
}

export async function searchRecipients(db: Db, p: Principal, q: RecipientSearchQuery): Promise<RecipientSearchResult> {
  const e164 = await searchNumber(db, p, q.number);
  const { skip, take } = pageArgs(q);
  // Counted up to one past the bound: more than that is "capped", and nothing past it is read.
  const [counted] = await db.$queryRaw<Array<{ n: bigint }>>`
    SELECT count(*) AS n FROM (${recipientSearchSql(p, e164, q.productCode, RECIPIENT_SEARCH_MAX + 1)}) found`;
  const matches = Number(counted?.n ?? 0);
  const total = Math.min(matches, RECIPIENT_SEARCH_MAX);
  const limit = Math.max(0, Math.min(take, total - skip));
  const rows = limit > 0 ? await db.$queryRaw<Found[]>(recipientSearchSql(p, e164, q.productCode, limit, skip)) : [];

  const staff = p.type !== UserType.USER;
  const acrossTenants = p.type === UserType.SUPER_ADMIN && p.tenantId === null;
  const [products, users, channels, tenants] = await Promise.all([
    productNames(
      db,
      rows.map((r) => r.productId),
    ),
    db.user.findMany({
      where: { id: { in: [...new Set(rows.map((r) => r.userId))] } },
      select: { id: true, username: true },
    }),
    staff
      ? channelNames(
          db,
          rows.map((r) => r.channelId),
        )
      : null,
    acrossTenants
      ? db.tenant.findMany({
          where: { id: { in: [...new Set(rows.map((r) => r.tenantId))] } },
          select: { id: true, name: true },
        })
      : [],
  ]);
  const userName = new Map(users.map((u) => [u.id, u.username]));
  const tenantName = new Map(tenants.map((t) => [t.id, t.name]));
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    list: rows.map((r) => ({
      id: r.id.toString(),
      batchId: r.batchId.toString(),
      productCode: r.productCode,
      productName: products.get(r.productId) ?? "",
      taskType: r.taskType,
      batchStatus: r.status,
      userId: r.userId,
      user: userName.get(r.userId) ?? "",
      phone: r.phone,
      countryCode: r.countryCode,
      sendResult: r.sendResult,
      receiveResult: r.receiveResult,
      errorCode: r.errorCode,
      sentAt: iso(r.sentAt),
      receivedAt: iso(r.receivedAt),
      readAt: iso(r.readAt),
      fellBackToSms: r.fallbackFrom !== null,
      createdAt: r.createdAt.toISOString(),
      // Which provider carries a message is the platform's business, not the customer's.
      channelId: staff ? r.channelId : null,
      channelName: channels && r.channelId !== null ? (channels.get(r.channelId) ?? null) : null,
      tenantName: acrossTenants ? (tenantName.get(r.tenantId) ?? null) : null,
    })),
    total,
    capped: matches > RECIPIENT_SEARCH_MAX,
    e164,
  };
}
