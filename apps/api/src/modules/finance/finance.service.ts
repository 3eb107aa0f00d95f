// Recharge, deduct and gift by staff, and the lists read from the balance log (recharge/deduct records,
// consume records, the balance log itself). Every movement goes through ledger.ts.
//
// Reseller model (docs/finance.md): an agent's customers' balance comes out of the agent's own balance. When an
// agent recharges, gifts or confirms a remittance, its balance goes down by the same amount in the same
// transaction; when it deducts, the amount goes back to it, but only out of what it paid into that customer and
// the customer has not spent (the ledger keeps that part). Admins act for the platform and draw from no one.
import {
  type BalanceChangeResult,
  type BalanceLogList,
  type BalanceLogQuery,
  type BalanceLogRow,
  BalanceLogType,
  type ConsumeList,
  type ConsumeListQuery,
  type DeductBody,
  formatMoney,
  type GiftSendBody,
  type Paging,
  type RechargeBody,
  type RechargeListQuery,
  UserType,
  type V1Balance,
  type V1BalanceLogList,
} from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { type AppliedChange, applyBalanceChange, LEDGER_TX_OPTIONS } from "@switchboard/domain/ledger";
import { cursorPage, type SortKey } from "../../lib/cursor";
import { AppError, notFound } from "../../lib/errors";
import { containing, createdBetween, type Paged } from "../../lib/listing";
import { actingTenant, findManagedBalanceAccount, findManagedCustomer, visibleUsersWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";

export interface FinanceDeps {
  prisma: PrismaClient;
}

const accountSelect = { id: true, tenantId: true, username: true } satisfies Prisma.UserSelect;
export type BalanceAccount = Prisma.UserGetPayload<{ select: typeof accountSelect }>;

export interface Movement {
  type: BalanceLogType;
  /** Signed money units for the target: positive credits it, negative debits it. */
  amount: bigint;
  remark?: string | undefined;
  remittanceId?: number;
}

export interface MovementResult extends AppliedChange {
  /** The acting agent's balance after its side of the movement; null when an admin acted. */
  agentBalance: bigint | null;
}

/**
 * Moves the target's balance inside `tx`; when the caller is an agent, the opposite amount moves on the agent's
 * own balance first. Agent first, always: every transaction locks the agent's row before its customer's, so
 * two transactions can never wait on each other.
 */
export async function moveBalance(
  tx: Prisma.TransactionClient,
  p: Principal,
  target: BalanceAccount,
  m: Movement,
): Promise<MovementResult> {
  const tenantId = target.tenantId;
  if (tenantId === null) throw new Error("moveBalance: balance accounts always belong to a tenant");
  let agentBalance: bigint | null = null;
  if (p.type === UserType.AGENT) {
    const agentSide = await applyAgentSide(tx, p.userId, tenantId, target.username, m);
    agentBalance = agentSide.balanceAfter;
  }
  const applied = await applyBalanceChange(tx, {
    tenantId,
    userId: target.id,
    type: m.type,
    amount: m.amount,
    operatorId: p.userId,
    remittanceId: m.remittanceId ?? null,
    remark: m.remark ?? null,
    // An agent moves its own money in its customer's balance; an admin moves the platform's.
    fundingAgentId: p.type === UserType.AGENT ? p.userId : null,
  });
  return { ...applied, agentBalance };
}

/** The agent's row of a movement: the opposite amount; its remark names the customer, as nothing else does. */
async function applyAgentSide(
  tx: Prisma.TransactionClient,
  agentId: number,
  tenantId: number,
  customer: string,
  m: Movement,
): Promise<AppliedChange> {
  try {
    return await applyBalanceChange(tx, {
      tenantId,
      userId: agentId,
      type: m.type,
      amount: -m.amount,
      operatorId: agentId,
      remittanceId: m.remittanceId ?? null,
      remark: m.remark ? `[${customer}] ${m.remark}` : `[${customer}]`,
    });
  } catch (err) {
    // The same refusals, worded for the agent: it is the agent's own balance, not the customer's.
    if (err instanceof AppError && err.key === "finance.insufficient_balance")
      throw new AppError(402, "finance.agent_insufficient_balance", err.params);
    if (err instanceof AppError && err.key === "finance.balance_limit")
      throw new AppError(409, "finance.agent_balance_limit", err.params);
    throw err;
  }
}

function toChangeResult(userId: number, r: MovementResult): BalanceChangeResult {
  return {
    logId: r.logId.toString(),
    userId,
    balance: formatMoney(r.balanceAfter),
    agentBalance: r.agentBalance === null ? null : formatMoney(r.agentBalance),
  };
}

type TargetFinder = (db: Db, p: Principal, userId: number) => Promise<BalanceAccount>;
const anyBalanceAccount: TargetFinder = (db, p, userId) => findManagedBalanceAccount(db, p, userId, accountSelect);
const customerOnly: TargetFinder = (db, p, userId) => findManagedCustomer(db, p, userId, accountSelect);

async function changeBalance(
  deps: FinanceDeps,
  p: Principal,
  userId: number,
  find: TargetFinder,
  m: Movement,
): Promise<BalanceChangeResult> {
  actingTenant(p); // a super admin moves money only inside the tenant it names
  const result = await deps.prisma.$transaction(async (tx) => {
    const target = await find(tx, p, userId);
    return moveBalance(tx, p, target, m);
  }, LEDGER_TX_OPTIONS);
  return toChangeResult(userId, result);
}

/** POST /finance/recharge: an admin credits any agent or customer of its tenant, an agent its own customers. */
export function recharge(deps: FinanceDeps, p: Principal, body: RechargeBody) {
  return changeBalance(deps, p, body.userId, anyBalanceAccount, {
    type: BalanceLogType.RECHARGE,
    amount: body.amount,
    remark: body.remark,
  });
}

/**
 * POST /finance/deduct: same scope as recharge; refused with 402 when the balance is short, and for an agent with
 * 409 beyond what it paid into the customer and the customer has not spent.
 */
export function deduct(deps: FinanceDeps, p: Principal, body: DeductBody) {
  return changeBalance(deps, p, body.userId, anyBalanceAccount, {
    type: BalanceLogType.DEDUCT,
    amount: -body.amount,
    remark: body.remark,
  });
}

/** POST /user/gift/send: free balance for a customer (an agent's gift comes out of its own balance). */
export function sendGift(deps: FinanceDeps, p: Principal, body: GiftSendBody) {
  return changeBalance(deps, p, body.userId, customerOnly, {
    type: BalanceLogType.GIFT,
    amount: body.amount,
    remark: body.remark,
  });
}

// ---------------------------------------------------------------- lists

interface LedgerFilters {
  userId?: number | undefined;
  agentId?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Rows of users the caller sees (scope.ts), narrowed by the common filters. */
function ledgerWhere(p: Principal, q: LedgerFilters): Prisma.BalanceLogWhereInput[] {
  return [
    { user: visibleUsersWhere(p) },
    ...(q.userId ? [{ userId: q.userId }] : []),
    ...(q.agentId ? [{ user: { agentId: q.agentId } }] : []),
    ...(q.from || q.to ? [{ createdAt: createdBetween(q) }] : []),
  ];
}

const rowSelect = {
  id: true,
  tenantId: true,
  userId: true,
  type: true,
  amount: true,
  balanceAfter: true,
  operatorId: true,
  batchId: true,
  remittanceId: true,
  remark: true,
  createdAt: true,
  user: { select: { username: true } },
} satisfies Prisma.BalanceLogSelect;
type LogRow = Prisma.BalanceLogGetPayload<{ select: typeof rowSelect }>;

/** Usernames of the operators of a page of rows (operatorId has no relation: operators may be super admins). */
async function operatorNames(db: Db, rows: { operatorId: number | null }[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.operatorId === null ? [] : [r.operatorId])))];
  if (ids.length === 0) return new Map();
  const users = await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } });
  return new Map(users.map((u) => [u.id, u.username]));
}

