// dispatch-singles {batches: [{batchId, createdAt, recipientId}]}: a group of single sends (the API's single-send
// lane: one number each, sent now, written in one transaction) started, sent and settled together. Each batch
// on its own would cost a dispatch job of ~20 statements and as many Redis round trips (start, plan, read,
// lease, journal, outcome, count, settle, callbacks); the group costs about as many in all:
//   1. one statement starts every batch still due in 20 (20 -> 21) and reads its recipient with it;
//   2. per channel: one token request for the whole group, a lease per batch's chunk (the chunk the usual
//      path would plan: its one recipient), the intents of all in one MULTI (outcome-journal.ts), the sends
//      pipelined on the channel's window, the outcomes in one statement (send-outcomes.ts, with receipts riding
//      as in a chunk; a sent one settled by it, 22) and its mode 1 requests woken by one message;
//   3. one transaction settles the rest (finish-batch.ts settleSingles: counts, refunds, 22 or 24), whose mode 1
//      requests are woken then, so that every answer shows its batch final.
// Guarantees are the usual path's, because anything out of the ordinary IS the usual path: a batch not started
// here (run again after a crash: it is already sending; stopped; from another life of the database), content
// or a channel this group does not send (WhatsApp's pair gate, RCS with a fallback, screening), a channel
// unusable now, a send refused for now or for the channel, a lease held elsewhere: each goes back as a
// dispatch-batch job (its chunk finds the journal, leases and retries as any chunk), and a batch the group
// could not settle gets its finish job. A message is never sent by both: the group holds the chunk's lease
// while it sends, and the usual path only sends what is still unsent after the journal is replayed.
import type { SendOutcome } from "@switchboard/channels";
import {
  type BatchContent,
  BatchStatus,
  batchContent,
  batchJobKey,
  type DispatchSinglesJob,
  ProductCode,
  SendResult,
  TaskType,
} from "@switchboard/contracts";
import { batchJobKeys, queryRows } from "@switchboard/db";
import { ChannelUnusable, type PooledChannel } from "../lib/adapter-pool";
import type { ChunkLease } from "../lib/chunk-leases";
import type { WorkerDeps } from "../lib/deps";
import { chunkName } from "../lib/job-queues";
import { OutcomeWriter, type SettledSingle } from "../lib/send-outcomes";
import { enqueueBatchStatusCallbacks } from "./callback";
import {
  type ChunkRecipient,
  channelBucket,
  courseOf,
  journalErrorLogger,
  type MessageOf,
  messagesOf,
  outcomeRow,
  refusedHere,
  signalOutcomes,
  writeOutcomes,
} from "./dispatch-chunk";
import { settleSingles } from "./finish-batch";

type Deps = WorkerDeps;

/** A started batch and its one recipient (id null: not found), as the start statement reads them. */
interface Started extends Omit<ChunkRecipient, "id"> {
  id: bigint | null;
  batchId: bigint;
  userId: number;
  content: unknown;
  senderId: string | null;
  createdAt: Date;
  taskType: number;
  startedAt: Date;
  channelId: number | null;
  /** The customer has a notify URL: its batch_status callbacks are enqueued. */
  notify: boolean;
}

/** A started batch this group sends: its recipient, channel and content known. */
interface Single extends Started {
  id: bigint;
  channelId: number;
  message: BatchContent;
}

/** What a channel's part of the group ended with. */
interface Sent {
  /** Batches whose outcome is written: settled here (if their outcome's write did not settle them). */
  done: bigint[];
  /** Batches their outcome's write settled (sent, nothing to refund). */
  settled: SettledSingle[];
  /** Batches the usual path takes over (nothing of theirs was sent here, or what was is written). */
  again: bigint[];
  /** Batches stopped while the group waited for the channel's tokens: nothing sent, their finish job settles them. */
  stopped: bigint[];
}

