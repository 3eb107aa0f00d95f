// dispatch-chunk {batchId, channelId, fromId, toId}: sends the still-unsent recipients of one id range of a
// batch through one channel, and records every outcome.
//
//   - numbers are read from the database here (the job carries ids only); the text is the batch's content, filled
//     with the recipient's own values when the batch is personalised (personalise.ts);
//   - the channel's throughput holds across all workers: tokens come from its Redis token bucket, in batches;
//   - sends are pipelined up to twice the adapter's window, so its window stays full without hoarding;
//   - outcomes are written in bulk as they complete (send-outcomes.ts), conditional on sendResult 0;
//   - every statusCheckMs the chunk re-reads the batch status (an admin's terminate, a dead channel elsewhere)
//     and renews its lease; a batch no longer sending stops the chunk after what is in flight.
//
// Outcomes, and what happens next:
//   accepted                 -> send result 1 with the provider's message id
//   refused for good         -> send result 2 with the error code (refunded when the batch is settled)
//   link lost or no answer   -> send result 2 (CONNECTION_LOST / SUBMIT_TIMEOUT), never sent again: the SMSC may
//     after submitting         have accepted it, and a second copy to a person is worse than a refund of one we
//                              may have delivered (at most a window of messages per dropped connection)
//   refused for now          -> sent again within this job (sendRetries rounds with backoff); still refused: the
//     (throttled, not bound)    job fails and BullMQ retries it with exponential backoff, picking up only what is
//                              still unsent; on its last attempt the channel counts as dead and the batch fails (24)
//   not here (BIND_REFUSED:  -> while another process holds a bind of the account (smpp-binds.ts), the chunk stops
//     the SMSC refused this     handing out messages and goes back to the queue for another process (its lease
//     process a bind: its       released, run again after bindRefusedDelayMs doubling up to 4x), without spending
//     limit per account)        an attempt; when none does, it is refused for now as above (an SMSC that answers
//                              even a wrong password "bind failed" is the channel's failure)
import type { OutboundMessage, SendOutcome, SmppAdapter } from "@switchboard/channels";
import { templateStatusOfError } from "@switchboard/channels/whatsapp";
import type { DeliveryReportJob, DispatchChunkJob } from "@switchboard/contracts";
import {
  ActiveStatus,
  type BatchContent,
  BatchStatus,
  batchContent,
  ProductCode,
  ReceiveResult,
  SendResult,
  sendOutcomesWritten,
  TaskType,
} from "@switchboard/contracts";
import { fillRcsBody, fillText, fillWsBody, type RecipientVars } from "@switchboard/domain/batches/personalise";
import { type LinkSettings, linkRendererFor } from "@switchboard/domain/links";
import { TokenBucket } from "@switchboard/domain/token-bucket";
import { ChannelUnusable, type PooledChannel } from "../lib/adapter-pool";
import type { ChunkLease } from "../lib/chunk-leases";
import type { WorkerDeps } from "../lib/deps";
import { chunkName } from "../lib/job-queues";
import { isRunAgain, type JobResult, runAgain } from "../lib/job-result";
import type { MessageCounters } from "../lib/metrics";
import { PairGate } from "../lib/pair-gate";
import {
  type OutcomeJournalOf,
  OutcomeWriter,
  recordSendOutcomes,
  type SendOutcomeRow,
  type SettledSingle,
} from "../lib/send-outcomes";
import { enqueueReportCallbacks } from "./delivery-report";
import { failSendingBatch, finishBatch } from "./finish-batch";
import { type Screener, type ScreenRecipient, screenRound } from "./screen-chunk";
import { fallBackToSms } from "./sms-fallback";

type Deps = Pick<
  WorkerDeps,
  | "prisma"
  | "redis"
  | "redisPrefix"
  | "queues"
  | "adapters"
  | "unwrittenOutcomes"
  | "journal"
  | "leases"
  | "logger"
  | "tuning"
  | "metrics"
  | "links"
> &
  Partial<Pick<WorkerDeps, "smppBinds">>;

export interface Attempt {
  /** 1 for the first run of the job. */
  number: number;
  max: number;
  /** Runs of the job so far, this one and those moved to run again later included (1 when not known). */
  runs?: number;
}

/** Written after submitting, the message may have been accepted: never sent again. */
const AMBIGUOUS = new Set(["CONNECTION_LOST", "SUBMIT_TIMEOUT"]);
/** The channel cannot send from this process now, another process can (the SMPP adapter's BIND_REFUSED). */
const NOT_HERE = "BIND_REFUSED";
/**
 * A chunk refused here runs again (anywhere) after bindRefusedDelayMs, doubling up to this many times it: the bound
 * processes may be free by then. Not more: whichever process's worker asks first gets the chunk, and a refused one
 * can be first several times in a row (seen: five times, while the bound process sat idle), each time paying the
 * whole delay (it was up to 5 s: a 3-second batch took 20 s and more).
 */
