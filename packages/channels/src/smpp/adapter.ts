// SMPP 3.4 channel adapter: a window of pipelined submit_sm over one transceiver link (or a transmitter with one
// or more receivers: receiverBinds), receipts from deliver_sm, and the retry rules below.
//
// Retry rules
//   - ESME_RTHROTTLED / ESME_RMSGQFUL: the adapter halves its effective window, pauses all submits with an
//     exponential backoff (throttleBackoffMs doubling up to throttleBackoffMaxMs), and resubmits that PDU ahead of
//     the queue, up to throttleRetries times; then a retryable failure. The window grows back by one per window of
//     accepted submits.
//   - Every other error status resolves at once through the one status map (errors.ts).
//   - A submit written but unanswered when the link drops, or after submitTimeoutMs, resolves as a retryable
//     failure (CONNECTION_LOST / SUBMIT_TIMEOUT). The adapter never resubmits those itself: the SMSC may have
//     accepted them, so only the caller may decide to risk a duplicate. A late submit_sm_resp for a resolved
//     submit is ignored, so no message is ever reported twice.
//   - send() while the link is down waits for the rebind, up to submitTimeoutMs (NOT_BOUND, retryable). Waiting for
//     a window slot while bound is backpressure and has no deadline; the caller bounds its own concurrency.
//   - A bind the SMSC refuses as busy (ESME_RALYBND, ESME_RBINDFAIL, or the connection closed at bind: SMSCs limit
//     binds per account, and other processes may hold them all) fails what waits for it, and every send until a
//     bind succeeds, at once with BIND_REFUSED (retryable): another process that holds a bind can send it (the
//     workers hand the chunk on while another process says it holds a bind: SmppBindPresence, dispatch-chunk.ts).
//     Other refusals (a wrong password, an unknown system id) wait for a bind as above: the channel's own failure.
//   - Multipart: parts are pipelined; the outcome is ok only when every part is accepted, with the first part's id.
//     The first failing part decides the failure, and parts not yet written are dropped. The parts' receipts are
//     folded into one under the first part's id (multipart-receipts.ts): in this adapter's memory, or with shared
//     state in a store every process bound to the SMSC account uses (the SMSC hands each part's receipt to any
//     receiver bind of the account).
//
// Receipts: a deliver_sm is answered once every report handler has taken the receipt (a handler returning a
// promise: once it resolves, e.g. the receipt is stored), so a receipt the SMSC saw acknowledged is never only in
// this process's memory; a handler that rejects answers ESME_RX_T_APPN, and the SMSC delivers it again. What is
// not a receipt and not a user's message is answered at once; a long message's part receipt kept for folding once its store has it (at once
// in memory; a shared store that fails answers ESME_RX_T_APPN). With a shared store every receipt waits for its
// answer (one round trip per event-loop turn of receipts: a part sent by another process looks like any other).
//
// Ids starting again: an SMSC that restarts (or whose counter wraps) hands out ids it gave before. When the first
// id accepted on a new bind is below the highest of the previous bind, or an id falls far below the highest of the
// bind, onIdsRestarted is called (the workers keep the time: receipts after it are not matched to messages sent
// before it; delivery-report.ts). Numeric ids only (decimal, or hex with messageIdFormat "hex"). "The previous
// bind" is this adapter's own, and, given shared state (useSharedState: the workers keep it in Redis), the highest
// id any adapter of the SMSC account accepted, read at each bind before the first submit: so a fresh process (a
// deploy, a crash) still sees an SMSC that restarted meanwhile. This adapter's highest id is written there at most
// once a second and when its bind ends, not per message.
import type {
  ChannelAdapter,
  DeliveryReport,
  InboundHandler,
  Logger,
  OutboundMessage,
  ReportHandler,
  SendOutcome,
} from "../adapter";
import { sendFailure, silentLogger } from "../adapter";
import type { EgressPolicy } from "../egress";
import { type SmppConfig, type SmppConfigInput, smppConfigSchema } from "./config";
import { encodeMessage } from "./encoding";
import { ESME_RINVCMDID, ESME_RX_T_APPN, isThrottleStatus, smppStatus } from "./errors";
import { CLOSED_AT_BIND, SmppLink } from "./link";
import { type Assembled, MoAssembler, type MoPduFields, parseMobileOriginated } from "./mobile-originated";
import { type LongMessage, MultipartReceipts, type PartStore } from "./multipart-receipts";
import { probeSmpp } from "./probe";
import * as smpp from "./protocol/index";
import { canonicalMessageId, type MessageIdOptions, parseDeliveryReceipt, toDeliveryReport } from "./receipt";
import { sourceAddress } from "./source-address";

