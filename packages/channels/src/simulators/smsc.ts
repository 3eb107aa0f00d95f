// A real SMPP 3.4 SMSC on loopback for development, tests and benchmarks: binds (with an optional limit per
// account), submit_sm with configurable latency / throttling / failures, delivery receipts (text + TLV form) with an
// outcome mix, redelivery of unacknowledged receipts after a reconnect, and counters.
//
// Deterministic rules, whatever the random shares say (so tests can force outcomes by destination number):
//   ...0000 -> submit_sm answered ESME_RINVDSTADR
//   ...9999 -> receipt UNDELIV, ...9998 -> receipt EXPIRED, ...9997 -> receipt REJECTD
import type { AddressInfo } from "node:net";
import type { Logger } from "../adapter";
import { silentLogger } from "../adapter";
import { encodeMessage } from "../smpp/encoding";
import {
  ESME_RALYBND,
  ESME_RINVBNDSTS,
  ESME_RINVCMDID,
  ESME_RINVDSTADR,
  ESME_RINVPASWD,
  ESME_RINVSYSID,
  ESME_RTHROTTLED,
} from "../smpp/errors";
import * as smpp from "../smpp/protocol/index";
import { Npi, sourceAddress, Ton } from "../smpp/source-address";
import { hashShare } from "./share";

export type ReceiptStat = "DELIVRD" | "UNDELIV" | "EXPIRED" | "REJECTD";

export interface OutcomeMix {
  delivered: number;
  undelivered: number;
  expired: number;
  rejected: number;
}

export interface SmscSimulatorOptions {
  /** Default 127.0.0.1. */
  host: string;
  /** 0 (default) picks a free port. */
  port: number;
  /** When set, binds with another system_id get ESME_RINVSYSID. */
  systemId?: string | undefined;
  /** When set, binds with another password get ESME_RINVPASWD. */
  password?: string | undefined;
  /**
   * Binds one system_id may hold at once (a transmitter + receiver pair is two), as SMSCs limit them per account;
   * one more is answered ESME_RALYBND and its connection closed. Unlimited when unset.
   */
  maxBindsPerAccount?: number | undefined;
  /** Delay before each submit_sm_resp. */
  latencyMs: number;
  /** Max submit_sm per second per session (token bucket); beyond it ESME_RTHROTTLED. 0 = unlimited. */
  throttle: number;
  /** Share (0..1) of submit_sm answered ESME_RINVDSTADR. */
  failureShare: number;
  receipts: boolean;
  receiptDelayMs: number;
  /** Relative shares of receipt outcomes; normalised by their sum. */
  outcomeMix: OutcomeMix;
  /** Spelling of message ids in submit_sm_resp and the receipt text. */
  messageIdFormat: "decimal" | "hex";
  /** receipted_message_id TLV: the same spelling, the other base (as some SMSCs do), or absent. */
  receiptTlvId: "same" | "other-form" | "omit";
  /** Max unacknowledged deliver_sm per session; more wait until acks come back. */
  receiptWindow: number;
  /**
   * The first message id it gives out (default 0x10000000). A simulator started again with the same first id is
   * an SMSC restarted (its ids repeat); one that stands for another SMSC's life in the same database takes its own.
   */
  firstMessageId?: number;
  /**
   * Share (0..1) of delivered messages whose recipient writes back (a mobile-originated deliver_sm from that
   * number to the message's sender, replyDelayMs after the receipt), chosen per number so the same numbers answer
   * on every run. 0 by default; `npm start` answers some, so replies and opt-outs show on the demo.
   */
  replyShare: number;
  replyDelayMs: number;
  replyText: string;
  /** Called for every receipt the client acknowledged (deliver_sm_resp with status 0), with its message id. */
  onReceiptAcked?: ((messageId: string) => void) | undefined;
  /** Called for every submit_sm with what arrived on the wire (as decoded) and the verdict. */
  onSubmit?: ((submit: SimulatorSubmit) => void) | undefined;
  logger?: Logger | undefined;
}

