// Remittances: a customer declares a bank transfer (with an optional proof file); its agent or an admin
// confirms it, which credits the customer through the ledger (type 6), or rejects it with a reason.
// Each remittance is decided at most once: the status moves from pending by a conditional update in the same
// transaction as the ledger change, so concurrent confirmations credit it exactly once.
import {
  BalanceLogType,
  formatMoney,
  type RemitCreateFields,
  type RemitListQuery,
  type RemitRejectBody,
  type RemittanceList,
  type RemittanceRow,
  RemittanceStatus,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { LEDGER_TX_OPTIONS } from "@switchboard/domain/ledger";
import type { FileStorage } from "@switchboard/domain/storage";
import { conflict, notFound } from "../../lib/errors";
import { createdBetween, pageArgs } from "../../lib/listing";
import { actingTenant, managedCustomersWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";
import { CONTENT_TYPES, removeStored, storedKind, storeUpload, type UploadedFile } from "../../plugins/uploads";
import { moveBalance } from "./finance.service";

export interface RemittanceDeps {
  prisma: PrismaClient;
  /** Where proofs are stored (app.storage: UPLOAD_DIR or an S3 bucket). */
  storage: FileStorage;
}

const rowSelect = {
  id: true,
  tenantId: true,
  userId: true,
  amount: true,
  payer: true,
  reference: true,
  remark: true,
  proofPath: true,
  status: true,
  reviewerId: true,
  reason: true,
  reviewedAt: true,
  createdAt: true,
  user: { select: { username: true } },
} satisfies Prisma.RemittanceSelect;
type Row = Prisma.RemittanceGetPayload<{ select: typeof rowSelect }>;

function toRow(r: Row, reviewers: Map<number, string>): RemittanceRow {
  return {
    id: r.id,
    userId: r.userId,
    user: r.user.username,
    amount: formatMoney(r.amount),
    payer: r.payer,
    reference: r.reference,
    remark: r.remark,
    hasProof: r.proofPath !== null,
    status: r.status,
    reviewer: r.reviewerId === null ? null : (reviewers.get(r.reviewerId) ?? null),
    reason: r.reason,
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

async function reviewerNames(db: Db, rows: { reviewerId: number | null }[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.reviewerId === null ? [] : [r.reviewerId])))];
  if (ids.length === 0) return new Map();
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } });
  return new Map(users.map((u) => [u.id, u.username]));
}

async function loadRow(db: Db, id: number): Promise<RemittanceRow> {
  const row = await db.remittance.findUniqueOrThrow({ where: { id }, select: rowSelect });
  return toRow(row, await reviewerNames(db, [row]));
}

/**
 * Remittances the caller may see and decide: a customer its own, an agent its customers', an admin its
 * tenant's (scope.ts: managedCustomersWhere). Another tenant's or agent's remittance answers 404.
 */
function visibleWhere(p: Principal): Prisma.RemittanceWhereInput {
  return { user: managedCustomersWhere(p) };
}

async function findVisible(db: Db, p: Principal, id: number) {
  const row = await db.remittance.findFirst({
    where: { AND: [visibleWhere(p), { id }] },
    select: {
      id: true,
      amount: true,
      proofPath: true,
      user: { select: { id: true, tenantId: true, username: true } },
    },
  });
  if (!row) throw notFound("entity.remittance");
  return row;
}

/** POST /finance/remit/create: the caller (a customer) declares a transfer; the proof is stored first. */
export async function createRemittance(
  deps: RemittanceDeps,
  p: Principal,
  fields: RemitCreateFields,
  proof: UploadedFile | undefined,
): Promise<RemittanceRow> {
  const tenantId = actingTenant(p);
  const proofPath = proof ? await storeUpload(deps.storage, ["remittances", String(tenantId)], proof) : null;
  let id: number;
  try {
    const created = await deps.prisma.remittance.create({
      data: {
        tenantId,
        userId: p.userId,
        amount: fields.amount,
        payer: fields.payer,
        reference: fields.reference || null,
        remark: fields.remark || null,
        proofPath,
      },
      select: { id: true },
    });
    id = created.id;
  } catch (err) {
    // No row points at the stored proof: remove it, and report a failed removal beside the original error.
    if (proofPath) {
      const leftovers = await removeStored(deps.storage, [proofPath]);
      if (leftovers.length > 0)
        throw new AggregateError([err, ...leftovers], "remittance not saved; proof left on disk");
    }
    throw err;
  }
  return loadRow(deps.prisma, id);
}