const NOT_HERE_MAX_FACTOR = 4;

export interface ChunkRecipient {
  id: bigint;
  phone: string;
  segments: number;
  /** RCS with fallback text where SMS serves the country: what an SMS fallback would cost (else null). */
  fallbackPrice: bigint | null;
  /** A personalised batch: the values its message is filled with (personalise.ts); null otherwise. */
  vars: RecipientVars | null;
}

/**
 * How one recipient's message is built on a channel of this kind, or null when the content cannot go there
 * (an SMS channel carries SMS content, and an RCS content's fallback text once it fell back).
 */
export type MessageOf = (r: ChunkRecipient) => OutboundMessage;

/** How each recipient's message is built for a batch on a channel of this kind (tracked links rendered); null: cannot go. */
export function messagesOf(
  content: BatchContent,
  channelKind: string,
  batch: { id: bigint; createdAt: Date; senderId: string | null },
  links: LinkSettings,
): MessageOf | null {
  return withTrackedLinks(messageBuilder(content, channelKind, batch), content, links);
}

/** The channel's throughput across every worker: its Redis token bucket. */
export function channelBucket(
  deps: Pick<WorkerDeps, "redis" | "redisPrefix" | "metrics">,
  channel: PooledChannel,
): TokenBucket {
  return new TokenBucket(
    deps.redis,
    `${deps.redisPrefix}throughput:channel:${channel.id}`,
    channel.throughput,
    channel.throughput,
    (seconds) => deps.metrics.tokenWait.labels(channel.kind).observe(seconds),
  );
}

function messageBuilder(
  content: BatchContent,
  channelKind: string,
  batch: { id: bigint; createdAt: Date; senderId: string | null },
): MessageOf | null {
  const from = batch.senderId ?? (content.product === ProductCode.SMS ? content.senderId : undefined);
  const sender = from ? { from } : {};
  if (channelKind === "smpp") {
    const text =
      content.product === ProductCode.SMS
        ? content.text
        : content.product === ProductCode.RCS
          ? content.fallbackText
          : undefined;
    if (text === undefined) return null;
    return (r) => ({ ref: r.id.toString(), to: r.phone, text: fillText(text, r.vars), ...sender });
  }
  if (channelKind === "rcs" && content.product === ProductCode.RCS) {
    // Stable across retries and unique across databases (ids restart when one is recreated): RBM refuses a
    // message id it has seen, so a send retried after a lost answer cannot reach the phone twice.
    const salt = batch.createdAt.getTime().toString(36);
    const ttl = content.ttlSeconds === undefined ? {} : { ttlSeconds: content.ttlSeconds };
    return (r) => ({
      kind: "rcs",
      ref: r.id.toString(),
      to: r.phone,
      messageId: `sb-${batch.id}-${r.id}-${salt}`,
      body: fillRcsBody(content.body, r.vars),
      ...ttl,
    });
  }
  if (channelKind === "whatsapp" && content.product === ProductCode.WS) {
    return (r) => ({ kind: "whatsapp", ref: r.id.toString(), to: r.phone, body: fillWsBody(content.body, r.vars) });
  }
  return null;
}

/**
 * Tracked links (docs/batches.md): each `{{link:...}}` of the built message becomes the recipient's short link,
 * after the rest of the message is built (a personalised text is filled first; a link's target is never filled).
 */
function withTrackedLinks(messageOf: MessageOf | null, content: BatchContent, links: LinkSettings): MessageOf | null {
  const render = messageOf && linkRendererFor(content, links);
  return render ? (r) => render(messageOf(r), r.id) : messageOf;
}

/** A chunk that could not hand every recipient to its channel; BullMQ runs it again later. */
export class ChunkIncomplete extends Error {
  constructor(
    readonly left: number,
    readonly lastErrorCode: string,
  ) {
    super(`${left} recipients not accepted by the channel yet (last error ${lastErrorCode})`);
    this.name = "ChunkIncomplete";
  }
}

/** How the batch is settled once its last recipient is sent: by a finish job, or in the caller's job (inline). */
export interface ChunkOptions {
  settle: "enqueue" | "inline";
}

export async function dispatchChunk(
  deps: Deps,
  job: DispatchChunkJob,
  attempt: Attempt,
  options: ChunkOptions = { settle: "enqueue" },
): Promise<JobResult> {
  const lease = await deps.leases.acquire(job.batchId, chunkName(job));
  // Another process is sending this very chunk (BullMQ handed a job it thought stalled to us): wait for it.
  // Held by another run: it may be alive (it renews) or dead (its lease lapses within leaseTtlMs): look again soon.
  if (!lease) return runAgain(Math.min(5_000, deps.tuning.leaseTtlMs));
  try {
    return await runChunk(deps, job, lease, attempt, options);
  } finally {
    await lease.release();
  }
}