export interface SimulatorSubmit {
  systemId: string;
  source: string;
  /** source_addr_ton / source_addr_npi as they arrived. */
  sourceTon: number;
  sourceNpi: number;
  destination: string;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** User data header information elements (each [iei, length, ...data]) when UDHI is set. */
  udh: Buffer[];
  /** short_message decoded per data_coding (GSM 03.38 for 0, UTF-16BE for 8), without the UDH. */
  text: string;
  sar?: { ref: number; total: number; seq: number };
  /** command_status answered (0 = accepted). */
  status: number;
  messageId?: string;
}

export interface SmscStats {
  sessions: number;
  binds: number;
  /** Binds refused for their credentials. */
  bindFailures: number;
  /** Binds refused because the account held maxBindsPerAccount already. */
  bindsOverLimit: number;
  submitReceived: number;
  submitAccepted: number;
  submitThrottled: number;
  submitFailed: number;
  multipartParts: number;
  receiptsSent: number;
  receiptsAcked: number;
  receiptsRedelivered: number;
  /** deliver_sm_resp with an error status (the client could not take it now): delivered again a moment later. */
  receiptsRefused: number;
  /** Receipts and user messages not yet acknowledged (scheduled, waiting for a receiver, or in flight). */
  receiptsPending: number;
  /** Mobile-originated deliver_sm sent (each part of a long one counts), and acknowledged with status 0. */
  moSent: number;
  moAcked: number;
  enquireLinks: number;
  /** Clients that ended their bind with unbind (a polite close), not by dropping the connection. */
  unbinds: number;
  unknownCommands: number;
  connectionsDropped: number;
}

export interface SmscSimulator {
  readonly port: number;
  stats(): SmscStats;
  /** Zeroes the counters (not the receipts still owed). */
  reset(): void;
  setOptions(options: Partial<SmscSimulatorOptions>): void;
  /** Destroys every client connection, as a network failure would. */
  dropConnections(): void;
  /**
   * A user writes to one of the account's numbers: a mobile-originated deliver_sm (in parts with a concatenation
   * UDH when long, UCS-2 when not GSM 7-bit) on a receiver bind of the account, held until one binds and sent
   * again until acknowledged, like a receipt.
   */
  sendMo(mo: { systemId: string; from: string; to: string; text: string }): void;
  close(): Promise<void>;
}

const defaults: SmscSimulatorOptions = {
  host: "127.0.0.1",
  port: 0,
  latencyMs: 0,
  throttle: 0,
  failureShare: 0,
  receipts: true,
  receiptDelayMs: 0,
  outcomeMix: { delivered: 1, undelivered: 0, expired: 0, rejected: 0 },
  messageIdFormat: "decimal",
  receiptTlvId: "same",
  receiptWindow: 500,
  replyShare: 0,
  replyDelayMs: 300,
  replyText: "Thanks!",
};

export async function startSmscSimulator(options: Partial<SmscSimulatorOptions> = {}): Promise<SmscSimulator> {
  const sim = new Smsc({ ...defaults, ...options });
  await sim.listen();
  return sim;
}

type Role = "transceiver" | "transmitter" | "receiver";

interface SessionState {
  session: smpp.Session;
  role: Role | undefined;
  systemId: string;
  tokens: number;
  refilledAt: number;
  /** deliver_sm sequence_number -> receipt, until deliver_sm_resp */
  awaitingAck: Map<number, Receipt>;
}

/** What the SMSC delivers to a receiver bind: a receipt, or (with `mo`) a user's message or one part of it. */
interface Receipt {
  systemId: string;
  messageId: string;
  mo?: { shortMessage: Buffer; dataCoding: number; esmClass: number };
  /** receipt goes back from the original destination to the original source */
  source: string;
  destination: string;
  stat: ReceiptStat;
  submittedAt: number;
  snippet: string;
  /** The recipient writes back once this message is delivered (replyShare; the first part of a long one). */
  replies?: boolean;
}