function toRow(r: LogRow, operators: Map<number, string>): BalanceLogRow {
  return {
    id: r.id.toString(),
    userId: r.userId,
    user: r.user.username,
    type: r.type,
    amount: formatMoney(r.amount),
    balanceAfter: formatMoney(r.balanceAfter),
    operator: r.operatorId === null ? null : (operators.get(r.operatorId) ?? null),
    batchId: r.batchId?.toString() ?? null,
    remittanceId: r.remittanceId,
    remark: r.remark,
    createdAt: r.createdAt.toISOString(),
  };
}

/** One page of balance log rows, newest first, with the count and amount sum of every matching row. */
/** Newest first (ids grow with time). */
const LOG_ORDER: readonly SortKey[] = [{ field: "id", dir: "desc", kind: "bigint" }];

async function listLog(db: Db, where: Prisma.BalanceLogWhereInput, q: Paged<Paging>) {
  const page = cursorPage(LOG_ORDER, q);
  const [rows, total, sum] = await Promise.all([
    db.balanceLog.findMany({
      ...page.args(where),
      select: rowSelect,
    }),
    db.balanceLog.count({ where }),
    db.balanceLog.aggregate({ where, _sum: { amount: true } }),
  ]);
  return { rows, total, totalAmount: formatMoney(sum._sum.amount ?? 0n), nextCursor: page.next(rows) };
}

