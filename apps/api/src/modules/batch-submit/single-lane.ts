// The single-send lane (issue 20): a batch of one number sent now (mode 1, or mode 2 with one number: one-time
// codes, alerts) written without a transaction of its own. Single sends of one customer that arrive while its
// previous group is being written wait and are written together, in one transaction whatever their number (group
// commit): the batches and their recipients in one statement (numbers on the customer's opt-out list skipped), and
// the customer's charge (ledger.consumeForBatches: one lock of its row, one log row per batch). What a send is checked
// and priced against comes from memory (submit-memory.ts). Each batch is the same row, in the same status (20, its
// review passed), with the same recipient, price and log row as materializeBatch writes for it.
//
// Anything out of the ordinary takes the usual path (materializeBatch), which answers it exactly: a number that
// is not valid, served or allowed, content that needs more than a price and a channel (RCS with SMS fallback,
// WhatsApp), review, a schedule. A group whose transaction fails (a balance that does not cover the whole group,
// two sends with one idempotency key, a lost connection) writes nothing, and each of its sends takes the usual
// path on its own, so the caller still gets its own answer (402 for the ones the balance did not cover).
//
// The sends the lane wrote go to the workers as groups too (dispatch()): each request asks for its dispatch right
// after its watch for the outcome is set, and one entry of the singles list (a Redis list: DISPATCH_SINGLES in
// @switchboard/contracts) carries the sends asked for within a few milliseconds; the workers pop it and start,
// send and settle the group together (workers/src/jobs/dispatch-singles.ts).
import { BatchStatus, contentText, ProductCode, TaskType } from "@switchboard/contracts";
import { type PrismaClient, rawTransaction } from "@switchboard/db";
import type { BatchJobs } from "@switchboard/domain/batches/batch-jobs";
import type { BatchRowRecord } from "@switchboard/domain/batches/batch-row";
import { type SubmitContext, senderIdOf } from "@switchboard/domain/batches/context";
import { type BatchSpec, INSERT_CHUNK, type Materialized } from "@switchboard/domain/batches/materialize";
import type { NumberSorter } from "@switchboard/domain/batches/number-sorter";
import { reviewReasons } from "@switchboard/domain/batches/review";
import { consumeForBatches, LEDGER_TX_OPTIONS } from "@switchboard/domain/ledger";
import type { FastifyBaseLogger } from "fastify";
import type { HeldContext, ServedQuote, SubmitMemory } from "./submit-memory";

/** One single send ready to be written. */
interface LaneSend {
  customer: HeldContext["customer"];
  spec: BatchSpec;
  phone: string;
  countryCode: string;
  quote: ServedQuote;
}

/** What the group wrote for a send; null: nothing, the usual path takes it. */
type Written = { batchId: bigint; createdAt: Date; recipientId: bigint; row: BatchRowRecord } | null;

/** Sends written in one transaction at most (the statements' arrays stay small; more waits for the next group). */
const GROUP_MAX = Math.min(500, INSERT_CHUNK);

/**
 * Longest a lane-written send waits for others to share its group's hand-over, when one went just before it
 * (docs/benchmarks.md). Against none: mode 1 296-313 -> 321-361 sends/s, mode 2 636 -> 672-765 (`--sends 2000
 * --clients 20`); a lone send (one client) waits for nothing. 20 ms rather than 8: at 100-500 mode 1 sends/s
 * offered (open loop, two pairs each) the workers' CPU per send fell 20-40 % and PostgreSQL's 8-20 % (a group's
 * round trips cost more than its sends there), for p50 +6-10 ms at 100/s; at 1,000-1,500/s the latencies were
 * the same. Always waiting 8 ms gave the same rates with larger groups, and 8 ms more for every lone send.
 */
const DISPATCH_LINGER_MS = 20;

