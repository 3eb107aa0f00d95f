// SMPP 3.4 PDUs (the specification's section 4 bodies, section 5.3 TLVs): a PDU object with the specification's
// field names, encoded into one Buffer sized exactly, and decoded from one whole frame (the session cuts frames).
//
//   - Header: command_length, command_id, command_status, sequence_number (4 octets each, big endian).
//   - Bodies decoded and encoded: the binds and their responses, outbind, unbind, submit_sm, deliver_sm, data_sm,
//     query_sm, enquire_link, generic_nack and their responses. The other commands of the specification are
//     named (an SMSC may send them) and their body kept as octets in `body`.
//   - A body may end early at a field boundary (an error response carries none): the missing fields stay unset.
//     A field cut in half, a C-Octet String without its NUL, or a TLV longer than the PDU is malformed (the
//     session answers generic_nack). C-Octet Strings are read to their NUL whatever the specification's maximum
//     (kept in the tables below for reference): SMSCs and our own passwords exceed them.
//   - TLVs: the ones the project reads or writes have names; any other is kept in `tlvs` (tag and octets) and
//     written back as it came.
//   - short_message and message_payload are decoded lazily, on first read (a submit_sm_resp or a receipt whose
//     text nobody reads costs nothing): the text per data_coding with the UDH split off under UDHI (text.ts).
import { type DecodedMessage, decodeMessage, messageOctets } from "./text";

export type { DecodedMessage } from "./text";

export const ESME_RINVCMDLEN = 0x02;
export const ESME_RINVCMDID = 0x03;
/** Largest command_length accepted: a 64 KiB message_payload and the rest of a deliver_sm fit in it. */
export const MAX_PDU_LENGTH = 0x10000 + 1024;
export const HEADER_LENGTH = 16;
const RESPONSE_BIT = 0x80000000;

export const COMMAND_IDS = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  query_sm: 0x00000003,
  query_sm_resp: 0x80000003,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  replace_sm: 0x00000007,
  replace_sm_resp: 0x80000007,
  cancel_sm: 0x00000008,
  cancel_sm_resp: 0x80000008,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  outbind: 0x0000000b,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
  submit_multi: 0x00000021,
  submit_multi_resp: 0x80000021,
  alert_notification: 0x00000102,
  data_sm: 0x00000103,
  data_sm_resp: 0x80000103,
} as const;

export type Command = keyof typeof COMMAND_IDS;
/** What a PDU with a command_id outside the specification is called (answered generic_nack ESME_RINVCMDID). */
export type CommandName = Command | "unknown";

const COMMAND_NAMES = new Map<number, Command>();
for (const [name, id] of Object.entries(COMMAND_IDS)) COMMAND_NAMES.set(id, name as Command);

type FieldType = "cstring" | "u8";
/** [name, type, the specification's maximum length of a C-Octet String including its NUL]. */
type Field = readonly [string, FieldType, number];

const BIND: readonly Field[] = [
  ["system_id", "cstring", 16],
  ["password", "cstring", 9],
  ["system_type", "cstring", 13],
  ["interface_version", "u8", 1],
  ["addr_ton", "u8", 1],
  ["addr_npi", "u8", 1],
  ["address_range", "cstring", 41],
];
const BIND_RESP: readonly Field[] = [["system_id", "cstring", 16]];
const MESSAGE_ID: readonly Field[] = [["message_id", "cstring", 65]];

/** Bodies read and written from a table; submit_sm and deliver_sm (the hot ones) are written out by hand below. */
const BODIES: Partial<Record<Command, readonly Field[]>> = {
  bind_receiver: BIND,
  bind_transmitter: BIND,
  bind_transceiver: BIND,
  bind_receiver_resp: BIND_RESP,
  bind_transmitter_resp: BIND_RESP,
  bind_transceiver_resp: BIND_RESP,
  outbind: [
    ["system_id", "cstring", 16],
    ["password", "cstring", 9],
  ],
  submit_sm_resp: MESSAGE_ID,
  deliver_sm_resp: MESSAGE_ID,
  data_sm_resp: MESSAGE_ID,
  query_sm: [
    ["message_id", "cstring", 65],
    ["source_addr_ton", "u8", 1],
    ["source_addr_npi", "u8", 1],
    ["source_addr", "cstring", 21],
  ],
  query_sm_resp: [
    ["message_id", "cstring", 65],
    ["final_date", "cstring", 17],
    ["message_state", "u8", 1],
    ["error_code", "u8", 1],
  ],
  data_sm: [
    ["service_type", "cstring", 6],
    ["source_addr_ton", "u8", 1],
    ["source_addr_npi", "u8", 1],
    ["source_addr", "cstring", 65],
    ["dest_addr_ton", "u8", 1],
    ["dest_addr_npi", "u8", 1],
    ["destination_addr", "cstring", 65],
    ["esm_class", "u8", 1],
    ["registered_delivery", "u8", 1],
    ["data_coding", "u8", 1],
  ],
  generic_nack: [],
  unbind: [],
  unbind_resp: [],
  enquire_link: [],
  enquire_link_resp: [],
};