/** Items released in FIFO order once due; one timer for the whole line (delays are uniform per option set). */
class DelayLine<T> {
  private readonly items: Array<{ dueAt: number; item: T }> = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly release: (item: T) => void) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(delayMs: number, item: T): void {
    this.items.push({ dueAt: Date.now() + delayMs, item });
    this.arm();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.items.length = 0;
    this.head = 0;
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    const next = this.items[this.head];
    if (next === undefined) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, next.dueAt - Date.now()));
  }

  private flush(): void {
    this.timer = undefined;
    const now = Date.now();
    for (let next = this.items[this.head]; next !== undefined && next.dueAt <= now; next = this.items[this.head]) {
      this.head++;
      this.release(next.item);
    }
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head > 4096) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    this.arm();
  }
}

const MESSAGE_STATE: Record<ReceiptStat, number> = { DELIVRD: 2, EXPIRED: 3, UNDELIV: 5, REJECTD: 8 };
const RECEIPT_ERR: Record<ReceiptStat, string> = { DELIVRD: "000", EXPIRED: "000", UNDELIV: "001", REJECTD: "002" };
const ID_BASE = 0x10000000;
/** A receipt the client refused (deliver_sm_resp with an error) is delivered again after this long. */
const REFUSED_RETRY_MS = 500;

function emptyStats(): Omit<SmscStats, "sessions" | "receiptsPending"> {
  return {
    binds: 0,
    bindFailures: 0,
    bindsOverLimit: 0,
    submitReceived: 0,
    submitAccepted: 0,
    submitThrottled: 0,
    submitFailed: 0,
    multipartParts: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    receiptsRedelivered: 0,
    receiptsRefused: 0,
    moSent: 0,
    moAcked: 0,
    enquireLinks: 0,
    unbinds: 0,
    unknownCommands: 0,
    connectionsDropped: 0,
  };
}

class Smsc implements SmscSimulator {
  private readonly options: SmscSimulatorOptions;
  private readonly logger: Logger;
  private readonly server: smpp.Server;
  private readonly states = new Set<SessionState>();
  private readonly pending = new Map<string, Receipt[]>();
  private readonly responses: DelayLine<{ state: SessionState; resp: smpp.PDU; receipt: Receipt | undefined }>;
  private readonly receiptLine: DelayLine<Receipt>;
  private readonly replyLine: DelayLine<{ systemId: string; from: string; to: string; text: string }>;
  private moRef = 0;
  private counters = emptyStats();
  private nextId: number;
  port = 0;