/**
 * A group this large goes at once, without waiting for the rest of its linger. Many requests arriving together
 * (200 clients, each sending again as soon as it is answered) made one group of all of them every other linger,
 * and every stage after it (the workers' start, the channel's window, the outcome write, the answers) took them
 * in one piece while the others sat idle; groups of 100 keep those stages busy one behind the other: mode 1 with 200
 * clients 2,561-2,621 -> 3,128-3,182 sends/s, mode 2 the same within the noise; at 50 mode 2 fell 10 % (more groups,
 * more statements). The SMPP window's default (50) takes 100 in flight: a larger group's sends wait for it anyway.
 * Below the contract's limit (dispatchSinglesJob: 500).
 */
const DISPATCH_FULL = 100;

/** A materialised single send, with the creation time its job key needs (no read for it). */
export type LaneMaterialized = Materialized & {
  createdAt: Date;
  recipientId: bigint;
  /** The batch as written, with its owner's and product's names: its answer needs no read. */
  row: BatchRowRecord;
};

/** A lane-written send due now, as its dispatch names it. */
type Dispatch = { id: bigint; createdAt: Date; recipientId: bigint };

/** Dispatches asked for and not handed over yet; `flush` hands them over now. */
interface PendingDispatch {
  sends: Dispatch[];
  done: Promise<void>;
  flush: () => void;
}

export class SingleSendLane {
  /** Sends waiting for their customer's group, by customer. */
  private readonly waiting = new Map<number, Array<{ send: LaneSend; done: (w: Written) => void }>>();
  /** Customers whose group is being written. */
  private readonly writing = new Set<number>();
  /** Dispatches asked for and not handed over yet: one group for all of them. */
  private dispatching: PendingDispatch | null = null;
  /** Groups not handed over yet (handedOver() waits for them). */
  private readonly handingOver = new Set<Promise<void>>();
  /** When the last group was handed over (ms). */
  private lastDispatch = 0;

  constructor(
    private readonly prisma: PrismaClient,
    readonly memory: SubmitMemory,
    private readonly log: FastifyBaseLogger,
    private readonly jobs: Pick<BatchJobs, "dispatchSingles">,
  ) {}

  /**
   * Hands a lane-written send to the workers with the others asked for about the same time, as one group. Rejects
   * when it could not be handed over (the caller logs it; the workers' scheduler sends batches left in 20).
   *
   * A group goes at once when none went in the last DISPATCH_LINGER_MS (a lone send waits for nothing), else
   * that long after the last one, or as soon as it holds DISPATCH_FULL: under load, each group carries the sends of
   * a few milliseconds, and the workers' cost per group (its hand-over, start, outcome and settling statements, one
   * lease and token request per channel) is shared by more sends.
   */
  dispatch(send: Dispatch): Promise<void> {
    const group = this.dispatching ?? this.openDispatch();
    group.sends.push(send);
    if (group.sends.length >= DISPATCH_FULL) group.flush();
    return group.done;
  }

  /** A new group: handed over when its linger ends, or at once (flush) when it is full. */
  private openDispatch(): PendingDispatch {
    const wait = this.lastDispatch + DISPATCH_LINGER_MS - Date.now();
    const sends: Dispatch[] = [];
    let handOver!: () => void;
    const done = new Promise<void>((resolve, reject) => {
      handOver = () => this.jobs.dispatchSingles(sends).then(resolve, reject);
    });
    const timer = wait > 0 ? setTimeout(() => group.flush(), wait) : undefined;
    const immediate = wait > 0 ? undefined : setImmediate(() => group.flush());
    const group: PendingDispatch = {
      sends,
      done,
      flush: () => {
        if (this.dispatching !== group) return;
        clearTimeout(timer);
        clearImmediate(immediate);
        this.dispatching = null;
        this.lastDispatch = Date.now();
        handOver();
      },
    };
    this.dispatching = group;
    this.handingOver.add(done);
    const over = () => this.handingOver.delete(done);
    done.then(over, over);
    return group;
  }

  /** Resolves once every dispatch asked for so far is handed over (or failed: its caller logged it). */
  async handedOver(): Promise<void> {
    await Promise.allSettled(this.handingOver);
  }

