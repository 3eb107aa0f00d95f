// One SMPP session that stays bound: connect, bind, enquire_link keep-alive, answer the SMSC's enquire_link and
// unbind, reconnect with exponential backoff. PDUs it does not handle itself go to the owner (the adapter).
import type { Logger } from "../adapter";
import type { EgressPolicy } from "../egress";
import { smppStatus } from "./errors";
import * as smpp from "./protocol/index";

export type BindRole = "transceiver" | "transmitter" | "receiver";

export interface LinkOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  role: BindRole;
  bindTimeoutMs: number;
  enquireLinkIntervalMs: number;
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  /** The host is a tenant admin's input: every connection obeys this (the workers always pass one). */
  egress?: EgressPolicy | undefined;
  logger: Logger;
  onBound(): void;
  /** The bound session ended (dropped, unbound by the SMSC, or went silent). Not called for never-bound attempts. */
  onDown(): void;
  /**
   * The SMSC refused a bind: with the bind_resp's status code (e.g. "ESME_RALYBND"), or CLOSED_AT_BIND when it
   * closed the connection after it, before answering. Not called for a connection that failed or a bind that timed
   * out.
   */
  onRefused?(code: string): void;
  onPdu(pdu: smpp.PDU, link: SmppLink): void;
}

const UNBIND_GRACE_MS = 2_000;
const SMPP_VERSION_34 = 0x34;
/** What onRefused says when the SMSC closed the connection at bind instead of answering it. */
export const CLOSED_AT_BIND = "CLOSED_AT_BIND";

export class SmppLink {
  private readonly options: LinkOptions;
  private session: smpp.Session | undefined;
  private bound = false;
  private stopped = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private bindTimer: NodeJS.Timeout | undefined;
  private enquireTimer: NodeJS.Timeout | undefined;
  private enquireOutstanding = false;
  /** A bind_* was written on the current session and neither answered nor timed out. */
  private bindPending = false;
  /** Any PDU from the SMSC since our last enquire_link: a busy peer may answer it late but is plainly alive. */
  private heardFromPeer = false;
  private readonly label: string;

  constructor(options: LinkOptions) {
    this.options = options;
    this.label = `${options.role} ${options.systemId}@${options.host}:${options.port}`;
  }

  get isBound(): boolean {
    return this.bound;
  }

  start(): void {
    this.connect();
  }

  /** Sends a request on the bound session; false when not bound or the socket is not writable. */
  send(pdu: smpp.PDU): boolean {
    const session = this.session;
    if (!this.bound || session === undefined) return false;
    return session.send(pdu);
  }

  /** Answers a PDU from the SMSC; allowed before the bind completes (e.g. an early enquire_link). */
  respond(pdu: smpp.PDU): void {
    const session = this.session;
    if (session === undefined) return;
    session.send(pdu);
  }

  /**
   * Answers a PDU later, on the session current now: when the session ends meanwhile nothing is written (the
   * SMSC sends again what went unanswered on a session; an answer on the next session would name another PDU).
   */
  responder(): (pdu: smpp.PDU) => void {
    const session = this.session;
    return (pdu) => {
      if (session === undefined || session !== this.session) return;
      session.send(pdu);
    };
  }