  constructor(options: SmscSimulatorOptions) {
    this.nextId = options.firstMessageId ?? ID_BASE;
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.responses = new DelayLine(({ state, resp, receipt }) => this.answerSubmit(state, resp, receipt));
    this.receiptLine = new DelayLine((receipt) => this.deliverReceipt(receipt));
    this.replyLine = new DelayLine((mo) => this.sendMo(mo));
    this.server = smpp.createServer({}, (session) => this.onSession(session));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off("error", reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  stats(): SmscStats {
    let awaiting = 0;
    for (const state of this.states) awaiting += state.awaitingAck.size;
    let waiting = 0;
    for (const list of this.pending.values()) waiting += list.length;
    return {
      sessions: this.states.size,
      ...this.counters,
      receiptsPending: awaiting + waiting + this.receiptLine.size,
    };
  }

  reset(): void {
    this.counters = emptyStats();
  }

  setOptions(options: Partial<SmscSimulatorOptions>): void {
    Object.assign(this.options, options);
  }

  dropConnections(): void {
    for (const state of [...this.states]) {
      this.counters.connectionsDropped++;
      state.session.destroy();
    }
  }

  sendMo(mo: { systemId: string; from: string; to: string; text: string }): void {
    const encoded = encodeMessage(mo.text, "udh", this.moRef++);
    for (const part of encoded.parts) {
      this.deliverReceipt({
        systemId: mo.systemId,
        messageId: "",
        mo: { shortMessage: part.shortMessage, dataCoding: encoded.dataCoding, esmClass: part.esmClass },
        source: mo.from,
        destination: mo.to,
        stat: "DELIVRD",
        submittedAt: Date.now(),
        snippet: "",
      });
    }
  }

  close(): Promise<void> {
    this.responses.clear();
    this.receiptLine.clear();
    this.replyLine.clear();
    for (const state of this.states) state.session.destroy();
    return new Promise((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  private onSession(session: smpp.Session): void {
    const state: SessionState = {
      session,
      role: undefined,
      systemId: "",
      tokens: this.options.throttle,
      refilledAt: Date.now(),
      awaitingAck: new Map(),
    };
    this.states.add(state);
    session.socket.setNoDelay(true);
    session.on("pdu", (pdu: smpp.PDU) => this.onPdu(state, pdu));
    // Clients vanish abruptly (that is half the point of a simulator); 'close' does the cleanup.
    session.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "ECONNRESET" && err.code !== "EPIPE") this.logger.warn({ code: err.code }, "smsc session error");
      session.destroy();
    });
    session.on("close", () => this.onClose(state));
  }

  private send(state: SessionState, pdu: smpp.PDU): boolean {
    return state.session.send(pdu);
  }

  private onPdu(state: SessionState, pdu: smpp.PDU): void {
    switch (pdu.command) {
      case "submit_sm":
        this.onSubmit(state, pdu);
        return;
      case "deliver_sm_resp":
        this.onDeliverSmResp(state, pdu);
        return;
      case "enquire_link":
        this.counters.enquireLinks++;
        this.send(state, pdu.response());
        return;
      case "bind_transceiver":
        this.onBind(state, pdu, "transceiver");
        return;
      case "bind_transmitter":
        this.onBind(state, pdu, "transmitter");
        return;
      case "bind_receiver":
        this.onBind(state, pdu, "receiver");
        return;
      case "unbind":
        this.counters.unbinds++;
        this.send(state, pdu.response());
        state.role = undefined;
        state.session.close();
        return;
      default:
        if (pdu.isResponse()) return; // enquire_link_resp, generic_nack, ...: nothing owed
        this.counters.unknownCommands++;
        this.send(
          state,
          new smpp.PDU("generic_nack", { command_status: ESME_RINVCMDID, sequence_number: pdu.sequence_number }),
        );
    }
  }

  private onBind(state: SessionState, pdu: smpp.PDU, role: Role): void {
    if (state.role !== undefined) {
      this.send(state, pdu.response({ command_status: ESME_RALYBND }));
      return;
    }
    const { systemId, password, maxBindsPerAccount } = this.options;
    const systemIdOk = systemId === undefined || pdu.system_id === systemId;
    const passwordOk = password === undefined || pdu.password === password;
    if (!systemIdOk || !passwordOk) {
      this.counters.bindFailures++;
      this.send(state, pdu.response({ command_status: systemIdOk ? ESME_RINVPASWD : ESME_RINVSYSID }));
      state.session.close();
      return;
    }
    if (maxBindsPerAccount !== undefined && this.bindsOf(pdu.system_id ?? "") >= maxBindsPerAccount) {
      this.counters.bindsOverLimit++;
      this.send(state, pdu.response({ command_status: ESME_RALYBND }));
      state.session.close();
      return;
    }
    state.role = role;
    state.systemId = pdu.system_id ?? "";
    this.counters.binds++;
    this.send(state, pdu.response({ system_id: "SWITCHBOARD_SIM" }));
    this.logger.info({ role, systemId: state.systemId }, "smsc bound");
    if (role !== "transmitter") this.flushPending(state.systemId);
  }

  private bindsOf(systemId: string): number {
    let binds = 0;
    for (const state of this.states) if (state.role !== undefined && state.systemId === systemId) binds++;
    return binds;
  }

  private onSubmit(state: SessionState, pdu: smpp.PDU): void {
    this.counters.submitReceived++;
    const destination = pdu.destination_addr ?? "";
    let status = 0;
    if (state.role !== "transceiver" && state.role !== "transmitter") {
      status = ESME_RINVBNDSTS;
    } else if (!this.takeToken(state)) {
      status = ESME_RTHROTTLED;
      this.counters.submitThrottled++;
    } else if (destination.endsWith("0000") || Math.random() < this.options.failureShare) {
      status = ESME_RINVDSTADR;
      this.counters.submitFailed++;
    }
    const decoded = pdu.short_message;
    const udh = decoded && !Buffer.isBuffer(decoded) && typeof decoded !== "string" ? (decoded.udh ?? []) : [];
    const body = decoded && !Buffer.isBuffer(decoded) && typeof decoded !== "string" ? decoded.message : decoded;
    const text = typeof body === "string" ? body : (body?.toString("latin1") ?? "");
    const sar =
      pdu.sar_total_segments !== undefined
        ? { ref: pdu.sar_msg_ref_num ?? 0, total: pdu.sar_total_segments, seq: pdu.sar_segment_seqnum ?? 0 }
        : undefined;
    if (status === 0 && (sar !== undefined || udh.some((ie) => ie[0] === 0x00 || ie[0] === 0x08))) {
      this.counters.multipartParts++;
    }

    let receipt: Receipt | undefined;
    let messageId: string | undefined;
    if (status === 0) {
      messageId = this.formatId(this.nextId++, this.options.messageIdFormat);
      // registered_delivery bits 1-0: 01 receipt on any final outcome, 10 on failure only.
      const wanted = (pdu.registered_delivery ?? 0) & 0x03;
      const stat = wanted === 0 || !this.options.receipts ? undefined : this.pickOutcome(destination);
      if (stat !== undefined && (wanted === 1 || stat !== "DELIVRD")) {
        receipt = {
          systemId: state.systemId,
          messageId,
          source: destination,
          destination: pdu.source_addr ?? "",
          stat,
          submittedAt: Date.now(),
          snippet: text.slice(0, 20).replace(/[^A-Za-z0-9 .,]/g, "."),
        };
        const firstPart = (sar?.seq ?? concatSeq(udh) ?? 1) === 1;
        if (firstPart && this.options.replyShare > 0 && hashShare(destination) < this.options.replyShare) {
          receipt.replies = true;
        }
      }
    }
    if (this.options.onSubmit) {
      const submit: SimulatorSubmit = {
        systemId: state.systemId,
        source: pdu.source_addr ?? "",
        sourceTon: pdu.source_addr_ton ?? 0,
        sourceNpi: pdu.source_addr_npi ?? 0,
        destination,
        esmClass: pdu.esm_class ?? 0,
        dataCoding: pdu.data_coding ?? 0,
        registeredDelivery: pdu.registered_delivery ?? 0,
        udh,
        text,
        status,
      };
      if (sar) submit.sar = sar;
      if (messageId !== undefined) submit.messageId = messageId;
      this.options.onSubmit(submit);
    }

    const resp = status === 0 ? pdu.response({ message_id: messageId }) : pdu.response({ command_status: status });
    if (this.options.latencyMs > 0) this.responses.push(this.options.latencyMs, { state, resp, receipt });
    else this.answerSubmit(state, resp, receipt);
  }

  private answerSubmit(state: SessionState, resp: smpp.PDU, receipt: Receipt | undefined): void {
    // A response that cannot be written (client gone) means the message never counted as accepted: no receipt.
    if (!this.send(state, resp)) return;
    if (resp.command_status === 0) this.counters.submitAccepted++;
    if (receipt) this.receiptLine.push(this.options.receiptDelayMs, receipt);
    if (receipt?.stat === "DELIVRD" && receipt.replies) {
      this.replyLine.push(this.options.receiptDelayMs + this.options.replyDelayMs, {
        systemId: receipt.systemId,
        from: receipt.source,
        to: receipt.destination,
        text: this.options.replyText,
      });
    }
  }

  private takeToken(state: SessionState): boolean {
    const rate = this.options.throttle;
    if (rate <= 0) return true;
    const now = Date.now();
    state.tokens = Math.min(rate, state.tokens + ((now - state.refilledAt) * rate) / 1000);
    state.refilledAt = now;
    if (state.tokens < 1) return false;
    state.tokens -= 1;
    return true;
  }

  private pickOutcome(destination: string): ReceiptStat {
    if (destination.endsWith("9999")) return "UNDELIV";
    if (destination.endsWith("9998")) return "EXPIRED";
    if (destination.endsWith("9997")) return "REJECTD";
    const { delivered, undelivered, expired, rejected } = this.options.outcomeMix;
    const total = delivered + undelivered + expired + rejected;
    if (total <= 0) return "DELIVRD";
    const roll = Math.random() * total;
    if (roll < delivered) return "DELIVRD";
    if (roll < delivered + undelivered) return "UNDELIV";
    if (roll < delivered + undelivered + expired) return "EXPIRED";
    return "REJECTD";
  }

  private formatId(value: number, format: "decimal" | "hex"): string {
    return format === "decimal" ? String(value) : value.toString(16).toUpperCase().padStart(8, "0");
  }

  private receiverFor(systemId: string): SessionState | undefined {
    let best: SessionState | undefined;
    for (const state of this.states) {
      if (state.systemId !== systemId || (state.role !== "transceiver" && state.role !== "receiver")) continue;
      if (state.awaitingAck.size >= this.options.receiptWindow || !state.session.socket.writable) continue;
      if (best === undefined || state.awaitingAck.size < best.awaitingAck.size) best = state;
    }
    return best;
  }

  private deliverReceipt(receipt: Receipt): void {
    const waiting = this.pending.get(receipt.systemId);
    if (waiting !== undefined) {
      // Older receipts are already waiting: keep the order.
      waiting.push(receipt);
      this.flushPending(receipt.systemId);
      return;
    }
    const receiver = this.receiverFor(receipt.systemId);
    if (receiver !== undefined && this.sendReceipt(receiver, receipt)) return;
    // Like a real SMSC: hold it until a receiver for this system_id binds (or acks make room).
    this.pending.set(receipt.systemId, [receipt]);
  }

  private sendReceipt(state: SessionState, receipt: Receipt): boolean {
    if (receipt.mo) return this.sendMoPart(state, receipt, receipt.mo);
    const numericId =
      this.options.messageIdFormat === "decimal" ? Number(receipt.messageId) : parseInt(receipt.messageId, 16);
    const text =
      `id:${receipt.messageId} sub:001 dlvrd:${receipt.stat === "DELIVRD" ? "001" : "000"} ` +
      `submit date:${receiptDate(receipt.submittedAt)} done date:${receiptDate(Date.now())} ` +
      `stat:${receipt.stat} err:${RECEIPT_ERR[receipt.stat]} text:${receipt.snippet}`;
    const fields: Record<string, unknown> = {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: receipt.source,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: receipt.destination,
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.from(text, "ascii"),
      message_state: MESSAGE_STATE[receipt.stat],
    };
    if (this.options.receiptTlvId === "same") fields.receipted_message_id = receipt.messageId;
    else if (this.options.receiptTlvId === "other-form") {
      fields.receipted_message_id = this.formatId(
        numericId,
        this.options.messageIdFormat === "decimal" ? "hex" : "decimal",
      );
    }
    const pdu = new smpp.PDU("deliver_sm", fields);
    if (!this.send(state, pdu)) return false;
    state.awaitingAck.set(pdu.sequence_number, receipt);
    this.counters.receiptsSent++;
    return true;
  }

  private sendMoPart(state: SessionState, item: Receipt, mo: NonNullable<Receipt["mo"]>): boolean {
    // Written to the number (or name) the user answers: addressed as our adapter addresses a sender id, so a short
    // code is network specific, not an international number a client would put a "+" before.
    const to = sourceAddress(item.destination, { sourceTon: Ton.INTERNATIONAL, sourceNpi: Npi.ISDN });
    const pdu = new smpp.PDU("deliver_sm", {
      source_addr_ton: 1,
      source_addr_npi: 1,
      source_addr: item.source.replace(/^\+/, ""),
      dest_addr_ton: to.ton,
      dest_addr_npi: to.npi,
      destination_addr: to.addr,
      esm_class: mo.esmClass,
      data_coding: mo.dataCoding,
      short_message: mo.shortMessage,
    });
    if (!this.send(state, pdu)) return false;
    state.awaitingAck.set(pdu.sequence_number, item);
    this.counters.moSent++;
    return true;
  }

  private onDeliverSmResp(state: SessionState, pdu: smpp.PDU): void {
    const receipt = state.awaitingAck.get(pdu.sequence_number);
    if (receipt === undefined) return;
    state.awaitingAck.delete(pdu.sequence_number);
    if (pdu.command_status === 0 && receipt.mo) {
      this.counters.moAcked++;
    } else if (pdu.command_status === 0) {
      this.counters.receiptsAcked++;
      this.options.onReceiptAcked?.(receipt.messageId);
    } else {
      // As an SMSC does with a temporary error: the receipt goes out again later.
      this.counters.receiptsRefused++;
      this.receiptLine.push(REFUSED_RETRY_MS, receipt);
    }
    const waiting = this.pending.get(state.systemId);
    if (waiting && waiting.length > 0) this.flushPending(state.systemId);
  }

  private flushPending(systemId: string): void {
    const waiting = this.pending.get(systemId);
    if (!waiting) return;
    let sent = 0;
    while (sent < waiting.length) {
      const receiver = this.receiverFor(systemId);
      const receipt = waiting[sent];
      if (receiver === undefined || receipt === undefined || !this.sendReceipt(receiver, receipt)) break;
      sent++;
    }
    waiting.splice(0, sent);
    if (waiting.length === 0) this.pending.delete(systemId);
  }

  private onClose(state: SessionState): void {
    this.states.delete(state);
    if (state.awaitingAck.size === 0) return;
    // Unacknowledged receipts go out again on the next receiver session, ahead of newer ones.
    const again = [...state.awaitingAck.values()];
    this.counters.receiptsRedelivered += again.length;
    state.awaitingAck.clear();
    const waiting = this.pending.get(state.systemId) ?? [];
    this.pending.set(state.systemId, [...again, ...waiting]);
    this.flushPending(state.systemId);
  }
}

/** The part number of a concatenation UDH (IE 0x00 or 0x08), if the message has one. */
function concatSeq(udh: readonly Buffer[]): number | undefined {
  for (const ie of udh) {
    if (ie[0] === 0x00 && ie.length >= 5) return ie[4];
    if (ie[0] === 0x08 && ie.length >= 6) return ie[5];
  }
  return undefined;
}

let dateCache = { minute: -1, text: "" };

/** YYMMDDhhmm (UTC). Receipts are formatted by the thousand per second, so one string per minute is cached. */
function receiptDate(epochMs: number): string {
  const minute = Math.floor(epochMs / 60_000);
  if (minute === dateCache.minute) return dateCache.text;
  const date = new Date(minute * 60_000);
  const text =
    pad2(date.getUTCFullYear() % 100) +
    pad2(date.getUTCMonth() + 1) +
    pad2(date.getUTCDate()) +
    pad2(date.getUTCHours()) +
    pad2(date.getUTCMinutes());
  dateCache = { minute, text };
  return text;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
