// Turns message text into the short_message bytes of each submit_sm: the alphabet (GSM 03.38 when every character
// is in it, else UCS-2), the parts, and their concatenation (UDH or SAR TLVs). The alphabets themselves are the
// codec's (protocol/text.ts). Splitting comes from contracts so the web counter and the wire agree on part
// boundaries.
import { detectEncoding, splitSegments } from "@switchboard/contracts";
import { ESM_CLASS_UDHI, encodeGsm7, encodeUcs2 } from "./protocol/text";

export const DATA_CODING_GSM7 = 0x00;
export const DATA_CODING_UCS2 = 0x08;
/** 8-bit concatenation reference information element (3GPP TS 23.040 9.2.3.24.1). */
const IEI_CONCAT_8BIT = 0x00;

export { ESM_CLASS_UDHI, encodeGsm7, encodeUcs2 };

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
