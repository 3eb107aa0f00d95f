// The balance ledger: the ONE function through which every balance movement of the product goes
// (recharge, deduct, gift, remittance here; consume and refund from the batch module), and its replay check.
//
// Rules it enforces (docs/finance.md):
// - the balance changes only by one conditional UPDATE of the row it has locked, which refuses to take it below
//   zero, so concurrent debits can never overdraw;
// - every change writes a balance_logs row holding the balance after it, in the caller's transaction, so the
//   rows of a user replay to users.balance (verifyLedger);
// - the reseller rules: a customer's balance is what its agent paid in (users.agentFunded) plus what the platform
//   gave; an agent may deduct back only the first, spending takes the platform's money first, and a refund gives
//   back the agent's part of the batch's cost first (message_batches.agentFunded). So no sequence of movements
//   lets anyone end up with spendable balance nobody paid for;
// - credits by staff may not take a balance past MAX_BALANCE_UNITS, and no debit can exceed it: money stays far
//   inside the BIGINT columns.
import { BalanceLogType, displayMoney, MAX_BALANCE_UNITS } from "@switchboard/contracts";
import { type Db, Prisma, type PrismaClient, type SqlRunner } from "@switchboard/db";
import { AppError, notFound } from "./errors";

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
  /**
   * The customer's agent, when that agent pays this credit (its recharge, gift, remittance confirmation) or takes
   * this debit back (its deduct): the amount is the agent's money in the customer's balance, and the customer must
   * still belong to this agent (else 404, like any customer outside its scope). Absent: the platform acts.
   */
  fundingAgentId?: number | null;
}

export interface AppliedChange {
  logId: bigint;
  balanceAfter: bigint;
}

/** 402 with the balance the caller can act on (the amount that was short is in the request). */
export const insufficientBalance = (balance: bigint) =>
  new AppError(402, "finance.insufficient_balance", { balance: displayMoney(balance) });

/** 402 for a cost no balance can cover (beyond MAX_BALANCE_UNITS), naming the user's current balance. */
export async function unaffordable(db: Db, userId: number): Promise<AppError> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { balance: true } });
  return insufficientBalance(user?.balance ?? 0n);
}

/** What the locked row held before the change, and what it holds after. */
interface ChangedRow {
  balance: bigint;
  agentFunded: bigint;
  fundedBefore: bigint;
  agentId: number | null;
}

/**
 * Moves a user's balance by `amount` and writes its balance log row, inside the caller's transaction.
 * Throws 402 "insufficient balance" when the balance would go below zero, 404 when the user is missing,
 * deleted, of another tenant or (fundingAgentId) no longer that agent's customer, 409 when an agent deducts more
 * than it paid in or a credit by staff would pass MAX_BALANCE_UNITS; nothing is written then (the caller's
 * transaction rolls back).
 */
export async function applyBalanceChange(tx: Prisma.TransactionClient, change: BalanceChange): Promise<AppliedChange> {
  const { tenantId, userId, amount } = change;
  if (amount === 0n) throw new Error("applyBalanceChange: a balance change of zero is a programming error");
  const isRefund = change.type === BalanceLogType.REFUND;
  // Refunds give back what a batch took, so they are never refused for the limit.
  const capped = amount > 0n && !isRefund;
  if (amount < -MAX_BALANCE_UNITS) throw await unaffordable(tx, userId);
  // More than the limit can never be credited: explain() says so (or that the user is not there).
  if (amount > MAX_BALANCE_UNITS && capped) throw (await explain(tx, change, capped)) ?? notFound("entity.user");
  if (amount > MAX_BALANCE_UNITS) throw new Error("applyBalanceChange: a refund larger than any batch cost");

  const back = isRefund && change.batchId != null ? await takeBackBatchFunding(tx, change.batchId, amount) : null;
  // One statement locks the row, moves the balance, records on the batch what spending took of the agent's money
  // and writes the log row: the customer's row stays locked for this statement and the commit only, not for a
  // round trip per step (one customer's parallel sends queue on that lock: its hold time is their rate).
  // Spending took the platform's money first: what it took of the agent's is recorded on the batch for its refund,
  // while the batch's agent is still the customer's (else that part is the platform's now).
  const consumeBatch = change.type === BalanceLogType.CONSUME && change.batchId != null ? change.batchId : null;
  const apply = () => tx.$queryRaw<Array<ChangedRow & { logId: bigint }>>`
    WITH o AS (
      SELECT id, balance, "agentFunded", "agentId" FROM users
      WHERE id = ${userId} AND "tenantId" = ${tenantId} AND "deletedAt" IS NULL
      FOR NO KEY UPDATE
    ), u AS (
      UPDATE users u
      SET balance = o.balance + ${amount}::bigint, "agentFunded" = ${fundedAfter(change, back)}
      FROM o
      WHERE u.id = o.id ${conditions(change, capped)}
      RETURNING u.balance, u."agentFunded", o."agentFunded" AS "fundedBefore", o."agentId"
    ), funded AS (
      UPDATE message_batches b SET "agentFunded" = b."agentFunded" + (u."fundedBefore" - u."agentFunded")
      FROM u
      WHERE b.id = ${consumeBatch}::bigint AND b."agentId" = u."agentId" AND u."fundedBefore" > u."agentFunded"
    ), log AS (
      INSERT INTO balance_logs ("tenantId", "userId", type, amount, "balanceAfter", "operatorId", "batchId",
                                "remittanceId", remark)
      SELECT ${tenantId}::int, ${userId}::int, ${change.type}::smallint, ${amount}::bigint, u.balance,
             ${change.operatorId ?? null}::int, ${change.batchId ?? null}::bigint, ${change.remittanceId ?? null}::int,
             -- Contracts bound remarks well below the column; the cut only guards composed remarks (an agent's side).
             ${change.remark?.slice(0, 500) || null}::varchar
      FROM u
      RETURNING id
    )
    SELECT u.balance, u."agentFunded", u."fundedBefore", u."agentId", (SELECT id FROM log) AS "logId" FROM u`;
  let row = (await apply())[0];
  if (!row) {
    const refusal = await explain(tx, change, capped);
    if (refusal) throw refusal;
    // Nothing refuses it: the row changed under a concurrent commit while this statement waited for its lock,
    // and a join UPDATE can then miss it (PostgreSQL re-checks the target row, not the locked subquery). The lock
    // is ours now, so the same statement, with a fresh snapshot, sees the newest row.
    row = (await apply())[0];
    if (!row) throw (await explain(tx, change, capped)) ?? new Error(`applyBalanceChange: user ${userId} unchanged`);
  }
  return { logId: row.logId, balanceAfter: row.balance };
}