/** submit_sm and deliver_sm share one body (SMPP 3.4 4.4.1 and 4.6.1). */
function isShortMessageBody(command: CommandName): boolean {
  return command === "submit_sm" || command === "deliver_sm";
}

type TlvType = "u8" | "u16" | "cstring" | "octets" | "message";

/** The TLVs the project reads or writes (SMPP 3.4 5.3.2), by tag. */
const TLVS: ReadonlyArray<readonly [number, string, TlvType]> = [
  [0x0005, "dest_addr_subunit", "u8"],
  [0x0019, "payload_type", "u8"],
  [0x001e, "receipted_message_id", "cstring"],
  [0x0204, "user_message_reference", "u16"],
  [0x020a, "source_port", "u16"],
  [0x020b, "destination_port", "u16"],
  [0x020c, "sar_msg_ref_num", "u16"],
  [0x020e, "sar_total_segments", "u8"],
  [0x020f, "sar_segment_seqnum", "u8"],
  [0x0210, "sc_interface_version", "u8"],
  [0x0423, "network_error_code", "octets"],
  [0x0424, "message_payload", "message"],
  [0x0427, "message_state", "u8"],
];
const TLV_BY_TAG = new Map(TLVS.map((tlv) => [tlv[0], tlv] as const));

/** A TLV the codec has no name for, kept as it came. */
export interface RawTlv {
  tag: number;
  value: Buffer;
}

/** A PDU that cannot be read (a field cut short, a C-Octet String without its NUL). */
export class MalformedPdu extends Error {}

type MessageValue = DecodedMessage | Buffer | string;

/** Fields and TLVs a PDU may be built with (the specification's names). */
export type PduOptions =
  | Partial<Omit<PDU, "command" | "command_id" | "command_length" | "isResponse" | "response" | "toBuffer">>
  | Record<string, unknown>;

export class PDU {
  command: CommandName;
  command_id: number;
  command_status: number;
  sequence_number: number;
  /** Set when decoded, and by toBuffer(). */
  command_length = 0;
  declare system_id?: string;
  declare password?: string;
  declare system_type?: string;
  declare interface_version?: number;
  declare addr_ton?: number;
  declare addr_npi?: number;
  declare address_range?: string;
  declare message_id?: string;
  declare service_type?: string;
  declare source_addr_ton?: number;
  declare source_addr_npi?: number;
  declare source_addr?: string;
  declare dest_addr_ton?: number;
  declare dest_addr_npi?: number;
  declare destination_addr?: string;
  declare esm_class?: number;
  declare protocol_id?: number;
  declare priority_flag?: number;
  declare schedule_delivery_time?: string;
  declare validity_period?: string;
  declare registered_delivery?: number;
  declare replace_if_present_flag?: number;
  declare data_coding?: number;
  declare sm_default_msg_id?: number;
  declare final_date?: string;
  declare error_code?: number;
  // TLVs
  declare dest_addr_subunit?: number;
  declare payload_type?: number;
  declare receipted_message_id?: string;
  declare user_message_reference?: number;
  declare source_port?: number;
  declare destination_port?: number;
  declare sar_msg_ref_num?: number;
  declare sar_total_segments?: number;
  declare sar_segment_seqnum?: number;
  declare sc_interface_version?: number;
  declare network_error_code?: Buffer;
  declare message_state?: number;
  /** TLVs without a name here, in the order they came (written back after the named ones). */
  declare tlvs?: RawTlv[];
  /** The body of a command this codec names but does not read (replace_sm, cancel_sm, ...), as octets. */
  declare body?: Buffer;
  /** short_message / message_payload: a value set, or the octets as decoded and not read yet. */
  private sm: MessageValue | undefined;
  private smOctets: Buffer | undefined;
  private payload: MessageValue | undefined;
  private payloadOctets: Buffer | undefined;