async function runChunk(
  deps: Deps,
  job: DispatchChunkJob,
  lease: ChunkLease,
  attempt: Attempt,
  options: ChunkOptions,
): Promise<JobResult> {
  const batchId = BigInt(job.batchId);
  const batch = await deps.prisma.messageBatch.findUnique({
    where: { id: batchId },
    select: { id: true, status: true, content: true, senderId: true, createdAt: true, taskType: true },
  });
  if (batch?.status !== BatchStatus.SENDING) return;
  const content = batchContent.safeParse(batch.content);
  if (!content.success) {
    await failSendingBatch(deps, job.batchId, "content_unsupported");
    return;
  }

  const channel = await acquireChannel(deps, job, attempt);
  if (!channel) return;
  if (batch.taskType === TaskType.SCREENING) return screenChunk(deps, job, lease, attempt, channel);
  const messageOf = messagesOf(content.data, channel.kind, batch, deps.links);
  if (!messageOf) {
    deps.adapters.release(channel);
    // Routing sent this content to a channel that cannot carry it (an SMS channel as a WS product's default).
    await failSendingBatch(deps, job.batchId, "content_unsupported");
    return;
  }
  try {
    // What the journal holds is written first (outcome-journal.ts): outcomes a write could not record, and this
    // chunk's sends whose answer died with an earlier run of it. None of those messages is sent again.
    const chunk = chunkName(job);
    const replayed = await deps.journal.replay(
      batchId,
      (rows) => writeOutcomes(deps, batchId, rows, { channelId: job.channelId }),
      {
        ownChunk: chunk,
      },
    );
    if (replayed.lostInFlight > 0) {
      deps.logger.warn(
        { batchId: job.batchId, chunk, lostInFlight: replayed.lostInFlight },
        "sends whose answer was lost with an earlier run: failed, not sent again",
      );
    }
    const journal = deps.journal.of(batchId, chunk);
    // The chunk's id range drives the read; the batch and channel are filtered after (see send-outcomes.ts: the
    // planner's statistics do not know a fresh batch and would read the whole batch through its index).
    const recipients = job.ids
      ? await deps.prisma.$queryRaw<ChunkRecipient[]>`
          SELECT id, phone, segments, "fallbackPrice", vars FROM recipients
          WHERE id = ANY(${job.ids}::bigint[]) AND "batchId" = ${batchId} AND "channelId" = ${job.channelId}
            AND "sendResult" = ${SendResult.NOT_SENT}
          ORDER BY id`
      : await deps.prisma.$queryRaw<ChunkRecipient[]>`
          WITH span AS MATERIALIZED (
            SELECT id, phone, segments, "fallbackPrice", vars, "batchId", "channelId", "sendResult" FROM recipients
            WHERE id BETWEEN ${BigInt(job.fromId)} AND ${BigInt(job.toId)}
          )
          SELECT id, phone, segments, "fallbackPrice", vars FROM span
          WHERE "batchId" = ${batchId} AND "channelId" = ${job.channelId} AND "sendResult" = ${SendResult.NOT_SENT}
          ORDER BY id`;
    const sender: Sender = {
      deps,
      batchId,
      channel,
      lease,
      messageOf,
      // Only an RCS channel's "not RCS-capable" answer can fall back, and only where a fallback was paid for.
      fallback: channel.kind === "rcs" && content.data.product === ProductCode.RCS && !!content.data.fallbackText,
      bucket: channelBucket(deps, channel),
      ...(channel.kind === "whatsapp"
        ? { pairGate: new PairGate(deps.redis, deps.redisPrefix, deps.tuning.pairIntervalMs) }
        : {}),
      checkedUntil: Date.now() + deps.tuning.statusCheckMs,
      writer: new OutcomeWriter(
        (rows) =>
          writeOutcomes(deps, batchId, rows, {
            channelId: channel.id,
            counts: deps.metrics.messages(channel.kind, content.data.product),
          }),
        deps.tuning.outcomeWrites,
        { outcomes: deps.unwrittenOutcomes, channelId: channel.id },
        journal,
        journalErrorLogger(deps, { batchId: job.batchId }),
      ),
      journal,
    };
    const result = await sendWithRetries(sender, recipients);
    if (result.templateRefused) {
      await refuseTemplate(deps, channel.id, content.data, result.templateRefused);
      await failSendingBatch(deps, job.batchId, "template_refused");
      return;
    }
    if (result.stopped) return;
    if (result.notHere && (await boundElsewhere(deps, channel.id))) {
      // Nothing failed: another process holds the SMSC's bind of the account and can send it.
      deps.logger.info(
        { batchId: job.batchId, channelId: job.channelId, left: result.left.length },
        "channel's bind refused here (the SMSC's bind limit): the chunk goes back for another process",
      );
      const runs = attempt.runs ?? 1;
      return runAgain(deps.tuning.bindRefusedDelayMs * Math.min(NOT_HERE_MAX_FACTOR, 2 ** Math.min(runs - 1, 10)));
    }
    if (result.left.length > 0) {
      if (attempt.number < attempt.max) throw new ChunkIncomplete(result.left.length, result.lastErrorCode);
      deps.logger.error(
        { batchId: job.batchId, channelId: job.channelId, left: result.left.length, errorCode: result.lastErrorCode },
        "channel still refusing after every retry",
      );
      await failSendingBatch(deps, job.batchId, "channel_unavailable");
      return;
    }
  } finally {
    deps.adapters.release(channel);
  }
  await finishWhenDone(deps, job.batchId, options);
}

