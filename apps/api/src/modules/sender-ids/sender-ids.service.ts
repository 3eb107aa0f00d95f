// Sender IDs (docs/sender-ids.md): a customer requests, lists and withdraws its own; staff list those in their
// scope (admins their tenant's, agents their customers', read-only); admins approve, reject and revoke. Every
// decision is one conditional update on the status it expects, so a second (or parallel) decision is refused
// instead of applied twice; another tenant's or another customer's row answers like a missing one.
import {
  canonicalSenderId,
  type SenderIdList,
  type SenderIdListQuery,
  type SenderIdRequestBody,
  type SenderIdRow,
  SenderIdStatus,
  senderIdKind,
  UserType,
  type V1SenderId,
  type V1SenderIdList,
  type V1SenderIdQuery,
} from "@switchboard/contracts";
import { type Db, Prisma, type PrismaClient } from "@switchboard/db";
import { cursorPage, type SortKey } from "../../lib/cursor";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { containing, createdBetween, pageArgs } from "../../lib/listing";
import { managedCustomersWhere, tenantWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";

const rowSelect = {
  id: true,
  userId: true,
  senderId: true,
  countryCode: true,
  kind: true,
  status: true,
  note: true,
  reason: true,
  reviewerId: true,
  reviewedAt: true,
  createdAt: true,
  updatedAt: true,
  user: { select: { username: true } },
} satisfies Prisma.SenderIdSelect;

type RowData = Prisma.SenderIdGetPayload<{ select: typeof rowSelect }>;

function toRow(r: RowData, p: Principal): SenderIdRow {
  return {
    id: r.id,
    userId: r.userId,
    user: r.user.username,
    senderId: r.senderId,
    countryCode: r.countryCode,
    kind: senderIdKind(r.senderId),
    status: r.status,
    note: r.note,
    reason: r.reason,
    // Who decided is staff's business; the customer sees the decision and its reason.
    reviewerId: p.type === UserType.USER ? null : r.reviewerId,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Rows the caller may see: customers their own, agents their customers', admins their tenant's (super admins all). */
function visibleWhere(p: Principal): Prisma.SenderIdWhereInput {
  return { ...tenantWhere(p), user: managedCustomersWhere(p) };
}

async function findVisible(db: Db, p: Principal, id: number): Promise<{ id: number }> {
  const row = await db.senderId.findFirst({ where: { AND: [visibleWhere(p), { id }] }, select: { id: true } });
  if (!row) throw notFound("entity.sender_id");
  return row;
}

async function rowById(db: Db, p: Principal, id: number): Promise<SenderIdRow> {
  return toRow(await db.senderId.findUniqueOrThrow({ where: { id }, select: rowSelect }), p);
}

// ---------------------------------------------------------------- list

export async function listSenderIds(db: Db, p: Principal, q: SenderIdListQuery): Promise<SenderIdList> {
  const k = containing(q.keyword);
  const keyword: Prisma.SenderIdWhereInput = !k
    ? {}
    : p.type === UserType.USER
      ? { senderId: k }
      : { OR: [{ senderId: k }, { user: { username: k } }] };
  const where: Prisma.SenderIdWhereInput = {
    AND: [
      visibleWhere(p),
      keyword,
      {
        status: q.status,
        userId: q.userId,
        countryCode: q.countryCode === "ALL" ? null : q.countryCode,
        createdAt: createdBetween(q),
      },
    ],
  };
  const [rows, total] = await Promise.all([
    db.senderId.findMany({
      where,
      select: rowSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageArgs(q),
    }),
    db.senderId.count({ where }),
  ]);
  return { list: rows.map((r) => toRow(r, p)), total };
}

/** Newest first; the cursor's keys (lib/cursor.ts). */
const V1_ORDER: readonly SortKey[] = [
  { field: "createdAt", dir: "desc", kind: "date" },
  { field: "id", dir: "desc", kind: "int" },
];

/**
 * GET /v1/sender-ids: the key's customer's ids, newest first, a page by cursor (a customer has few: the default
 * page holds SENDER_IDS_V1_MAX, so most answers are the whole list with nextCursor null).
 */
export async function listOwnSenderIdsV1(db: Db, p: Principal, q: V1SenderIdQuery): Promise<V1SenderIdList> {
  // A country's ids include those for every country (countryCode null), which cover it too.
  const where: Prisma.SenderIdWhereInput = {
    userId: p.userId,
    status: q.status,
    ...(q.countryCode ? { OR: [{ countryCode: q.countryCode }, { countryCode: null }] } : {}),
  };
  const page = cursorPage(V1_ORDER, { page: 1, pageSize: q.pageSize, cursor: q.cursor });
  const [rows, total] = await Promise.all([
    db.senderId.findMany({ ...page.args(where), select: rowSelect }),
    db.senderId.count({ where }),
  ]);
  return { list: rows.map((r) => toV1(toRow(r, p))), total, nextCursor: page.next(rows) };
}

/** A row as the developer API answers it (the customer's own: no reviewer, no customer name). */
export function toV1(row: SenderIdRow): V1SenderId {
  return {
    id: row.id,
    senderId: row.senderId,
    countryCode: row.countryCode,
    kind: row.kind,
    status: row.status,
    reason: row.reason,
    createdAt: row.createdAt,
    reviewedAt: row.reviewedAt,
  };
}

// ---------------------------------------------------------------- customer

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** Why a request for an id the customer already has cannot be made. */
function alreadyThere(status: number, senderId: string, countryCode: string | null) {
  const params = { senderId, country: countryCode ?? "sender_id.all_countries" };
  return status === SenderIdStatus.APPROVED
    ? conflict("sender_id.already_approved", params)
    : conflict("sender_id.already_requested", params);
}

/**
 * A customer asks to send as `senderId` in one country (or every country). A new row waits for review (status 1);
 * asking again for one that was rejected or revoked puts it back in review with the new note; one that waits or
 * is approved is refused (409).
 */
export async function requestSenderId(
  prisma: PrismaClient,
  p: Principal,
  body: SenderIdRequestBody,
): Promise<SenderIdRow> {
  const tenantId = p.homeTenantId;
  if (tenantId === null) throw notFound("entity.user");
  const senderId = canonicalSenderId(body.senderId);
  const countryCode = body.countryCode;
  if (countryCode !== null) {
    const known = await prisma.country.findUnique({ where: { code: countryCode }, select: { code: true } });
    if (!known) throw badRequest("sender_id.country_unknown", { country: countryCode });
  }
  const data = { kind: senderIdKind(senderId), note: body.note || null };
  const existing = await prisma.senderId.findFirst({
    where: { userId: p.userId, senderId, countryCode },
    select: { id: true, status: true },
  });
  if (existing) {
    const reopenable = [SenderIdStatus.REJECTED, SenderIdStatus.REVOKED];
    if (!reopenable.some((s) => s === existing.status)) throw alreadyThere(existing.status, senderId, countryCode);
    const reopened = await prisma.senderId.updateMany({
      where: { id: existing.id, status: existing.status },
      data: { ...data, status: SenderIdStatus.REQUESTED, reason: null, reviewerId: null, reviewedAt: null },
    });
    if (reopened.count === 0) throw alreadyThere(SenderIdStatus.REQUESTED, senderId, countryCode);
    return rowById(prisma, p, existing.id);
  }
  try {
    const created = await prisma.senderId.create({
      data: { ...data, tenantId, userId: p.userId, senderId, countryCode, status: SenderIdStatus.REQUESTED },
      select: rowSelect,
    });
    return toRow(created, p);
  } catch (err) {
    // A parallel request for the same id and country got there first.
    if (isUniqueViolation(err)) throw alreadyThere(SenderIdStatus.REQUESTED, senderId, countryCode);
    throw err;
  }
}

/**
 * A customer withdraws one of its own ids, whatever its status (a waiting request, or an id it no longer wants):
 * the row goes. Batches already accepted keep the sender id they were accepted with.
 */
export async function withdrawSenderId(prisma: PrismaClient, p: Principal, id: number): Promise<{ id: number }> {
  const { count } = await prisma.senderId.deleteMany({ where: { id, userId: p.userId } });
  if (count === 0) throw notFound("entity.sender_id");
  return { id };
}

// ---------------------------------------------------------------- review (admins)

export type SenderIdDecision =
  | { action: "approve" }
  | { action: "reject"; reason: string }
  | { action: "revoke"; reason: string };

/**
 * An admin decides: approve or reject a waiting request (1 -> 2 or 3), or revoke an approved id (2 -> 4). One
 * conditional update on the expected status: a request already decided (or withdrawn meanwhile) is refused.
 */
export async function decideSenderId(
  prisma: PrismaClient,
  p: Principal,
  id: number,
  decision: SenderIdDecision,
  now: Date,
): Promise<SenderIdRow> {
  const found = await findVisible(prisma, p, id);
  const expected = decision.action === "revoke" ? SenderIdStatus.APPROVED : SenderIdStatus.REQUESTED;
  const status =
    decision.action === "approve"
      ? SenderIdStatus.APPROVED
      : decision.action === "reject"
        ? SenderIdStatus.REJECTED
        : SenderIdStatus.REVOKED;
  const decided = await prisma.senderId.updateMany({
    where: { id: found.id, status: expected },
    data: {
      status,
      reviewerId: p.userId,
      reviewedAt: now,
      reason: decision.action === "approve" ? null : decision.reason,
    },
  });
  if (decided.count === 0) {
    // Withdrawn by the customer meanwhile: gone, like any missing row.
    await findVisible(prisma, p, id);
    throw conflict(decision.action === "revoke" ? "sender_id.not_approved_to_revoke" : "sender_id.not_waiting");
  }
  return rowById(prisma, p, found.id);
}