export async function dispatchSingles(deps: Deps, job: DispatchSinglesJob): Promise<void> {
  const singles = await start(deps, job);
  const started = new Set(singles.map((s) => s.batchId));
  await handBack(
    deps,
    await ownBatches(
      deps,
      job.batches.filter((b) => !started.has(BigInt(b.batchId))),
    ),
  );
  if (singles.length === 0) return;
  deps.logger.debug({ batches: singles.length }, "single sends sending");
  const told = singles.filter((s) => s.notify);
  if (told.length > 0) {
    await enqueueBatchStatusCallbacks(
      deps,
      told.map((s) => ({
        batchId: s.batchId,
        from: BatchStatus.PENDING_SEND,
        to: BatchStatus.SENDING,
        at: s.startedAt,
      })),
    );
  }

  // Sent here: one recipient with a channel, a message (not a screening) of content it can read, by channel and
  // product.
  const again: bigint[] = [];
  const parts = new Map<string, Single[]>();
  for (const s of singles) {
    const message = batchContent.safeParse(s.content).data;
    if (s.id === null || s.channelId === null || s.taskType !== TaskType.MESSAGE || message === undefined) {
      again.push(s.batchId);
      continue;
    }
    const single: Single = { ...s, id: s.id, channelId: s.channelId, message };
    const key = `${s.channelId}:${message.product}`;
    const part = parts.get(key);
    if (part) part.push(single);
    else parts.set(key, [single]);
  }
  const results = await Promise.all([...parts.values()].map((part) => sendPart(deps, part)));
  const done = results.flatMap((r) => r.done);
  again.push(...results.flatMap((r) => r.again));
  await handBack(deps, again);
  const stopped = results.flatMap((r) => r.stopped);
  if (stopped.length > 0) await deps.queues.finishBatches(stopped.map(String));
  await settle(
    deps,
    done,
    results.flatMap((r) => r.settled),
  );
}

/** Starts the group's batches still due in 20 (20 -> 21) and reads each one's recipient, in one statement. */
async function start(deps: Deps, job: DispatchSinglesJob): Promise<Started[]> {
  const ids = job.batches.map((b) => b.batchId);
  const createdAt = job.batches.map((b) => b.createdAt);
  const recipientIds = job.batches.map((b) => b.recipientId);
  // The creation time must match (the batch's job key): a job left by another life of the database starts nothing.
  // Planned once per connection (genericPlans): every row is found by key, and the statement is written so that no
  // plan can find them otherwise, whatever the tables held when it was planned: each batch and each recipient is
  // probed by its id (OFFSET 0 keeps the probe a lookup of its own, its conditions applied to what it found), and
  // the update takes the rows it probed by ctid, its status recheck written so that no index on status could
  // drive it (a generic plan made on a small table took the (status, scheduledAt) index, every batch due, for it).
  // A batch changed between the probe and the update (cancelled, started elsewhere) is not started here.
  return queryRows(deps.prisma, { genericPlans: true })<Started[]>`
    WITH w AS (
      SELECT * FROM unnest(${ids}::bigint[], ${createdAt}::timestamptz[], ${recipientIds}::bigint[])
        AS w(id, created_at, rid)
    ), due AS (
      SELECT w.rid, p.tid FROM w CROSS JOIN LATERAL (
        SELECT b.ctid AS tid, b."createdAt", b.status, b."scheduledAt" FROM message_batches b WHERE b.id = w.id
        OFFSET 0
      ) p
      WHERE p."createdAt" = w.created_at AND p.status = ${BatchStatus.PENDING_SEND}
        AND (p."scheduledAt" IS NULL OR p."scheduledAt" <= now())
    ), s AS (
      UPDATE message_batches b
      SET status = ${BatchStatus.SENDING}, "startedAt" = now(), "updatedAt" = now()
      FROM due
      WHERE b.ctid = ANY (ARRAY(SELECT tid FROM due)) AND b.ctid = due.tid
        AND coalesce(b.status, -1) = ${BatchStatus.PENDING_SEND}
      RETURNING b.id, b."userId", b.content, b."senderId", b."createdAt", b."taskType", b."startedAt", due.rid
    )
    SELECT s.id AS "batchId", s."userId", s.content, s."senderId", s."createdAt", s."taskType", s."startedAt",
           r.id, r.phone, r.segments, r."fallbackPrice", r.vars, r."channelId",
           (u."notifyUrl" IS NOT NULL AND u."deletedAt" IS NULL) AS notify
    FROM s
    JOIN users u ON u.id = s."userId"
    LEFT JOIN LATERAL (
      SELECT r.id, r.phone, r.segments, r."fallbackPrice", r.vars, r."channelId", r."batchId", r."sendResult"
      FROM recipients r WHERE r.id = s.rid
      OFFSET 0
    ) r ON r."batchId" = s.id AND r."sendResult" = ${SendResult.NOT_SENT}
    ORDER BY s.id`;
}

