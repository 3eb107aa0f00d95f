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
// join over a sequential scan): no plan can read more than the rows named. recipients is partitioned by id and a
// ctid repeats in every partition, so the row's partition (tableoid) is matched too (docs/operations.md).
import { type DeliveryReport, receiveResultOfStatus } from "@switchboard/channels";
import { BatchStatus, ReceiveResult, SendResult } from "@switchboard/contracts";
import { type Db, queryRows } from "@switchboard/db";

/** A delivery receipt that came back while its message's outcome was still waiting to be written. */
export interface RiddenReceipt {
  result: typeof ReceiveResult.RECEIVED | typeof ReceiveResult.RECEIVE_FAILED;
  errorCode: string | null;
  /** Its name in this process's receipt journal (receipt-journal.ts): it leaves once written or kept elsewhere. */
  token?: string;
}

export interface SendOutcomeRow {
  recipientId: bigint;
  result: typeof SendResult.SUCCESS | typeof SendResult.FAILURE;
  providerMessageId: string | null;
  errorCode: string | null;
  receipt?: RiddenReceipt;
}

export interface OutcomeWrite {
  /** Rows this statement changed (0 for a write that had been done already). */
  sent: number;
  /** Recipients whose receipt was recorded with their outcome (for delivery_report callbacks). */
  withReceipt: bigint[];
  /** The batches this statement recorded outcomes of. */
  batches: bigint[];
  /** Single sends this statement also settled (`settleSent`). */
  settled: SettledSingle[];
}

/** A single send settled (22, or 24 refunded): by its outcome's statement, or by settleSingles (finish-batch.ts). */
export interface SettledSingle {
  batchId: bigint;
  status: number;
  at: Date;
  /** Settled for the first time (batch_finished is sent once). */
  firstTime: boolean;
  /** Its customer has a notify URL (callbacks to send). */
  notify: boolean;
  userId: number;
}

/** Receive result of a receipt: 1 for "delivered" (or "read"), 2 for any other final state. */
export function receiveResultOf(report: Pick<DeliveryReport, "status">): RiddenReceipt["result"] {
  return receiveResultOfStatus(report.status);
}

/**
 * Records outcomes of recipients (and receipts riding with them) and bumps their batches' counters: of one batch
 * (a chunk), or of several, each recipient's batch named by `batchOf` (a group of single sends).
 *
 * With `settleSent` (a group of single sends), a batch whose one recipient this statement records as sent, with
 * nothing to refund, is also settled by it (21 -> 22, finishedAt), as settleSingles would: one row version and one
 * transaction fewer per send. The one recipient is certain from the batch's id bounds (recipientIdFrom/To, two
 * apart: one id between them). Anything else (a failure to refund, a batch stopped meanwhile) is left to
 * settleSingles.
 */
