// Provider webhook events (stored raw by the API, apps/api/src/modules/webhooks) and SMPP mobile-originated
// messages (stored by the workers' SMPP binds, lib/mo-intake.ts) applied to recipients and inbound messages, then
// deleted: the table is the queue, so an event acknowledged to the provider is never lost.
//
//   - One round claims up to `batch` due events (FOR UPDATE SKIP LOCKED) and applies them in one transaction:
//     the events go only when what they say is written. Rounds of all processes take one advisory lock, so the
//     counters below are computed from the rows as they were (no two rounds change one recipient at once).
//   - Reports: delivered / read set receive result 1 (read also readAt); undelivered, expired, rejected and failed
//     set 2. States only move forward: a duplicate or a report older than what is recorded changes nothing, and a
//     READ that overtakes its DELIVERED records both. The batch's delivered / undelivered / read counters move
//     with the rows, in the same statement.
//   - A report whose message is not known yet (the send's answer is still being written) keeps its event, tried
//     again after a backoff, a bounded number of times.
//   - Inbound messages are stored once per provider id, matched to the last message sent to that number over that
//     channel (hence to its batch and customer), and the customer's notify URL gets an `inbound` callback.

import { type DeliveryReport, type InboundMessage, storedEventParser } from "@switchboard/channels";
import {
  BalanceLogType,
  BatchStatus,
  type CallbackJob,
  channelEventsWakeup,
  ReceiveResult,
  SendResult,
} from "@switchboard/contracts";
import type { Prisma } from "@switchboard/db";
import { applyBalanceChange } from "@switchboard/domain/ledger";
import { optOutByKeyword, optOutKeywords } from "@switchboard/domain/opt-outs";
import { duplicateRedis, type RedisConnection } from "@switchboard/domain/redis";
import type { WorkerDeps } from "../lib/deps";
import type { WorkerMetrics } from "../lib/metrics";

type Deps = Pick<WorkerDeps, "prisma" | "queues" | "logger" | "metrics">;
/** A stored event and what its provider's parser read from it. */
type ParsedEvent = { event: StoredEvent } & ReturnType<NonNullable<ReturnType<typeof storedEventParser>>>;
/** Receipts recorded in a round, per channel kind: counted once the round's transaction has committed. */
type RecordedReceipts = Array<{ kind: string; rows: Parameters<WorkerMetrics["receipts"]>[1] }>;

export interface ChannelEventTuning {
  /** Events claimed per round. */
  batch: number;
  /** Poll interval when no wake-up comes. */
  pollMs: number;
  /** Tries of an event whose message is not known yet, and the first wait (doubling). */
  maxAttempts: number;
  retryBaseMs: number;
}

export const DEFAULT_CHANNEL_EVENT_TUNING: ChannelEventTuning = {
  batch: 500,
  pollMs: 250,
  maxAttempts: 10,
  retryBaseMs: 500,
};

/** One advisory lock key for every round of every process (see the top of this file). */
const ROUND_LOCK = 0x5b_ce_00_01;

interface StoredEvent {
  id: bigint;
  channelId: number;
  kind: string;
  tenantId: number;
  body: string;
  attempts: number;
}

export interface RoundResult {
  /** Events applied and deleted. */
  applied: number;
  /** Events kept for a later try (a message not known yet). */
  deferred: number;
  /** Events given up on (unreadable, unknown channel, out of tries). */
  dropped: number;
}