export interface SmppAdapterDeps {
  logger?: Logger;
  /** The channel's host is a tenant admin's input: the workers always pass their egress policy. */
  egress?: EgressPolicy;
  /** A link bound again after it had been bound and dropped (the workers count it: switchboard_smpp_reconnects). */
  onReconnect?: () => void;
  /** The SMSC's message ids started again (a restart, a wrap-around): see the header. */
  onIdsRestarted?: () => void;
}

export interface SmppAdapterStats {
  bound: boolean;
  queued: number;
  inflight: number;
  /** Current effective window (shrinks under throttling). */
  window: number;
  submitted: number;
  accepted: number;
  rejected: number;
  throttled: number;
  timedOut: number;
  lost: number;
  reports: number;
  /** Mobile-originated messages handed to the inbound handlers (whole, once their parts came). */
  inbound: number;
}

/**
 * The highest message id an SMSC account gave out, kept beyond this adapter (the workers: Redis, id-restarts.ts),
 * so that every process bound to the account, and the next one started, judges id restarts by it.
 */
export interface SmppIdMemory {
  /** The account's highest id as kept, if any. */
  highest(): Promise<bigint | undefined>;
  /** This adapter's highest id, accepted at `observedAt` (a write observed before a kept restart is ignored). */
  note(highest: bigint, observedAt: number): Promise<void>;
  /** The ids started again at `id`, seen at `at`: the restart's time is kept and `id` becomes the highest. */
  restarted(id: bigint, at: number): Promise<void>;
}

/** This adapter's transmitting bind, told to the other processes (they know who can send for the account). */
export interface SmppBindPresence {
  up(): void;
  down(): void;
}

/** What the adapter shares with the other processes bound to the same SMSC account (none: it works alone). */
export interface SmppSharedState {
  ids?: SmppIdMemory;
  bind?: SmppBindPresence;
  /** Where long messages' parts and their receipts wait to be folded (multipart-receipts.ts). */
  parts?: PartStore;
}

export interface SmppAdapter extends ChannelAdapter {
  readonly kind: "smpp";
  stats(): SmppAdapterStats;
  /** Its last bind was refused as busy and none succeeded since: sends fail at once with BIND_REFUSED. */
  readonly refusedHere: boolean;
  /** Mobile-originated messages: SMPP channels always take them (mobile-originated.ts). */
  onInbound(handler: InboundHandler): void;
  /** Call right after creating the adapter, before its first bind completes (see the header). */
  useSharedState(state: SmppSharedState): void;
}

const MAX_PARTS = 255; // the concatenation IE counts parts in one octet
/** A send this process cannot make now, another process bound to the account can (see the header). */
export const BIND_REFUSED = "BIND_REFUSED";
/** Bind refusals that say the account is busy (its binds held elsewhere), not that the channel is wrong. */
const BUSY_REFUSALS: ReadonlySet<string> = new Set(["ESME_RALYBND", "ESME_RBINDFAIL", CLOSED_AT_BIND]);
const CLOSE_DRAIN_MAX_MS = 5_000;
/** The highest accepted id goes to the shared memory at most this often (the pipeline accepts thousands a second). */
const IDS_NOTE_EVERY_MS = 1_000;
/** Longest a bind's first submit waits for the kept highest id (Redis away: the adapter goes on without it). */
const IDS_WAIT_MAX_MS = 2_000;

interface Job {
  resolve: (outcome: SendOutcome) => void;
  parts: number;
  remaining: number;
  firstId: string;
  /** A long message's parts, for folding their receipts. */
  long: LongMessage | undefined;
  done: boolean;
  enqueuedAt: number;
}