export async function recordSendOutcomes(
  db: Db,
  batchOf: bigint | ReadonlyMap<bigint, bigint>,
  rows: readonly SendOutcomeRow[],
  opts: { settleSent?: boolean } = {},
): Promise<OutcomeWrite> {
  if (rows.length === 0) return { sent: 0, withReceipt: [], batches: [], settled: [] };
  const ids = rows.map((r) => r.recipientId.toString());
  const batchIds = rows.map((r) => {
    const id = typeof batchOf === "bigint" ? batchOf : batchOf.get(r.recipientId);
    if (id === undefined) throw new Error(`no batch for recipient ${r.recipientId}`);
    return id.toString();
  });
  const results = rows.map((r) => r.result);
  const messageIds = rows.map((r) => r.providerMessageId);
  const errors = rows.map((r) => r.errorCode?.slice(0, 32) ?? null);
  const receiveResults = rows.map((r) => r.receipt?.result ?? ReceiveResult.UNKNOWN);
  const receiptErrors = rows.map((r) => r.receipt?.errorCode?.slice(0, 32) ?? null);
  const settle = opts.settleSent === true;
  // Recipients and batches by id from the arrays: planned once per connection (genericPlans).
  const [row] = await queryRows(db, { genericPlans: true })<
    Array<{
      sent: number;
      withReceipt: bigint[] | null;
      batches: bigint[] | null;
      settled: Array<{ batchId: string; userId: number; at: string; firstTime: boolean; notify: boolean }> | null;
    }>
  >`
    WITH o AS (
      SELECT * FROM unnest(${ids}::bigint[], ${batchIds}::bigint[], ${results}::smallint[], ${messageIds}::text[],
                           ${errors}::text[], ${receiveResults}::smallint[], ${receiptErrors}::text[])
        AS o(id, batch_id, result, message_id, error_code, receive_result, receipt_error)
    ), t AS (
      SELECT o.*, p.toid, p.tid FROM o CROSS JOIN LATERAL (
        SELECT r.tableoid AS toid, r.ctid AS tid, r."batchId", r."sendResult" FROM recipients r WHERE r.id = o.id OFFSET 0
      ) p
      WHERE p."batchId" = o.batch_id AND p."sendResult" = ${SendResult.NOT_SENT}
    ), u AS (
      UPDATE recipients r
      SET "sendResult" = t.result, "providerMessageId" = t.message_id, "sentAt" = now(),
          -- RCS with a fallback reserved the larger price: carried by RCS, it pays the RCS price (the settlement
          -- refunds the rest); carried by SMS (fallbackFrom set), price already is the SMS one.
          price = CASE WHEN t.result = ${SendResult.SUCCESS} AND r."fallbackFrom" IS NULL AND r."primaryPrice" IS NOT NULL
                       THEN r."primaryPrice" ELSE r.price END,
          "errorCode" = coalesce(t.error_code, t.receipt_error),
          "receiveResult" = CASE WHEN t.receive_result = ${ReceiveResult.UNKNOWN} THEN r."receiveResult"
                                 ELSE t.receive_result END,
          -- a receipt riding with its outcome came in a moment before this write: its time is the send's
          "receivedAt" = CASE WHEN t.receive_result = ${ReceiveResult.UNKNOWN} THEN r."receivedAt" ELSE now() END
      FROM t
      WHERE r.ctid = ANY (ARRAY(SELECT tid FROM t)) AND r.ctid = t.tid AND r.tableoid = t.toid
        AND r."sendResult" = ${SendResult.NOT_SENT}
      RETURNING r.id, r."batchId" AS batch_id, t.result, t.receive_result, r.price
    ), c AS (
      SELECT batch_id, count(*)::int AS sent,
             coalesce(sum(price) FILTER (WHERE result = ${SendResult.SUCCESS}), 0)::bigint AS success_price,
             count(*) FILTER (WHERE result = ${SendResult.SUCCESS})::int AS success,
             count(*) FILTER (WHERE result = ${SendResult.FAILURE})::int AS failed,
             count(*) FILTER (WHERE receive_result = ${ReceiveResult.RECEIVED})::int AS delivered,
             count(*) FILTER (WHERE receive_result = ${ReceiveResult.RECEIVE_FAILED})::int AS undelivered
      FROM u GROUP BY batch_id
    ), locked AS (
      -- the batches' rows in id order, as every statement that moves several batches locks them (docs/operations.md),
      -- each with its counts, so that the update joins this alone (joined to c as well, it scanned all of this once
      -- per batch: quadratic in a group of single sends)
      SELECT mb.id, c.sent, c.success, c.failed, c.delivered, c.undelivered, mb."finishedAt" IS NULL AS first_time,
             (${settle}::boolean AND mb.status = ${BatchStatus.SENDING}
              AND mb."recipientIdTo" - mb."recipientIdFrom" = 2 AND mb."sentCount" = 0
              AND c.sent = 1 AND c.success = 1 AND mb.cost - c.success_price = mb.refunded) AS settles
      FROM message_batches mb JOIN c ON c.batch_id = mb.id
      ORDER BY mb.id FOR UPDATE OF mb
    ), b AS (
      UPDATE message_batches
      SET "sentCount" = "sentCount" + l.sent, "successCount" = "successCount" + l.success,
          "failedCount" = "failedCount" + l.failed, "deliveredCount" = "deliveredCount" + l.delivered,
          "undeliveredCount" = "undeliveredCount" + l.undelivered, "updatedAt" = now(),
          status = CASE WHEN l.settles THEN ${BatchStatus.SEND_FINISHED}::smallint ELSE status END,
          "finishedAt" = CASE WHEN l.settles THEN coalesce("finishedAt", now()) ELSE "finishedAt" END
      FROM locked l
      WHERE message_batches.id = l.id
      RETURNING message_batches.id, message_batches."userId", message_batches."finishedAt" AS at, l.first_time,
                l.settles
    )
    SELECT (SELECT count(*)::int FROM u) AS sent,
           (SELECT array_agg(id) FROM u WHERE receive_result <> ${ReceiveResult.UNKNOWN}) AS "withReceipt",
           (SELECT array_agg(batch_id) FROM c) AS batches,
           (SELECT json_agg(json_build_object('batchId', b.id::text, 'userId', b."userId", 'at', b.at,
                                              'firstTime', b.first_time,
                                              'notify', us."notifyUrl" IS NOT NULL AND us."deletedAt" IS NULL))
            FROM b JOIN users us ON us.id = b."userId" WHERE b.settles) AS settled`;
  return {
    sent: row?.sent ?? 0,
    withReceipt: row?.withReceipt ?? [],
    batches: row?.batches ?? [],
    settled: (row?.settled ?? []).map((s) => ({
      batchId: BigInt(s.batchId),
      status: BatchStatus.SEND_FINISHED,
      at: new Date(s.at),
      firstTime: s.firstTime,
      notify: s.notify,
      userId: s.userId,
    })),
  };
}