/** Applies one round of due events; 0 applied, deferred and dropped when there were none. */
export async function applyChannelEvents(
  deps: Deps,
  tuning: ChannelEventTuning = DEFAULT_CHANNEL_EVENT_TUNING,
): Promise<RoundResult> {
  const result: RoundResult = { applied: 0, deferred: 0, dropped: 0 };
  const callbacks: CallbackJob[] = [];
  const touched = new Set<bigint>();
  const recorded: RecordedReceipts = [];
  await deps.prisma.$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<Array<{ ok: boolean }>>`SELECT pg_try_advisory_xact_lock(${ROUND_LOCK}) AS ok`;
      if (!lock?.ok) return;
      const events = await tx.$queryRaw<StoredEvent[]>`
        SELECT e.id, e."channelId", coalesce(c.kind, '') AS kind, coalesce(c."tenantId", 0) AS "tenantId", e.body,
               e.attempts
        FROM channel_events e LEFT JOIN channels c ON c.id = e."channelId"
        WHERE e."notBefore" <= now()
        ORDER BY e.id
        LIMIT ${tuning.batch}
        FOR UPDATE OF e SKIP LOCKED`;
      if (events.length === 0) return;

      const done: bigint[] = [];
      const later: Array<{ id: bigint; attempts: number }> = [];
      const groups: Array<{ channelId: number; first: StoredEvent; parsed: ParsedEvent[] }> = [];
      for (const [channelId, group] of groupBy(events, (e) => e.channelId)) {
        const first = group[0] as StoredEvent;
        const parse = storedEventParser(first.kind);
        if (!parse) {
          deps.logger.warn({ channelId, events: group.length }, "webhook events of a channel that takes none: dropped");
          done.push(...group.map((e) => e.id));
          result.dropped += group.length;
          continue;
        }
        const parsed = group.map((e) => ({ event: e, ...parse(e.body) }));
        for (const p of parsed) {
          if (p.error)
            deps.logger.warn({ channelId, eventId: p.event.id.toString(), error: p.error }, "webhook event unreadable");
        }
        groups.push({ channelId, first, parsed });
      }
      // The round's statements move the counters of every batch its reports name, several statements in this one
      // transaction: their rows are locked first, in id order, as every statement that moves several batches
      // locks them (docs/operations.md), so the round never holds one while waiting for another.
      await lockBatchesOf(
        tx,
        groups.flatMap((g) => g.parsed.flatMap((p) => p.reports.map((r) => r.providerMessageId.slice(0, 64)))),
      );
      for (const { channelId, first, parsed } of groups) {
        const reports = parsed.flatMap((p) => p.reports.map((report) => ({ report, eventId: p.event.id })));
        await failAccepted(
          tx,
          channelId,
          reports.map((r) => r.report),
        );
        const unmatched = await applyReports(
          tx,
          channelId,
          reports.map((r) => r.report),
          touched,
          (rows) => recorded.push({ kind: first.kind, rows }),
        );
        const waiting = new Set(unmatched.map((i) => (reports[i] as { eventId: bigint }).eventId));
        // A reply to a message whose send outcome is not written yet waits like a report does (its last try stores
        // it unmatched rather than lose it).
        const inbound = parsed.flatMap((p) =>
          p.inbound.map((message) => ({
            message,
            eventId: p.event.id,
            lastTry: p.event.attempts + 1 >= tuning.maxAttempts,
          })),
        );
        if (inbound.length > 0) {
          const stored = await storeInbound(tx, channelId, first.kind, first.tenantId, inbound);
          callbacks.push(...stored.callbacks);
          for (const id of stored.waiting) waiting.add(id);
        }
        for (const { event } of parsed) {
          if (!waiting.has(event.id)) {
            done.push(event.id);
            result.applied++;
          } else if (event.attempts + 1 >= tuning.maxAttempts) {
            deps.logger.warn(
              { channelId, eventId: event.id.toString() },
              "webhook event names messages never sent: dropped",
            );
            done.push(event.id);
            result.dropped++;
          } else {
            later.push({ id: event.id, attempts: event.attempts + 1 });
            result.deferred++;
          }
        }
      }
      if (done.length > 0)
        await tx.$executeRaw`DELETE FROM channel_events WHERE id = ANY(${done.map(String)}::bigint[])`;
      for (const { id, attempts } of later) {
        const waitMs = tuning.retryBaseMs * 2 ** (attempts - 1);
        await tx.$executeRaw`
          UPDATE channel_events SET attempts = ${attempts},
                 "notBefore" = now() + ${waitMs} * interval '1 millisecond'
          WHERE id = ${id}`;
      }
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
  for (const { kind, rows } of recorded) deps.metrics.receipts(kind, rows);
  if (callbacks.length > 0) {
    // Customers without a notify URL cost nothing: no job for them.
    const told = await deps.prisma.user.findMany({
      where: { id: { in: [...new Set(callbacks.map((c) => c.userId))] }, notifyUrl: { not: null }, deletedAt: null },
      select: { id: true },
    });
    const ids = new Set(told.map((u) => u.id));
    await deps.queues.callbacks(callbacks.filter((c) => ids.has(c.userId)));
  }
  if (touched.size > 0) await settleEarly(deps, [...touched]);
  return result;
}

