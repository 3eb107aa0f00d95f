// Platform notices: a tenant's admins write, publish, withdraw and delete them; its customers read the
// published ones. Rows of another tenant are filtered out in the where-clause, so they answer like missing ones.
import {
  NOTICE_EXCERPT_LENGTH,
  type NoticeCreateBody,
  type NoticeDetail,
  type NoticeEditBody,
  type NoticeList,
  type NoticeListQuery,
  type NoticeManageList,
  type NoticeManageListQuery,
  type NoticeRow,
  NoticeStatus,
} from "@switchboard/contracts";
import type { Prisma, PrismaClient } from "@switchboard/db";
import { AppError, notFound } from "../../lib/errors";
import { actingTenant, tenantWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";

type NoticeRecord = Prisma.NoticeGetPayload<object>;

function toRow(n: NoticeRecord): NoticeRow {
  return {
    id: n.id,
    tenantId: n.tenantId,
    title: n.title,
    content: n.content,
    status: n.status,
    publishedAt: n.publishedAt?.toISOString() ?? null,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
  };
}

/** The text shortened to one line of at most NOTICE_EXCERPT_LENGTH characters. */
export function excerptOf(content: string): string {
  const flat = content.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= NOTICE_EXCERPT_LENGTH ? flat : `${chars.slice(0, NOTICE_EXCERPT_LENGTH - 1).join("")}…`;
}

function titleContains(keyword: string | undefined): Prisma.NoticeWhereInput {
  return keyword ? { title: { contains: keyword, mode: "insensitive" } } : {};
}

/** Published notices of the caller's own tenant (customers always belong to one). */
function readableWhere(p: Principal): Prisma.NoticeWhereInput {
  return { tenantId: p.tenantId ?? -1, status: NoticeStatus.PUBLISHED };
}

/** Notices the caller manages: its tenant's (a super admin: every tenant's, or the tenant-id header's). */
function managedWhere(p: Principal): Prisma.NoticeWhereInput {
  return tenantWhere(p);
}

const newestFirst: Prisma.NoticeOrderByWithRelationInput[] = [
  { publishedAt: { sort: "desc", nulls: "last" } },
  { id: "desc" },
];

/**
 * The admins' list: what customers see first (published, newest publication first), then the drafts (last
 * edited first). A notice just published is on page 1, however many drafts wait; the id keeps pages stable.
 */
const publishedThenDrafts: Prisma.NoticeOrderByWithRelationInput[] = [
  { status: "asc" },
  { publishedAt: { sort: "desc", nulls: "last" } },
  { updatedAt: "desc" },
  { id: "desc" },
];

export async function listPublished(prisma: PrismaClient, p: Principal, q: NoticeListQuery): Promise<NoticeList> {
  const where: Prisma.NoticeWhereInput = { AND: [readableWhere(p), titleContains(q.keyword)] };
  const [rows, total] = await Promise.all([
    prisma.notice.findMany({
      where,
      orderBy: newestFirst,
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      select: { id: true, title: true, content: true, publishedAt: true },
    }),
    prisma.notice.count({ where }),
  ]);
  return {
    list: rows.map((n) => ({
      id: n.id,
      title: n.title,
      excerpt: excerptOf(n.content),
      publishedAt: n.publishedAt?.toISOString() ?? null,
    })),
    total,
  };
}

export async function publishedDetail(prisma: PrismaClient, p: Principal, id: number): Promise<NoticeDetail> {
  const n = await prisma.notice.findFirst({
    where: { AND: [readableWhere(p), { id }] },
    select: { id: true, title: true, content: true, publishedAt: true },
  });
  if (!n) throw notFound("entity.notice");
  return { ...n, publishedAt: n.publishedAt?.toISOString() ?? null };
}

export async function listManaged(
  prisma: PrismaClient,
  p: Principal,
  q: NoticeManageListQuery,
): Promise<NoticeManageList> {
  const where: Prisma.NoticeWhereInput = {
    AND: [managedWhere(p), titleContains(q.keyword), q.status ? { status: q.status } : {}],
  };
  const [rows, total] = await Promise.all([
    prisma.notice.findMany({
      where,
      orderBy: publishedThenDrafts,
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
    }),
    prisma.notice.count({ where }),
  ]);
  return { list: rows.map(toRow), total };
}

async function findManaged(prisma: PrismaClient, p: Principal, id: number): Promise<NoticeRecord> {
  const n = await prisma.notice.findFirst({ where: { AND: [managedWhere(p), { id }] } });
  if (!n) throw notFound("entity.notice");
  return n;
}

export async function createNotice(
  prisma: PrismaClient,
  p: Principal,
  body: NoticeCreateBody,
  now: Date,
): Promise<NoticeRow> {
  const n = await prisma.notice.create({
    data: {
      tenantId: actingTenant(p),
      title: body.title,
      content: body.content,
      status: body.publish ? NoticeStatus.PUBLISHED : NoticeStatus.DRAFT,
      publishedAt: body.publish ? now : null,
      createdById: p.userId,
    },
  });
  return toRow(n);
}

/**
 * One conditional update of a notice the caller manages; when nothing matched, tells a missing (or another
 * tenant's) notice (404) from one in the wrong state (409).
 */
async function updateManaged(
  prisma: PrismaClient,
  p: Principal,
  id: number,
  onlyIf: Prisma.NoticeWhereInput,
  data: Prisma.NoticeUpdateManyMutationInput,
  wrongState: "notice.already_published" | "notice.not_published" | null,
): Promise<NoticeRow> {
  const rows = await prisma.notice.updateManyAndReturn({ where: { AND: [managedWhere(p), { id }, onlyIf] }, data });
  const row = rows[0];
  if (row) return toRow(row);
  await findManaged(prisma, p, id);
  if (wrongState) throw new AppError(409, wrongState);
  throw notFound("entity.notice");
}

export function editNotice(prisma: PrismaClient, p: Principal, body: NoticeEditBody): Promise<NoticeRow> {
  return updateManaged(prisma, p, body.id, {}, { title: body.title, content: body.content }, null);
}

export function publishNotice(prisma: PrismaClient, p: Principal, id: number, now: Date): Promise<NoticeRow> {
  return updateManaged(
    prisma,
    p,
    id,
    { status: NoticeStatus.DRAFT },
    { status: NoticeStatus.PUBLISHED, publishedAt: now },
    "notice.already_published",
  );
}

/** Back to a draft: customers no longer see it; publishing it again dates it anew. */
export function withdrawNotice(prisma: PrismaClient, p: Principal, id: number): Promise<NoticeRow> {
  return updateManaged(
    prisma,
    p,
    id,
    { status: NoticeStatus.PUBLISHED },
    { status: NoticeStatus.DRAFT, publishedAt: null },
    "notice.not_published",
  );
}

export async function deleteNotice(prisma: PrismaClient, p: Principal, id: number): Promise<{ id: number }> {
  const { count } = await prisma.notice.deleteMany({ where: { AND: [managedWhere(p), { id }] } });
  if (count === 0) throw notFound("entity.notice");
  return { id };
}