/** GET /finance/remit/list: newest first, with the count and amount sum of every matching remittance. */
export async function remittanceList(deps: RemittanceDeps, p: Principal, q: RemitListQuery): Promise<RemittanceList> {
  const where: Prisma.RemittanceWhereInput = {
    AND: [
      visibleWhere(p),
      ...(q.status ? [{ status: q.status }] : []),
      ...(q.userId ? [{ userId: q.userId }] : []),
      ...(q.agentId ? [{ user: { agentId: q.agentId } }] : []),
      ...(q.from || q.to ? [{ createdAt: createdBetween(q) }] : []),
    ],
  };
  const db = deps.prisma;
  const [rows, total, sum] = await Promise.all([
    db.remittance.findMany({ where, orderBy: { id: "desc" }, ...pageArgs(q), select: rowSelect }),
    db.remittance.count({ where }),
    db.remittance.aggregate({ where, _sum: { amount: true } }),
  ]);
  const [reviewers, tenantOf] = await Promise.all([
    reviewerNames(db, rows),
    tenantNamesFor(
      db,
      p,
      rows.map((r) => r.tenantId),
    ),
  ]);
  return {
    list: rows.map((r) => ({ ...toRow(r, reviewers), ...tenantOf(r.tenantId) })),
    total,
    totalAmount: formatMoney(sum._sum.amount ?? 0n),
  };
}

/** Moves a pending remittance to `status`; zero rows means someone decided it first. */
async function decide(
  tx: Prisma.TransactionClient,
  p: Principal,
  id: number,
  status: RemittanceStatus,
  reason: string | null,
) {
  const updated = await tx.remittance.updateMany({
    where: { id, status: RemittanceStatus.PENDING },
    data: { status, reviewerId: p.userId, reviewedAt: new Date(), reason },
  });
  if (updated.count === 0) throw conflict("finance.remittance_processed");
}

/**
 * POST /finance/remit/confirm: credits the customer (type 6). An agent's confirmation draws the amount from
 * the agent's own balance (reseller model: the customer paid the agent); an admin's draws from no one.
 */
export async function confirmRemittance(deps: RemittanceDeps, p: Principal, id: number): Promise<RemittanceRow> {
  actingTenant(p); // a super admin decides only inside the tenant it names
  await deps.prisma.$transaction(async (tx) => {
    const r = await findVisible(tx, p, id);
    await decide(tx, p, id, RemittanceStatus.CONFIRMED, null);
    await moveBalance(tx, p, r.user, {
      type: BalanceLogType.REMITTANCE,
      amount: r.amount,
      remittanceId: r.id,
    });
  }, LEDGER_TX_OPTIONS);
  return loadRow(deps.prisma, id);
}

/** POST /finance/remit/reject: with a reason; no money moves. */
export async function rejectRemittance(
  deps: RemittanceDeps,
  p: Principal,
  body: RemitRejectBody,
): Promise<RemittanceRow> {
  actingTenant(p); // a super admin decides only inside the tenant it names
  await deps.prisma.$transaction(async (tx) => {
    await findVisible(tx, p, body.id);
    await decide(tx, p, body.id, RemittanceStatus.REJECTED, body.reason);
  });
  return loadRow(deps.prisma, body.id);
}

export interface ProofFile {
  /** Its storage key (UPLOAD_DIR-relative path). */
  key: string;
  contentType: string;
  fileName: string;
}

/** GET /finance/remit/proof: where the proof of a remittance the caller may see is stored. */
export async function remittanceProof(deps: RemittanceDeps, p: Principal, id: number): Promise<ProofFile> {
  const r = await findVisible(deps.prisma, p, id);
  if (!r.proofPath) throw notFound("entity.remittance_proof");
  const kind = storedKind(r.proofPath);
  // Proofs are stored under names this module chose (storeUpload): anything else is a bug, answered 500.
  if (!kind) throw new Error(`remittance ${r.id}: stored proof has an unknown kind`);
  return {
    key: r.proofPath,
    contentType: CONTENT_TYPES[kind],
    fileName: `remittance-${r.id}.${kind}`,
  };
}
