// The SMPP 3.4 codec and session against byte sequences written from the specification (section 4 bodies,
// section 5.3 TLVs), not from our own encoder: a submit_sm with every field, receipts in text and TLV form, the
// alphabets, the UDH of long messages, framing across TCP chunks, and generic_nack for what cannot be read.
import { once } from "node:events";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type DecodedMessage, PDU, type Session } from "../src/smpp/protocol/index";

/** Octets written the way the specification lays a PDU out: numbers as given, strings as ASCII + NUL. */
function octets(...parts: Array<number[] | string>): Buffer {
  const out: number[] = [];
  for (const part of parts) {
    if (typeof part === "string") out.push(...Buffer.from(part, "latin1"), 0);
    else out.push(...part);
  }
  return Buffer.from(out);
}

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u16 = (n: number) => [(n >>> 8) & 0xff, n & 0xff];

/** A whole PDU: the header (command_length computed) and its body. */
function pduBytes(commandId: number, status: number, sequence: number, body: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from([...u32(16 + body.length), ...u32(commandId), ...u32(status), ...u32(sequence)]),
    body,
  ]);
}

function message(value: unknown): DecodedMessage {
  return value as DecodedMessage;
}

describe("SMPP 3.4 PDU codec", () => {
  it("encodes a submit_sm with every field and SAR TLVs byte for byte (4.4.1, 5.3.2.22-24)", () => {
    const pdu = new PDU("submit_sm", {
      sequence_number: 7,
      service_type: "CMT",
      source_addr_ton: 5,
      source_addr_npi: 0,
      source_addr: "Switch",
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: "447911123456",
      esm_class: 0x03,
      protocol_id: 0x00,
      priority_flag: 1,
      schedule_delivery_time: "261126203000000+",
      validity_period: "000001000000000R",
      registered_delivery: 1,
      replace_if_present_flag: 0,
      data_coding: 0,
      sm_default_msg_id: 0,
      short_message: Buffer.from("Hi"),
      sar_msg_ref_num: 0x1234,
      sar_total_segments: 2,
      sar_segment_seqnum: 1,
      user_message_reference: 9,
    });
    const body = octets(
      "CMT",
      [5, 0],
      "Switch",
      [1, 1],
      "447911123456",
      [0x03, 0x00, 1],
      "261126203000000+",
      "000001000000000R",
      [1, 0, 0, 0],
      [2, 0x48, 0x69],
      // TLVs in tag order: user_message_reference, sar_msg_ref_num, sar_total_segments, sar_segment_seqnum
      [0x02, 0x04, 0x00, 0x02, ...u16(9)],
      [0x02, 0x0c, 0x00, 0x02, ...u16(0x1234)],
      [0x02, 0x0e, 0x00, 0x01, 2],
      [0x02, 0x0f, 0x00, 0x01, 1],
    );
    const expected = pduBytes(0x00000004, 0, 7, body);
    const wire = pdu.toBuffer();
    expect(wire.toString("hex")).toBe(expected.toString("hex"));
    expect(pdu.command_length).toBe(expected.length);

    const back = PDU.decode(expected);
    expect(back.command).toBe("submit_sm");
    expect(back).toMatchObject({
      service_type: "CMT",
      source_addr: "Switch",
      destination_addr: "447911123456",
      priority_flag: 1,
      schedule_delivery_time: "261126203000000+",
      validity_period: "000001000000000R",
      sar_msg_ref_num: 0x1234,
      sar_total_segments: 2,
      sar_segment_seqnum: 1,
      user_message_reference: 9,
    });
    expect(message(back.short_message).message).toBe("Hi");
    // Written back, it is the same PDU.
    expect(back.toBuffer().equals(expected)).toBe(true);
  });

  it("writes empty C-Octet Strings as a lone NUL and an error response as its header alone", () => {
    const enquire = new PDU("enquire_link", { sequence_number: 1 });
    expect(enquire.toBuffer().toString("hex")).toBe("00000010000000150000000000000001");
    const nack = new PDU("submit_sm", { sequence_number: 2 }).response({ command_status: 0x58 });
    expect(nack.toBuffer().toString("hex")).toBe("00000010800000040000005800000002");
    const resp = new PDU("deliver_sm", { sequence_number: 3 }).response();
    expect(resp.toBuffer().toString("hex")).toBe(`00000011800000050000000000000003${"00"}`);
    const bind = new PDU("bind_transceiver", { system_id: "sys", password: "pw", interface_version: 0x34 });
    expect(bind.toBuffer().subarray(16).toString("hex")).toBe(
      octets("sys", "pw", "", [0x34, 0, 0], "").toString("hex"),
    );
  });

  it("decodes a deliver_sm receipt in text form (Appendix B) and its receipted_message_id / message_state TLVs", () => {
    const text =
      "id:1234567 sub:001 dlvrd:001 submit date:2611262030 done date:2611262031 stat:DELIVRD err:000 text:Hi";
    const body = octets(
      "",
      [1, 1],
      "447911123456",
      [1, 1],
      "Switch",
      [0x04, 0, 0],
      "",
      "",
      [0, 0, 0, 0],
      [text.length, ...Buffer.from(text, "latin1")],
      [0x00, 0x1e, 0x00, 0x08, ...Buffer.from("1234567"), 0],
      // In tag order, as the codec writes them (the specification allows any order).
      [0x04, 0x23, 0x00, 0x03, 3, 0x00, 0x01],
      [0x04, 0x27, 0x00, 0x01, 2],
      // A TLV this codec has no name for: kept, not fatal.
      [0x14, 0x01, 0x00, 0x02, 0xab, 0xcd],
    );
    const frame = pduBytes(0x00000005, 0, 42, body);
    const pdu = PDU.decode(frame);
    expect(pdu.command).toBe("deliver_sm");
    expect(pdu.sequence_number).toBe(42);
    expect(pdu.esm_class).toBe(0x04);
    expect(message(pdu.short_message).message).toBe(text);
    expect(pdu.receipted_message_id).toBe("1234567");
    expect(pdu.message_state).toBe(2);
    expect([...(pdu.network_error_code ?? [])]).toEqual([3, 0, 1]);
    expect(pdu.tlvs).toEqual([{ tag: 0x1401, value: Buffer.from([0xab, 0xcd]) }]);
    expect(pdu.toBuffer().equals(frame)).toBe(true);
    expect(pdu.response().toBuffer().toString("hex")).toBe("000000118000000500000000000000" + "2a00");
  });

  it("reads GSM 03.38 with extension characters, Latin-1, ASCII and UCS-2 per data_coding", () => {
    const deliver = (dataCoding: number, sm: number[]) =>
      PDU.decode(
        pduBytes(
          5,
          0,
          1,
          octets("", [1, 1], "1", [1, 1], "2", [0, 0, 0], "", "", [0, 0, dataCoding, 0], [sm.length, ...sm]),
        ),
      );
    // "€[x]{}@£_" : escape 0x1B before each extension character; @ is 0x00, £ 0x01, _ 0x11.
    const gsm = [0x1b, 0x65, 0x1b, 0x3c, 0x78, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x00, 0x01, 0x11];
    expect(message(deliver(0x00, gsm).short_message).message).toBe("€[x]{}@£_");
    // An escape before a septet the extension table lacks reads as the basic character; one at the end as a space.
    expect(message(deliver(0x00, [0x1b, 0x41, 0x42, 0x1b]).short_message).message).toBe("AB ");
    expect(message(deliver(0x03, [0x63, 0x61, 0x66, 0xe9]).short_message).message).toBe("café");
    expect(message(deliver(0x01, [0x40, 0x5f]).short_message).message).toBe("@_");
    expect(message(deliver(0x08, [0x04, 0x1f, 0x04, 0x40, 0xd8, 0x3d, 0xdc, 0x4d]).short_message).message).toBe("Пр👍");
    // 8-bit data stays octets.
    expect(message(deliver(0x04, [1, 2, 3]).short_message).message).toEqual(Buffer.from([1, 2, 3]));

    // A string short_message is written in the alphabet data_coding names.
    const out = new PDU("submit_sm", { data_coding: 0, short_message: "€@" }).toBuffer();
    expect([...out.subarray(out.length - 4)]).toEqual([3, 0x1b, 0x65, 0x00]);
    const ucs2 = new PDU("submit_sm", { data_coding: 8, short_message: "Пр" }).toBuffer();
    expect([...ucs2.subarray(ucs2.length - 5)]).toEqual([4, 0x04, 0x1f, 0x04, 0x40]);
  });

  it("splits the UDH of a long message's part from its text (esm_class 0x40)", () => {
    const udh = [0x05, 0x00, 0x03, 0x2a, 0x03, 0x02];
    const sm = [...udh, ...Buffer.from("part two")];
    const pdu = PDU.decode(
      pduBytes(
        5,
        0,
        1,
        octets("", [1, 1], "447911123456", [1, 1], "Switch", [0x40, 0, 0], "", "", [0, 0, 0, 0], [sm.length, ...sm]),
      ),
    );
    const decoded = message(pdu.short_message);
    expect(decoded.message).toBe("part two");
    expect(decoded.udh).toEqual([Buffer.from([0x00, 0x03, 0x2a, 0x03, 0x02])]);
    // The 16-bit reference IE (0x08) and a second IE are kept whole too.
    const two = [0x0a, 0x08, 0x04, 0x01, 0x02, 0x03, 0x01, 0x70, 0x02, 0x00, 0x00];
    const both = PDU.decode(
      pduBytes(
        5,
        0,
        1,
        octets("", [1, 1], "1", [1, 1], "2", [0x40, 0, 0], "", "", [0, 0, 8, 0], [two.length + 2, ...two, 0, 0x41]),
      ),
    );
    expect(message(both.short_message).udh).toEqual([
      Buffer.from([0x08, 0x04, 0x01, 0x02, 0x03, 0x01]),
      Buffer.from([0x70, 0x02, 0x00, 0x00]),
    ]);
    expect(message(both.short_message).message).toBe("A");
  });

  it("throws MalformedPdu for a C-Octet String without its NUL or a TLV longer than the PDU, not a crash", () => {
    expect(() => PDU.decode(pduBytes(0x80000004, 0, 1, Buffer.from("12345")))).toThrow(/NUL/);
    expect(() =>
      PDU.decode(pduBytes(0x80000004, 0, 1, Buffer.concat([octets("1"), Buffer.from([0x04, 0x27, 0x00, 0x05, 1])]))),
    ).toThrow(/TLV/);
    // An error response without a body is fine: its fields are unset.
    expect(PDU.decode(pduBytes(0x80000004, 0x0b, 1, Buffer.alloc(0))).message_id).toBeUndefined();
  });
});