  /**
   * Writes a single send through the lane when it qualifies: its batch, recipient and charge committed, status 20.
   * Null when it does not qualify or its group could not be written: the caller takes the usual path.
   */
  async materialize(
    ctx: HeldContext | SubmitContext,
    spec: BatchSpec,
    sorted: NumberSorter,
  ): Promise<LaneMaterialized | null> {
    if (sorted.size !== 1 || sorted.total !== 1) return null;
    const phone = sorted.phone(0);
    const countryCode = sorted.country(0);
    if (spec.scheduledAt !== null || spec.taskType !== TaskType.MESSAGE || !priceAndChannelOnly(spec)) return null;
    // A batch that review would hold is written by the usual path with its reasons.
    if (reviewReasons(ctx.rules, ctx.customer, contentText(spec.content), 1).length > 0) return null;
    const { customer } = ctx;
    const quote = await this.memory.quote(customer.id, spec.productId, spec.units, countryCode);
    if (!quote || !(await this.memory.senderIdApproved(customer.id, spec, countryCode))) return null;
    const written = await this.enqueue({ customer, spec, phone, countryCode, quote });
    if (!written) return null;
    return {
      batchId: written.batchId,
      createdAt: written.createdAt,
      recipientId: written.recipientId,
      row: written.row,
      status: BatchStatus.PENDING_SEND,
      cost: quote.price,
      quote: { countries: new Map([[countryCode, quote]]) },
      optedOut: new Set(),
    };
  }

  private enqueue(send: LaneSend): Promise<Written> {
    return new Promise((done) => {
      const id = send.customer.id;
      const queue = this.waiting.get(id);
      if (queue) queue.push({ send, done });
      else this.waiting.set(id, [{ send, done }]);
      if (!this.writing.has(id)) void this.writeGroups(id);
    });
  }

  /** Writes the customer's waiting sends, a group at a time, until none waits. */
  private async writeGroups(customerId: number): Promise<void> {
    this.writing.add(customerId);
    try {
      for (;;) {
        const queue = this.waiting.get(customerId);
        if (!queue || queue.length === 0) break;
        const group = queue.splice(0, GROUP_MAX);
        if (queue.length === 0) this.waiting.delete(customerId);
        let written: Written[];
        try {
          written = await this.writeGroup(group.map((g) => g.send));
        } catch (err) {
          // Nothing was written: each send takes the usual path, which answers it on its own.
          if (!(err instanceof GroupUnaffordable))
            this.log.warn(
              { err: { message: (err as Error).message }, sends: group.length },
              "single-send group not written",
            );
          written = group.map(() => null);
        }
        for (const [i, g] of group.entries()) g.done(written[i] ?? null);
      }
    } finally {
      this.writing.delete(customerId);
    }
  }