/**
 * A screening chunk (screen-chunk.ts): the channel's reachability check in slices, with the send path's retry,
 * pause and failure rules. Nothing is ever sent to a phone: no message is built, send() is never called.
 */
async function screenChunk(
  deps: Deps,
  job: DispatchChunkJob,
  lease: ChunkLease,
  attempt: Attempt,
  channel: PooledChannel,
): Promise<JobResult> {
  const batchId = BigInt(job.batchId);
  try {
    const check = channel.adapter.checkReachability?.bind(channel.adapter);
    if (!check) {
      // The API quotes screening only onto channels that can check; this one's settings changed since.
      await failSendingBatch(deps, job.batchId, "screening_unsupported");
      return;
    }
    const recipients = await deps.prisma.$queryRaw<ScreenRecipient[]>`
      WITH span AS MATERIALIZED (
        SELECT id, phone, "batchId", "channelId", "sendResult" FROM recipients
        WHERE id BETWEEN ${BigInt(job.fromId)} AND ${BigInt(job.toId)}
      )
      SELECT id, phone FROM span
      WHERE "batchId" = ${batchId} AND "channelId" = ${job.channelId} AND "sendResult" = ${SendResult.NOT_SENT}
      ORDER BY id`;
    const sender = { deps, batchId, lease };
    const screener: Screener = {
      check,
      bucket: channelBucket(deps, channel),
      tokenBatch: deps.tuning.tokenBatch,
      writer: new OutcomeWriter((rows) => writeOutcomes(deps, batchId, rows), deps.tuning.outcomeWrites),
      stillSending: () => stillSending(sender),
      statusCheckMs: deps.tuning.statusCheckMs,
    };
    let pending = recipients;
    let lastErrorCode = "";
    for (let round = 0; pending.length > 0; round++) {
      if (round > deps.tuning.sendRetries) break;
      if (round > 0) await sleep(deps.tuning.sendRetryDelayMs * 2 ** (round - 1));
      let result: Awaited<ReturnType<typeof screenRound>>;
      try {
        result = await screenRound(screener, pending);
      } finally {
        await screener.writer.drain();
      }
      if (result.stopped) return;
      lastErrorCode = result.lastErrorCode || lastErrorCode;
      pending = result.retry;
      if (result.channelRefused) {
        await pauseRefusedChannel(deps, channel.id, result.lastErrorCode);
        break;
      }
    }
    if (pending.length > 0) {
      if (attempt.number < attempt.max) throw new ChunkIncomplete(pending.length, lastErrorCode);
      await failSendingBatch(deps, job.batchId, "channel_unavailable");
      return;
    }
  } finally {
    deps.adapters.release(channel);
  }
  await finishWhenDone(deps, job.batchId);
}

/** The channel's adapter; null when the channel cannot ever take the chunk (the batch has been failed). */
async function acquireChannel(deps: Deps, job: DispatchChunkJob, attempt: Attempt): Promise<PooledChannel | null> {
  try {
    return await deps.adapters.acquire(job.channelId);
  } catch (err) {
    if (!(err instanceof ChannelUnusable)) throw err;
    if (err.retryable && attempt.number < attempt.max) throw err;
    await failSendingBatch(deps, job.batchId, err.reason);
    return null;
  }
}

/**
 * A journal call that failed (Redis away): the send goes on (its token bucket will stop it soon enough), and the
 * writer says so once, not per event-loop turn. `fields` name what was sending (a chunk's batch, a group's size).
 */
export function journalErrorLogger(
  deps: Pick<Deps, "logger">,
  fields: Record<string, unknown>,
): (err: unknown) => void {
  let said = false;
  return (err) => {
    if (said) return;
    said = true;
    deps.logger.warn({ ...fields, err: String(err) }, "outcome journal unreachable: outcomes go to the database only");
  };
}

/** Mode 1 requests may be waiting for these batches: they read their batch's row once it is named here. */
export function signalOutcomes(deps: Pick<Deps, "redis" | "redisPrefix">, batchIds: readonly bigint[]): void {
  if (batchIds.length === 0) return;
  deps.redis.publish(sendOutcomesWritten(deps.redisPrefix), batchIds.join(",")).catch(() => undefined);
}

