// delivery-report {channelId, reports}: records delivery receipts on their recipients, in bulk.
//
//   - a receipt names the provider's message id; the recipient stored under exactly that id wins. Only when none
//     is (and only from the job's second run, once every submit outcome in flight has been written) is it looked
//     up under the other spellings the adapter could have stored it in (messageIdVariants: hex and decimal), and
//     then only among recipients without a receipt: with an SMSC counting 1, 2, 3..., decimal "16" is also hex
//     "10", so a first-run variant match would give message 10's receipt to message 16. Among the channel's
//     recipients of the last days (SMSC ids repeat after a restart: the newest recipient with that id wins);
//   - SMSC ids started again (restart, wrap-around; seen by the adapters, id-restarts.ts): a receipt that arrived
//     after that time is matched only to messages sent after it, one that arrived before only to messages sent
//     before it, so an old message still awaiting its receipt never takes the receipt of a newer message with the
//     same id whose outcome is not written yet (the receipt waits for it instead). On the job's last run the rule
//     is dropped: a receipt is never lost to a misread restart;
//   - receive result 1 for "delivered", 2 for any other final state, with receivedAt, only where it is still 0
//     (a receipt delivered twice counts once), and the batch's delivered/undelivered counters in the same
//     statement;
//   - a receipt can overtake its own submit outcome (the SMSC answers the submit, then the receipt, while the
//     outcome waits in the chunk's write buffer): receipts whose id is not found are returned, and the worker
//     runs the job again later with just those, a bounded number of times;
//   - the statement is shaped for a planner whose statistics do not know the messages of the last minutes
//     (see send-outcomes.ts): each spelling is probed through the providerMessageId index alone (a LATERAL
//     subquery kept whole by OFFSET 0), channel and window are checked on the rows found, the receipt's fields
//     are read from the arrays by position, and the row is updated through a TID scan of the ctids found (with
//     its partition's tableoid: a ctid repeats in every partition of recipients);
//   - customers with a notify URL get a delivery_report callback for the recipients recorded.
import { messageIdVariants } from "@switchboard/channels";
import type { CallbackJob, DeliveryReportJob } from "@switchboard/contracts";
import { ReceiveResult } from "@switchboard/contracts";
import { queryRows } from "@switchboard/db";
import { receiptAccount } from "../lib/adapter-pool";
import type { WorkerDeps } from "../lib/deps";
import { receiveResultOf } from "../lib/send-outcomes";

type Deps = Pick<WorkerDeps, "prisma" | "queues" | "logger" | "metrics"> & Partial<Pick<WorkerDeps, "idRestarts">>;
type Report = DeliveryReportJob["reports"][number];

/** How far back a receipt may reach for its message (receipts come within the SMS validity period, days). */
const RECEIPT_WINDOW = "7 days";
/** Recipients per delivery_report callback (the contract's bound). */
const CALLBACK_RECIPIENTS = 1_000;

export interface ReportOutcome {
  /** Receipts recorded now. */
  recorded: number;
  /** Receipts whose message id matched no recipient (yet). */
  unmatched: Report[];
}

interface Row {
  idx: number;
  recipientId: bigint | null;
  batchId: bigint | null;
  /** The receive result the matched message had before. */
  had: number;
  /** Metrics of a receipt recorded now: its result, the batch's product, its channel's kind, receivedAt - sentAt. */
  result: number | null;
  product: number | null;
  kind: string | null;
  lagSeconds: number | null;
}

export interface RecordOptions {
  /**
   * The job's first run: exact ids only, and a receipt found only on messages that already have one is given
   * back to wait (see `matched`). Later runs: other spellings too (hex/decimal), and such a receipt is a
   * duplicate. Default false.
   */
  firstRun?: boolean;
  /** The job's last run: a receipt is matched whether it arrived before or after its SMSC's ids started again. */
  lastRun?: boolean;
}

/** When the channel's SMSC account last gave out its ids again (id-restarts.ts), if it did within the window. */
async function idsRestartedAt(deps: Deps, channelId: number): Promise<Date | null> {
  if (deps.idRestarts === undefined) return null;
  // One row by key, once per receipt statement: without Prisma's per-statement work (queryRows).
  const [channel] = await queryRows(deps.prisma)<Array<{ kind: string; config: unknown }>>`
    SELECT kind, config FROM channels WHERE id = ${channelId}`;
  if (channel?.kind !== "smpp") return null;
  return (await deps.idRestarts.last(receiptAccount(channelId, channel.kind, channel.config))) ?? null;
}