  /** Unbinds politely (bounded wait for unbind_resp) and stops reconnecting. */
  stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const session = this.session;
    if (session === undefined) return Promise.resolve();
    const wasBound = this.bound;
    this.bound = false;
    return new Promise((resolve) => {
      const grace = setTimeout(() => session.destroy(), UNBIND_GRACE_MS);
      session.socket.once("close", () => {
        clearTimeout(grace);
        resolve();
      });
      if (wasBound && session.socket.writable) {
        session.send(new smpp.PDU("unbind"), () => session.close());
      } else {
        session.destroy();
      }
    });
  }

  private connect(): void {
    if (this.stopped) return;
    const { host, port, egress } = this.options;
    if (egress && !egress.precheck(host, port)) {
      this.options.logger.error({ link: this.label }, "smpp host not allowed by the egress policy");
      this.reconnectLater();
      return;
    }
    // A name is checked on what it resolves to, at each connect (a later answer may point elsewhere).
    const session = new smpp.Session({ host, port, ...(egress ? { lookup: egress.lookup(port) } : {}) });
    this.session = session;
    session.socket.setNoDelay(true); // the session coalesces each tick's writes; Nagle would only add latency
    this.bindTimer = setTimeout(() => {
      this.options.logger.warn({ link: this.label, timeoutMs: this.options.bindTimeoutMs }, "smpp bind timed out");
      this.bindPending = false;
      session.destroy();
    }, this.options.bindTimeoutMs);
    session.on("connect", () => this.bind(session));
    session.on("pdu", (pdu: smpp.PDU) => this.onPdu(session, pdu));
    // 'close' always follows a socket error, and that is where we recover; the error itself is only reported.
    session.on("error", (err: NodeJS.ErrnoException) => {
      this.options.logger.warn({ link: this.label, code: err.code, err: err.message }, "smpp link error");
      session.destroy();
    });
    session.on("close", () => this.onClose(session));
  }

  private bind(session: smpp.Session): void {
    const { role, systemId, password, systemType } = this.options;
    const pdu = new smpp.PDU(`bind_${role}`, {
      system_id: systemId,
      password,
      system_type: systemType,
      interface_version: SMPP_VERSION_34,
    });
    this.bindPending = true;
    session.send(pdu, (resp) => {
      if (session !== this.session) return;
      clearTimeout(this.bindTimer);
      this.bindPending = false;
      if (resp.command_status !== 0) {
        const status = smppStatus(resp.command_status);
        this.options.logger.error({ link: this.label, status: status.code }, "smpp bind refused");
        session.destroy();
        this.options.onRefused?.(status.code);
        return;
      }
      this.bound = true;
      this.attempt = 0;
      this.enquireOutstanding = false;
      this.enquireTimer = setInterval(() => this.enquireLink(session), this.options.enquireLinkIntervalMs);
      this.options.logger.info({ link: this.label }, "smpp bound");
      this.options.onBound();
    });
  }

  private enquireLink(session: smpp.Session): void {
    if (this.enquireOutstanding) {
      if (this.heardFromPeer) {
        this.heardFromPeer = false;
        return;
      }
      // Silence for a whole interval: the peer or the path is dead even if TCP has not noticed.
      this.options.logger.warn({ link: this.label }, "smpp enquire_link unanswered, dropping link");
      session.destroy();
      return;
    }
    this.heardFromPeer = false;
    this.enquireOutstanding = true;
    session.send(new smpp.PDU("enquire_link"), () => {
      this.enquireOutstanding = false;
    });
  }

  private onPdu(session: smpp.Session, pdu: smpp.PDU): void {
    if (session !== this.session) return;
    this.heardFromPeer = true;
    switch (pdu.command) {
      case "enquire_link":
        this.respond(pdu.response());
        return;
      case "unbind": {
        this.options.logger.info({ link: this.label }, "smpp unbound by SMSC");
        this.respond(pdu.response());
        const wasBound = this.bound;
        this.bound = false;
        if (wasBound) this.options.onDown();
        session.close();
        return;
      }
      case "enquire_link_resp":
      case "unbind_resp":
      case "bind_transceiver_resp":
      case "bind_transmitter_resp":
      case "bind_receiver_resp":
        return; // answered through the session's response callbacks
      default:
        this.options.onPdu(pdu, this);
    }
  }

  private onClose(session: smpp.Session): void {
    if (session !== this.session) return;
    clearTimeout(this.bindTimer);
    clearInterval(this.enquireTimer);
    this.session = undefined;
    const wasBound = this.bound;
    this.bound = false;
    const refused = this.bindPending && !this.stopped;
    this.bindPending = false;
    if (wasBound) {
      this.options.logger.warn({ link: this.label }, "smpp link down");
      this.options.onDown();
    } else if (refused) {
      // Some SMSCs answer a bind beyond the account's limit by closing the connection.
      this.options.logger.error({ link: this.label }, "smpp connection closed by the SMSC at bind");
      this.options.onRefused?.(CLOSED_AT_BIND);
    }
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.stopped) return;
    const { reconnectInitialMs, reconnectMaxMs } = this.options;
    const base = Math.min(reconnectMaxMs, reconnectInitialMs * 2 ** Math.min(this.attempt, 30));
    // Jitter keeps many adapters (or both links of a pair) from hammering a recovering SMSC in lockstep.
    const delay = Math.round(base * (0.8 + Math.random() * 0.2));
    this.attempt++;
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }
}
