// Delivery receipts (deliver_sm with esm_class 0x04): parsing the SMPP 3.4 Appendix B text form and the TLV form
// (receipted_message_id, message_state), mapping vendor status to our one enum, and matching message ids.
//
// Message id rule. SMSCs often quote a message id in a different base than submit_sm_resp did (hex in one
// place, decimal in the other). With `messageIdFormat` "decimal" or "hex" (the base submit_sm_resp uses) the
// adapter writes every id in that base's canonical spelling, in send() outcomes and in reports alike:
//   - canonical decimal: digits without leading zeros; canonical hex: upper-case without leading zeros.
//   - a receipt carrying two different ids (text `id:` and TLV) that are the same number in the two bases is
//     resolved exactly: we keep the value and print it in the configured base.
//   - a lone receipt id is read as hex if it contains a-f, else in `receiptIdFormat` if set, else in the
//     configured base (the SMSC is assumed consistent unless told otherwise).
// This is stateless: no map of sent ids is kept. Callers holding ids from elsewhere (SMSC portals, CDRs) can look
// up by `messageIdVariants(id)`, which lists every spelling the adapter could have produced for it.
// With "as-is" (default) ids are compared verbatim and the TLV id wins over the text id.

import type { DeliveryReport, DeliveryStatus } from "../adapter";

export type MessageIdFormat = "as-is" | "decimal" | "hex";

export interface ReceiptText {
  id?: string;
  sub?: string;
  dlvrd?: string;
  submitDate?: Date;
  doneDate?: Date;
  stat?: string;
  err?: string;
  text?: string;
}

export interface ParsedReceipt extends ReceiptText {
  /** receipted_message_id TLV */
  receiptedMessageId?: string;
  /** message_state TLV */
  messageState?: number;
  /** network_error_code TLV as "type:code" */
  networkErrorCode?: string;
}

/** The deliver_sm fields a receipt is read from, as decoded by the `smpp` package. */
export interface ReceiptPduFields {
  esm_class?: number;
  short_message?: { message: string | Buffer } | Buffer | string;
  message_payload?: { message: string | Buffer } | Buffer | string;
  receipted_message_id?: string;
  message_state?: number;
  network_error_code?: Buffer;
}

export const ESM_CLASS_DELIVERY_RECEIPT = 0x04;

const FIELD = /\b(id|sub|dlvrd|submit date|done date|stat|err|text):/gi;

/** Parses `id:XXXX sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:...`. */
export function parseReceiptText(input: string): ReceiptText | null {
  const out: ReceiptText = {};
  let key: string | undefined;
  let valueStart = 0;
  let found = false;
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(input); m !== null; m = FIELD.exec(input)) {
    if (key !== undefined) assign(out, key, input.slice(valueStart, m.index).trim());
    key = (m[1] ?? "").toLowerCase();
    valueStart = m.index + m[0].length;
    found = true;
    if (key === "text") break; // free text runs to the end and may contain "id:" etc.
  }
  if (!found || key === undefined) return null;
  assign(out, key, key === "text" ? input.slice(valueStart) : input.slice(valueStart).trim());
  return out;
}

function assign(out: ReceiptText, key: string, value: string): void {
  switch (key) {
    case "id":
      out.id = value;
      break;
    case "sub":
      out.sub = value;
      break;
    case "dlvrd":
      out.dlvrd = value;
      break;
    case "submit date": {
      const date = parseReceiptDate(value);
      if (date) out.submitDate = date;
      break;
    }
    case "done date": {
      const date = parseReceiptDate(value);
      if (date) out.doneDate = date;
      break;
    }
    case "stat":
      out.stat = value.toUpperCase();
      break;
    case "err":
      out.err = value;
      break;
    case "text":
      out.text = value;
      break;
  }
}

/** YYMMDDhhmm[ss], read as UTC: the receipt carries no zone and SMSCs we target run on UTC. */
export function parseReceiptDate(value: string): Date | undefined {
  if (!/^\d{10}(\d{2})?$/.test(value)) return undefined;
  const month = twoDigits(value, 2) - 1;
  const seconds = value.length === 12 ? twoDigits(value, 10) : 0;
  const date = new Date(
    Date.UTC(2000 + twoDigits(value, 0), month, twoDigits(value, 4), twoDigits(value, 6), twoDigits(value, 8), seconds),
  );
  return Number.isNaN(date.getTime()) || date.getUTCMonth() !== month ? undefined : date;
}

