// SMPP mobile-originated messages (a user writing to one of our numbers): read from deliver_sm that are not
// receipts, long ones joined from their parts, acknowledged to the SMSC only once the inbound handler has taken
// them, and delivered again by the SMSC when it could not. Against the project's SMSC simulator, which also
// answers a share of delivered messages by itself (replyShare), as `npm start` runs it.
import { afterEach, describe, expect, it } from "vitest";
import type { InboundMessage } from "../src/index";
import { parseStoredMo, type SmppAdapter, storedMoBody } from "../src/index";
import { MoAssembler, parseMobileOriginated } from "../src/smpp/mobile-originated";
import { adapter, closeAll, simulator, waitFor } from "./smpp-fixtures";

afterEach(closeAll);

/** Binds the adapter (a send does) so the simulator has a receiver for the account. */
async function bound(a: SmppAdapter): Promise<void> {
  const outcome = await a.send({ ref: "bind", to: "+447911000001", from: "Shop", text: "hello" });
  expect(outcome.ok).toBe(true);
}

describe("reading mobile-originated deliver_sm", () => {
  it("tells a user's message from a receipt and reads its sender as E.164", () => {
    expect(parseMobileOriginated({ esm_class: 0x04, source_addr: "447911", short_message: "id:1" })).toBeNull();
    expect(parseMobileOriginated({ esm_class: 0x20, source_addr: "447911", short_message: "x" })).toBeNull();
    expect(
      parseMobileOriginated({
        esm_class: 0,
        source_addr: "00447911123456",
        destination_addr: "Shop",
        short_message: { message: "STOP" },
      }),
    ).toEqual({ from: "+447911123456", to: "Shop", text: "STOP" });
    expect(parseMobileOriginated({ esm_class: 0, short_message: { message: "no sender" } })).toBeNull();
  });

  it("joins parts in their order whatever order they come in, and hands on a message whose parts stop coming", () => {
    const parts = new MoAssembler<string>({ maxAgeMs: 1_000, maxMessages: 10 });
    const part = (seq: number, text: string, ref = 7) => ({
      from: "+447911123456",
      to: "Shop",
      text,
      concat: { ref, total: 3, seq },
    });
    expect(parts.add(part(2, "lo wo"), "b", 0)).toEqual([]);
    expect(parts.add(part(1, "Hel"), "a", 0)).toEqual([]);
    const [whole] = parts.add(part(3, "rld"), "c", 0);
    expect(whole?.message).toMatchObject({ from: "+447911123456", text: "Hello world" });
    expect(whole?.tokens).toEqual(["b", "a", "c"]);
    expect(parts.size).toBe(0);

    expect(parts.add(part(1, "Half a ", 8), "x", 0)).toEqual([]);
    expect(parts.expire(999)).toEqual([]);
    const [partial] = parts.expire(1_000);
    expect(partial?.message.text).toBe("Half a ");
    expect(partial?.tokens).toEqual(["x"]);
  });

  it("stores and reads back the body the workers keep in channel_events", () => {
    const message: InboundMessage = {
      providerMessageId: "smpp-mo:1",
      from: "+447911123456",
      to: "Shop",
      text: "退订",
      receivedAt: new Date("2026-11-26T10:00:00.000Z"),
    };
    expect(parseStoredMo(storedMoBody([message]))).toEqual({ reports: [], inbound: [message] });
    expect(parseStoredMo("{").error).toMatch(/unreadable/);
    expect(parseStoredMo('{"entry":[]}').error).toMatch(/not an SMPP MO/);
  });
});

describe("mobile-originated messages through the SMSC simulator", () => {
  it("takes a short and a long UCS-2 message, each part acknowledged only once the handler has stored it", async () => {
    const sim = await simulator();
    const a = adapter(sim.port);
    const got: InboundMessage[] = [];
    let release: () => void = () => undefined;
    const stored = new Promise<void>((resolve) => {
      release = resolve;
    });
    a.onInbound((m) => {
      got.push(m);
      return stored;
    });
    await bound(a);

    const long = "您好，我想改到明天下午三点送货，可以吗？如果不行请告诉我其他时间。谢谢！".repeat(2);
    sim.sendMo({ systemId: "switchboard", from: "+8613800138000", to: "Shop", text: "YES" });
    sim.sendMo({ systemId: "switchboard", from: "+8613800138001", to: "Shop", text: long });
    await waitFor("both messages", () => got.length === 2);
    expect(got.map((m) => [m.from, m.to, m.text])).toEqual([
      ["+8613800138000", "Shop", "YES"],
      ["+8613800138001", "Shop", long],
    ]);
    expect(got[0]?.providerMessageId).not.toBe(got[1]?.providerMessageId);
    const partsSent = sim.stats().moSent;
    expect(partsSent).toBeGreaterThan(2);
    // Nothing acknowledged while the handler has not stored them.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sim.stats().moAcked).toBe(0);
    release();
    await waitFor("acknowledgements", () => sim.stats().moAcked === partsSent);
    expect(a.stats().inbound).toBe(2);
  });

  it("answers a message its handler could not take with a temporary error, and takes it when the SMSC retries", async () => {
    const sim = await simulator();
    const a = adapter(sim.port);
    const got: string[] = [];
    let failures = 1;
    a.onInbound((m) => {
      got.push(m.text ?? "");
      return failures-- > 0 ? Promise.reject(new Error("database away")) : Promise.resolve();
    });
    await bound(a);
    sim.sendMo({ systemId: "switchboard", from: "+447911123456", to: "Shop", text: "STOP" });
    await waitFor("the retry taken", () => sim.stats().moAcked === 1);
    expect(got).toEqual(["STOP", "STOP"]);
    expect(sim.stats().receiptsRefused).toBe(1);
  });

  it("lets a share of recipients write back to the sender after delivery (the demo's replies)", async () => {
    const sim = await simulator({ replyShare: 0.5, replyDelayMs: 0, replyText: "Thanks!" });
    const a = adapter(sim.port);
    const got: InboundMessage[] = [];
    a.onInbound((m) => {
      got.push(m);
    });
    const numbers = Array.from({ length: 40 }, (_, i) => `+44791${String(i).padStart(5, "0")}7`);
    for (const to of numbers)
      expect((await a.send({ ref: to, to, from: "Shop", text: "Your order shipped" })).ok).toBe(true);
    await waitFor("receipts", () => sim.stats().receiptsAcked === 40);
    await waitFor(
      "replies",
      () => got.length > 0 && sim.stats().moAcked === got.length && sim.stats().receiptsPending === 0,
    );
    expect(got.length).toBeGreaterThan(5);
    expect(got.length).toBeLessThan(35);
    for (const m of got) {
      expect(numbers).toContain(m.from);
      expect(m).toMatchObject({ to: "Shop", text: "Thanks!" });
    }
    // The same numbers answer on every run.
    expect(new Set(got.map((m) => m.from)).size).toBe(got.length);
  });
});