/** One write of outcomes; receipts that rode along get their delivery_report callbacks like any other. */
export async function writeOutcomes(
  deps: Deps,
  /** The batch of every row (a chunk's), or each row's batch by recipient id (a group of single sends). */
  batchOf: bigint | ReadonlyMap<bigint, bigint>,
  rows: SendOutcomeRow[],
  opts: {
    /** The channel that sent them: where receipts riding on outcomes written elsewhere are routed. */
    channelId?: number;
    /** The send's metrics: outcomes counted once written, with the receipts that rode along. */
    counts?: MessageCounters;
    /** A group of single sends: the batches this write completes are settled by it (recordSendOutcomes). */
    settleSent?: boolean;
  } = {},
): Promise<SettledSingle[]> {
  const { sent, withReceipt, batches, settled } = await recordSendOutcomes(deps.prisma, batchOf, rows, {
    settleSent: opts.settleSent === true,
  });
  if (opts.counts) countWritten(opts.counts, rows, withReceipt);
  // One message per write statement, at most. A group of single sends names only the batches this write settled:
  // the others (a failure to refund, mostly) are named once settled (dispatch-singles.ts), so that a mode 1 answer
  // shows the batch final, not still sending with its recipient failed.
  if (sent > 0) signalOutcomes(deps, opts.settleSent ? settled.map((s) => s.batchId) : batches);
  if (opts.channelId !== undefined && sent < rows.length)
    await routeLeftReceipts(deps, opts.channelId, rows, withReceipt);
  if (withReceipt.length === 0) return settled;
  // Not thrown: the outcomes are written, and a retry of this write would change nothing (nor call back).
  await enqueueReportCallbacks(
    deps,
    withReceipt.map((recipientId) => ({
      recipientId,
      batchId: typeof batchOf === "bigint" ? batchOf : (batchOf.get(recipientId) as bigint),
    })),
  ).catch((err: unknown) => deps.logger.error({ err }, "delivery_report callbacks not enqueued"));
  return settled;
}

/**
 * Receipts that rode on outcomes this write found written already (by a journal write-back, or an earlier try
 * whose answer was lost): the update skipped those rows, receipts and all, so each goes the delivery-report way,
 * which finds the message by its id. Dropping them would leave the message without its receipt for ever (the
 * receipt was claimed here, so the SMSC's copy never reached the batcher).
 */
async function routeLeftReceipts(
  deps: Deps,
  channelId: number,
  rows: readonly SendOutcomeRow[],
  withReceipt: readonly bigint[],
): Promise<void> {
  const recorded = new Set(withReceipt.map(String));
  const reports: DeliveryReportJob["reports"] = [];
  for (const row of rows) {
    if (!row.receipt || row.providerMessageId === null || recorded.has(row.recipientId.toString())) continue;
    reports.push({
      providerMessageId: row.providerMessageId,
      status: row.receipt.result === ReceiveResult.RECEIVED ? "delivered" : "undelivered",
      ...(row.receipt.errorCode ? { errorCode: row.receipt.errorCode } : {}),
    });
  }
  if (reports.length > 0) await deps.queues.deliveryReport({ channelId, reports });
}

/**
 * Counts outcomes that were written (a write repeated after a failure counts once: the failed one counted nothing)
 * and the receipts written with them: those came back before the write, and their lag is 0 as the rows say.
 */
function countWritten(counts: MessageCounters, rows: readonly SendOutcomeRow[], withReceipt: readonly bigint[]) {
  let ok = 0;
  for (const row of rows) if (row.result === SendResult.SUCCESS) ok++;
  counts.sent.inc(ok);
  counts.failed.inc(rows.length - ok);
  if (withReceipt.length === 0) return;
  const ids = new Set(withReceipt.map(String));
  for (const row of rows) {
    if (!row.receipt || !ids.has(row.recipientId.toString())) continue;
    (row.receipt.result === ReceiveResult.RECEIVED ? counts.delivered : counts.undelivered).inc();
    counts.lag.observe(0);
  }
}

/**
 * The last chunk to finish has the batch settled (several may see it at once: the job id dedupes). Inline, it
 * is settled here, unless it has to wait (a timed fallback window): then by a finish job as usual.
 */
async function finishWhenDone(
  deps: Deps,
  batchId: string,
  options: ChunkOptions = { settle: "enqueue" },
): Promise<void> {
  // Whether one is left, not how many: while other chunks still send, the first unsent row found ends the read
  // (a count read every unsent row's index entries, the dead ones of rows already sent too: 20 ms a chunk at 100k).
  const unsent = await deps.prisma.recipient.findFirst({
    where: { batchId: BigInt(batchId), sendResult: SendResult.NOT_SENT },
    select: { id: true },
  });
  if (unsent) return;
  if (options.settle === "inline" && !isRunAgain(await finishBatch(deps, { batchId }))) return;
  await deps.queues.finishBatches([batchId]);
}