export async function recordDeliveryReports(
  deps: Deps,
  job: DeliveryReportJob,
  { firstRun = false, lastRun = false }: RecordOptions = {},
): Promise<ReportOutcome> {
  const otherSpellings = !firstRun;
  const { reports, channelId } = job;
  if (reports.length === 0) return { recorded: 0, unmatched: [] };
  const variants: string[] = [];
  const variantIdx: number[] = [];
  const variantExact: boolean[] = [];
  reports.forEach((report, idx) => {
    const spellings = otherSpellings ? messageIdVariants(report.providerMessageId) : [report.providerMessageId];
    for (const v of spellings) {
      variants.push(v);
      variantIdx.push(idx);
      variantExact.push(v === report.providerMessageId);
    }
  });
  const results = reports.map(receiveResultOf);
  const errors = reports.map((r) => r.errorCode ?? null);
  const arrivedAts = reports.map((r) => (r.arrivedAt && !Number.isNaN(Date.parse(r.arrivedAt)) ? r.arrivedAt : null));
  const restartedAt = lastRun ? null : await idsRestartedAt(deps, channelId);

  // Recipients by provider message id, batches by id: planned once per connection (genericPlans; the time window
  // and restart conditions only filter what the lookups found).
  const rows = await queryRows(deps.prisma, { genericPlans: true })<Row[]>`
    WITH v AS (
      SELECT * FROM unnest(${variants}::text[], ${variantIdx}::int[], ${variantExact}::boolean[])
        AS v(message_id, idx, exact)
    ), found AS (
      SELECT v.idx, v.exact, f.* FROM v CROSS JOIN LATERAL (
        SELECT r.id, r.tableoid AS toid, r.ctid AS tid, r."channelId", r."sentAt", r."receiveResult" FROM recipients r
        WHERE r."providerMessageId" = v.message_id OFFSET 0
      ) f
    ), account AS (
      -- accountChannels: the channels of the receiving channel's SMSC account (receiptAccount in adapter-pool.ts)
      SELECT c2.id FROM channels c1 JOIN channels c2
        ON c2.kind = c1.kind AND c2.config->>'host' = c1.config->>'host'
       AND c2.config->>'port' = c1.config->>'port' AND c2.config->>'systemId' = c1.config->>'systemId'
      WHERE c1.id = ${channelId} AND c1.kind = 'smpp'
      UNION SELECT ${channelId}::int
    ), hit AS (
      -- a message still without a receipt first: after an SMSC restart its ids repeat, and the newest message
      -- with the id may not be written yet while an older one (with its receipt) is
      SELECT DISTINCT ON (idx) idx, id, toid, tid, "sentAt", "receiveResult" AS had
      FROM found
      WHERE "channelId" IN (SELECT id FROM account) AND "sentAt" > now() - ${RECEIPT_WINDOW}::interval
        AND (exact OR "receiveResult" = ${ReceiveResult.UNKNOWN})
        -- the SMSC's ids started again: the receipt's message is on the same side of that time as the receipt
        AND (${restartedAt}::timestamptz IS NULL
             OR (coalesce((${arrivedAts}::timestamptz[])[idx + 1], now()) >= ${restartedAt}::timestamptz)
                = ("sentAt" >= ${restartedAt}::timestamptz))
      ORDER BY idx, exact DESC, ("receiveResult" = ${ReceiveResult.UNKNOWN}) DESC, id DESC
    ), u AS (
      UPDATE recipients r
      SET "receiveResult" = (${results}::smallint[])[hit.idx + 1],
          -- when it reached us, never before the send (an SMSC's done date has minute resolution)
          "receivedAt" = greatest(coalesce((${arrivedAts}::timestamptz[])[hit.idx + 1], now()), hit."sentAt"),
          "errorCode" = coalesce(r."errorCode", (${errors}::text[])[hit.idx + 1])
      FROM hit
      WHERE r.ctid = ANY (ARRAY(SELECT tid FROM hit)) AND r.ctid = hit.tid AND r.tableoid = hit.toid
        AND r."receiveResult" = ${ReceiveResult.UNKNOWN}
      RETURNING hit.idx, hit.had, r.id, r."batchId", r."receiveResult" AS result, r."sentAt", r."receivedAt"
    ), c AS (
      SELECT "batchId",
             count(*) FILTER (WHERE result = ${ReceiveResult.RECEIVED})::int AS delivered,
             count(*) FILTER (WHERE result = ${ReceiveResult.RECEIVE_FAILED})::int AS undelivered
      FROM u GROUP BY "batchId"
    ), locked AS (
      -- the batches' rows in id order, as every statement that moves several batches locks them (docs/operations.md),
      -- each with its counts: the update joins this alone (see send-outcomes.ts)
      SELECT mb.id, c.delivered, c.undelivered
      FROM message_batches mb JOIN c ON c."batchId" = mb.id
      ORDER BY mb.id FOR UPDATE OF mb
    ), counted AS (
      UPDATE message_batches b
      SET "deliveredCount" = b."deliveredCount" + l.delivered, "undeliveredCount" = b."undeliveredCount" + l.undelivered
      FROM locked l
      WHERE b.id = l.id
    )
    -- every hit once: the recorded ones as the update returned them, then the others (already had a receipt, or
    -- a second receipt of a message in this read). Not hit LEFT JOIN u: planned for CTEs of unknown size, that
    -- join rescanned u once per hit, quadratic in the read (this statement's time per receipt -5 to -10 % at
    -- ~120 receipts a read, docs/benchmarks.md, session 23).
    SELECT u.idx, u.id AS "recipientId", u."batchId", u.had, u.result, b."productCode" AS product,
           (SELECT kind FROM channels WHERE id = ${channelId}) AS kind,
           extract(epoch FROM u."receivedAt" - u."sentAt")::float8 AS "lagSeconds"
    FROM u LEFT JOIN message_batches b ON b.id = u."batchId"
    UNION ALL
    SELECT hit.idx, NULL, NULL, hit.had, NULL, NULL, NULL, NULL
    FROM hit WHERE hit.idx <> ALL (ARRAY(SELECT idx FROM u))`;

  // Found only on messages that already have their receipt: a duplicate, or (first run) the receipt of a newer
  // message with a repeated id whose outcome is not written yet; the first run gives it back to wait for that.
  const matched = new Set(
    rows.filter((r) => r.recipientId !== null || !firstRun || r.had === ReceiveResult.UNKNOWN).map((r) => r.idx),
  );
  const unmatched = reports.filter((_, idx) => !matched.has(idx));
  const recorded = rows.filter((r): r is Row & { recipientId: bigint; batchId: bigint } => r.recipientId !== null);
  deps.metrics.receipts(
    recorded[0]?.kind ?? "unknown",
    recorded.map((r) => ({
      product: r.product,
      delivered: r.result === ReceiveResult.RECEIVED,
      lagSeconds: r.lagSeconds,
    })),
  );
  if (recorded.length > 0) await enqueueReportCallbacks(deps, recorded);
  return { recorded: recorded.length, unmatched };
}