/**
 * A batch with a timed SMS fallback waits in 21 until its last RCS message's window ends (fallback-window.ts);
 * once every message it sent has its final report, nothing is left to wait for, and its finish job (delayed
 * until that window) runs now. Judged by the counters (cheap, every round): with SMS receipts still to come it
 * simply waits for the window as before.
 */
async function settleEarly(deps: Deps, batchIds: bigint[]): Promise<void> {
  const done = await deps.prisma.$queryRaw<Array<{ id: bigint }>>`
    SELECT id FROM message_batches
    WHERE id = ANY(${batchIds.map(String)}::bigint[]) AND status = ${BatchStatus.SENDING}
      AND content ? 'fallbackAfterSeconds' AND "sentCount" >= "validCount"
      AND "deliveredCount" + "undeliveredCount" >= "successCount"`;
  if (done.length > 0) await deps.queues.finishNow(done.map((b) => b.id.toString()));
}

/** Locks, in id order, the batches of the recipients sent with these provider message ids. */
async function lockBatchesOf(tx: Prisma.TransactionClient, providerMessageIds: string[]): Promise<void> {
  if (providerMessageIds.length === 0) return;
  await tx.$queryRaw`
    SELECT b.id FROM message_batches b
    WHERE b.id IN (
      SELECT f."batchId" FROM unnest(${providerMessageIds}::text[]) AS e(message_id) CROSS JOIN LATERAL (
        SELECT r."batchId" FROM recipients r WHERE r."providerMessageId" = e.message_id OFFSET 0
      ) f
    )
    ORDER BY b.id FOR UPDATE`;
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

const RECEIVED_STATUSES = ["delivered", "read"];
/** "failed" is a send failure (failAccepted) while nothing was delivered; after a delivery it changes nothing. */
const FAILED_STATUSES = ["undelivered", "expired", "rejected", "failed"];

/** Batch statuses that were settled already: a late send failure is refunded on the spot. */
const SETTLED = [BatchStatus.SEND_FINISHED, BatchStatus.SEND_TERMINATED, BatchStatus.SEND_FAILED];

/**
 * A provider that gives up on a message it had accepted (WhatsApp's `failed` status) failed the send: the
 * recipient goes from send result 1 to 2 with the provider's code, once (the update is conditional on 1 and on no
 * delivery yet), and is refunded exactly once: by the settlement if the batch is still sending, else here, through
 * the ledger, with the batch's refunded amount and counters moved in the same transaction.
 */
async function failAccepted(tx: Prisma.TransactionClient, channelId: number, reports: DeliveryReport[]) {
  const failed = reports.filter((r) => r.status === "failed");
  if (failed.length === 0) return;
  const rows = await tx.$queryRaw<Array<{ batchId: bigint; count: number; price: bigint }>>`
    WITH e AS (
      SELECT * FROM unnest(${failed.map((r) => r.providerMessageId.slice(0, 64))}::text[],
                           ${failed.map((r) => r.errorCode?.slice(0, 32) ?? null)}::text[]) AS e(message_id, error_code)
    ), hit AS (
      SELECT DISTINCT ON (f.id) f.id, f.toid, f.tid, e.error_code FROM e CROSS JOIN LATERAL (
        SELECT r.id, r.tableoid AS toid, r.ctid AS tid, r."channelId", r."sendResult", r."receiveResult" FROM recipients r
        WHERE r."providerMessageId" = e.message_id OFFSET 0
      ) f
      WHERE f."channelId" = ${channelId} AND f."sendResult" = ${SendResult.SUCCESS}
        AND f."receiveResult" = ${ReceiveResult.UNKNOWN}
    ), u AS (
      UPDATE recipients r SET "sendResult" = ${SendResult.FAILURE}, "errorCode" = coalesce(hit.error_code, 'FAILED')
      FROM hit
      WHERE r.ctid = ANY (ARRAY(SELECT tid FROM hit)) AND r.ctid = hit.tid AND r.tableoid = hit.toid
        AND r."sendResult" = ${SendResult.SUCCESS}
      RETURNING r."batchId", r.price
    )
    SELECT "batchId", count(*)::int AS count, sum(price)::bigint AS price FROM u GROUP BY "batchId"`;
  for (const row of rows) {
    const [batch] = await tx.$queryRaw<Array<{ status: number; tenantId: number; userId: number }>>`
      UPDATE message_batches
      SET "successCount" = "successCount" - ${row.count}, "failedCount" = "failedCount" + ${row.count},
          refunded = refunded + CASE WHEN status = ANY(${SETTLED}::int[]) THEN ${row.price}::bigint ELSE 0 END
      WHERE id = ${row.batchId}
      RETURNING status, "tenantId", "userId"`;
    if (batch && SETTLED.includes(batch.status as (typeof SETTLED)[number]) && row.price > 0n) {
      await applyBalanceChange(tx, {
        tenantId: batch.tenantId,
        userId: batch.userId,
        type: BalanceLogType.REFUND,
        amount: row.price,
        batchId: row.batchId,
      });
    }
  }
}

/**
 * Records one channel's reports; returns the positions of the reports whose message is not known (yet).
 * Per recipient: the earliest delivery time of its delivered/read reports, the earliest read time, and whether
 * any report says it failed; then one forward-only update of the recipients and their batches' counters.
 */
async function applyReports(
  tx: Prisma.TransactionClient,
  channelId: number,
  reports: DeliveryReport[],
  /** Batches whose recipients these reports named (filled in). */
  touched: Set<bigint>,
  /** Receives the receipts that gave a recipient its final result now (metrics). */
  onRecorded: (rows: RecordedReceipts[number]["rows"]) => void,
) {
  if (reports.length === 0) return [];
  const ids = reports.map((r) => r.providerMessageId.slice(0, 64));
  const statuses = reports.map((r) => r.status);
  const ats = reports.map((r) => (r.doneAt && !Number.isNaN(r.doneAt.getTime()) ? r.doneAt : new Date()).toISOString());
  const errors = reports.map((r) => r.errorCode?.slice(0, 32) ?? null);
  const matched = await tx.$queryRaw<
    Array<{ idx: number; batchId: bigint; newResult: number | null; product: number | null; lagSeconds: number | null }>
  >`
    WITH e AS (
      SELECT * FROM unnest(${ids}::text[], ${statuses}::text[], ${ats}::timestamptz[], ${errors}::text[])
        WITH ORDINALITY AS e(message_id, status, at, error_code, idx)
    ), hit AS (
      SELECT e.idx, e.status, e.at, e.error_code, f.id, f.toid, f.tid, f."batchId", f."receiveResult", f."readAt"
      FROM e CROSS JOIN LATERAL (
        SELECT r.id, r.tableoid AS toid, r.ctid AS tid, r."batchId", r."channelId", r."receiveResult", r."readAt" FROM recipients r
        WHERE r."providerMessageId" = e.message_id OFFSET 0
      ) f
      WHERE f."channelId" = ${channelId}
    ), agg AS (
      SELECT id, toid, tid, "batchId", min(idx) AS first_idx, min("receiveResult") AS old_result, min("readAt") AS old_read,
             min(at) FILTER (WHERE status = ANY(${RECEIVED_STATUSES}::text[])) AS delivered_at,
             min(at) FILTER (WHERE status = 'read') AS read_at,
             bool_or(status = ANY(${FAILED_STATUSES}::text[])) AS failed,
             min(error_code) FILTER (WHERE status = ANY(${FAILED_STATUSES}::text[])) AS error_code
      FROM hit GROUP BY id, toid, tid, "batchId"
    ), next AS (
      SELECT agg.*,
             CASE WHEN old_result <> 0 THEN old_result
                  WHEN delivered_at IS NOT NULL THEN 1
                  WHEN failed THEN 2 ELSE 0 END AS new_result
      FROM agg
    ), u AS (
      UPDATE recipients r
      SET "receiveResult" = next.new_result,
          "receivedAt" = CASE
            WHEN next.new_result = 1 AND next.delivered_at IS NOT NULL
              THEN least(coalesce(r."receivedAt", next.delivered_at), next.delivered_at)
            WHEN next.old_result = 0 AND next.new_result = 2 THEN coalesce(r."receivedAt", now())
            ELSE r."receivedAt" END,
          "readAt" = CASE WHEN next.new_result = 1 THEN coalesce(r."readAt", next.read_at) ELSE r."readAt" END,
          "errorCode" = CASE WHEN next.old_result = 0 AND next.new_result = 2
            THEN coalesce(r."errorCode", next.error_code) ELSE r."errorCode" END
      FROM next
      WHERE r.ctid = ANY (ARRAY(SELECT tid FROM next)) AND r.ctid = next.tid AND r.tableoid = next.toid
      RETURNING r."batchId", next.old_result, next.new_result, next.old_read, r."readAt" AS new_read,
                next.id, next.first_idx, r."sentAt" AS sent_at, r."receivedAt" AS received_at
    ), counted AS (
      UPDATE message_batches b
      SET "deliveredCount" = b."deliveredCount" + c.delivered,
          "undeliveredCount" = b."undeliveredCount" + c.undelivered,
          "readCount" = b."readCount" + c.opened
      FROM (
        SELECT "batchId",
               count(*) FILTER (WHERE old_result = 0 AND new_result = 1)::int AS delivered,
               count(*) FILTER (WHERE old_result = 0 AND new_result = 2)::int AS undelivered,
               count(*) FILTER (WHERE old_read IS NULL AND new_read IS NOT NULL)::int AS opened
        FROM u GROUP BY "batchId"
      ) c
      WHERE b.id = c."batchId"
    )
    -- each recipient that got its final result now, once (on its first report), with what the metrics need
    SELECT (hit.idx - 1)::int AS idx, hit."batchId", u.new_result AS "newResult", b."productCode" AS product,
           extract(epoch FROM u.received_at - u.sent_at)::float8 AS "lagSeconds"
    FROM hit
    LEFT JOIN u ON u.id = hit.id AND u.first_idx = hit.idx AND u.old_result = 0 AND u.new_result <> 0
    LEFT JOIN message_batches b ON b.id = u."batchId"`;
  onRecorded(
    matched.flatMap((m) =>
      m.newResult === null
        ? []
        : [{ product: m.product, delivered: m.newResult === ReceiveResult.RECEIVED, lagSeconds: m.lagSeconds }],
    ),
  );
  const found = new Set(matched.map((m) => m.idx));
  for (const m of matched) touched.add(m.batchId);
  return reports.map((_, i) => i).filter((i) => !found.has(i));
}

/**
 * Stores inbound messages (once per provider id), each matched to the last message sent to its number over this
 * channel, directly or as the RCS message an SMS fell back from; returns the `inbound` callbacks to send, and the
 * events to try again: a reply naming (context id) a message of ours not written yet (its send outcome is still
 * in a write buffer) waits rather than be stored without its batch, except on its event's last try.
 */
async function storeInbound(
  tx: Prisma.TransactionClient,
  channelId: number,
  kind: string,
  tenantId: number,
  incoming: Array<{ message: InboundMessage; eventId: bigint; lastTry: boolean }>,
): Promise<{ callbacks: CallbackJob[]; waiting: bigint[] }> {
  const replyTos = [
    ...new Set(incoming.flatMap((i) => (i.message.inReplyTo ? [i.message.inReplyTo.slice(0, 128)] : []))),
  ];
  const known = new Set(
    replyTos.length === 0
      ? []
      : (
          await tx.$queryRaw<Array<{ id: string }>>`
            SELECT "providerMessageId" AS id FROM recipients
            WHERE "providerMessageId" = ANY(${replyTos}::text[]) AND "channelId" = ${channelId}`
        ).map((r) => r.id),
  );
  const waiting = new Set<bigint>();
  const messages: InboundMessage[] = [];
  for (const i of incoming) {
    const replyTo = i.message.inReplyTo?.slice(0, 128);
    if (replyTo && !known.has(replyTo) && !i.lastTry) waiting.add(i.eventId);
    else messages.push(i.message);
  }
  if (messages.length === 0) return { callbacks: [], waiting: [...waiting] };
  // An SMSC hands a user's message to any bind of the account, so an SMS reply is matched over every channel of
  // the account (as receipts are: receiptAccount in adapter-pool.ts), not only the one whose bind took it.
  const sentOver =
    kind === "smpp"
      ? (
          await tx.$queryRaw<Array<{ id: number }>>`
            SELECT c2.id FROM channels c1 JOIN channels c2
              ON c2.kind = c1.kind AND c2.config->>'host' = c1.config->>'host'
             AND c2.config->>'port' = c1.config->>'port' AND c2.config->>'systemId' = c1.config->>'systemId'
            WHERE c1.id = ${channelId}`
        ).map((c) => c.id)
      : [channelId];
  if (!sentOver.includes(channelId)) sentOver.push(channelId);
  const rows = await tx.$queryRaw<
    Array<{ id: bigint; userId: number | null; batchId: bigint | null; phone: string; text: string | null }>
  >`
    INSERT INTO inbound_messages
      ("tenantId", "userId", "batchId", "recipientId", "channelId", "providerMessageId", phone, text, "postbackData",
       "inReplyTo", "receivedAt")
    SELECT ${tenantId}, m."userId", m."batchId", m.id, ${channelId}, i.provider_id, i.phone, i.text, i.postback,
           i.reply_to, i.received_at
    FROM unnest(${messages.map((m) => m.providerMessageId.slice(0, 128))}::text[],
                ${messages.map((m) => m.from.slice(0, 16))}::text[],
                ${messages.map((m) => m.text?.slice(0, 4096) ?? null)}::text[],
                ${messages.map((m) => m.postbackData?.slice(0, 2048) ?? null)}::text[],
                ${messages.map((m) => m.inReplyTo?.slice(0, 128) ?? null)}::text[],
                ${messages.map((m) => m.receivedAt.toISOString())}::timestamptz[])
      AS i(provider_id, phone, text, postback, reply_to, received_at)
    LEFT JOIN LATERAL (
      SELECT r.id, r."batchId", b."userId" FROM recipients r JOIN message_batches b ON b.id = r."batchId"
      WHERE (i.reply_to IS NOT NULL AND r."providerMessageId" = i.reply_to AND r."channelId" = ${channelId})
         OR (r."channelId" = ANY(${sentOver}::int[]) AND r."sentAt" > now() - interval '30 days' AND r.phone = i.phone)
      ORDER BY (r."providerMessageId" = i.reply_to) DESC NULLS LAST, r."sentAt" DESC
      LIMIT 1
    ) m ON true
    ON CONFLICT ("channelId", "providerMessageId") DO NOTHING
    RETURNING id, "userId", "batchId", phone, text`;
  // A STOP-style reply puts its sender on the opt-out list of the customer whose batch it answers.
  const keywords = rows.some((r) => r.userId !== null && r.text) ? await optOutKeywords(tx, tenantId) : [];
  const optedOut = new Set<bigint>();
  for (const r of rows) {
    if (r.userId === null) continue;
    const done = await optOutByKeyword(tx, { tenantId, customerId: r.userId, phone: r.phone, text: r.text, keywords });
    if (done === "added") optedOut.add(r.id);
  }
  const callbacks = rows
    .filter((r): r is typeof r & { userId: number } => r.userId !== null)
    .flatMap((r) => {
      const reply = {
        userId: r.userId,
        ...(r.batchId !== null ? { batchId: r.batchId.toString() } : {}),
        inboundId: r.id.toString(),
      };
      // A keyword reply that put its number on the list is also an opt_out event (named by the reply).
      return optedOut.has(r.id)
        ? [
            { ...reply, event: "inbound" as const },
            { ...reply, event: "opt_out" as const },
          ]
        : [{ ...reply, event: "inbound" as const }];
    });
  return { callbacks, waiting: [...waiting] };
}

/** Runs rounds while events are due: woken through Redis by the API, and every pollMs anyway. */
export class ChannelEventLoop {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly subscriber: RedisConnection;

  constructor(
    private readonly deps: Deps & Pick<WorkerDeps, "redis" | "redisPrefix" | "outages">,
    private readonly tuning: ChannelEventTuning = DEFAULT_CHANNEL_EVENT_TUNING,
  ) {
    this.subscriber = duplicateRedis(deps.redis);
    this.subscriber.on("error", () => undefined); // the main connection's handler already says Redis is gone
  }

  async start(): Promise<void> {
    await this.subscriber.subscribe(channelEventsWakeup(this.deps.redisPrefix));
    this.subscriber.on("message", () => this.kick());
    this.kick();
  }

  /** Runs a round now (or right after the one running). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.kick();
      } else if (!this.stopped) this.timer = setTimeout(() => this.kick(), this.tuning.pollMs);
    });
  }

  private async loop(): Promise<void> {
    try {
      for (;;) {
        const r = await applyChannelEvents(this.deps, this.tuning);
        // A full round means more are waiting; otherwise wait for a wake-up or the next poll.
        if (this.stopped || r.applied + r.deferred + r.dropped < this.tuning.batch) return;
      }
    } catch (err) {
      // A lost database is the outage's one line at a bounded rate, not a stack per poll (every 250 ms).
      if (!this.deps.outages.report(err)) {
        this.deps.logger.error({ err }, "applying webhook events failed; trying again at the next poll");
      }
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.subscriber.disconnect();
  }
}
