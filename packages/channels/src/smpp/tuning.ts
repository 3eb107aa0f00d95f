// Behaviour-preserving speed fixes for smpp 0.5.1, applied when this package loads (idempotent).
//  - PDU.prototype methods are enumerable, so every `for (key in pdu)` in the codec (three per encode, one per
//    decode) walks them and falls off V8's fast for-in path. Making them non-enumerable changes nothing the
//    codec reads: it only acts on keys that are parameters or TLVs.
//  - gsmCoder.getCoder() runs Object.keys() over a 128-entry table on every GSM-7 decode just to see whether the
//    table is built; once built it never changes, so the result is memoised.
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
