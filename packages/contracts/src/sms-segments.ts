// SMS length rules (3GPP TS 23.038 / 23.040), shared by the web client (live counter) and the SMPP adapter
// (splitting for sending), so what the user sees counted is exactly what goes on the wire.
// Pure and dependency-free on purpose: it ships to the browser.

export type SmsEncoding = "gsm7" | "ucs2";

export interface SegmentCount {
  encoding: SmsEncoding;
  /** Septets for gsm7 (extension-table characters count 2), UTF-16 code units for ucs2. */
  characters: number;
  /** Number of SMS parts; 0 for empty text. */
  segments: number;
  /** Capacity of one part for this text: 160/153 (gsm7) or 70/67 (ucs2), single vs. concatenated. */
  perSegment: number;
}

/** GSM 03.38 default alphabet, indexed by septet value. 0x1B is the escape to the extension table. */
export const GSM7_BASIC_ALPHABET =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/** GSM 03.38 extension table: character -> septet sent after the 0x1B escape (so each costs 2 septets). */
export const GSM7_EXTENSION_TABLE: Readonly<Record<string, number>> = {
  "\f": 0x0a,
  "^": 0x14,
  "{": 0x28,
  "}": 0x29,
  "\\": 0x2f,
  "[": 0x3c,
  "~": 0x3d,
  "]": 0x3e,
  "|": 0x40,
  "€": 0x65,
};

const GSM7_SINGLE = 160;
const GSM7_MULTI = 153;
const UCS2_SINGLE = 70;
const UCS2_MULTI = 67;

// Septet cost per character (1 basic, 2 extension); a missing entry means "not in GSM-7".
// ASCII goes through a flat table because this runs on every keystroke in the web client.
const asciiCost = new Uint8Array(128);
const otherCost = new Map<string, number>();
for (const ch of GSM7_BASIC_ALPHABET) {
  if (ch === "\x1b") continue; // a literal ESC in user text is not representable, only as our own escape
  setCost(ch, 1);
}
for (const ch of Object.keys(GSM7_EXTENSION_TABLE)) setCost(ch, 2);

function setCost(ch: string, cost: number): void {
  const code = ch.charCodeAt(0);
  if (code < 128) asciiCost[code] = cost;
  else otherCost.set(ch, cost);
}

/** Septets this UTF-16 code unit costs in GSM-7, or 0 when it is not in the GSM-7 alphabets. */
function gsmCost(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (asciiCost[code] ?? 0) : (otherCost.get(text.charAt(i)) ?? 0);
}

export function detectEncoding(text: string): SmsEncoding {
  for (let i = 0; i < text.length; i++) {
    if (gsmCost(text, i) === 0) return "ucs2";
  }
  return "gsm7";
}

export function countSegments(text: string): SegmentCount {
  const encoding = detectEncoding(text);
  if (encoding === "gsm7") {
    let septets = 0;
    for (let i = 0; i < text.length; i++) septets += gsmCost(text, i);
    if (septets <= GSM7_SINGLE) {
      return { encoding, characters: septets, segments: septets === 0 ? 0 : 1, perSegment: GSM7_SINGLE };
    }
    return { encoding, characters: septets, segments: partBounds(text, encoding).length, perSegment: GSM7_MULTI };
  }
  if (text.length <= UCS2_SINGLE) {
    return { encoding, characters: text.length, segments: 1, perSegment: UCS2_SINGLE };
  }
  return { encoding, characters: text.length, segments: partBounds(text, encoding).length, perSegment: UCS2_MULTI };
}

/** The texts of the parts to send, in order. One element when the text fits a single SMS; none when empty. */
export function splitSegments(text: string): string[] {
  if (text.length === 0) return [];
  const { encoding, segments } = countSegments(text);
  if (segments === 1) return [text];
  const bounds = partBounds(text, encoding);
  const parts: string[] = [];
  let start = 0;
  for (const end of bounds) {
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/**
 * End offsets (UTF-16 indices) of each concatenated part. Greedy fill, but a unit that does not fit whole moves to
 * the next part: an extension character (escape + septet) in gsm7, a surrogate pair in ucs2. Splitting either
 * would make the handset show garbage at the boundary.
 */
function partBounds(text: string, encoding: SmsEncoding): number[] {
  const capacity = encoding === "gsm7" ? GSM7_MULTI : UCS2_MULTI;
  const bounds: number[] = [];
  let used = 0;
  let i = 0;
  while (i < text.length) {
    let width: number;
    let step = 1;
    if (encoding === "gsm7") {
      width = gsmCost(text, i);
    } else {
      const code = text.charCodeAt(i);
      const next = text.charCodeAt(i + 1);
      step = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
      width = step;
    }
    if (used + width > capacity) {
      bounds.push(i);
      used = 0;
    }
    used += width;
    i += step;
  }
  bounds.push(text.length);
  return bounds;
}
