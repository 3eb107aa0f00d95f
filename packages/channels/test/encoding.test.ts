import { GSM7_BASIC_ALPHABET } from "@switchboard/contracts";
import { describe, expect, it } from "vitest";
import { encodeGsm7, encodeMessage, encodeUcs2 } from "../src/smpp/encoding";
import { smppStatus } from "../src/smpp/errors";
import { decodeGsm7 } from "../src/smpp/protocol/text";

describe("encodeGsm7", () => {
  it("writes one unpacked septet per octet, escaping the extension table", () => {
    expect([...encodeGsm7("A@£$_\n")]).toEqual([0x41, 0x00, 0x01, 0x02, 0x11, 0x0a]);
    expect([...encodeGsm7("€[]{}~^|\\\f")]).toEqual([
      0x1b, 0x65, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x3d, 0x1b, 0x14, 0x1b, 0x40, 0x1b, 0x2f, 0x1b,
      0x0a,
    ]);
    expect(() => encodeGsm7("ж")).toThrow(RangeError);
  });
});

describe("decodeGsm7", () => {
  // Septet by septet from the alphabet itself: what the fast path (texts of characters that are their own Latin-1
  // code) and the general path must both give.
  const reference = (octets: number[]) => octets.map((o) => (o > 0x7f ? " " : GSM7_BASIC_ALPHABET.charAt(o))).join("");

  it("reads every basic septet as its character, alone and among receipt-like text", () => {
    const prefix = [...encodeGsm7("id:12 stat:DELIVRD ")];
    for (let septet = 0; septet < 128; septet++) {
      if (septet === 0x1b) continue;
      for (const octets of [[septet], [...prefix, septet, 0x41]]) {
        expect(decodeGsm7(Uint8Array.from(octets))).toBe(reference(octets));
      }
    }
    const receipt =
      "id:0a1B2c sub:001 dlvrd:001 submit date:2611281200 done date:2611281201 stat:DELIVRD err:000 text:";
    expect(decodeGsm7(encodeGsm7(receipt))).toBe(receipt);
    // a view into a larger buffer reads only its own octets
    const framed = Buffer.from([0x7f, ...encodeGsm7("stat:UNDELIV"), 0x00]);
    expect(decodeGsm7(framed.subarray(1, framed.length - 1))).toBe("stat:UNDELIV");
  });

  it("reads escapes, octets above 0x7F and a trailing escape as before", () => {
    expect(decodeGsm7(encodeGsm7("€ {x} @£$_"))).toBe("€ {x} @£$_");
    expect(decodeGsm7(Uint8Array.from([0x41, 0x80, 0x42]))).toBe("A B");
    expect(decodeGsm7(Uint8Array.from([0x41, 0x1b]))).toBe("A ");
  });
});

describe("encodeUcs2", () => {
  it("is UTF-16BE, surrogate pairs included", () => {
    expect([...encodeUcs2("Aж👍")]).toEqual([0x00, 0x41, 0x04, 0x36, 0xd8, 0x3d, 0xdc, 0x4d]);
  });
});

describe("encodeMessage", () => {
  it("sends a short message as one part without UDH", () => {
    const encoded = encodeMessage("hi", "udh", 7);
    expect(encoded.dataCoding).toBe(0);
    expect(encoded.parts).toHaveLength(1);
    expect(encoded.parts[0]).toEqual({ shortMessage: Buffer.from("hi"), esmClass: 0 });
  });

  it("prefixes each part with an 8-bit concatenation UDH", () => {
    const encoded = encodeMessage("a".repeat(200), "udh", 0x1ff);
    expect(encoded.parts).toHaveLength(2);
    const [first, second] = encoded.parts;
    expect([...first!.shortMessage.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0xff, 2, 1]);
    expect(first!.shortMessage.length).toBe(6 + 153);
    expect([...second!.shortMessage.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0xff, 2, 2]);
    expect(second!.esmClass).toBe(0x40);
  });

  it("uses SAR parameters instead when asked", () => {
    const encoded = encodeMessage("ж".repeat(100), "sar", 0x1234);
    expect(encoded.dataCoding).toBe(8);
    expect(encoded.parts.map((p) => p.sar)).toEqual([
      { ref: 0x1234, total: 2, seq: 1 },
      { ref: 0x1234, total: 2, seq: 2 },
    ]);
    expect(encoded.parts.map((p) => [p.esmClass, p.shortMessage.length])).toEqual([
      [0, 134],
      [0, 66],
    ]);
  });
});

describe("smppStatus", () => {
  it("maps command_status to a code and a retry verdict", () => {
    expect(smppStatus(0x0b)).toEqual({ code: "ESME_RINVDSTADR", retryable: false });
    expect(smppStatus(0x0a)).toEqual({ code: "ESME_RINVSRCADR", retryable: false });
    expect(smppStatus(0x58)).toEqual({ code: "ESME_RTHROTTLED", retryable: true });
    expect(smppStatus(0x14)).toEqual({ code: "ESME_RMSGQFUL", retryable: true });
    expect(smppStatus(0x0400)).toEqual({ code: "ESME_0x00000400", retryable: true });
  });
});