/**
 * Outcomes waiting in this process's write buffers, by channel and provider message id. A receipt that comes
 * back before its message's outcome is written (an SMSC that answers at once, a fast failure) rides along with
 * the outcome: one write instead of two, and no receipt that finds no message yet and must be looked up again
 * later. Only the exact id spelling is matched here; everything else goes the delivery-report way. Rows leave
 * the map when their write starts, so it holds at most what the write buffers hold.
 */
export class UnwrittenOutcomes {
  private readonly rows = new Map<string, SendOutcomeRow>();

  /**
   * `accountOf` names the provider account a channel's messages belong to: an SMSC delivers a receipt on any
   * receiver bind of the account, so channels sharing one (same host, port, system id) share message ids here.
   */
  constructor(
    private readonly accountOf: (channelId: number) => string = String,
    /** Receipts that rode on written (or journaled) outcomes: they may leave the receipt journal. */
    private readonly receiptsStored: (tokens: string[]) => void = () => {},
  ) {}

  private key(channelId: number, providerMessageId: string): string {
    return `${this.accountOf(channelId)}:${providerMessageId}`;
  }

  add(channelId: number, row: SendOutcomeRow): void {
    if (row.providerMessageId !== null) this.rows.set(this.key(channelId, row.providerMessageId), row);
  }

  remove(channelId: number, rows: readonly SendOutcomeRow[]): void {
    for (const row of rows) {
      if (row.providerMessageId !== null) this.rows.delete(this.key(channelId, row.providerMessageId));
    }
  }

  /** True when the receipt's message is still unwritten here: the receipt is then written with it. */
  attach(channelId: number, report: DeliveryReport, token?: string): boolean {
    const row = this.rows.get(this.key(channelId, report.providerMessageId));
    if (!row || row.receipt) return false;
    row.receipt = { result: receiveResultOf(report), errorCode: report.errorCode ?? null };
    if (token !== undefined) row.receipt.token = token;
    return true;
  }

  /**
   * These rows are written (their receipts recorded, or sent the delivery-report way by the write) or kept in the
   * outcome journal with their receipts: the receipts that rode on them leave the receipt journal.
   */
  stored(rows: readonly SendOutcomeRow[]): void {
    const tokens: string[] = [];
    for (const row of rows) if (row.receipt?.token !== undefined) tokens.push(row.receipt.token);
    if (tokens.length > 0) this.receiptsStored(tokens);
  }

  get size(): number {
    return this.rows.size;
  }
}

export interface OutcomeWriterOptions {
  /** Write when this many outcomes are waiting... */
  maxRows: number;
  /** ...or when the oldest has waited this long (receipts can only be matched once the outcome is written). */
  maxDelayMs: number;
  /** Attempts per write before giving up (a recipient whose outcome is lost would be sent again). */
  attempts: number;
}

