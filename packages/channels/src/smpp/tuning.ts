// Behaviour-preserving speed fixes for smpp 0.5.1, applied when this package loads (idempotent).
//  - PDU.prototype methods are enumerable, so every `for (key in pdu)` in the codec (three per encode, one per
//    decode) walks them and falls off V8's fast for-in path. Making them non-enumerable changes nothing the
//    codec reads: it only acts on keys that are parameters or TLVs.
//  - gsmCoder.getCoder() runs Object.keys() over a 128-entry table on every GSM-7 decode just to see whether the
//    table is built; once built it never changes, so the result is memoised.
//  - Session.send() writes each PDU to the socket on its own: at 10,000 messages/s that is tens of thousands of
//    write syscalls a second (writev was the hottest function in the dispatch benchmark). The socket is corked
//    on the first send of a tick and uncorked on the next tick, so the PDUs of one tick leave in one write.
//    Order is unchanged and nothing waits longer than the current tick.
import smpp from "smpp";

interface GsmCoder {
  getCoder: ((encoding: number) => unknown) & { memoised?: true };
}

const proto = smpp.PDU.prototype as unknown as Record<string, unknown>;
for (const key of Object.keys(proto)) Object.defineProperty(proto, key, { enumerable: false });

const coder = (smpp as unknown as { gsmCoder?: GsmCoder }).gsmCoder;
if (coder && !coder.getCoder.memoised) {
  const build = coder.getCoder.bind(coder);
  const tables = new Map<number, unknown>();
  const memoised = (encoding: number) => {
    let table = tables.get(encoding);
    if (table === undefined) {
      table = build(encoding);
      tables.set(encoding, table);
    }
    return table;
  };
  coder.getCoder = Object.assign(memoised, { memoised: true as const });
}

interface CorkableSession {
  socket: { writable: boolean; cork(): void; uncork(): void };
  send: (...args: unknown[]) => unknown;
}
const sessionProto = smpp.Session.prototype as unknown as CorkableSession & { coalesced?: true };
if (!sessionProto.coalesced) {
  const send = sessionProto.send;
  const corked = new WeakSet<object>();
  sessionProto.send = function (this: CorkableSession, ...args: unknown[]) {
    const socket = this.socket;
    if (socket?.writable && !corked.has(socket)) {
      corked.add(socket);
      socket.cork();
      process.nextTick(() => {
        corked.delete(socket);
        socket.uncork();
      });
    }
    return send.apply(this, args);
  };
  Object.defineProperty(sessionProto, "coalesced", { value: true, enumerable: false });
}