function twoDigits(value: string, at: number): number {
  return (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;
}

/** Returns null when the PDU is not a delivery receipt (an MO message, say) or carries nothing to read. */
export function parseDeliveryReceipt(pdu: ReceiptPduFields): ParsedReceipt | null {
  if (((pdu.esm_class ?? 0) & ESM_CLASS_DELIVERY_RECEIPT) === 0) return null;
  const text = messageText(pdu.short_message) || messageText(pdu.message_payload);
  const parsed: ParsedReceipt = (text && parseReceiptText(text)) || {};
  if (pdu.receipted_message_id) parsed.receiptedMessageId = pdu.receipted_message_id;
  if (typeof pdu.message_state === "number") parsed.messageState = pdu.message_state;
  const nec = pdu.network_error_code;
  if (nec && nec.length >= 3) parsed.networkErrorCode = `${nec[0]}:${nec.readUInt16BE(1)}`;
  if (parsed.id === undefined && parsed.receiptedMessageId === undefined) return null;
  return parsed;
}

function messageText(value: ReceiptPduFields["short_message"]): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  if (Buffer.isBuffer(value)) return value.toString("latin1");
  return typeof value.message === "string" ? value.message : value.message.toString("latin1");
}

const STAT: Readonly<Record<string, DeliveryStatus>> = {
  DELIVRD: "delivered",
  UNDELIV: "undelivered",
  EXPIRED: "expired",
  REJECTD: "rejected",
};

// SMPP 3.4 5.2.28 message_state
const MESSAGE_STATE: Readonly<Record<number, DeliveryStatus>> = {
  2: "delivered",
  3: "expired",
  5: "undelivered",
  8: "rejected",
};

/** The one place vendor status becomes ours. The TLV wins when both are present: it is not free text. */
export function receiptStatus(stat: string | undefined, messageState: number | undefined): DeliveryStatus {
  if (messageState !== undefined) return MESSAGE_STATE[messageState] ?? "unknown";
  return (stat && STAT[stat.toUpperCase()]) || "unknown";
}

export interface MessageIdOptions {
  messageIdFormat: MessageIdFormat;
  receiptIdFormat?: "decimal" | "hex" | undefined;
}

export function toDeliveryReport(parsed: ParsedReceipt, ids: MessageIdOptions): DeliveryReport | null {
  const providerMessageId = resolveReceiptMessageId(parsed.receiptedMessageId, parsed.id, ids);
  if (providerMessageId === undefined) return null;
  const report: DeliveryReport = { providerMessageId, status: receiptStatus(parsed.stat, parsed.messageState) };
  if (parsed.err && !/^0+$/.test(parsed.err)) report.errorCode = parsed.err;
  else if (parsed.networkErrorCode && !parsed.networkErrorCode.endsWith(":0")) {
    report.errorCode = parsed.networkErrorCode;
  }
  if (parsed.doneDate) report.doneAt = parsed.doneDate;
  return report;
}

const DECIMAL = /^[0-9]+$/;
const HEX = /^[0-9a-fA-F]+$/;
const HEX_LETTER = /[a-fA-F]/;
// Beyond this the id is not a number the SMSC counts with; treat it as opaque.
const MAX_NUMERIC_LENGTH = 40;

function printIn(value: bigint, format: "decimal" | "hex"): string {
  return format === "decimal" ? value.toString(10) : value.toString(16).toUpperCase();
}

function readAs(id: string, base: "decimal" | "hex"): bigint | undefined {
  if (id.length > MAX_NUMERIC_LENGTH) return undefined;
  if (base === "decimal") return DECIMAL.test(id) ? BigInt(id) : undefined;
  return HEX.test(id) ? BigInt(`0x${id}`) : undefined;
}

/** The spelling send() reports for an id from submit_sm_resp. Ids not in the expected base pass through as-is. */
export function canonicalMessageId(id: string, format: MessageIdFormat): string {
  if (format === "as-is") return id;
  const value = readAs(id, format);
  return value === undefined ? id : printIn(value, format);
}

/** Every spelling under which an id may have been reported: itself, and its canonical decimal and hex forms. */
export function messageIdVariants(id: string): string[] {
  const variants = new Set([id]);
  const dec = readAs(id, "decimal");
  if (dec !== undefined) {
    variants.add(printIn(dec, "decimal"));
    variants.add(printIn(dec, "hex"));
  }
  const hex = readAs(id, "hex");
  if (hex !== undefined) {
    variants.add(printIn(hex, "hex"));
    variants.add(printIn(hex, "decimal"));
  }
  return [...variants];
}

/** Picks the receipt's message id and writes it as send() did (see the rule at the top of this file). */
export function resolveReceiptMessageId(
  tlvId: string | undefined,
  textId: string | undefined,
  options: MessageIdOptions,
): string | undefined {
  const format = options.messageIdFormat;
  const first = tlvId || textId || undefined;
  if (format === "as-is" || first === undefined) return first;
  if (tlvId && textId && tlvId !== textId) {
    // Two spellings of one number: whichever reading makes them equal tells the bases apart.
    const tlvDec = readAs(tlvId, "decimal");
    const textHex = readAs(textId, "hex");
    if (tlvDec !== undefined && tlvDec === textHex) return printIn(tlvDec, format);
    const textDec = readAs(textId, "decimal");
    const tlvHex = readAs(tlvId, "hex");
    if (textDec !== undefined && textDec === tlvHex) return printIn(textDec, format);
  }
  const base = HEX_LETTER.test(first) ? "hex" : (options.receiptIdFormat ?? format);
  const value = readAs(first, base);
  return value === undefined ? first : printIn(value, format);
}