// ---------------------------------------------------------------- the session on a socket

const closers: Array<() => void> = [];
afterEach(() => {
  while (closers.length > 0) closers.pop()?.();
});

/** A server whose sessions answer enquire_link, and a raw TCP client to write chosen bytes to it. */
async function rawPeer(): Promise<{
  client: Socket;
  received: PDU[];
  replies: () => Buffer;
  closed: Promise<unknown>;
}> {
  const received: PDU[] = [];
  const server = createServer({}, (session: Session) => {
    session.on("error", () => session.destroy());
    session.on("pdu", (pdu: PDU) => {
      received.push(pdu);
      if (pdu.command === "enquire_link" || pdu.command === "unknown") session.send(pdu.response());
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
  await once(client, "connect");
  const chunks: Buffer[] = [];
  client.on("data", (chunk: Buffer) => chunks.push(chunk));
  const closed = once(client, "close");
  closers.push(() => {
    client.destroy();
    for (const s of server.sessions) s.destroy();
    server.close();
  });
  return { client, received, replies: () => Buffer.concat(chunks), closed };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const enquireLink = (sequence: number) => pduBytes(0x15, 0, sequence, Buffer.alloc(0));

describe("SMPP session framing", () => {
  it("frames a PDU split across three TCP chunks, and two PDUs in one chunk", async () => {
    const peer = await rawPeer();
    const sm = Buffer.from("id:1 stat:DELIVRD");
    const deliver = pduBytes(
      5,
      0,
      9,
      octets("", [1, 1], "1", [1, 1], "2", [4, 0, 0], "", "", [0, 0, 0, 0], [sm.length, ...sm]),
    );
    peer.client.setNoDelay(true);
    for (const piece of [deliver.subarray(0, 3), deliver.subarray(3, 20), deliver.subarray(20)]) {
      peer.client.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await until("the split deliver_sm", () => peer.received.length === 1);
    expect(peer.received[0]?.command).toBe("deliver_sm");
    expect(message(peer.received[0]?.short_message).message).toBe("id:1 stat:DELIVRD");

    peer.client.write(Buffer.concat([enquireLink(10), enquireLink(11)]));
    await until("both enquire_links", () => peer.received.length === 3);
    expect(peer.received.slice(1).map((p) => p.sequence_number)).toEqual([10, 11]);
    await until("both answers", () => peer.replies().length === 32);
    const replies = peer.replies();
    expect(replies.subarray(0, 16).toString("hex")).toBe("000000108000001500000000" + "0000000a");
    expect(replies.subarray(16).toString("hex")).toBe("000000108000001500000000" + "0000000b");
  });

  it("answers an unknown command_id with generic_nack ESME_RINVCMDID and goes on", async () => {
    const peer = await rawPeer();
    peer.client.write(Buffer.concat([pduBytes(0x00000777, 0, 5, Buffer.from([1, 2, 3])), enquireLink(6)]));
    await until("two answers", () => peer.replies().length === 32);
    expect(peer.replies().subarray(0, 16).toString("hex")).toBe("00000010800000000000000300000005");
    expect(peer.replies().readUInt32BE(20)).toBe(0x80000015);
  });

  it("answers a request it cannot read with generic_nack ESME_RINVCMDLEN and goes on", async () => {
    const peer = await rawPeer();
    // A submit_sm_resp-shaped body on a submit_sm: service_type has no NUL before the end.
    peer.client.write(Buffer.concat([pduBytes(0x00000004, 0, 8, Buffer.from("CMT")), enquireLink(9)]));
    await until("two answers", () => peer.replies().length === 32);
    expect(peer.replies().subarray(0, 16).toString("hex")).toBe("00000010800000000000000200000008");
    expect(peer.replies().readUInt32BE(20)).toBe(0x80000015);
    expect(peer.received.map((p) => p.command)).toEqual(["enquire_link"]);
  });

  it("answers garbage (a command_length no PDU has) with generic_nack ESME_RINVCMDLEN and ends the connection", async () => {
    const peer = await rawPeer();
    peer.client.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await peer.closed;
    const reply = peer.replies();
    expect(reply.length).toBe(16);
    expect(reply.readUInt32BE(4)).toBe(0x80000000);
    expect(reply.readUInt32BE(8)).toBe(0x02);

    const short = await rawPeer();
    short.client.write(Buffer.from([0, 0, 0, 8, 0, 0, 0, 0x15]));
    await short.closed;
    expect(short.replies().readUInt32BE(8)).toBe(0x02);
    expect(short.received).toEqual([]);
  });
});