  constructor(command: CommandName, options?: PduOptions) {
    const id = command === "unknown" ? 0 : COMMAND_IDS[command];
    if (id === undefined) throw new TypeError(`unknown SMPP command ${command}`);
    this.command = command;
    this.command_id = id;
    this.command_status = 0;
    this.sequence_number = 0;
    this.sm = undefined;
    this.smOctets = undefined;
    this.payload = undefined;
    this.payloadOctets = undefined;
    if (options !== undefined) Object.assign(this, options);
  }

  get short_message(): MessageValue | undefined {
    if (this.smOctets !== undefined) {
      this.sm = decodeMessage(this.smOctets, this.data_coding ?? 0, this.esm_class ?? 0);
      this.smOctets = undefined;
    }
    return this.sm;
  }

  set short_message(value: MessageValue | undefined) {
    this.sm = value;
    this.smOctets = undefined;
  }

  get message_payload(): MessageValue | undefined {
    if (this.payloadOctets !== undefined) {
      // The UDH sits in whichever of the two carries the message: here when short_message is empty.
      const udhi = this.smLength() === 0 ? (this.esm_class ?? 0) : 0;
      this.payload = decodeMessage(this.payloadOctets, this.data_coding ?? 0, udhi);
      this.payloadOctets = undefined;
    }
    return this.payload;
  }

  set message_payload(value: MessageValue | undefined) {
    this.payload = value;
    this.payloadOctets = undefined;
  }

  isResponse(): boolean {
    return (this.command_id & RESPONSE_BIT) !== 0;
  }

  /** The response to this request, with its sequence_number; an unknown command's is generic_nack ESME_RINVCMDID. */
  response(options?: PduOptions): PDU {
    if (this.command === "unknown") {
      return new PDU("generic_nack", {
        command_status: ESME_RINVCMDID,
        ...options,
        sequence_number: this.sequence_number,
      });
    }
    const name = `${this.command}_resp`;
    if (!(name in COMMAND_IDS)) throw new TypeError(`${this.command} has no response`);
    const resp = new PDU(name as Command, options);
    resp.sequence_number = this.sequence_number;
    return resp;
  }

  /**
   * The PDU on the wire, in one Buffer of exactly its length. A PDU with a non-zero command_status is its header
   * alone (SMPP 3.4 3.3: an error response carries no body), as SMSCs expect.
   */
  toBuffer(): Buffer {
    const command = this.command;
    if (this.command_status !== 0 || command === "unknown") return this.header(HEADER_LENGTH);
    if (isShortMessageBody(command)) return this.shortMessageBuffer();
    const fields = BODIES[command];
    if (fields === undefined) {
      const body = this.body ?? EMPTY;
      const out = this.header(HEADER_LENGTH + body.length);
      body.copy(out, HEADER_LENGTH);
      return out;
    }
    const self = this as unknown as Record<string, unknown>;
    let length = HEADER_LENGTH;
    for (const [name, type] of fields) length += type === "u8" ? 1 : cstringLength(self[name]);
    length += this.tlvLength();
    const out = this.header(length);
    let at = HEADER_LENGTH;
    for (const [name, type] of fields) {
      at = type === "u8" ? writeU8(out, at, self[name]) : writeCString(out, at, self[name]);
    }
    this.writeTlvs(out, at);
    return out;
  }

  private header(length: number): Buffer {
    this.command_length = length;
    const out = Buffer.allocUnsafe(length);
    out.writeUInt32BE(length, 0);
    out.writeUInt32BE(this.command_id >>> 0, 4);
    out.writeUInt32BE(this.command_status >>> 0, 8);
    out.writeUInt32BE(this.sequence_number >>> 0, 12);
    return out;
  }

  /** submit_sm / deliver_sm (SMPP 3.4 4.4.1): sized first, then written in one pass. */
  private shortMessageBuffer(): Buffer {
    const sm = this.smOctets ?? (this.sm === undefined ? EMPTY : messageOctets(this.sm, this.data_coding ?? 0));
    if (sm.length > 254)
      throw new RangeError(`short_message of ${sm.length} octets (at most 254: use message_payload)`);
    const length =
      HEADER_LENGTH +
      cstringLength(this.service_type) +
      2 +
      cstringLength(this.source_addr) +
      2 +
      cstringLength(this.destination_addr) +
      3 +
      cstringLength(this.schedule_delivery_time) +
      cstringLength(this.validity_period) +
      5 +
      sm.length +
      this.tlvLength();
    const out = this.header(length);
    let at = writeCString(out, HEADER_LENGTH, this.service_type);
    out[at++] = this.source_addr_ton ?? 0;
    out[at++] = this.source_addr_npi ?? 0;
    at = writeCString(out, at, this.source_addr);
    out[at++] = this.dest_addr_ton ?? 0;
    out[at++] = this.dest_addr_npi ?? 0;
    at = writeCString(out, at, this.destination_addr);
    out[at++] = this.esm_class ?? 0;
    out[at++] = this.protocol_id ?? 0;
    out[at++] = this.priority_flag ?? 0;
    at = writeCString(out, at, this.schedule_delivery_time);
    at = writeCString(out, at, this.validity_period);
    out[at++] = this.registered_delivery ?? 0;
    out[at++] = this.replace_if_present_flag ?? 0;
    out[at++] = this.data_coding ?? 0;
    out[at++] = this.sm_default_msg_id ?? 0;
    out[at++] = sm.length;
    at += sm.copy(out, at);
    this.writeTlvs(out, at);
    return out;
  }