/**
 * delivery_report callbacks for recorded receipts (or message_fallback ones for messages handed to SMS), to the
 * owners of their batches who set a notify URL, up to 1,000 messages each.
 */
export async function enqueueReportCallbacks(
  deps: Pick<WorkerDeps, "prisma" | "queues">,
  rows: Array<{ recipientId: bigint; batchId: bigint }>,
  event: "delivery_report" | "message_fallback" = "delivery_report",
) {
  if (rows.length === 0) return;
  const byBatch = new Map<string, string[]>();
  for (const r of rows) {
    const key = r.batchId.toString();
    const list = byBatch.get(key) ?? [];
    list.push(r.recipientId.toString());
    byBatch.set(key, list);
  }
  // After every outcome write that carried receipts and every receipt statement: queryRows, not Prisma's $queryRaw.
  const owners = await queryRows(deps.prisma, { genericPlans: true })<Array<{ id: bigint; userId: number }>>`
    SELECT b.id, b."userId" FROM message_batches b JOIN users u ON u.id = b."userId"
    WHERE b.id = ANY(${[...byBatch.keys()]}::bigint[]) AND u."notifyUrl" IS NOT NULL AND u."deletedAt" IS NULL`;
  const jobs: CallbackJob[] = [];
  for (const { id, userId } of owners) {
    const batchId = id.toString();
    const ids = byBatch.get(batchId) ?? [];
    for (let i = 0; i < ids.length; i += CALLBACK_RECIPIENTS) {
      jobs.push({ userId, batchId, event, recipientIds: ids.slice(i, i + CALLBACK_RECIPIENTS) });
    }
  }
  await deps.queues.callbacks(jobs);
}