interface Sender {
  deps: Deps;
  batchId: bigint;
  channel: PooledChannel;
  lease: ChunkLease;
  messageOf: MessageOf;
  fallback: boolean;
  bucket: TokenBucket;
  /** WhatsApp channels: one message per interval to a user, across every worker. */
  pairGate?: PairGate;
  writer: OutcomeWriter;
  /** Intents before each group of sends (outcome-journal.ts); none for a screening chunk, which sends nothing. */
  journal?: OutcomeJournalOf;
  /**
   * Until when the batch's status and the lease count as just checked: the chunk read the one and took the other
   * right before its first round, so that round does not check again at once (a statement per small batch).
   */
  checkedUntil: number;
}

interface RoundResult {
  /** Recipients refused for now, to send again. */
  retry: ChunkRecipient[];
  /** Recipients the channel cannot reach, to send their fallback text as SMS. */
  fallBack: ChunkRecipient[];
  /** The provider refused the channel itself (token revoked, address not allowed): the channel gets paused. */
  channelRefused?: boolean;
  /** The channel cannot send from this process (BIND_REFUSED): the rest is left for another process. */
  notHere?: boolean;
  /**
   * WhatsApp refused the batch's template (paused, disabled, deleted, values it no longer takes): its error code.
   * Every recipient of the batch gets the same template and values, so none of the rest can go either.
   */
  templateRefused?: string;
  lastErrorCode: string;
  /** The batch stopped sending (or this chunk lost its lease): nothing more is sent. */
  stopped: boolean;
  /** Of `retry`, those held back by the pair gate (never sent), and the longest of their waits. */
  pairHeld: number;
  pairWaitMs: number;
}

async function sendWithRetries(
  s: Sender,
  recipients: ChunkRecipient[],
): Promise<{
  left: ChunkRecipient[];
  lastErrorCode: string;
  stopped: boolean;
  templateRefused?: string;
  notHere?: boolean;
}> {
  let pending = recipients;
  let lastErrorCode = "";
  for (let round = 0; pending.length > 0; round++) {
    if (round > s.deps.tuning.sendRetries) return { left: pending, lastErrorCode, stopped: false };
    if (round > 0) await sleep(s.deps.tuning.sendRetryDelayMs * 2 ** (round - 1));
    let result: RoundResult;
    try {
      result = await sendRound(s, pending);
    } catch (err) {
      // Whatever went wrong, what was handed to the channel is recorded first, so a retry cannot send it again.
      await s.writer.drain();
      throw err;
    }
    // Outcomes are on disk before anything is decided: a retry must only see what is really unsent.
    await s.writer.drain();
    if (result.fallBack.length > 0) await fallBackToSms(s.deps, s.batchId, result.fallBack);
    if (result.channelRefused) {
      await pauseRefusedChannel(s.deps, s.channel.id, result.lastErrorCode);
      return { left: result.retry, lastErrorCode: result.lastErrorCode, stopped: false };
    }
    // Not a failure to retry here: another process sends them (runChunk).
    if (result.notHere)
      return { left: result.retry, lastErrorCode: result.lastErrorCode, stopped: false, notHere: true };
    if (result.templateRefused) {
      return {
        left: [],
        lastErrorCode: result.templateRefused,
        stopped: true,
        templateRefused: result.templateRefused,
      };
    }
    if (result.stopped) return { left: [], lastErrorCode, stopped: true };
    pending = result.retry;
    lastErrorCode = result.lastErrorCode || lastErrorCode;
    // Only held by the pair gate: nothing failed, so no retry is spent; they go once their users' intervals end.
    if (pending.length > 0 && result.pairHeld === pending.length) {
      await sleep(result.pairWaitMs);
      round -= 1;
    }
  }
  return { left: [], lastErrorCode, stopped: false };
}

/**
 * Recipients whose intent is journaled in one write before their sends (outcome-journal.ts); the next group's
 * write goes out while a group is sent, so the stream of sends does not pause for Redis. A killed process leaves
 * its in-flight window plus at most two groups failed as lost_in_flight; a smaller group costs more Redis writes,
 * a larger one leaves more unsent messages failed.
 */
const INTENT_GROUP = 16;