/**
 * One customer's consume rows for several batches at once, in the caller's transaction (the developer API's group
 * of single sends): the same movements, log rows and batch agent-funded shares as applyBalanceChange called once
 * per batch in `charges` order, written by one statement that locks the customer's row once. Spending takes the
 * platform's money first, step by step: after step i the agent's part is LEAST(agentFunded, balance after i).
 * False when the balance does not cover the sum (or the customer is gone): nothing is written, and the caller
 * charges each batch on its own to learn which ones fit.
 */
export async function consumeForBatches(
  tx: SqlRunner,
  group: {
    tenantId: number;
    userId: number;
    operatorId: number;
    charges: ReadonlyArray<{ batchId: bigint; amount: bigint }>;
  },
): Promise<boolean> {
  const { tenantId, userId, charges } = group;
  if (charges.some((c) => c.amount <= 0n)) throw new Error("consumeForBatches: every charge is a positive cost");
  const total = charges.reduce((sum, c) => sum + c.amount, 0n);
  if (charges.length === 0) return true;
  if (total > MAX_BALANCE_UNITS) return false;
  const apply = () => tx.$queryRaw<Array<{ n: number }>>`
    WITH o AS (
      SELECT id, balance, "agentFunded", "agentId" FROM users
      WHERE id = ${userId} AND "tenantId" = ${tenantId} AND "deletedAt" IS NULL
      FOR NO KEY UPDATE
    ), c AS (
      SELECT t.b, t.a, t.ord, sum(t.a) OVER (ORDER BY t.ord) AS upto
      FROM unnest(${charges.map((c) => c.batchId)}::bigint[], ${charges.map((c) => c.amount)}::bigint[])
        WITH ORDINALITY AS t(b, a, ord)
    ), u AS (
      UPDATE users u
      SET balance = o.balance - ${total}::bigint, "agentFunded" = LEAST(o."agentFunded", o.balance - ${total}::bigint)
      FROM o
      WHERE u.id = o.id AND o.balance >= ${total}::bigint
      RETURNING o.balance AS before, o."agentFunded" AS "fundedBefore", o."agentId"
    ), steps AS (
      SELECT c.b, c.a, c.ord, u.before - c.upto AS after, u."agentId",
             -- the agent's money this step took: its part before the step less its part after
             CASE WHEN c.ord = 1 THEN u."fundedBefore" ELSE LEAST(u."fundedBefore", u.before - c.upto + c.a) END
               - LEAST(u."fundedBefore", u.before - c.upto) AS taken
      FROM c, u
    ), funded AS (
      UPDATE message_batches b SET "agentFunded" = b."agentFunded" + s.taken
      FROM steps s
      WHERE b.id = s.b AND b."agentId" = s."agentId" AND s.taken > 0
    ), log AS (
      INSERT INTO balance_logs ("tenantId", "userId", type, amount, "balanceAfter", "operatorId", "batchId")
      SELECT ${tenantId}::int, ${userId}::int, ${BalanceLogType.CONSUME}::smallint, -s.a, s.after,
             ${group.operatorId}::int, s.b
      FROM steps s ORDER BY s.ord
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM log)::int AS n`;
  let n = (await apply())[0]?.n ?? 0;
  if (n === 0) {
    // As in applyBalanceChange: a concurrent commit while this statement waited for the lock can make the join
    // miss the row; the lock is ours now, and the same statement with a fresh snapshot sees the newest row.
    n = (await apply())[0]?.n ?? 0;
  }
  return n === charges.length;
}