  private smLength(): number {
    if (this.smOctets !== undefined) return this.smOctets.length;
    const sm = this.sm;
    if (sm === undefined) return 0;
    if (typeof sm === "string" || Buffer.isBuffer(sm)) return sm.length;
    return sm.message.length + (sm.udh?.length ?? 0);
  }

  private payloadBuffer(): Buffer | undefined {
    if (this.payloadOctets !== undefined) return this.payloadOctets;
    return this.payload === undefined ? undefined : messageOctets(this.payload, this.data_coding ?? 0);
  }

  private tlvLength(): number {
    const self = this as unknown as Record<string, unknown>;
    let length = 0;
    for (const [, name, type] of TLVS) {
      if (type === "message") {
        const payload = this.payloadBuffer();
        if (payload !== undefined) length += 4 + payload.length;
        continue;
      }
      const value = self[name];
      if (value === undefined || value === null) continue;
      length += 4 + tlvValueLength(type, value);
    }
    if (this.tlvs !== undefined) for (const tlv of this.tlvs) length += 4 + tlv.value.length;
    return length;
  }

  private writeTlvs(out: Buffer, start: number): void {
    const self = this as unknown as Record<string, unknown>;
    let at = start;
    for (const [tag, name, type] of TLVS) {
      const value = type === "message" ? this.payloadBuffer() : self[name];
      if (value === undefined || value === null) continue;
      const length = tlvValueLength(type, value);
      out.writeUInt16BE(tag, at);
      out.writeUInt16BE(length, at + 2);
      at += 4;
      switch (type) {
        case "u8":
          out[at] = Number(value) & 0xff;
          break;
        case "u16":
          out.writeUInt16BE(Number(value) & 0xffff, at);
          break;
        case "cstring":
          writeCString(out, at, value);
          break;
        default:
          (value as Buffer).copy(out, at);
      }
      at += length;
    }
    if (this.tlvs !== undefined) {
      for (const tlv of this.tlvs) {
        out.writeUInt16BE(tlv.tag, at);
        out.writeUInt16BE(tlv.value.length, at + 2);
        at += 4 + tlv.value.copy(out, at + 4);
      }
    }
  }

  /**
   * Reads one whole PDU (`frame` holds exactly command_length octets, 16 at least; the session checked). Throws
   * MalformedPdu when the body cannot be read. The PDU keeps views into `frame` (no copy).
   */
  static decode(frame: Buffer): PDU {
    const commandId = frame.readUInt32BE(4);
    const command = COMMAND_NAMES.get(commandId) ?? "unknown";
    const pdu = new PDU(command);
    pdu.command_id = commandId;
    pdu.command_length = frame.length;
    pdu.command_status = frame.readUInt32BE(8);
    pdu.sequence_number = frame.readUInt32BE(12);
    if (command === "unknown") return pdu;
    const end = frame.length;
    let at = HEADER_LENGTH;
    if (isShortMessageBody(command)) {
      at = pdu.readShortMessageBody(frame, at, end);
    } else {
      const fields = BODIES[command];
      if (fields === undefined) {
        pdu.body = frame.subarray(HEADER_LENGTH);
        return pdu;
      }
      const self = pdu as unknown as Record<string, unknown>;
      for (const [name, type] of fields) {
        if (at >= end) return pdu; // the body ends early at a field boundary: the rest is unset
        if (type === "u8") self[name] = frame[at++];
        else {
          const nul = cstringEnd(frame, at, end, name);
          self[name] = frame.toString("latin1", at, nul);
          at = nul + 1;
        }
      }
    }
    pdu.readTlvs(frame, at, end);
    return pdu;
  }