async function sendRound(s: Sender, recipients: ChunkRecipient[]): Promise<RoundResult> {
  const { deps, channel, writer } = s;
  const maxInFlight = Math.max(1, channel.window * 2);
  const inFlight = new Set<Promise<void>>();
  const result: RoundResult = {
    retry: [],
    fallBack: [],
    lastErrorCode: "",
    stopped: false,
    pairHeld: 0,
    pairWaitMs: 0,
  };
  // Recipients whose outcome (success or failure) went to the writer: their journal entry is that outcome.
  const recorded = new Set<bigint>();
  const add = (row: SendOutcomeRow) => {
    recorded.add(row.recipientId);
    writer.add(row);
  };
  const record = (r: ChunkRecipient, outcome: SendOutcome) => {
    const course = courseOf(outcome, s.fallback && r.fallbackPrice !== null);
    if (course === "fallBack") result.fallBack.push(r);
    else if (course === "sent" || course === "failed" || course === "templateRefused") add(outcomeRow(r.id, outcome));
    else {
      result.retry.push(r);
      if (!outcome.ok) result.lastErrorCode = outcome.errorCode;
    }
    if (outcome.ok) return;
    if (course === "templateRefused") result.templateRefused ??= outcome.errorCode;
    else if (course === "notHere") result.notHere = true;
    // The channel's credentials or address are refused, not the recipient: it is kept unsent, the channel is
    // paused for an admin to fix, and the chunk stops handing out messages.
    else if (course === "channelRefused") result.channelRefused = true;
  };

  let broken: { err: unknown } | undefined;
  let slotFreed: (() => void) | undefined;
  let tokens = 0;
  let remainingSegments = recipients.reduce((sum, r) => sum + r.segments, 0);
  let nextCheck = s.checkedUntil;
  s.checkedUntil = 0;
  // Intents are journaled a group ahead of the sends (one awaited write per group, not per message).
  let intendedUntil = 0;
  // Intents confirmed written, and the group written ahead (not awaited yet).
  let confirmedUntil = 0;
  let ahead: { until: number; done: Promise<void> } | null = null;
  try {
    for (const [index, r] of recipients.entries()) {
      if (Date.now() >= nextCheck) {
        if (!(await stillSending(s))) {
          result.stopped = true;
          break;
        }
        nextCheck = Date.now() + deps.tuning.statusCheckMs;
      }
      // A write that failed for good: stop handing out messages whose outcome could not be recorded.
      if (writer.failed) break;
      // The template is refused: what is left stays unsent, and the batch is failed (and refunded) below.
      if (result.templateRefused) break;
      // Known before a token is taken for it: the channel cannot send from this process now.
      if (!result.notHere && refusedHere(channel)) {
        result.notHere = true;
        result.lastErrorCode = NOT_HERE;
      }
      // The channel itself is refused (or cannot send from here): what is left stays unsent for when an admin has
      // fixed it (or for another process).
      if (result.channelRefused || result.notHere) {
        result.retry.push(...recipients.slice(index));
        break;
      }
      if (s.pairGate) {
        const wait = await s.pairGate.tryAcquire(channel.id, r.phone);
        if (wait > 0) {
          result.retry.push(r);
          result.pairHeld += 1;
          result.pairWaitMs = Math.max(result.pairWaitMs, wait);
          remainingSegments -= r.segments;
          continue;
        }
      }
      while (tokens < r.segments) {
        tokens += await s.bucket.acquire(Math.min(deps.tuning.tokenBatch, remainingSegments - tokens));
      }
      tokens -= r.segments;
      remainingSegments -= r.segments;
      // Waits for a free slot (not Promise.race over the set: that adds a reaction to every pending send on each
      // call, thousands per message at full window, and was a visible share of the dispatch profile).
      while (inFlight.size >= maxInFlight) await new Promise<void>((resolve) => (slotFreed = resolve));
      if (s.journal) {
        // This recipient's intent must be in Redis before it leaves: usually the group written ahead already is.
        if (index >= confirmedUntil) {
          if (ahead && index < ahead.until) {
            await ahead.done;
            confirmedUntil = ahead.until;
          } else {
            const group = recipients.slice(index, index + INTENT_GROUP);
            await s.journal.intend(group.map((g) => g.id));
            confirmedUntil = index + group.length;
          }
          ahead = null;
        }
        // The next group's intents go out while this group is being sent: no pause in the stream of sends.
        if (!ahead && confirmedUntil < recipients.length) {
          const group = recipients.slice(confirmedUntil, confirmedUntil + INTENT_GROUP);
          const done = s.journal.intend(group.map((g) => g.id));
          // awaited when its group is reached; a loop that ends first must not leave it unhandled
          done.catch(() => undefined);
          ahead = { until: confirmedUntil + group.length, done };
        }
        intendedUntil = Math.max(confirmedUntil, ahead?.until ?? 0);
      }
      const sent: Promise<void> = channel.adapter
        .send(s.messageOf(r))
        .then(
          (outcome) => record(r, outcome),
          // send() resolves every delivery problem; a rejection is a bug, raised once the others are recorded.
          (err: unknown) => {
            broken ??= { err };
          },
        )
        .finally(() => {
          inFlight.delete(sent);
          slotFreed?.();
          slotFreed = undefined;
        });
      inFlight.add(sent);
    }
  } finally {
    // However the loop ended (a Redis or database error included), every message handed over gets its outcome.
    await Promise.all(inFlight);
    // Intents of recipients not accepted (retry, fallback, failed to hand over, never reached) are dropped: their
    // next round or run sends them. Accepted and failed ones are in the writer, journaled with their outcome.
    if (s.journal && intendedUntil > 0) {
      const unaccepted = recipients.slice(0, intendedUntil).filter((r) => !recorded.has(r.id));
      await s.journal.drop(unaccepted.map((r) => r.id)).catch(() => undefined);
    }
  }
  if (broken) throw broken.err;
  return result;
}