interface Submit {
  job: Job;
  index: number;
  /** submit_sm parameters; reused as-is when a throttled submit is retried. */
  fields: Record<string, unknown>;
  attempts: number;
  sentAt: number;
}

/** Array FIFO with a moving head: O(1) shift without Array#shift's copying on 100k-deep queues. */
class Fifo<T> {
  private items: Array<T | undefined> = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export function createSmppAdapter(config: SmppConfigInput, deps: SmppAdapterDeps = {}): SmppAdapter {
  return new SmppAdapterImpl(
    smppConfigSchema.parse(config),
    deps.logger ?? silentLogger,
    deps.egress,
    deps.onReconnect,
    deps.onIdsRestarted,
  );
}

class SmppAdapterImpl implements SmppAdapter {
  readonly kind = "smpp" as const;
  private readonly config: SmppConfig;
  private readonly logger: Logger;
  private readonly idOptions: MessageIdOptions;
  private readonly tx: SmppLink;
  /** Receiver links (bindMode transmitter_receiver): each is a session with its own window of receipts. */
  private readonly rx: SmppLink[];
  private readonly queue = new Fifo<Submit>();
  /** Throttled submits waiting to go again; they go before the queue. */
  private readonly retry = new Fifo<Submit>();
  private readonly inflight = new Map<number, Submit>();
  private readonly handlers: ReportHandler[] = [];
  private readonly inboundHandlers: InboundHandler[] = [];
  /** Long mobile-originated messages waiting for their other parts, with each part's acknowledgement. */
  private readonly moParts = new MoAssembler<(ok: boolean) => void>();
  private multipart = new MultipartReceipts();
  private window: number;
  private growCredit = 0;
  private pausedUntil = 0;
  private consecutiveThrottles = 0;
  private resumeTimer: NodeJS.Timeout | undefined;
  private readonly sweepTimer: NodeJS.Timeout;
  /** When the transmitting link went down (or the adapter started); meaningful only while it is not bound. */
  private downSince = Date.now();
  /** The transmitting link's last bind was refused as busy (see the header), until a bind succeeds. */
  private bindRefused: string | undefined;
  private concatRef = Math.floor(Math.random() * 0x10000);
  private closing = false;
  private closed: Promise<void> | undefined;
  /** Highest numeric id accepted on the current bind of the transmitting link, and on the bind before it. */
  private bindMaxId: bigint | undefined;
  private previousBindMaxId: bigint | undefined;
  /** The account's highest id kept beyond this adapter (see the header), and this bind's highest not written yet. */
  private ids: SmppIdMemory | undefined;
  private presence: SmppBindPresence | undefined;
  private bindMaxAt = 0;
  private idsUnwritten = false;
  private idsWrittenAt = 0;
  /** Binds of the transmitting link so far, and the one whose first submit waits for the kept highest id. */
  private txBinds = 0;
  private idsReadFor: number | undefined;
  /** The shared memory failed: said once per spell. */
  private idsFailing = false;
  /** A receipt handler failed: said once per spell, not once per receipt. */
  private reportFailing = false;
  private readonly counters = {
    submitted: 0,
    accepted: 0,
    rejected: 0,
    throttled: 0,
    timedOut: 0,
    lost: 0,
    reports: 0,
    inbound: 0,
  };

