// The submit_sm source address of each kind of sender id (SMPP 3.4 section 5.2.5/5.2.6).
import { describe, expect, it } from "vitest";
import { Npi, sourceAddress, Ton } from "../src/smpp/source-address";

const channel = { sourceTon: 1, sourceNpi: 1 };

describe("sourceAddress", () => {
  it("follows the sender id's kind", () => {
    expect(sourceAddress("Acme", channel)).toEqual({ ton: Ton.ALPHANUMERIC, npi: Npi.UNKNOWN, addr: "Acme" });
    expect(sourceAddress("My Shop-1", channel)).toEqual({ ton: 5, npi: 0, addr: "My Shop-1" });
    expect(sourceAddress("+447700900123", channel)).toEqual({ ton: 1, npi: 1, addr: "447700900123" });
    expect(sourceAddress("447700900123", channel)).toEqual({ ton: 1, npi: 1, addr: "447700900123" });
    expect(sourceAddress("72727", channel)).toEqual({ ton: Ton.NETWORK_SPECIFIC, npi: Npi.UNKNOWN, addr: "72727" });
    expect(sourceAddress("07700900123", channel)).toEqual({ ton: Ton.NATIONAL, npi: Npi.ISDN, addr: "07700900123" });
  });

  it("a message's own sender id does not take the channel's TON/NPI", () => {
    const odd = { sourceTon: 2, sourceNpi: 8 };
    expect(sourceAddress("+12025550123", odd)).toEqual({ ton: 1, npi: 1, addr: "12025550123" });
    expect(sourceAddress("2025", odd)).toEqual({ ton: 3, npi: 0, addr: "2025" });
  });

  it("without a sender id: the channel's default source with its configured TON/NPI (alphanumeric: TON 5)", () => {
    expect(
      sourceAddress(undefined, { ...channel, defaultSource: "+8613800138000", sourceTon: 1, sourceNpi: 1 }),
    ).toEqual({ ton: 1, npi: 1, addr: "8613800138000" });
    expect(sourceAddress(undefined, { defaultSource: "10690001", sourceTon: 0, sourceNpi: 1 })).toEqual({
      ton: 0,
      npi: 1,
      addr: "10690001",
    });
    expect(sourceAddress("", { ...channel, defaultSource: "Switchboard" })).toEqual({
      ton: 5,
      npi: 0,
      addr: "Switchboard",
    });
    expect(sourceAddress(undefined, channel)).toEqual({ ton: 1, npi: 1, addr: "" });
  });
});