/** Of the group's batches not started here, those that are the batches the job named (not another life's). */
async function ownBatches(deps: Deps, batches: DispatchSinglesJob["batches"]): Promise<bigint[]> {
  if (batches.length === 0) return [];
  const keys = await batchJobKeys(
    deps.prisma,
    batches.map((b) => b.batchId),
  );
  return batches
    .filter((b) => keys.get(b.batchId) === batchJobKey(b.batchId, new Date(b.createdAt)))
    .map((b) => BigInt(b.batchId));
}

/** Batches the usual path takes: a dispatch-batch job each (one that is sending re-plans what is left). */
async function handBack(deps: Deps, batchIds: readonly bigint[]): Promise<void> {
  if (batchIds.length > 0) await deps.queues.dispatchBatches(batchIds.map(String));
}

/** One channel's (and product's) part of the group: leases, journal, tokens, sends, outcomes. */
async function sendPart(deps: Deps, part: Single[]): Promise<Sent> {
  const everyone = (): Sent => ({ done: [], settled: [], again: part.map((s) => s.batchId), stopped: [] });
  const first = part[0];
  if (!first) return { done: [], settled: [], again: [], stopped: [] };
  let channel: PooledChannel;
  try {
    channel = await deps.adapters.acquire(first.channelId);
  } catch (err) {
    // Paused, gone, misconfigured: the usual path retries or fails the batches with the reason.
    if (err instanceof ChannelUnusable) return everyone();
    throw err;
  }
  const leases = new Map<bigint, ChunkLease>();
  try {
    // WhatsApp's pair gate, an SMSC refusing this process a bind: the usual path's business.
    if ((channel.kind !== "smpp" && channel.kind !== "rcs") || refusedHere(channel)) return everyone();
    const again: bigint[] = [];
    const ready: Array<{ s: Single; messageOf: MessageOf; chunk: string }> = [];
    for (const s of part) {
      const messageOf = messagesOf(s.message, channel.kind, s, deps.links);
      // RCS with an SMS fallback has its fallback rounds and window on the usual path.
      const fallback = s.message.product === ProductCode.RCS && !!s.message.fallbackText;
      if (!messageOf || fallback) again.push(s.batchId);
      else {
        const id = s.id.toString();
        const chunk = chunkName({ batchId: s.batchId.toString(), channelId: s.channelId, fromId: id, toId: id });
        ready.push({ s, messageOf, chunk });
      }
    }
    // The chunk the usual path would plan for the batch: whoever holds its lease sends it, nobody else.
    const held = await deps.leases.acquireAll(ready.map((r) => ({ batchId: r.s.batchId.toString(), chunk: r.chunk })));
    const leased = ready.filter((r, i) => {
      const lease = held[i];
      if (lease) leases.set(r.s.batchId, lease);
      else again.push(r.s.batchId);
      return !!lease;
    });
    if (leased.length === 0) return { done: [], settled: [], again, stopped: [] };

    // The channel's throughput holds for these as for any chunk's messages.
    const bucket = channelBucket(deps, channel);
    const segments = leased.reduce((sum, r) => sum + r.s.segments, 0);
    const waitedFrom = Date.now();
    for (let tokens = 0; tokens < segments; )
      tokens += await bucket.acquire(Math.min(Math.max(deps.tuning.tokenBatch, 1), segments - tokens));
    // A long wait for tokens (a slow channel): what was stopped meanwhile (terminated) is not sent, as a chunk
    // stops at its next status check. Its finish job settles it.
    const stopped: bigint[] = [];
    let sending = leased;
    if (Date.now() - waitedFrom > deps.tuning.statusCheckMs) {
      const live = new Set(
        (
          await deps.prisma.messageBatch.findMany({
            where: { id: { in: leased.map((r) => r.s.batchId) }, status: BatchStatus.SENDING },
            select: { id: true },
          })
        ).map((b) => b.id),
      );
      sending = leased.filter((r) => live.has(r.s.batchId));
      for (const r of leased) if (!live.has(r.s.batchId)) stopped.push(r.s.batchId);
      if (sending.length === 0) return { done: [], settled: [], again, stopped };
    }

    const batchOf = new Map(sending.map((r) => [r.s.id, r.s.batchId]));
    const journal = deps.journal.singles(
      sending.map((r) => ({ batchId: r.s.batchId, chunk: r.chunk, recipientId: r.s.id })),
    );
    const { product } = first.message;
    const settled: SettledSingle[] = [];
    const writer = new OutcomeWriter(
      async (rows) => {
        const written = await writeOutcomes(deps, batchOf, rows, {
          channelId: channel.id,
          counts: deps.metrics.messages(channel.kind, product),
          settleSent: true,
        });
        settled.push(...written);
      },
      deps.tuning.outcomeWrites,
      { outcomes: deps.unwrittenOutcomes, channelId: channel.id },
      journal,
      journalErrorLogger(deps, { batches: sending.length }),
    );

    await journal.intend(sending.map((r) => r.s.id));

    const notSent: bigint[] = [];
    const done: bigint[] = [];
    try {
      await sendAll(channel, sending, (r, outcome) => {
        const course = courseOf(outcome, false);
        if (course === "sent" || course === "failed") {
          writer.add(outcomeRow(r.s.id, outcome));
          done.push(r.s.batchId);
        } else notSent.push(r.s.id);
      });
    } finally {
      // Outcomes are on disk (or kept in the journal) before anything else is decided.
      await writer.drain();
    }
    // Refused for now or for the channel: unsent, and its intent goes (the usual path sends it, or pauses the
    // channel, with its retries).
    if (notSent.length > 0) {
      await journal.drop(notSent);
      for (const id of notSent) again.push(batchOf.get(id) as bigint);
    }
    return { done, settled, again, stopped };
  } finally {
    deps.adapters.release(channel);
    await deps.leases.releaseAll([...leases.values()]);
  }
}

