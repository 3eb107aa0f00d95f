// Customer identity authentication: the seven-day exemption, submissions with their documents, review
// (pass/reject, each once) and serving a document to those allowed to see it.
// users.authStatus mirrors the customer's latest submission; both change in one transaction, conditionally.
import {
  AUTH_DOCUMENT_MAX_FILES,
  type AuthenticationList,
  type AuthenticationListQuery,
  type AuthenticationRow,
  AuthStatus,
  authenticationSaveFields,
  SEVEN_DAY_EXEMPTION_MS,
  type SevenDayAuthenticateResult,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import type { FileStorage } from "@switchboard/domain/storage";
import type { FastifyBaseLogger } from "fastify";
import { AppError, conflict, notFound, parseInput } from "../../lib/errors";
import { containing, createdBetween, pageArgs } from "../../lib/listing";
import { findManagedCustomer, managedCustomersWhere, tenantWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";
import { type FileKind, removeStored, storedKind, storeUpload, type UploadForm } from "../../plugins/uploads";

// ---------------------------------------------------------------- seven-day exemption

/** Grants a managed customer seven days in which it may submit without being authenticated (from now). */
export async function grantSevenDays(
  prisma: PrismaClient,
  p: Principal,
  userId: number,
  now: Date,
): Promise<SevenDayAuthenticateResult> {
  const customer = await findManagedCustomer(prisma, p, userId, { id: true });
  const until = new Date(now.getTime() + SEVEN_DAY_EXEMPTION_MS);
  const updated = await prisma.user.updateMany({
    where: { id: customer.id, deletedAt: null },
    data: { authExemptUntil: until },
  });
  if (updated.count === 0) throw notFound("entity.user");
  return { userId: customer.id, authExemptUntil: until.toISOString() };
}

// ---------------------------------------------------------------- rows and scope

const rowSelect = {
  id: true,
  tenantId: true,
  userId: true,
  subjectType: true,
  name: true,
  idNumber: true,
  contactName: true,
  contactPhone: true,
  documents: true,
  status: true,
  reason: true,
  reviewerId: true,
  reviewedAt: true,
  createdAt: true,
  user: { select: { username: true, agentId: true } },
} satisfies Prisma.AuthenticationSelect;

type RowData = Prisma.AuthenticationGetPayload<{ select: typeof rowSelect }>;

function toRow(a: RowData): AuthenticationRow {
  return {
    id: a.id,
    userId: a.userId,
    user: a.user.username,
    agentId: a.user.agentId,
    subjectType: a.subjectType,
    name: a.name,
    idNumber: a.idNumber,
    contactName: a.contactName,
    contactPhone: a.contactPhone,
    documentCount: a.documents.length,
    status: a.status,
    reason: a.reason,
    reviewerId: a.reviewerId,
    reviewedAt: a.reviewedAt?.toISOString() ?? null,
    createdAt: a.createdAt.toISOString(),
  };
}

/** Submissions the caller may see: admins their tenant's, agents their customers', customers their own. */
function visibleWhere(p: Principal): Prisma.AuthenticationWhereInput {
  return { ...tenantWhere(p), user: managedCustomersWhere(p) };
}

async function findVisible<S extends Prisma.AuthenticationSelect>(db: Db, p: Principal, id: number, select: S) {
  const row = await db.authentication.findFirst({ where: { AND: [visibleWhere(p), { id }] }, select });
  if (!row) throw notFound("entity.authentication");
  return row;
}

// ---------------------------------------------------------------- list

export async function listAuthentications(
  db: Db,
  p: Principal,
  q: AuthenticationListQuery,
): Promise<AuthenticationList> {
  const k = containing(q.keyword);
  const where: Prisma.AuthenticationWhereInput = {
    AND: [
      visibleWhere(p),
      k ? { OR: [{ name: k }, { idNumber: k }, { user: { username: k } }] } : {},
      { status: q.status, userId: q.userId, createdAt: createdBetween(q) },
    ],
  };
  const [rows, total] = await Promise.all([
    db.authentication.findMany({
      where,
      select: rowSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageArgs(q),
    }),
    db.authentication.count({ where }),
  ]);
  const tenantOf = await tenantNamesFor(
    db,
    p,
    rows.map((r) => r.tenantId),
  );
  return { list: rows.map((r) => ({ ...toRow(r), ...tenantOf(r.tenantId) })), total };
}

// ---------------------------------------------------------------- save

/** Why a customer cannot submit now, from its current authStatus. */
function notSubmittable(authStatus: number | undefined): AppError {
  if (authStatus === AuthStatus.AUTHENTICATING) return conflict("authentication.already_submitted");
  if (authStatus === AuthStatus.AUTHENTICATED) return conflict("authentication.already_authenticated");
  return notFound("entity.user");
}

const SUBMITTABLE = [AuthStatus.NOT_AUTHENTICATED, AuthStatus.REJECTED];

/**
 * A customer submits its details and documents: authStatus 0 or 3 -> 1 and a new submission row, together.
 * Documents are written first (no file I/O inside the transaction) and removed again if the transaction fails.
 */
export async function saveAuthentication(
  deps: { prisma: PrismaClient; storage: FileStorage },
  p: Principal,
  form: UploadForm,
  log: FastifyBaseLogger,
): Promise<AuthenticationRow> {
  const { prisma, storage } = deps;
  const fields = parseInput(authenticationSaveFields, form.fields);
  if (form.files.length === 0)
    throw new AppError(400, "authentication.documents_required", { max: AUTH_DOCUMENT_MAX_FILES });
  const tenantId = p.homeTenantId;
  if (tenantId === null) throw notFound("entity.user");

  const me = await prisma.user.findUnique({ where: { id: p.userId }, select: { authStatus: true } });
  if (!me || !SUBMITTABLE.some((s) => s === me.authStatus)) throw notSubmittable(me?.authStatus);

  const stored: string[] = [];
  try {
    for (const file of form.files) {
      stored.push(await storeUpload(storage, ["authentication", String(tenantId)], file));
    }
    return await prisma.$transaction(async (tx) => {
      const moved = await tx.user.updateMany({
        where: { id: p.userId, deletedAt: null, authStatus: { in: SUBMITTABLE } },
        data: { authStatus: AuthStatus.AUTHENTICATING },
      });
      if (moved.count === 0) {
        // Someone (a parallel submission) got there first: say what the status is now.
        const now = await tx.user.findUnique({ where: { id: p.userId }, select: { authStatus: true } });
        throw notSubmittable(now?.authStatus);
      }
      const created = await tx.authentication.create({
        data: {
          tenantId,
          userId: p.userId,
          subjectType: fields.subjectType,
          name: fields.name,
          idNumber: fields.idNumber,
          contactName: fields.contactName,
          contactPhone: fields.contactPhone,
          documents: stored,
          status: AuthStatus.AUTHENTICATING,
        },
        select: rowSelect,
      });
      return toRow(created);
    });
  } catch (err) {
    const leftovers = await removeStored(storage, stored);
    for (const e of leftovers) log.warn({ err: e }, "could not remove an authentication document after a failed save");
    throw err;
  }
}

// ---------------------------------------------------------------- review

export type ReviewDecision = { pass: true } | { pass: false; reason: string };

/**
 * Admin (its tenant) or owning agent decides a waiting submission, once: conditional on status 1, so a second
 * decision (or a parallel one) is refused instead of applied twice.
 */
export async function reviewAuthentication(
  prisma: PrismaClient,
  p: Principal,
  id: number,
  decision: ReviewDecision,
  now: Date,
): Promise<AuthenticationRow> {
  const found = await findVisible(prisma, p, id, { id: true, userId: true });
  const status = decision.pass ? AuthStatus.AUTHENTICATED : AuthStatus.REJECTED;
  return prisma.$transaction(async (tx) => {
    const decided = await tx.authentication.updateMany({
      where: { id: found.id, status: AuthStatus.AUTHENTICATING },
      data: { status, reviewerId: p.userId, reviewedAt: now, reason: decision.pass ? null : decision.reason },
    });
    if (decided.count === 0) throw conflict("authentication.already_reviewed");
    const mirrored = await tx.user.updateMany({
      where: { id: found.userId, authStatus: AuthStatus.AUTHENTICATING },
      data: { authStatus: status },
    });
    // The waiting submission is always the latest one, so the user waits too; anything else is a broken
    // invariant, and the transaction is rolled back rather than leaving the two disagreeing.
    if (mirrored.count === 0) throw conflict("authentication.already_reviewed");
    return toRow(await tx.authentication.findUniqueOrThrow({ where: { id: found.id }, select: rowSelect }));
  });
}

// ---------------------------------------------------------------- documents

export interface StoredDocument {
  /** Its storage key (UPLOAD_DIR-relative path). */
  key: string;
  kind: FileKind;
  fileName: string;
}

/** A document of a submission the caller may see (owner, its agent, its tenant's admins, super admins). */
export async function findDocument(db: Db, p: Principal, id: number, index: number): Promise<StoredDocument> {
  const row = await findVisible(db, p, id, { id: true, documents: true });
  const rel = row.documents[index];
  const kind = rel ? storedKind(rel) : null;
  if (!rel || !kind) throw notFound("entity.document");
  return { key: rel, kind, fileName: `authentication-${row.id}-${index + 1}.${kind}` };
}
