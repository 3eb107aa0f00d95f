// Writing send outcomes: a few hundred recipients per statement, with the batch counters in the same statement.
// The update is conditional on sendResult 0, so a retry (or a duplicate run) never overwrites an outcome and the
// counters only count rows this statement changed.
//
// The shape of the statement is chosen for the planner, whose statistics lag behind: a batch created minutes
// ago is unknown to them (one row expected), and in steady state almost no recipient has sendResult 0. Given
// `"batchId" = <constant> AND "sendResult" = 0`, it reads every unsent recipient through the (batchId,
// sendResult) index and hashes them, on every statement (the dispatch benchmark spent most of PostgreSQL's
// time there). So each recipient is probed by its primary key alone, in a LATERAL subquery that OFFSET 0 keeps
// from being flattened into a join, the batch and status are checked on the row found, and the row is updated
// through a TID scan of the ctids found (`ctid = ANY(...)`; a bare `ctid = t.tid` join was planned as a hash
// join over a sequential scan): no plan can read more than the rows named.
import { SendResult } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";

export interface SendOutcomeRow {
  recipientId: bigint;
  result: typeof SendResult.SUCCESS | typeof SendResult.FAILURE;
  providerMessageId: string | null;
  errorCode: string | null;
}

/** Records outcomes of one batch's recipients and bumps its counters; returns how many rows changed. */
export async function recordSendOutcomes(db: Db, batchId: bigint, rows: readonly SendOutcomeRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.recipientId.toString());
  const results = rows.map((r) => r.result);
  const messageIds = rows.map((r) => r.providerMessageId);
  const errors = rows.map((r) => r.errorCode?.slice(0, 32) ?? null);
  const changed = await db.$queryRaw<Array<{ changed: bigint }>>`
    WITH o AS (
      SELECT * FROM unnest(${ids}::bigint[], ${results}::smallint[], ${messageIds}::text[], ${errors}::text[])
        AS o(id, result, message_id, error_code)
    ), t AS (
      SELECT o.*, p.tid FROM o CROSS JOIN LATERAL (
        SELECT r.ctid AS tid, r."batchId", r."sendResult" FROM recipients r WHERE r.id = o.id OFFSET 0
      ) p
      WHERE p."batchId" = ${batchId} AND p."sendResult" = ${SendResult.NOT_SENT}
    ), u AS (
      UPDATE recipients r
      SET "sendResult" = t.result, "providerMessageId" = t.message_id, "errorCode" = t.error_code, "sentAt" = now()
      FROM t
      WHERE r.ctid = ANY (ARRAY(SELECT tid FROM t)) AND r.ctid = t.tid AND r."sendResult" = ${SendResult.NOT_SENT}
      RETURNING t.result
    ), c AS (
      SELECT count(*)::int AS sent,
             count(*) FILTER (WHERE result = ${SendResult.SUCCESS})::int AS success,
             count(*) FILTER (WHERE result = ${SendResult.FAILURE})::int AS failed
      FROM u
    ), b AS (
      UPDATE message_batches
      SET "sentCount" = "sentCount" + c.sent, "successCount" = "successCount" + c.success,
          "failedCount" = "failedCount" + c.failed, "updatedAt" = now()
      FROM c
      WHERE id = ${batchId} AND c.sent > 0
    )
    SELECT sent::bigint AS changed FROM c`;
  return Number(changed[0]?.changed ?? 0n);
}

export interface OutcomeWriterOptions {
  /** Write when this many outcomes are waiting... */
  maxRows: number;
  /** ...or when the oldest has waited this long (receipts can only be matched once the outcome is written). */
  maxDelayMs: number;
  /** Attempts per write before giving up (a recipient whose outcome is lost would be sent again). */
  attempts: number;
}

export const DEFAULT_OUTCOME_WRITES: OutcomeWriterOptions = { maxRows: 500, maxDelayMs: 100, attempts: 5 };

/**
 * Collects outcomes as sends complete and writes them in the background, one write at a time, in order.
 * drain() writes the rest and throws the first write that failed for good.
 */
export class OutcomeWriter {
  private buffer: SendOutcomeRow[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  private hasFailed = false;

  constructor(
    private readonly write: (rows: SendOutcomeRow[]) => Promise<unknown>,
    private readonly opts: OutcomeWriterOptions = DEFAULT_OUTCOME_WRITES,
  ) {}

  get failed(): boolean {
    return this.hasFailed;
  }

  add(row: SendOutcomeRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= this.opts.maxRows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.opts.maxDelayMs);
  }

  async drain(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.hasFailed) throw this.failure;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const rows = this.buffer;
    this.buffer = [];
    this.chain = this.chain.then(() => this.writeWithRetries(rows));
  }

  private async writeWithRetries(rows: SendOutcomeRow[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(rows);
        return;
      } catch (err) {
        if (attempt >= this.opts.attempts) {
          if (!this.hasFailed) this.failure = err;
          this.hasFailed = true;
          return;
        }
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  }
}
