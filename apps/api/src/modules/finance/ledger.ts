// The balance ledger: the ONE function through which every balance movement of the product goes
// (recharge, deduct, gift, remittance here; consume and refund from the batch module), and its replay check.
//
// Rules it enforces (docs/finance.md):
// - the balance changes only by a conditional UPDATE that refuses to take it below zero, so concurrent debits
//   can never overdraw: PostgreSQL re-checks the condition on the newest row version after a concurrent update;
// - every change writes a balance_logs row holding the balance after it, in the caller's transaction, so the
//   rows of a user replay to users.balance (verifyLedger).
import { type BalanceLogType, formatMoney } from "@switchboard/contracts";
import type { Db, Prisma, PrismaClient } from "@switchboard/db";
import { AppError, notFound } from "../../lib/errors";

/**
 * Options for transactions that move money. The connection pool is small and a burst of money operations
 * queues for it: waiting a few seconds beats failing a recharge or a batch submission.
 */
export const LEDGER_TX_OPTIONS = { maxWait: 10_000, timeout: 15_000 } as const;

export interface BalanceChange {
  tenantId: number;
  userId: number;
  type: BalanceLogType;
  /** Signed money units: positive credits, negative debits; never zero. */
  amount: bigint;
  /** Who caused it (null: the platform itself, e.g. a refund by a worker). */
  operatorId?: number | null;
  batchId?: bigint | null;
  remittanceId?: number | null;
  remark?: string | null;
}

export interface AppliedChange {
  logId: bigint;
  balanceAfter: bigint;
}

/** 402 with the balance the caller can act on (the amount that was short is in the request). */
export const insufficientBalance = (balance: bigint) =>
  new AppError(402, "finance.insufficient_balance", { balance: formatMoney(balance) });

/**
 * Moves a user's balance by `amount` and writes its balance log row, inside the caller's transaction.
 * Throws 402 "insufficient balance" when the balance would go below zero, 404 when the user is missing,
 * deleted or of another tenant; nothing is written then (the caller's transaction rolls back).
 */
export async function applyBalanceChange(tx: Prisma.TransactionClient, change: BalanceChange): Promise<AppliedChange> {
  const { tenantId, userId, amount } = change;
  if (amount === 0n) throw new Error("applyBalanceChange: a balance change of zero is a programming error");

  // balance >= -amount  <=>  balance + amount >= 0; the row lock taken here also orders the user's log rows.
  const updated = await tx.user.updateManyAndReturn({
    where: { id: userId, tenantId, deletedAt: null, balance: { gte: -amount } },
    data: { balance: { increment: amount } },
    select: { balance: true },
  });
  const row = updated[0];
  if (!row) {
    const current = await tx.user.findFirst({
      where: { id: userId, tenantId, deletedAt: null },
      select: { balance: true },
    });
    if (!current) throw notFound("entity.user");
    throw insufficientBalance(current.balance);
  }

  const log = await tx.balanceLog.create({
    data: {
      tenantId,
      userId,
      type: change.type,
      amount,
      balanceAfter: row.balance,
      operatorId: change.operatorId ?? null,
      batchId: change.batchId ?? null,
      remittanceId: change.remittanceId ?? null,
      // Contracts bound remarks well below the column; the cut only guards composed remarks (an agent's side).
      remark: change.remark?.slice(0, 500) || null,
    },
    select: { id: true },
  });
  return { logId: log.id, balanceAfter: row.balance };
}

// ---------------------------------------------------------------- replay

export interface LedgerRow {
  id: bigint;
  amount: bigint;
  balanceAfter: bigint;
}

export interface ReplayResult {
  /** Every row's balanceAfter equals the running sum and none is negative. */
  ok: boolean;
  /** The running sum after the last row replayed (stops at the first mismatch). */
  balance: bigint;
  rows: number;
  firstMismatch: { id: bigint; expected: bigint; recorded: bigint } | null;
}

/** Replays ledger rows (in id order) from `opening`: pure, so a caller can replay a long ledger in chunks. */
export function replayLedger(rows: readonly LedgerRow[], opening = 0n): ReplayResult {
  let balance = opening;
  let count = 0;
  for (const r of rows) {
    const expected = balance + r.amount;
    if (r.balanceAfter !== expected || expected < 0n) {
      return { ok: false, balance, rows: count, firstMismatch: { id: r.id, expected, recorded: r.balanceAfter } };
    }
    balance = expected;
    count += 1;
  }
  return { ok: true, balance, rows: count, firstMismatch: null };
}

export interface LedgerCheck extends ReplayResult {
  userId: number;
  /** users.balance */
  recordedBalance: bigint;
}

const REPLAY_CHUNK = 5_000;

/**
 * Replays a user's balance log and compares it with users.balance, in one repeatable-read snapshot so
 * movements committed meanwhile cannot make a healthy ledger look broken. ok: the log replays to the balance.
 */
export async function verifyLedger(prisma: PrismaClient, userId: number): Promise<LedgerCheck> {
  return prisma.$transaction(
    async (tx) => {
      const user = await tx.user.findUnique({ where: { id: userId }, select: { balance: true } });
      if (!user) throw notFound("entity.user");
      let result: ReplayResult = { ok: true, balance: 0n, rows: 0, firstMismatch: null };
      let after: bigint | undefined;
      for (;;) {
        const chunk = await readChunk(tx, userId, after);
        if (chunk.length === 0) break;
        const next = replayLedger(chunk, result.balance);
        result = { ...next, rows: result.rows + next.rows };
        if (!next.ok || chunk.length < REPLAY_CHUNK) break;
        after = chunk[chunk.length - 1]!.id;
      }
      return {
        ...result,
        ok: result.ok && result.balance === user.balance,
        userId,
        recordedBalance: user.balance,
      };
    },
    { isolationLevel: "RepeatableRead", ...LEDGER_TX_OPTIONS },
  );
}

function readChunk(db: Db, userId: number, after: bigint | undefined): Promise<LedgerRow[]> {
  return db.balanceLog.findMany({
    where: { userId, ...(after === undefined ? {} : { id: { gt: after } }) },
    orderBy: { id: "asc" },
    take: REPLAY_CHUNK,
    select: { id: true, amount: true, balanceAfter: true },
  });
}
