// SMPP mobile-originated messages: a deliver_sm that is not a delivery receipt is a user writing to one of our
// numbers (a reply, "STOP"). The adapter hands each whole message to its inbound handlers; the workers store it
// like a WhatsApp or RCS reply (channel-events.ts: matched to the last message sent to that number, opt-out
// keywords, the `inbound` webhook).
//
//   - Text: short_message (or the message_payload TLV) as the codec decoded it per data_coding (GSM 03.38 for 0,
//     Latin-1 for 3, UCS-2 for 8).
//   - Long messages come in parts with a concatenation header (UDH IE 0x00 with an 8-bit reference or 0x08 with a
//     16-bit one, or the SAR TLVs); parts are held in memory per sender, recipient and reference until all have come, then joined
//     in their order, and every part is acknowledged only once the whole message is taken (a crash before loses
//     nothing: the SMSC delivers the parts again). Bounded: a message whose parts do not all come within maxAgeMs
//     is handed on as far as it got (what the user wrote matters more than a missing tail), and at most
//     maxMessages wait at once (the oldest is handed on first).
//   - An SMPP 3.4 MO carries no message id, so each stored message gets one of ours: an SMSC that delivers the
//     same MO again (its deliver_sm_resp was lost) makes a second row. At least once, never lost.
import { randomUUID } from "node:crypto";
import type { InboundMessage } from "../adapter";

/** What the adapter reads of a deliver_sm (the codec's decoded fields). */
export interface MoPduFields {
  esm_class?: number;
  source_addr?: string;
  destination_addr?: string;
  short_message?: unknown;
  message_payload?: unknown;
  /** SAR TLVs: another way SMSCs number a long message's parts. */
  sar_msg_ref_num?: number;
  sar_total_segments?: number;
  sar_segment_seqnum?: number;
}

/** One deliver_sm's part of a message: its text and, for a long message, where it belongs. */
export interface MoPart {
  from: string;
  to: string;
  text: string;
  concat?: { ref: number; total: number; seq: number };
}

/**
 * esm_class bits 5-2 of a deliver_sm name its message type (SMPP 3.4 5.2.12): 0 is a short message from a user;
 * the others are the SMSC's receipt (0x04), SME acknowledgements (0x08, 0x10), a conversation abort (0x18) and an
 * intermediate notification (0x20).
 */
const ESM_CLASS_MESSAGE_TYPE = 0x3c;

function decoded(value: unknown): { text: string; udh: Buffer[] } | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return { text: value, udh: [] };
  if (Buffer.isBuffer(value)) return { text: value.toString("latin1"), udh: [] };
  if (typeof value === "object" && "message" in value) {
    const v = value as { message: unknown; udh?: unknown };
    const text = typeof v.message === "string" ? v.message : Buffer.isBuffer(v.message) ? v.message.toString() : "";
    const udh = Array.isArray(v.udh) ? v.udh.filter((x): x is Buffer => Buffer.isBuffer(x)) : [];
    return { text, udh };
  }
  return null;
}

/** The concatenation IE of a part's UDH, if any: [iei, length, ...data]. */
function concatOf(udh: readonly Buffer[]): MoPart["concat"] {
  for (const ie of udh) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5)
      return { ref: ie[2] as number, total: ie[3] as number, seq: ie[4] as number };
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6) {
      return { ref: ie.readUInt16BE(2), total: ie[4] as number, seq: ie[5] as number };
    }
  }
  return undefined;
}

/** The sender's number as E.164 ("+" and digits); SMSCs give it with or without "+" or a 00 prefix. */
function e164(addr: string): string {
  const digits = addr.replace(/^\+|^00/, "").replace(/\D/g, "");
  return digits ? `+${digits}` : addr;
}

/** The MO part a deliver_sm carries, or null when it is a receipt (or carries nothing readable). */
export function parseMobileOriginated(pdu: MoPduFields): MoPart | null {
  if (((pdu.esm_class ?? 0) & ESM_CLASS_MESSAGE_TYPE) !== 0) return null;
  const body = decoded(pdu.message_payload) ?? decoded(pdu.short_message);
  if (!body || !pdu.source_addr) return null;
  const part: MoPart = { from: e164(pdu.source_addr), to: pdu.destination_addr ?? "", text: body.text };
  const concat =
    concatOf(body.udh) ??
    (pdu.sar_total_segments !== undefined
      ? { ref: pdu.sar_msg_ref_num ?? 0, total: pdu.sar_total_segments, seq: pdu.sar_segment_seqnum ?? 0 }
      : undefined);
  if (concat && concat.total > 1 && concat.seq >= 1 && concat.seq <= concat.total) part.concat = concat;
  return part;
}