  constructor(
    config: SmppConfig,
    logger: Logger,
    private readonly egress: EgressPolicy | undefined,
    onReconnect: (() => void) | undefined,
    private readonly onIdsRestarted: (() => void) | undefined,
  ) {
    this.config = config;
    this.logger = logger;
    this.window = config.windowSize;
    this.idOptions = { messageIdFormat: config.messageIdFormat, receiptIdFormat: config.receiptIdFormat };
    const onPdu = (pdu: smpp.PDU, link: SmppLink) => this.onPdu(pdu, link);
    // Each link's first bind is the connection; every later one is a reconnect.
    const binds = (then: () => void) => {
      let count = 0;
      return () => {
        if (count++ > 0) onReconnect?.();
        then();
      };
    };
    const common = {
      host: config.host,
      port: config.port,
      systemId: config.systemId,
      password: config.password,
      systemType: config.systemType,
      bindTimeoutMs: config.bindTimeoutMs,
      enquireLinkIntervalMs: config.enquireLinkIntervalMs,
      reconnectInitialMs: config.reconnectInitialMs,
      reconnectMaxMs: config.reconnectMaxMs,
      egress,
      logger,
      onPdu,
    };
    this.tx = new SmppLink({
      ...common,
      role: config.bindMode === "transceiver" ? "transceiver" : "transmitter",
      onBound: binds(() => this.onTxBound()),
      onDown: () => this.onTxDown(),
      onRefused: (code) => this.onTxRefused(code),
    });
    this.rx =
      config.bindMode === "transmitter_receiver"
        ? Array.from(
            { length: config.receiverBinds },
            () => new SmppLink({ ...common, role: "receiver", onBound: binds(() => {}), onDown: () => {} }),
          )
        : [];
    // One sweeper instead of a timer per message: deadlines are coarse (seconds), messages are many.
    const sweepEvery = Math.max(20, Math.min(1_000, Math.floor(config.submitTimeoutMs / 4)));
    this.sweepTimer = setInterval(() => this.sweep(), sweepEvery);
    this.sweepTimer.unref();
    this.tx.start();
    for (const rx of this.rx) rx.start();
  }

  stats(): SmppAdapterStats {
    return {
      bound: this.tx.isBound,
      queued: this.queue.size + this.retry.size,
      inflight: this.inflight.size,
      window: this.window,
      ...this.counters,
    };
  }

  onReport(handler: ReportHandler): void {
    this.handlers.push(handler);
  }

  get refusedHere(): boolean {
    return this.bindRefused !== undefined && !this.tx.isBound;
  }

  onInbound(handler: InboundHandler): void {
    this.inboundHandlers.push(handler);
  }

  useSharedState(state: SmppSharedState): void {
    this.ids = state.ids;
    this.presence = state.bind;
    if (state.parts) this.multipart = new MultipartReceipts(state.parts);
  }

  test(): Promise<{ ok: boolean; detail: string }> {
    return probeSmpp(this.config, this.egress ? { egress: this.egress } : {});
  }