export const DEFAULT_OUTCOME_WRITES: OutcomeWriterOptions = { maxRows: 1_000, maxDelayMs: 250, attempts: 5 };

/** Where a chunk journals its sends outside the database (outcome-journal.ts, bound to one chunk of a batch). */
export interface OutcomeJournalOf {
  /** Before these recipients' messages leave (awaited: the intent is durable first). */
  intend(ids: readonly bigint[]): Promise<void>;
  /** Intents of recipients that were not accepted after all (retry, fallback, never handed over). */
  drop(ids: readonly bigint[]): Promise<void>;
  /** As soon as the provider answered, before the database write. */
  ahead(rows: SendOutcomeRow[]): Promise<void>;
  /** Once their database write has landed. */
  forget(rows: SendOutcomeRow[]): Promise<void>;
  /** When their database write failed for good: kept for the next run and the scheduler. */
  keep(rows: SendOutcomeRow[]): Promise<void>;
}

/**
 * Collects outcomes as sends complete and writes them in the background, one write at a time, in order.
 * drain() writes the rest and throws the first write that failed for good.
 */
export class OutcomeWriter {
  private buffer: SendOutcomeRow[] = [];
  /** Outcomes of this event-loop turn not journaled yet: one journal call per turn. */
  private aheadBuffer: SendOutcomeRow[] = [];
  private aheadScheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private failure: unknown;
  private hasFailed = false;

  constructor(
    private readonly write: (rows: SendOutcomeRow[]) => Promise<unknown>,
    private readonly opts: OutcomeWriterOptions = DEFAULT_OUTCOME_WRITES,
    /** Where receipts can find the rows of this writer's channel until their write starts. */
    private readonly unwritten?: { outcomes: UnwrittenOutcomes; channelId: number },
    /** Where outcomes are journaled until their write lands (outcome-journal.ts), so none is sent twice. */
    private readonly journal?: OutcomeJournalOf,
    /** A journal call that failed (Redis away): sending goes on; said once per writer, by the caller's log. */
    private readonly onJournalError: (err: unknown) => void = () => {},
  ) {}

  get failed(): boolean {
    return this.hasFailed;
  }

  add(row: SendOutcomeRow): void {
    this.buffer.push(row);
    this.unwritten?.outcomes.add(this.unwritten.channelId, row);
    if (this.journal) {
      this.aheadBuffer.push(row);
      if (!this.aheadScheduled) {
        this.aheadScheduled = true;
        setImmediate(() => this.journalAhead());
      }
    }
    if (this.buffer.length >= this.opts.maxRows) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.opts.maxDelayMs);
  }

  async drain(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.hasFailed) throw this.failure;
  }

  /** Sends this turn's outcomes to the journal (Redis keeps commands in order: before any later forget). */
  private journalAhead(): void {
    this.aheadScheduled = false;
    const rows = this.aheadBuffer;
    if (rows.length === 0 || !this.journal) return;
    this.aheadBuffer = [];
    this.journal.ahead(rows).catch(this.onJournalError);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    // The rows about to be written are journaled first, so their forget can never overtake them.
    this.journalAhead();
    const rows = this.buffer;
    this.buffer = [];
    // From here a receipt goes the delivery-report way (which retries until this write has landed).
    this.unwritten?.outcomes.remove(this.unwritten.channelId, rows);
    this.chain = this.chain.then(() => this.writeWithRetries(rows));
  }

  private async writeWithRetries(rows: SendOutcomeRow[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.write(rows);
        this.journal?.forget(rows).catch(this.onJournalError);
        this.unwritten?.outcomes.stored(rows);
        return;
      } catch (err) {
        if (attempt >= this.opts.attempts) {
          if (!this.hasFailed) this.failure = err;
          this.hasFailed = true;
          // The provider has these messages: keep their outcomes where the next run and the scheduler find them
          // (with the receipts that rode on them; without a journal, those stay in the receipt journal).
          if (this.journal) {
            try {
              await this.journal.keep(rows);
              this.unwritten?.outcomes.stored(rows);
            } catch (err) {
              this.onJournalError(err);
            }
          }
          return;
        }
        await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
      }
    }
  }
}
