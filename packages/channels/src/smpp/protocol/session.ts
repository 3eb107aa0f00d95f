// An SMPP session on a TCP socket: frames PDUs by command_length across TCP chunks, numbers requests, matches
// responses to their callbacks, coalesces the PDUs written in one tick into one write, and answers what it
// cannot read with generic_nack (SMPP 3.4 4.3):
//   - a command_length below 16 or above MAX_PDU_LENGTH: generic_nack ESME_RINVCMDLEN, then the connection ends
//     (the stream cannot be framed any more) and 'error' is emitted with an Error without a system code;
//   - a request whose body cannot be read (a field cut short, a C-Octet String without its NUL): generic_nack
//     ESME_RINVCMDLEN, and the session goes on (the framing still holds). A malformed response is dropped.
//   - a command_id outside the specification comes out as a PDU named "unknown": its owner answers it
//     (pdu.response() is generic_nack ESME_RINVCMDID).
// Events: 'connect' (client sessions), 'pdu' (every PDU read, before its response callback), 'error', 'close'.
import { EventEmitter } from "node:events";
import { type LookupFunction, Server as NetServer, connect as netConnect, type Socket } from "node:net";
import { ESME_RINVCMDLEN, HEADER_LENGTH, MAX_PDU_LENGTH, MalformedPdu, PDU } from "./pdu";

const MAX_SEQUENCE = 0x7fffffff;

/**
 * Coalesces every PDU written in this tick into one TCP write: pipelined submits and batched responses would
 * otherwise cost one syscall (and often one segment) each.
 */
export function corkForTick(socket: Socket): void {
  if (socket.writableCorked > 0) return;
  socket.cork();
  process.nextTick(uncork, socket);
}

function uncork(socket: Socket): void {
  socket.uncork();
}

export interface SessionOptions {
  host?: string;
  port?: number;
  /** An accepted connection (server side); without it the session connects to host:port. */
  socket?: Socket;
  /** Passed to net.connect with host and port (the egress policy checks what a name resolves to). */
  lookup?: LookupFunction;
}

type ResponseCallback = (pdu: PDU) => void;

export class Session extends EventEmitter {
  readonly socket: Socket;
  server?: Server;
  private sequence = 0;
  private readonly callbacks = new Map<number, ResponseCallback>();
  /** The start of a PDU whose rest has not arrived yet. */
  private partial: Buffer | undefined;
  /** The stream could not be framed: nothing more is read. */
  private unframed = false;

  constructor(options: SessionOptions) {
    super();
    if (options.socket) {
      this.socket = options.socket;
    } else {
      const { host, port, lookup } = options;
      this.socket = netConnect({ host, port: port ?? 2775, ...(lookup ? { lookup } : {}) });
      this.socket.on("connect", () => this.emit("connect"));
    }
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("close", () => this.emit("close"));
    this.socket.on("error", (err) => this.emit("error", err));
  }

  /**
   * Writes a PDU; a request gets the next sequence_number (unless it carries one) and `responseCallback` is
   * called with its response. False (nothing written) when the socket is not writable.
   */
  send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean {
    const socket = this.socket;
    if (!socket.writable) return false;
    if (!pdu.isResponse()) {
      if (pdu.sequence_number === 0) {
        this.sequence = this.sequence >= MAX_SEQUENCE ? 1 : this.sequence + 1;
        pdu.sequence_number = this.sequence;
      }
      if (responseCallback) this.callbacks.set(pdu.sequence_number, responseCallback);
    } else if (responseCallback && !sendCallback) {
      sendCallback = responseCallback;
    }
    corkForTick(socket);
    if (sendCallback) {
      const written = sendCallback;
      socket.write(pdu.toBuffer(), () => written(pdu));
    } else {
      socket.write(pdu.toBuffer());
    }
    return true;
  }

  /** Ends the connection once what was written is sent. */
  close(callback?: () => void): void {
    if (callback) this.socket.once("close", callback);
    this.socket.end();
  }

  destroy(callback?: () => void): void {
    if (callback) this.socket.once("close", callback);
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    if (this.unframed) return;
    let data = chunk;
    if (this.partial !== undefined) {
      data = Buffer.concat([this.partial, chunk]);
      this.partial = undefined;
    }
    let at = 0;
    while (data.length - at >= 4) {
      const length = data.readUInt32BE(at);
      if (length < HEADER_LENGTH || length > MAX_PDU_LENGTH) {
        this.cannotFrame(data, at, length);
        return;
      }
      if (data.length - at < length) break;
      const frame = data.subarray(at, at + length);
      at += length;
      this.dispatch(frame);
      if (this.socket.destroyed) return;
    }
    // Copied: a view would keep the whole chunk alive for a few bytes.
    if (at < data.length) this.partial = Buffer.from(data.subarray(at));
  }

  private dispatch(frame: Buffer): void {
    let pdu: PDU;
    try {
      pdu = PDU.decode(frame);
    } catch (err) {
      if (!(err instanceof MalformedPdu)) throw err;
      if ((frame.readUInt32BE(4) & 0x80000000) === 0) {
        this.send(
          new PDU("generic_nack", { command_status: ESME_RINVCMDLEN, sequence_number: frame.readUInt32BE(12) }),
        );
      }
      return;
    }
    this.emit("pdu", pdu);
    if (pdu.isResponse()) {
      const callback = this.callbacks.get(pdu.sequence_number);
      if (callback !== undefined) {
        this.callbacks.delete(pdu.sequence_number);
        callback(pdu);
      }
    }
  }

  /** A command_length no PDU has: say so to the peer (SMPP 3.4 4.3.1) and end the connection. */
  private cannotFrame(data: Buffer, at: number, length: number): void {
    this.unframed = true;
    const socket = this.socket;
    if (socket.writable) {
      const sequence = data.length - at >= HEADER_LENGTH ? data.readUInt32BE(at + 12) : 0;
      const nack = new PDU("generic_nack", { command_status: ESME_RINVCMDLEN, sequence_number: sequence });
      // Written now, uncorked: the owner usually destroys the session on 'error', which drops buffered writes.
      while (socket.writableCorked > 0) socket.uncork();
      socket.write(nack.toBuffer());
      socket.end();
    }
    this.emit("error", new Error(`invalid SMPP command_length ${length} (16 to ${MAX_PDU_LENGTH})`));
  }
}

/** Accepts SMPP connections; each becomes a Session (listener / 'session' event). */
export class Server extends NetServer {
  readonly sessions: Session[] = [];

  constructor(listener?: (session: Session) => void) {
    super((socket) => {
      const session = new Session({ socket });
      session.server = this;
      this.sessions.push(session);
      socket.on("close", () => {
        const index = this.sessions.indexOf(session);
        if (index >= 0) this.sessions.splice(index, 1);
      });
      this.emit("session", session);
    });
    if (listener) this.on("session", listener);
  }
}

export function createServer(_options: Record<string, unknown>, listener?: (session: Session) => void): Server {
  return new Server(listener);
}