  send(msg: OutboundMessage): Promise<SendOutcome> {
    if (this.closing) return Promise.resolve(sendFailure("ADAPTER_CLOSED", true, "adapter is closed"));
    if (msg.kind !== undefined && msg.kind !== "sms") {
      return Promise.resolve(sendFailure("CONTENT_UNSUPPORTED", false, "SMPP carries SMS only", { reason: "invalid" }));
    }
    const to = msg.to.startsWith("+") ? msg.to.slice(1) : msg.to;
    if (!/^[0-9]{1,20}$/.test(to)) {
      return Promise.resolve(sendFailure("INVALID_DESTINATION", false, "destination is not an E.164 number"));
    }
    if (msg.text.length === 0) return Promise.resolve(sendFailure("EMPTY_MESSAGE", false));
    if (this.refusedHere) return Promise.resolve(sendFailure(BIND_REFUSED, true, this.refusedDetail()));
    const encoded = encodeMessage(msg.text, this.config.concatenation, this.concatRef);
    const total = encoded.parts.length;
    if (total > MAX_PARTS) {
      return Promise.resolve(sendFailure("MESSAGE_TOO_LONG", false, `${total} parts, at most ${MAX_PARTS}`));
    }
    if (total > 1) this.concatRef = (this.concatRef + 1) & 0xffff;

    // TON/NPI follow the sender id's kind (alphanumeric, international, short code): source-address.ts.
    const source = sourceAddress(msg.from, this.config);

    return new Promise<SendOutcome>((resolve) => {
      const job: Job = {
        resolve,
        parts: total,
        remaining: total,
        firstId: "",
        long: total > 1 ? this.multipart.open(total) : undefined,
        done: false,
        enqueuedAt: Date.now(),
      };
      for (let index = 0; index < total; index++) {
        const part = encoded.parts[index];
        if (part === undefined) continue;
        const fields: Record<string, unknown> = {
          source_addr_ton: source.ton,
          source_addr_npi: source.npi,
          source_addr: source.addr,
          dest_addr_ton: this.config.destTon,
          dest_addr_npi: this.config.destNpi,
          destination_addr: to,
          esm_class: part.esmClass,
          registered_delivery: 1,
          data_coding: encoded.dataCoding,
          short_message: part.shortMessage,
        };
        if (part.sar) {
          fields.sar_msg_ref_num = part.sar.ref;
          fields.sar_total_segments = part.sar.total;
          fields.sar_segment_seqnum = part.sar.seq;
        }
        this.queue.push({ job, index, fields, attempts: 0, sentAt: 0 });
      }
      this.pump();
    });
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    this.failQueued(() => true, "ADAPTER_CLOSED", "adapter closed before the message was submitted");
    // Give written submits a bounded chance to be answered, so callers learn their real outcome.
    const deadline = Date.now() + Math.min(this.config.submitTimeoutMs, CLOSE_DRAIN_MAX_MS);
    while (this.inflight.size > 0 && this.tx.isBound && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    clearInterval(this.sweepTimer);
    clearTimeout(this.resumeTimer);
    // The last answers may have raised the highest id: the next process bound to the account starts from it.
    await this.writeIds(Date.now(), true);
    this.presence?.down();
    await Promise.all([this.tx.stop(), ...this.rx.map((rx) => rx.stop())]);
    this.failInflight("ADAPTER_CLOSED", "adapter closed before submit_sm_resp; the SMSC may have accepted it");
  }

  /** Writes queued submits while the window has room. Called on every event that may free a slot. */
  private pump(): void {
    if (!this.tx.isBound || this.idsReadFor !== undefined) return;
    const now = Date.now();
    if (now < this.pausedUntil) {
      this.scheduleResume(now);
      return;
    }
    while (this.inflight.size < this.window) {
      const submit = this.retry.shift() ?? this.queue.shift();
      if (submit === undefined) return;
      if (submit.job.done) continue; // another part of its message already failed
      const pdu = new smpp.PDU("submit_sm", submit.fields);
      if (!this.tx.send(pdu)) {
        // Socket stopped being writable: the close handler follows; keep this submit first in line.
        this.retry.push(submit);
        return;
      }
      submit.sentAt = now;
      this.inflight.set(pdu.sequence_number, submit);
      this.counters.submitted++;
    }
  }

  private scheduleResume(now: number): void {
    if (this.resumeTimer !== undefined) return;
    this.resumeTimer = setTimeout(
      () => {
        this.resumeTimer = undefined;
        this.pump();
      },
      Math.max(1, this.pausedUntil - now),
    );
  }

  private onPdu(pdu: smpp.PDU, link: SmppLink): void {
    switch (pdu.command) {
      case "submit_sm_resp":
      case "generic_nack":
        this.onSubmitResp(pdu);
        return;
      case "deliver_sm":
        this.onDeliverSm(pdu, link);
        return;
      default:
        if (pdu.isResponse() || pdu.command === "alert_notification") return;
        // We implement no other SMSC-originated operation (data_sm, ...): say so instead of leaving it hanging.
        link.respond(
          new smpp.PDU("generic_nack", { command_status: ESME_RINVCMDID, sequence_number: pdu.sequence_number }),
        );
    }
  }

  private onSubmitResp(pdu: smpp.PDU): void {
    const submit = this.inflight.get(pdu.sequence_number);
    if (submit === undefined) return; // answer to a submit we already resolved (timeout): must not count twice
    this.inflight.delete(pdu.sequence_number);
    const status = pdu.command_status;
    if (status === 0 && pdu.command === "submit_sm_resp") {
      this.counters.accepted++;
      this.consecutiveThrottles = 0;
      if (this.window < this.config.windowSize && ++this.growCredit >= this.window) {
        this.window++;
        this.growCredit = 0;
      }
      const job = submit.job;
      if (!job.done) {
        const id = canonicalMessageId(pdu.message_id ?? "", this.config.messageIdFormat);
        this.watchIds(id);
        if (submit.index === 0) job.firstId = id;
        if (job.long) this.multipart.accepted(job.long, submit.index, id);
        if (--job.remaining === 0) {
          job.done = true;
          job.resolve({ ok: true, providerMessageId: job.firstId, parts: job.parts });
        }
      }
    } else if (isThrottleStatus(status)) {
      this.counters.throttled++;
      this.slowDown();
      if (submit.attempts++ < this.config.throttleRetries) {
        this.retry.push(submit);
      } else {
        const { code } = smppStatus(status);
        this.fail(submit, code, true, `still throttled after ${this.config.throttleRetries} retries`);
      }
    } else {
      this.counters.rejected++;
      const { code, retryable } = status === 0 ? { code: "GENERIC_NACK", retryable: true } : smppStatus(status);
      this.fail(submit, code, retryable);
    }
    this.pump();
  }

  /** Multiplicative decrease, once per throttle episode (a burst of throttled responses is one signal). */
  private slowDown(): void {
    const now = Date.now();
    if (now < this.pausedUntil) return;
    this.window = Math.max(1, this.window >> 1);
    this.growCredit = 0;
    if (this.consecutiveThrottles === 0) {
      // Once per throttling spell (until a submit is accepted again), not once per halving.
      this.logger.warn({ window: this.window }, "smpp throttled by SMSC, slowing down");
    }
    const backoff = this.config.throttleBackoffMs * 2 ** Math.min(this.consecutiveThrottles++, 20);
    this.pausedUntil = now + Math.min(this.config.throttleBackoffMaxMs, backoff);
  }

  private fail(submit: Submit, errorCode: string, retryable: boolean, detail?: string): void {
    const job = submit.job;
    if (job.done) return;
    job.done = true;
    if (job.long) this.multipart.abandon(job.long);
    const where = job.parts > 1 ? `part ${submit.index + 1}/${job.parts}` : undefined;
    const text = where && detail ? `${where}: ${detail}` : (where ?? detail);
    job.resolve(sendFailure(errorCode, retryable, text));
  }

  /** Whether the SMSC's ids started again (see the header): the first id of a bind, or a wrap-around within one. */
  private watchIds(id: string): void {
    if (this.onIdsRestarted === undefined && this.ids === undefined) return;
    const value = numericId(id, this.config.messageIdFormat);
    if (value === undefined) return;
    const max = this.bindMaxId;
    const restarted =
      max === undefined
        ? this.previousBindMaxId !== undefined && value < this.previousBindMaxId
        : value < max / 2n && max - value > WRAP_GAP;
    if (restarted) this.previousBindMaxId = undefined;
    if (!restarted && max !== undefined && value <= max) return;
    const now = Date.now();
    this.bindMaxId = value;
    this.bindMaxAt = now;
    this.idsUnwritten = true;
    if (restarted) {
      this.logger.warn({}, "smpp message ids started again (SMSC restarted or its counter wrapped)");
      this.onIdsRestarted?.();
      if (this.ids) {
        // The restart makes this id the account's highest: nothing older to write until it grows.
        this.idsUnwritten = false;
        this.idsWrittenAt = now;
        this.ids.restarted(value, now).then(
          () => this.idsAnswered(),
          (err: unknown) => this.idsFailed(err),
        );
      }
    }
  }

  /**
   * A new bind of the transmitting link: with shared state, its submits wait (bounded) for the account's kept
   * highest id, so that the bind's first id is judged by it too (an SMSC restarted while no adapter of this
   * process was bound, or before this process started).
   */
  private onTxBound(): void {
    this.bindRefused = undefined;
    this.presence?.up();
    const bind = ++this.txBinds;
    const ids = this.ids;
    if (ids === undefined) {
      this.pump();
      return;
    }
    this.idsReadFor = bind;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, IDS_WAIT_MAX_MS, undefined);
    });
    Promise.race([ids.highest(), deadline])
      .then(
        (kept) => {
          // Only before this bind's first id: a late answer must not undo what that id decided.
          if (bind !== this.txBinds || kept === undefined || this.bindMaxId !== undefined) return;
          if (this.previousBindMaxId === undefined || kept > this.previousBindMaxId) this.previousBindMaxId = kept;
          this.idsAnswered();
        },
        (err: unknown) => this.idsFailed(err),
      )
      .finally(() => {
        clearTimeout(timer);
        if (this.idsReadFor !== bind) return;
        this.idsReadFor = undefined;
        this.pump();
      });
  }

  /** Writes this bind's highest id to the shared memory: at most once per IDS_NOTE_EVERY_MS, or now (`force`). */
  private writeIds(now: number, force: boolean): Promise<void> {
    const ids = this.ids;
    const max = this.bindMaxId;
    if (ids === undefined || max === undefined || !this.idsUnwritten) return Promise.resolve();
    if (!force && now - this.idsWrittenAt < IDS_NOTE_EVERY_MS) return Promise.resolve();
    this.idsUnwritten = false;
    this.idsWrittenAt = now;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, IDS_WAIT_MAX_MS);
    });
    const written = ids.note(max, this.bindMaxAt).then(
      () => this.idsAnswered(),
      (err: unknown) => this.idsFailed(err),
    );
    // Bounded: a close must not hang on an unreachable Redis.
    return Promise.race([written, deadline]).finally(() => clearTimeout(timer));
  }

  private idsAnswered(): void {
    this.idsFailing = false;
  }

  private idsFailed(err: unknown): void {
    if (!this.idsFailing) this.logger.warn({ err }, "smpp: the account's highest message id not shared");
    this.idsFailing = true;
  }

  /** A refused bind of the transmitting link: a busy account fails what waits for a bind (see the header). */
  private onTxRefused(code: string): void {
    if (!BUSY_REFUSALS.has(code)) return;
    this.bindRefused = code;
    for (const fifo of [this.retry, this.queue]) {
      for (let submit = fifo.shift(); submit !== undefined; submit = fifo.shift()) {
        this.fail(submit, BIND_REFUSED, true, this.refusedDetail());
      }
    }
  }

  private refusedDetail(): string {
    return `the SMSC refused the bind (${this.bindRefused}): the account's binds are held elsewhere`;
  }

  private onTxDown(): void {
    this.downSince = Date.now();
    this.presence?.down();
    void this.writeIds(this.downSince, true);
    if (this.bindMaxId !== undefined) this.previousBindMaxId = this.bindMaxId;
    this.bindMaxId = undefined;
    this.failInflight("CONNECTION_LOST", "link dropped before submit_sm_resp; the SMSC may have accepted it");
  }

  private failInflight(code: string, detail: string): void {
    for (const submit of this.inflight.values()) {
      this.counters.lost++;
      this.fail(submit, code, true, detail);
    }
    this.inflight.clear();
  }

  private failQueued(expired: (submit: Submit) => boolean, code: string, detail: string): void {
    for (const fifo of [this.retry, this.queue]) {
      // Enqueue times only grow along a FIFO, so the expired ones are a prefix.
      for (let head = fifo.peek(); head !== undefined; head = fifo.peek()) {
        if (!head.job.done && !expired(head)) break;
        fifo.shift();
        this.fail(head, code, true, detail);
      }
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const partial of this.moParts.expire(now)) this.takeInbound(partial);
    void this.writeIds(now, false);
    const timeout = this.config.submitTimeoutMs;
    let freed = false;
    for (const [seq, submit] of this.inflight) {
      if (now - submit.sentAt < timeout) continue;
      this.inflight.delete(seq);
      this.counters.timedOut++;
      this.fail(
        submit,
        "SUBMIT_TIMEOUT",
        true,
        `no submit_sm_resp within ${timeout} ms; the SMSC may have accepted it`,
      );
      freed = true;
    }
    if (!this.tx.isBound) {
      const downSince = this.downSince;
      this.failQueued(
        (submit) => now - Math.max(submit.job.enqueuedAt, downSince) >= timeout,
        "NOT_BOUND",
        `no SMPP bind within ${timeout} ms`,
      );
    } else if (freed) {
      this.pump();
    }
  }

  private onDeliverSm(pdu: smpp.PDU, link: SmppLink): void {
    // Always answered (an unanswered deliver_sm makes the SMSC resend it or stall the session), on the session it
    // came on; a receipt only once its handlers have taken it (see the header).
    const answer = link.responder();
    const parsed = parseDeliveryReceipt(pdu);
    const parsedReport = parsed === null ? null : toDeliveryReport(parsed, this.idOptions);
    if (parsedReport === null) {
      this.onMobileOriginated(pdu, answer);
      return;
    }
    const folded = this.multipart.fold(parsedReport);
    if (folded instanceof Promise) {
      folded.then(
        (report) => this.take(report, pdu, answer),
        (err: unknown) => this.notTaken(err, pdu, answer),
      );
      return;
    }
    this.take(folded, pdu, answer);
  }

  /** Hands a receipt to the handlers (null: a part whose message waits for other parts) and answers it. */
  private take(report: DeliveryReport | null, pdu: smpp.PDU, answer: (pdu: smpp.PDU) => void): void {
    if (report === null) {
      answer(pdu.response());
      return;
    }
    this.counters.reports++;
    let waits: Array<Promise<void>> | undefined;
    for (const handler of this.handlers) {
      try {
        const taken = handler(report);
        if (taken instanceof Promise) {
          waits ??= [];
          waits.push(taken);
        }
      } catch (err) {
        // A failing consumer must not break the session for every other receipt.
        this.logger.error({ err }, "delivery report handler threw");
      }
    }
    if (waits === undefined) {
      answer(pdu.response());
      return;
    }
    const taken = waits.length === 1 ? waits[0] : Promise.all(waits);
    taken?.then(
      () => {
        this.reportFailing = false;
        answer(pdu.response());
      },
      (err: unknown) => this.notTaken(err, pdu, answer),
    );
  }

  /**
   * A user's message (mobile-originated.ts): handed to the inbound handlers once whole, and each of its parts
   * answered once they have taken it (a handler's promise: stored), or with a temporary error so the SMSC delivers
   * it again. Without an inbound handler, or unreadable, it is answered at once and dropped, as before.
   */
  private onMobileOriginated(pdu: smpp.PDU, answer: (pdu: smpp.PDU) => void): void {
    const part = this.inboundHandlers.length > 0 ? parseMobileOriginated(pdu as unknown as MoPduFields) : null;
    if (part === null) {
      answer(pdu.response());
      return;
    }
    const ack = (ok: boolean) => answer(ok ? pdu.response() : pdu.response({ command_status: ESME_RX_T_APPN }));
    for (const whole of this.moParts.add(part, ack)) this.takeInbound(whole);
  }

  private takeInbound({ message, tokens }: Assembled<(ok: boolean) => void>): void {
    this.counters.inbound++;
    const waits: Array<Promise<unknown>> = [];
    for (const handler of this.inboundHandlers) {
      try {
        const taken = handler(message);
        if (taken instanceof Promise) waits.push(taken);
      } catch (err) {
        this.logger.error({ err }, "inbound message handler threw");
      }
    }
    Promise.all(waits).then(
      () => {
        for (const ack of tokens) ack(true);
      },
      (err: unknown) => {
        this.logger.error({ err }, "inbound message not taken: the SMSC will deliver it again");
        for (const ack of tokens) ack(false);
      },
    );
  }

  private notTaken(err: unknown, pdu: smpp.PDU, answer: (pdu: smpp.PDU) => void): void {
    if (!this.reportFailing) this.logger.error({ err }, "delivery receipt not taken: the SMSC will deliver it again");
    this.reportFailing = true;
    answer(pdu.response({ command_status: ESME_RX_T_APPN }));
  }
}

/** An id-counter drop this large (and to below half) within one bind is a wrap-around, not reordering. */
const WRAP_GAP = 1_000n;

/** The id as a number, where the SMSC counts with numbers (decimal, or hex when so configured). */
function numericId(id: string, format: SmppConfig["messageIdFormat"]): bigint | undefined {
  if (id.length === 0 || id.length > 30) return undefined;
  if (format === "hex") return /^[0-9A-Fa-f]+$/.test(id) ? BigInt(`0x${id}`) : undefined;
  return /^[0-9]+$/.test(id) ? BigInt(id) : undefined;
}
