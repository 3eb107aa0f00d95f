// Turns message text into the short_message bytes of each submit_sm. We encode ourselves and hand the `smpp`
// package Buffers (which it writes verbatim) because its own string path picks data_coding 1 (IA5) for GSM text
// while writing GSM 03.38 bytes, and builds a RegExp per message.
// Splitting comes from contracts so the web counter and the wire agree on part boundaries.
import { detectEncoding, GSM7_BASIC_ALPHABET, GSM7_EXTENSION_TABLE, splitSegments } from "@switchboard/contracts";

export const DATA_CODING_GSM7 = 0x00;
export const DATA_CODING_UCS2 = 0x08;
export const ESM_CLASS_UDHI = 0x40;
const GSM7_ESCAPE = 0x1b;
/** 8-bit concatenation reference information element (3GPP TS 23.040 9.2.3.24.1). */
const IEI_CONCAT_8BIT = 0x00;

export interface EncodedPart {
  shortMessage: Buffer;
  esmClass: number;
  /** Set when concatenating with SAR TLVs instead of a UDH. */
  sar?: { ref: number; total: number; seq: number };
}

export interface EncodedMessage {
  dataCoding: number;
  parts: EncodedPart[];
}

// Septet per character; extension characters are stored as 0x100 | septet so one lookup tells both.
const asciiSeptet = new Int16Array(128).fill(-1);
const otherSeptet = new Map<string, number>();
for (let septet = 0; septet < GSM7_BASIC_ALPHABET.length; septet++) {
  if (septet === GSM7_ESCAPE) continue;
  setSeptet(GSM7_BASIC_ALPHABET.charAt(septet), septet);
}
for (const [ch, septet] of Object.entries(GSM7_EXTENSION_TABLE)) setSeptet(ch, 0x100 | septet);

function setSeptet(ch: string, value: number): void {
  const code = ch.charCodeAt(0);
  if (code < 128) asciiSeptet[code] = value;
  else otherSeptet.set(ch, value);
}

/**
 * GSM 03.38 default alphabet, one septet per octet (unpacked), which is what data_coding 0 means on SMPP.
 * Throws on characters outside the alphabet: callers pick the encoding with detectEncoding first.
 */
export function encodeGsm7(text: string): Buffer {
  const out = Buffer.allocUnsafe(text.length * 2);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (asciiSeptet[code] ?? -1) : (otherSeptet.get(text.charAt(i)) ?? -1);
    if (value < 0) throw new RangeError(`character U+${code.toString(16).padStart(4, "0")} is not in GSM 03.38`);
    if (value > 0xff) {
      out[n++] = GSM7_ESCAPE;
      out[n++] = value & 0x7f;
    } else {
      out[n++] = value;
    }
  }
  return out.subarray(0, n);
}

/** UTF-16BE, which handsets accept for data_coding 8 (strict UCS-2 has no surrogates, real networks pass them). */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, "utf16le").swap16();
}

/**
 * Encodes `text` into the parts to submit. `ref` is the concatenation reference for this message (only used when
 * there is more than one part); UDH uses its low 8 bits, SAR its low 16.
 */
export function encodeMessage(text: string, concatenation: "udh" | "sar", ref: number): EncodedMessage {
  const gsm = detectEncoding(text) === "gsm7";
  const dataCoding = gsm ? DATA_CODING_GSM7 : DATA_CODING_UCS2;
  const texts = splitSegments(text);
  if (texts.length === 1) {
    return { dataCoding, parts: [{ shortMessage: gsm ? encodeGsm7(text) : encodeUcs2(text), esmClass: 0 }] };
  }
  const total = texts.length;
  const parts: EncodedPart[] = [];
  for (let i = 0; i < total; i++) {
    const body = gsm ? encodeGsm7(texts[i] ?? "") : encodeUcs2(texts[i] ?? "");
    if (concatenation === "udh") {
      const udh = Buffer.from([0x05, IEI_CONCAT_8BIT, 0x03, ref & 0xff, total, i + 1]);
      parts.push({ shortMessage: Buffer.concat([udh, body]), esmClass: ESM_CLASS_UDHI });
    } else {
      parts.push({ shortMessage: body, esmClass: 0, sar: { ref: ref & 0xffff, total, seq: i + 1 } });
    }
  }
  return { dataCoding, parts };
}