  private readShortMessageBody(frame: Buffer, start: number, end: number): number {
    if (start >= end) return start;
    let at = start;
    let nul = cstringEnd(frame, at, end, "service_type");
    this.service_type = frame.toString("latin1", at, nul);
    at = nul + 1;
    if (at + 2 > end) throw new MalformedPdu("body ends inside source_addr");
    this.source_addr_ton = frame[at++];
    this.source_addr_npi = frame[at++];
    nul = cstringEnd(frame, at, end, "source_addr");
    this.source_addr = frame.toString("latin1", at, nul);
    at = nul + 1;
    if (at + 2 > end) throw new MalformedPdu("body ends inside destination_addr");
    this.dest_addr_ton = frame[at++];
    this.dest_addr_npi = frame[at++];
    nul = cstringEnd(frame, at, end, "destination_addr");
    this.destination_addr = frame.toString("latin1", at, nul);
    at = nul + 1;
    if (at + 3 > end) throw new MalformedPdu("body ends inside esm_class");
    this.esm_class = frame[at++];
    this.protocol_id = frame[at++];
    this.priority_flag = frame[at++];
    nul = cstringEnd(frame, at, end, "schedule_delivery_time");
    this.schedule_delivery_time = frame.toString("latin1", at, nul);
    at = nul + 1;
    nul = cstringEnd(frame, at, end, "validity_period");
    this.validity_period = frame.toString("latin1", at, nul);
    at = nul + 1;
    if (at + 5 > end) throw new MalformedPdu("body ends inside sm_length");
    this.registered_delivery = frame[at++];
    this.replace_if_present_flag = frame[at++];
    this.data_coding = frame[at++];
    this.sm_default_msg_id = frame[at++];
    const smLength = frame[at++] as number;
    if (at + smLength > end) throw new MalformedPdu("short_message longer than the PDU");
    this.smOctets = frame.subarray(at, at + smLength);
    return at + smLength;
  }

  private readTlvs(frame: Buffer, start: number, end: number): void {
    const self = this as unknown as Record<string, unknown>;
    let at = start;
    while (at < end) {
      if (at + 4 > end) throw new MalformedPdu("TLV header cut short");
      const tag = frame.readUInt16BE(at);
      const length = frame.readUInt16BE(at + 2);
      at += 4;
      if (at + length > end) throw new MalformedPdu(`TLV 0x${tag.toString(16)} longer than the PDU`);
      const known = TLV_BY_TAG.get(tag);
      if (known === undefined) {
        this.tlvs ??= [];
        this.tlvs.push({ tag, value: frame.subarray(at, at + length) });
      } else {
        const [, name, type] = known;
        switch (type) {
          case "u8":
            if (length >= 1) self[name] = frame[at];
            break;
          case "u16":
            if (length >= 2) self[name] = frame.readUInt16BE(at);
            break;
          case "cstring": {
            // Some SMSCs leave out the NUL of a TLV's C-Octet String: the TLV's length bounds it anyway.
            const nul = frame.indexOf(0, at);
            self[name] = frame.toString("latin1", at, nul === -1 || nul > at + length ? at + length : nul);
            break;
          }
          case "octets":
            self[name] = frame.subarray(at, at + length);
            break;
          default:
            this.payloadOctets = frame.subarray(at, at + length);
        }
      }
      at += length;
    }
  }
}

const EMPTY = Buffer.alloc(0);

function cstringLength(value: unknown): number {
  return typeof value === "string" ? value.length + 1 : 1;
}

function tlvValueLength(type: TlvType, value: unknown): number {
  switch (type) {
    case "u8":
      return 1;
    case "u16":
      return 2;
    case "cstring":
      return cstringLength(value);
    default:
      return (value as Buffer).length;
  }
}

function writeU8(out: Buffer, at: number, value: unknown): number {
  out[at] = typeof value === "number" ? value & 0xff : 0;
  return at + 1;
}

/** Writes a C-Octet String (one octet per character, then NUL); returns the offset after it. */
function writeCString(out: Buffer, start: number, value: unknown): number {
  let at = start;
  if (typeof value === "string") {
    for (let i = 0; i < value.length; i++) out[at++] = value.charCodeAt(i);
  }
  out[at++] = 0;
  return at;
}

/** Offset of the NUL ending the C-Octet String at `start`; MalformedPdu when the PDU ends first. */
function cstringEnd(frame: Buffer, start: number, end: number, name: string): number {
  const nul = frame.indexOf(0, start);
  if (nul === -1 || nul >= end) throw new MalformedPdu(`${name} has no NUL before the end of the PDU`);
  return nul;
}