/** Rows a recharge record shows: credits by staff (add) or deducts. Sign included: an agent's own side is not. */
const RECHARGE_KIND: Record<RechargeListQuery["type"], Prisma.BalanceLogWhereInput> = {
  add: {
    type: { in: [BalanceLogType.RECHARGE, BalanceLogType.GIFT, BalanceLogType.REMITTANCE] },
    amount: { gt: 0 },
  },
  deduct: { type: BalanceLogType.DEDUCT, amount: { lt: 0 } },
};

/** GET /finance/recharge/list */
export async function rechargeList(deps: FinanceDeps, p: Principal, q: RechargeListQuery): Promise<BalanceLogList> {
  const keyword = containing(q.keyword);
  const where: Prisma.BalanceLogWhereInput = {
    AND: [
      RECHARGE_KIND[q.type],
      ...ledgerWhere(p, q),
      ...(keyword ? [{ OR: [{ user: { username: keyword } }, { remark: keyword }] }] : []),
    ],
  };
  const { rows, total, totalAmount } = await listLog(deps.prisma, where, q);
  const [operators, tenantOf] = await Promise.all([
    operatorNames(deps.prisma, rows),
    tenantNamesFor(
      deps.prisma,
      p,
      rows.map((r) => r.tenantId),
    ),
  ]);
  return { list: rows.map((r) => ({ ...toRow(r, operators), ...tenantOf(r.tenantId) })), total, totalAmount };
}

/** GET /finance/consume/list: what batches cost (consume) and gave back (refund). */
export async function consumeList(deps: FinanceDeps, p: Principal, q: ConsumeListQuery): Promise<ConsumeList> {
  const where: Prisma.BalanceLogWhereInput = {
    AND: [
      { type: { in: [BalanceLogType.CONSUME, BalanceLogType.REFUND] } },
      ...ledgerWhere(p, q),
      ...(q.batchId ? [{ batchId: BigInt(q.batchId) }] : []),
      ...(q.productCode ? [{ batch: { productCode: q.productCode } }] : []),
    ],
  };
  const { rows, total, totalAmount } = await listLog(deps.prisma, where, q);
  const [operators, products, tenantOf] = await Promise.all([
    operatorNames(deps.prisma, rows),
    productCodes(deps.prisma, rows),
    tenantNamesFor(
      deps.prisma,
      p,
      rows.map((r) => r.tenantId),
    ),
  ]);
  const list = rows.map((r) => ({
    ...toRow(r, operators),
    productCode: r.batchId === null ? null : (products.get(r.batchId) ?? null),
    ...tenantOf(r.tenantId),
  }));
  return { list, total, totalAmount };
}

/** Product code of each batch named by a page of rows. */
async function productCodes(db: Db, rows: { batchId: bigint | null }[]): Promise<Map<bigint, number>> {
  const ids = [...new Set(rows.flatMap((r) => (r.batchId === null ? [] : [r.batchId])))];
  if (ids.length === 0) return new Map();
  const batches = await db.messageBatch.findMany({
    where: { id: { in: ids } },
    select: { id: true, productCode: true },
  });
  return new Map(batches.map((b) => [b.id, b.productCode]));
}

/** GET /user/balance/log: customers their own rows, agents theirs and their customers', admins the tenant's. */
export async function balanceLog(
  deps: FinanceDeps,
  p: Principal,
  q: Paged<BalanceLogQuery>,
): Promise<V1BalanceLogList> {
  const where: Prisma.BalanceLogWhereInput = {
    AND: [...(q.type ? [{ type: q.type }] : []), ...ledgerWhere(p, q)],
  };
  const { rows, total, totalAmount, nextCursor } = await listLog(deps.prisma, where, q);
  const operators = await operatorNames(deps.prisma, rows);
  return { list: rows.map((r) => toRow(r, operators)), total, totalAmount, nextCursor };
}

/** The caller's own balance in its tenant's currency (the developer API's GET /v1/balance). */
export async function ownBalance(db: Db, userId: number): Promise<V1Balance> {
  const u = await db.user.findUnique({
    where: { id: userId },
    select: { balance: true, tenant: { select: { currency: true } } },
  });
  if (!u) throw notFound("entity.user");
  return { balance: formatMoney(u.balance), currency: u.tenant?.currency ?? "" };
}