  /**
   * One transaction for one customer's group; a send on the customer's opt-out list is not written (the insert
   * skips it) and is left to the usual path, which refuses it as it always does.
   */
  private writeGroup(sends: LaneSend[]): Promise<Written[]> {
    const customer = sends[0]!.customer;
    // Without Prisma's interactive transaction (rawTransaction): its work cost the API more CPU than the statements.
    return rawTransaction(
      this.prisma,
      async (tx) => {
        const written: Written[] = sends.map(() => null);
        const col = <T>(f: (s: LaneSend) => T) => sends.map(f);
        // Ids drawn first, so each batch's recipient is written beside it in the same statement and the batch knows
        // its recipient's id bounds (recipientIdFrom/To: exclusive, as materializeBatch draws them).
        const rows = await tx.$queryRaw<Array<BatchRowRecord & { ord: bigint; rid: bigint }>>`
        WITH v AS (
          SELECT t.*, nextval(pg_get_serial_sequence('message_batches', 'id')) AS bid,
                 nextval(pg_get_serial_sequence('recipients', 'id')) AS rid
          FROM unnest(${col((s) => s.spec.productId)}::int[], ${col((s) => s.spec.productCode)}::int[],
                      ${col((s) => s.spec.submitMode)}::int[], ${col((s) => s.spec.source)}::int[],
                      ${col((s) => JSON.stringify(s.spec.content))}::text[], ${col((s) => senderIdOf(s.spec.content))}::text[],
                      ${col((s) => s.spec.units)}::int[], ${col((s) => s.spec.idempotencyKey)}::text[],
                      ${col((s) => s.quote.price)}::bigint[], ${col((s) => s.phone)}::text[],
                      ${col((s) => s.countryCode)}::text[], ${col((s) => s.quote.channelId)}::int[])
            WITH ORDINALITY AS t(pid, pcode, mode, src, content, sender, units, ikey, price, phone, cc, ch, ord)
          -- an opted-out number draws no ids and is not written
          -- (OFFSET 0 keeps it a probe of the (userId, phone) index per send: this runs on a generic plan, which
          -- would otherwise hash the customer's whole list, however long, as if it had the average length)
          WHERE NOT EXISTS (SELECT 1 FROM opt_outs o WHERE o."userId" = ${customer.id}::int AND o.phone = t.phone
                            OFFSET 0)
        ), b AS (
          INSERT INTO message_batches (id, "tenantId", "userId", "agentId", "productId", "productCode", "taskType",
                                       "submitMode", source, status, content, "senderId", segments, "idempotencyKey",
                                       "totalCount", "validCount", "ingestedCount", cost, "recipientIdFrom",
                                       "recipientIdTo", "updatedAt")
          SELECT bid, ${customer.tenantId}::int, ${customer.id}::int, ${customer.agentId}::int, pid, pcode,
                 ${TaskType.MESSAGE}::smallint, mode, src, ${BatchStatus.PENDING_SEND}::smallint, content::jsonb,
                 sender, units, ikey, 1, 1, 1, price, rid - 1, rid + 1, now()
          FROM v
          RETURNING *
        ), r AS (
          INSERT INTO recipients (id, "batchId", phone, "countryCode", "channelId", segments, price)
          SELECT rid, bid, phone, cc, ch, units, price FROM v
        )
        -- Each batch's send found by its id's place among the written ones' (not v JOIN b: planned for CTEs of
        -- unknown size, that join rescanned b, whole rows and all, once per send: quadratic in the group, -1 to
        -- -8 % of this statement's time at ~50 sends a group, docs/benchmarks.md, session 23); its recipient's id is
        -- the one inside its bounds.
        SELECT (ARRAY(SELECT ord FROM v ORDER BY ord))[array_position(ARRAY(SELECT bid FROM v ORDER BY ord), b.id)]
                 AS ord,
               b."recipientIdFrom" + 1 AS rid, b.*, u.username, p.name AS "productName"
        FROM b JOIN users u ON u.id = b."userId" LEFT JOIN products p ON p.id = b."productId"
        ORDER BY 1`;
        if (rows.length === 0) return written;
        const charged = await consumeForBatches(tx, {
          tenantId: customer.tenantId,
          userId: customer.id,
          operatorId: customer.id,
          // A free message takes nothing and writes no log row, as materializeBatch does.
          charges: rows
            .map((r) => ({ batchId: r.id, amount: sends[Number(r.ord) - 1]!.quote.price }))
            .filter((c) => c.amount > 0n),
        });
        // The balance does not cover the whole group: roll back, and each send is charged on its own.
        if (!charged) throw new GroupUnaffordable();
        for (const { ord, rid, ...row } of rows)
          written[Number(ord) - 1] = { batchId: row.id, createdAt: row.createdAt, recipientId: rid, row };
        return written;
      },
      LEDGER_TX_OPTIONS.timeout,
      // Both statements find rows by key from the group's arrays: one plan per connection serves every group.
      { genericPlans: true },
    );
  }
}

/** A group's sum is more than the balance: an everyday answer (402 for some of them), not a fault. */
class GroupUnaffordable extends Error {}

/** Content whose batch needs only a price and a channel per country: SMS, and RCS without an SMS fallback. */
function priceAndChannelOnly(spec: BatchSpec): boolean {
  const c = spec.content;
  if (c.product === ProductCode.SMS) return true;
  return c.product === ProductCode.RCS && !c.fallbackText;
}