export interface MoAssemblerOptions {
  maxAgeMs: number;
  maxMessages: number;
}

export const DEFAULT_MO_ASSEMBLER: MoAssemblerOptions = { maxAgeMs: 5 * 60_000, maxMessages: 10_000 };

interface Waiting<T> {
  parts: Array<string | undefined>;
  first: MoPart;
  openedAt: number;
  receivedAt: Date;
  tokens: T[];
}

/** A whole message, with the tokens of the parts it was made of (the adapter's acknowledgements). */
export interface Assembled<T> {
  message: InboundMessage;
  tokens: T[];
}

/** Joins the parts of long MOs; a single-part MO passes straight through. */
export class MoAssembler<T> {
  private readonly waiting = new Map<string, Waiting<T>>();

  constructor(private readonly options: MoAssemblerOptions = DEFAULT_MO_ASSEMBLER) {}

  /**
   * Adds a part with its token. The whole message (with every part's token) once this part completes it, at once
   * for a one-part MO; else null. Also the oldest waiting message when too many wait (handed on as it is).
   */
  add(part: MoPart, token: T, now = Date.now()): Assembled<T>[] {
    if (!part.concat) return [{ message: toInbound(part, part.text, new Date(now)), tokens: [token] }];
    const out: Assembled<T>[] = [];
    const key = `${part.from}|${part.to}|${part.concat.ref}|${part.concat.total}`;
    let w = this.waiting.get(key);
    if (!w) {
      if (this.waiting.size >= this.options.maxMessages) out.push(...this.take(1, () => true));
      const parts = Array.from({ length: part.concat.total }, (): string | undefined => undefined);
      w = { parts, first: part, openedAt: now, receivedAt: new Date(now), tokens: [] };
      this.waiting.set(key, w);
    }
    w.parts[part.concat.seq - 1] = part.text;
    w.tokens.push(token);
    if (w.parts.every((p) => p !== undefined)) {
      this.waiting.delete(key);
      out.push({ message: toInbound(w.first, w.parts.join(""), w.receivedAt), tokens: w.tokens });
    }
    return out;
  }

  /** Messages whose parts stopped coming: handed on as far as they got. */
  expire(now = Date.now()): Assembled<T>[] {
    return this.take(Number.POSITIVE_INFINITY, (w) => now - w.openedAt >= this.options.maxAgeMs);
  }

  get size(): number {
    return this.waiting.size;
  }

  private take(most: number, due: (w: Waiting<T>) => boolean): Assembled<T>[] {
    const out: Assembled<T>[] = [];
    for (const [key, w] of this.waiting) {
      if (out.length >= most) break;
      if (!due(w)) continue;
      this.waiting.delete(key);
      out.push({ message: toInbound(w.first, w.parts.map((p) => p ?? "").join(""), w.receivedAt), tokens: w.tokens });
    }
    return out;
  }
}

function toInbound(part: MoPart, text: string, receivedAt: Date): InboundMessage {
  return { providerMessageId: `smpp-mo:${randomUUID()}`, from: part.from, to: part.to, text, receivedAt };
}

// ---------------------------------------------------------------- stored form

/**
 * The workers store MOs in channel_events like the HTTP channels' webhook bodies, so one loop applies both (and
 * an MO the SMSC saw acknowledged is in the database first): this is that body, and its reader.
 */
export function storedMoBody(messages: readonly InboundMessage[]): string {
  return JSON.stringify({
    smppMo: messages.map((m) => ({ ...m, receivedAt: m.receivedAt.toISOString() })),
  });
}

export function parseStoredMo(raw: Buffer | string): {
  reports: [];
  inbound: InboundMessage[];
  error?: string;
} {
  try {
    const body = JSON.parse(typeof raw === "string" ? raw : raw.toString("utf8")) as {
      smppMo?: Array<Omit<InboundMessage, "receivedAt"> & { receivedAt: string }>;
    };
    if (!Array.isArray(body.smppMo)) return { reports: [], inbound: [], error: "not an SMPP MO body" };
    return {
      reports: [],
      inbound: body.smppMo.map((m) => ({ ...m, receivedAt: new Date(m.receivedAt) })),
    };
  } catch (err) {
    return { reports: [], inbound: [], error: `unreadable SMPP MO body: ${(err as Error).message}` };
  }
}