/**
 * What becomes of a recipient after its channel's answer (the table at the top of this file):
 *   sent, failed         -> its outcome is written (a failure is refunded at settlement);
 *   templateRefused      -> written as failed, and the batch's template is refused (no other recipient can go);
 *   fallBack             -> unreachable on RCS where an SMS fallback was paid for: sent again as SMS;
 *   retry                -> refused for now: stays unsent, sent again later;
 *   notHere              -> the channel cannot send from this process now (BIND_REFUSED): unsent, for another one;
 *   channelRefused       -> the provider refuses the channel itself: unsent, the channel is paused.
 */
export type OutcomeCourse = "sent" | "failed" | "templateRefused" | "fallBack" | "retry" | "notHere" | "channelRefused";

export function courseOf(outcome: SendOutcome, canFallBack: boolean): OutcomeCourse {
  if (outcome.ok) return "sent";
  if (outcome.reason === "unreachable" && canFallBack) return "fallBack";
  if (outcome.reason === "template") return "templateRefused";
  if (outcome.errorCode === NOT_HERE) return "notHere";
  if (isChannelProblem(outcome)) return "channelRefused";
  // Ambiguous (the SMSC may have it): failed, never sent again.
  if (outcome.retryable && !AMBIGUOUS.has(outcome.errorCode)) return "retry";
  return "failed";
}

/** The row written for a recipient whose course is sent or failed (templateRefused: failed). */
export function outcomeRow(recipientId: bigint, outcome: SendOutcome): SendOutcomeRow {
  return outcome.ok
    ? { recipientId, result: SendResult.SUCCESS, providerMessageId: outcome.providerMessageId, errorCode: null }
    : { recipientId, result: SendResult.FAILURE, providerMessageId: null, errorCode: outcome.errorCode };
}

/** Renews the lease and re-reads the status: false once the batch is no longer sending or the lease is lost. */
async function stillSending(s: Pick<Sender, "deps" | "batchId" | "lease">): Promise<boolean> {
  if (!(await s.lease.renew())) {
    s.deps.logger.warn({ batchId: s.batchId.toString() }, "chunk lease lost: another worker took this chunk");
    return false;
  }
  const batch = await s.deps.prisma.messageBatch.findUnique({ where: { id: s.batchId }, select: { status: true } });
  return batch?.status === BatchStatus.SENDING;
}

/** An SMPP channel whose SMSC refused this process a bind as busy, none made since (SmppAdapter.refusedHere). */
export function refusedHere(channel: PooledChannel): boolean {
  return (channel.adapter as Partial<SmppAdapter>).refusedHere === true;
}

/** Whether another process holds a bind of the channel's SMSC account (a refusal here is then its bind limit). */
async function boundElsewhere(deps: Deps, channelId: number): Promise<boolean> {
  if (deps.smppBinds === undefined) return false;
  try {
    return await deps.smppBinds.heldElsewhere(deps.adapters.accountOf(channelId));
  } catch (err) {
    deps.logger.warn({ err, channelId }, "SMPP binds held elsewhere not known: the chunk counts as refused here");
    return false;
  }
}

/** Failures that say the channel (its token, its address) is refused, whoever the recipient. */
function isChannelProblem(outcome: SendOutcome): boolean {
  return !outcome.ok && (outcome.reason === "channel_auth" || outcome.errorCode === "EGRESS_REFUSED");
}

/**
 * Pauses a channel its provider refuses (an expired or revoked WhatsApp token, an RBM key withdrawn), once: the
 * batches on it wait (their chunks retry, and fail and refund only if nobody fixes it in time) instead of every
 * recipient burning. The channel list shows it paused; the log says why.
 */
async function pauseRefusedChannel(deps: Deps, channelId: number, errorCode: string): Promise<void> {
  const { count } = await deps.prisma.channel.updateMany({
    where: { id: channelId, status: ActiveStatus.NORMAL },
    data: { status: ActiveStatus.PAUSED },
  });
  if (count > 0)
    deps.logger.error({ channelId, errorCode }, "the provider refused the channel's credentials: channel paused");
}

/**
 * A template WhatsApp paused, disabled or no longer has is marked so on the channel's synced list: the picker
 * stops offering it and new batches are refused before charging (until an admin's next sync says otherwise).
 */
async function refuseTemplate(deps: Deps, channelId: number, content: BatchContent, errorCode: string) {
  const status = templateStatusOfError(errorCode);
  if (content.product !== ProductCode.WS || content.body.type !== "template") return;
  deps.logger.warn({ channelId, template: content.body.name, errorCode }, "WhatsApp refused the batch's template");
  if (!status) return;
  await deps.prisma.whatsappTemplate.updateMany({
    where: { channelId, name: content.body.name, language: content.body.language },
    data: { status },
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