interface BatchFundingBack {
  /** Money units of the refund that go back to the customer's agent-funded money. */
  units: bigint;
  /** The agent whose money it was (the batch's agent). */
  agentId: number;
}

/**
 * A refund gives back the agent's part of the batch's cost first (the reverse of spending, which took the
 * platform's money first), so a batch that cost less in the end was paid as if charged that much at once.
 * The batch row is locked here; refunds come after their batch's update, so the lock order stays batch, user.
 */
async function takeBackBatchFunding(
  tx: Prisma.TransactionClient,
  batchId: bigint,
  amount: bigint,
): Promise<BatchFundingBack | null> {
  const rows = await tx.$queryRaw<Array<{ back: bigint; agentId: number | null }>>`
    UPDATE message_batches b SET "agentFunded" = o."agentFunded" - LEAST(o."agentFunded", ${amount}::bigint)
    FROM (
      SELECT id, "agentFunded", "agentId" FROM message_batches
      WHERE id = ${batchId}::bigint AND "agentFunded" > 0
      FOR NO KEY UPDATE
    ) o
    WHERE b.id = o.id
    RETURNING LEAST(o."agentFunded", ${amount}::bigint) AS back, o."agentId"`;
  const row = rows[0];
  return row && row.agentId !== null ? { units: row.back, agentId: row.agentId } : null;
}

/** The customer's agent-funded money after the change, from the locked row `o` (docs/finance.md). */
function fundedAfter(change: BalanceChange, back: BatchFundingBack | null): Prisma.Sql {
  const { amount } = change;
  // The agent's own credit or deduct moves its own money in the customer's balance.
  if (change.fundingAgentId != null) return Prisma.sql`o."agentFunded" + ${amount}::bigint`;
  // A refund restores the agent's part only while the customer is still that agent's.
  if (back)
    return Prisma.sql`o."agentFunded" + CASE WHEN o."agentId" = ${back.agentId}::int THEN ${back.units}::bigint ELSE 0 END`;
  // The platform's debits (admin deduct, consume) take the platform's money first: the agent's part shrinks
  // only when the balance left is smaller than it.
  if (amount < 0n) return Prisma.sql`LEAST(o."agentFunded", o.balance + ${amount}::bigint)`;
  return Prisma.sql`o."agentFunded"`;
}

/**
 * When the change may apply, on the locked row `o`. Written so that no sum is computed before it is known to fit:
 * a balance grown past the limit before it existed must get a 409, not a BIGINT overflow.
 */
function conditions(change: BalanceChange, capped: boolean): Prisma.Sql {
  const { amount } = change;
  const parts: Prisma.Sql[] = [];
  if (amount < 0n) parts.push(Prisma.sql`AND o.balance >= ${-amount}::bigint`);
  if (capped) parts.push(Prisma.sql`AND o.balance <= ${MAX_BALANCE_UNITS - amount}::bigint`);
  if (change.fundingAgentId != null) {
    parts.push(Prisma.sql`AND o."agentId" = ${change.fundingAgentId}::int`);
    if (amount < 0n) parts.push(Prisma.sql`AND o."agentFunded" >= ${-amount}::bigint`);
  }
  return parts.length === 0 ? Prisma.empty : Prisma.join(parts, " ");
}

/**
 * Why the conditional update changed nothing (the row is locked by now, so this read is current); null when
 * nothing in the row refuses the change (see the retry in applyBalanceChange).
 */
async function explain(tx: Prisma.TransactionClient, change: BalanceChange, capped: boolean): Promise<AppError | null> {
  const current = await tx.user.findFirst({
    where: { id: change.userId, tenantId: change.tenantId, deletedAt: null },
    select: { balance: true, agentFunded: true, agentId: true },
  });
  if (!current) return notFound("entity.user");
  if (change.fundingAgentId != null && current.agentId !== change.fundingAgentId) return notFound("entity.user");
  if (current.balance + change.amount < 0n) return insufficientBalance(current.balance);
  if (change.fundingAgentId != null && current.agentFunded + change.amount < 0n)
    return new AppError(409, "finance.agent_funded_short", {
      available: displayMoney(current.agentFunded, { round: "down" }),
    });
  if (capped && current.balance + change.amount > MAX_BALANCE_UNITS)
    return new AppError(409, "finance.balance_limit", {
      max: displayMoney(MAX_BALANCE_UNITS),
      balance: displayMoney(current.balance),
    });
  return null;
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