/** Hands every message to the channel, at most twice its window in flight; `record` gets each answer. */
async function sendAll<R extends { messageOf: MessageOf; s: ChunkRecipient }>(
  channel: PooledChannel,
  items: readonly R[],
  record: (r: R, outcome: SendOutcome) => void,
): Promise<void> {
  const maxInFlight = Math.max(1, channel.window * 2);
  let next = 0;
  let broken: { err: unknown } | undefined;
  await Promise.all(
    Array.from({ length: Math.min(maxInFlight, items.length) }, async () => {
      while (next < items.length) {
        const r = items[next++] as R;
        try {
          record(r, await channel.adapter.send(r.messageOf(r.s)));
        } catch (err) {
          // send() resolves every delivery problem; a rejection is a bug, raised once the others are recorded.
          broken ??= { err };
        }
      }
    }),
  );
  if (broken) throw broken.err;
}

/**
 * Settles what was sent here that its outcome's write did not settle (`already` are those it did; the rest is a
 * failure to refund, mostly); a batch the group could not settle gets its finish job. Then every settled batch's
 * callbacks.
 */
async function settle(deps: Deps, done: readonly bigint[], already: readonly SettledSingle[]): Promise<void> {
  if (done.length === 0) return;
  const settledBefore = new Set(already.map((s) => s.batchId));
  const rest = done.filter((id) => !settledBefore.has(id));
  let settled: SettledSingle[];
  try {
    settled = [...already, ...(await settleSingles(deps, rest))];
    const ids = new Set(settled.map((s) => s.batchId));
    const left = done.filter((id) => !ids.has(id));
    if (left.length > 0) await deps.queues.finishBatches(left.map(String));
  } finally {
    // Their outcomes' writes did not name them (writeOutcomes): named now, settled or left to their finish job.
    signalOutcomes(deps, rest);
  }
  const told = settled.filter((s) => s.notify);
  if (told.length === 0) return;
  await deps.queues.callbacks(
    told
      .filter((s) => s.firstTime)
      .map((s) => ({ userId: s.userId, batchId: s.batchId.toString(), event: "batch_finished" as const })),
  );
  await enqueueBatchStatusCallbacks(
    deps,
    told.map((s) => ({ batchId: s.batchId, from: BatchStatus.SENDING, to: s.status, at: s.at })),
  );
}
