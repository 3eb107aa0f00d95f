import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryReport, SendOutcome } from "../src/index";
import { createSmppAdapter, type SmppAdapter } from "../src/index";
import { type SimulatorSubmit, startSmscSimulator } from "../src/simulators/index";
import * as smpp from "../src/smpp/protocol/index";
import { adapter, closeAfter, closeAll, simulator, waitFor } from "./smpp-fixtures";

afterEach(closeAll);

function collectReports(a: SmppAdapter): DeliveryReport[] {
  const reports: DeliveryReport[] = [];
  a.onReport((r) => reports.push(r));
  return reports;
}

const number = (i: number) => `+4479${String(i).padStart(7, "0")}1`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("SMPP adapter against the SMSC simulator", () => {
  it("sends one message and gets its id and a delivered receipt", async () => {
    const sim = await simulator();
    const a = adapter(sim.port);
    const reports = collectReports(a);
    const outcome = await a.send({ ref: "r1", to: "+447911123456", from: "Switchboard", text: "Hello" });
    expect(outcome).toMatchObject({ ok: true, parts: 1 });
    if (!outcome.ok) return;
    await waitFor("receipt", () => reports.length === 1);
    expect(reports[0]).toMatchObject({ providerMessageId: outcome.providerMessageId, status: "delivered" });
    expect(reports[0]?.doneAt).toBeInstanceOf(Date);
    expect(sim.stats()).toMatchObject({ submitAccepted: 1, receiptsSent: 1 });
    await waitFor("receipt ack", () => sim.stats().receiptsAcked === 1);
  });

  it("sends each kind of sender id with its TON/NPI: alphanumeric 5/0, international 1/1, short code 3/0", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ onSubmit: (s) => submits.push(s) });
    const a = adapter(sim.port, { defaultSource: "10690001", sourceTon: 0, sourceNpi: 1 });
    for (const [ref, from] of [
      ["alpha", "Acme"],
      ["intl", "+447700900123"],
      ["short", "72727"],
      ["none", undefined],
    ] as const) {
      const outcome = await a.send({ ref, to: "+447911123456", text: "Hi", ...(from ? { from } : {}) });
      expect(outcome, ref).toMatchObject({ ok: true });
    }
    expect(submits.map((s) => [s.source, s.sourceTon, s.sourceNpi])).toEqual([
      ["Acme", 5, 0],
      ["447700900123", 1, 1],
      ["72727", 3, 0],
      // No sender id: the channel's default source with the TON/NPI its admin configured.
      ["10690001", 0, 1],
    ]);
  });

  it("pushes 2,000 messages through the window with every receipt matched exactly once", async () => {
    const sim = await simulator({ latencyMs: 2, receiptDelayMs: 5 });
    const a = adapter(sim.port, { windowSize: 50 });
    const reports = collectReports(a);
    const outcomes = await Promise.all(
      Array.from({ length: 2_000 }, (_, i) => a.send({ ref: `r${i}`, to: number(i), text: `Message ${i}` })),
    );
    const ids = outcomes.map((o) => (o.ok ? o.providerMessageId : `failed:${o.ok === false && o.errorCode}`));
    expect(ids.filter((id) => id.startsWith("failed"))).toEqual([]);
    expect(new Set(ids).size).toBe(2_000);
    await waitFor("2,000 receipts", () => reports.length >= 2_000);
    const reported = reports.map((r) => r.providerMessageId).sort();
    expect(reported).toEqual([...ids].sort());
    expect(sim.stats()).toMatchObject({ submitReceived: 2_000, submitAccepted: 2_000 });
    expect(a.stats()).toMatchObject({ inflight: 0, queued: 0 });
  });

  it("sends long GSM-7 and UCS-2 texts as concatenated parts with an 8-bit UDH", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ onSubmit: (s) => submits.push(s) });
    const a = adapter(sim.port);
    const reports = collectReports(a);

    const gsm = `${"Price €10 [promo] ".repeat(20)}end`; // 363 septets -> 3 parts
    const gsmOutcome = await a.send({ ref: "g", to: "+447911000001", text: gsm });
    expect(gsmOutcome).toMatchObject({ ok: true, parts: 3 });
    expect(submits).toHaveLength(3);
    const gsmRef = submits[0]?.udh[0]?.[2];
    submits.forEach((s, i) => {
      expect(s.dataCoding).toBe(0);
      expect(s.esmClass & 0x40).toBe(0x40);
      expect(s.registeredDelivery).toBe(1);
      expect(s.udh).toHaveLength(1);
      expect([...(s.udh[0] ?? [])]).toEqual([0x00, 0x03, gsmRef, 3, i + 1]);
    });
    expect(submits.map((s) => s.text).join("")).toBe(gsm);

    submits.length = 0;
    const ucs = `Привет 👋 ${"тест ".repeat(30)}`; // 160 code units -> 3 parts of <= 67
    const ucsOutcome = await a.send({ ref: "u", to: "+447911000002", text: ucs });
    expect(ucsOutcome).toMatchObject({ ok: true, parts: 3 });
    expect(submits).toHaveLength(3);
    const ucsRef = submits[0]?.udh[0]?.[2];
    expect(ucsRef).toBe(((gsmRef ?? 0) + 1) & 0xff); // rolling reference
    submits.forEach((s, i) => {
      expect(s.dataCoding).toBe(8);
      expect([...(s.udh[0] ?? [])]).toEqual([0x00, 0x03, ucsRef, 3, i + 1]);
      expect(s.text.length).toBeLessThanOrEqual(67);
    });
    expect(submits.map((s) => s.text).join("")).toBe(ucs);
    expect(sim.stats().multipartParts).toBe(6);

    // providerMessageId is the first part's id; the parts' receipts come back folded into one under it.
    const firstIds = [gsmOutcome, ucsOutcome].map((o) => (o.ok ? o.providerMessageId : ""));
    await waitFor("the two messages' receipts", () => reports.length === 2);
    expect(reports.map((r) => r.providerMessageId).sort()).toEqual([...firstIds].sort());
  });

  it("reports a long message once, under its first part's id, after every part's receipt", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ onSubmit: (s) => submits.push(s), receiptDelayMs: 20 });
    const a = adapter(sim.port);
    const reports = collectReports(a);
    const long = `${"Price €10 [promo] ".repeat(20)}end`; // 3 parts
    const delivered = await a.send({ ref: "d", to: "+447911000011", text: long });
    // ...9999: the simulator answers every part's receipt UNDELIV.
    const undelivered = await a.send({ ref: "u", to: "+447911009999", text: long });
    const short = await a.send({ ref: "s", to: "+447911000012", text: "hi" });
    expect([delivered, undelivered, short]).toMatchObject([{ parts: 3 }, { parts: 3 }, { parts: 1 }]);
    await waitFor("three receipts", () => reports.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 100)); // nothing more comes
    const byId = new Map(reports.map((r) => [r.providerMessageId, r]));
    expect(reports).toHaveLength(3);
    expect(byId.get(delivered.ok ? delivered.providerMessageId : "")?.status).toBe("delivered");
    expect(byId.get(undelivered.ok ? undelivered.providerMessageId : "")?.status).toBe("undelivered");
    expect(byId.get(short.ok ? short.providerMessageId : "")?.status).toBe("delivered");
  });

  it("concatenates with SAR TLVs when configured", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ onSubmit: (s) => submits.push(s) });
    const a = adapter(sim.port, { concatenation: "sar" });
    const text = "x".repeat(306);
    expect(await a.send({ ref: "s", to: "+447911000003", text })).toMatchObject({ ok: true, parts: 2 });
    expect(submits.map((s) => [s.esmClass, s.udh.length, s.sar?.total, s.sar?.seq])).toEqual([
      [0, 0, 2, 1],
      [0, 0, 2, 2],
    ]);
    expect(submits[0]?.sar?.ref).toBe(submits[1]?.sar?.ref);
    expect(submits.map((s) => s.text).join("")).toBe(text);
  });

  it("slows down when throttled and still delivers every message exactly once", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ throttle: 400, onSubmit: (s) => submits.push(s) });
    const a = adapter(sim.port, { windowSize: 50, throttleBackoffMs: 50, throttleBackoffMaxMs: 400 });
    const outcomes = await Promise.all(
      Array.from({ length: 800 }, (_, i) => a.send({ ref: `t${i}`, to: number(i), text: "throttled" })),
    );
    // Without slowing down, the 10 automatic retries of a throttled submit would be spent within milliseconds
    // and end as failures; all 800 getting through means the adapter backed off.
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    const stats = sim.stats();
    expect(stats.submitThrottled).toBeGreaterThan(0);
    expect(stats.submitAccepted).toBe(800);
    const acceptedPerDestination = new Map<string, number>();
    for (const s of submits) {
      if (s.status === 0)
        acceptedPerDestination.set(s.destination, (acceptedPerDestination.get(s.destination) ?? 0) + 1);
    }
    expect(acceptedPerDestination.size).toBe(800);
    expect([...acceptedPerDestination.values()].every((n) => n === 1)).toBe(true);
    expect(a.stats().throttled).toBe(stats.submitThrottled);
  });

  it("reports permanent submit errors as non-retryable", async () => {
    const sim = await simulator({ failureShare: 0.3 });
    const a = adapter(sim.port);
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) => a.send({ ref: `f${i}`, to: number(i), text: "maybe" })),
    );
    const failed = outcomes.filter((o): o is Extract<SendOutcome, { ok: false }> => !o.ok);
    expect(failed.length).toBe(sim.stats().submitFailed);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) expect(f).toMatchObject({ retryable: false, errorCode: "ESME_RINVDSTADR" });

    // Deterministic rules: ...0000 fails at submit, ...9999 is undeliverable.
    sim.setOptions({ failureShare: 0 });
    const reports = collectReports(a);
    expect(await a.send({ ref: "x", to: "+447911110000", text: "x" })).toMatchObject({
      ok: false,
      retryable: false,
      errorCode: "ESME_RINVDSTADR",
    });
    const undeliverable = await a.send({ ref: "y", to: "+447911119999", text: "y" });
    if (!undeliverable.ok) throw new Error("expected the submit to be accepted");
    // Receipts of the batch above may still be arriving: pick this message's own.
    const own = () => reports.find((r) => r.providerMessageId === undeliverable.providerMessageId);
    await waitFor("UNDELIV receipt", () => own() !== undefined);
    expect(own()).toMatchObject({ status: "undelivered", errorCode: "001" });
  });

  it("survives a dropped connection: every message ends acknowledged once or as a retryable failure", async () => {
    const submits: SimulatorSubmit[] = [];
    const sim = await simulator({ latencyMs: 5, onSubmit: (s) => submits.push(s) });
    const a = adapter(sim.port, { windowSize: 50 });
    const total = 1_500;
    const pending = Array.from({ length: total }, (_, i) => a.send({ ref: `d${i}`, to: number(i), text: "drop" }));
    await waitFor("some traffic", () => sim.stats().submitAccepted >= 300);
    sim.dropConnections();
    const outcomes = await Promise.all(pending);

    const ok = outcomes.filter((o) => o.ok);
    const failed = outcomes.filter((o): o is Extract<SendOutcome, { ok: false }> => !o.ok);
    expect(ok.length + failed.length).toBe(total);
    expect(ok.length).toBeGreaterThan(300);
    expect(failed.length).toBeGreaterThan(0); // the window was full when the link dropped
    for (const f of failed) {
      expect(f.retryable).toBe(true);
      expect(f.errorCode).toBe("CONNECTION_LOST");
    }
    const okIds = ok.map((o) => (o.ok ? o.providerMessageId : ""));
    expect(new Set(okIds).size).toBe(ok.length);
    // Nothing was submitted twice behind the caller's back: one submit_sm per destination at most.
    const perDestination = new Map<string, number>();
    for (const s of submits) perDestination.set(s.destination, (perDestination.get(s.destination) ?? 0) + 1);
    expect([...perDestination.values()].every((n) => n === 1)).toBe(true);
    // Every acknowledged id is one the SMSC really issued.
    const issued = new Set(submits.map((s) => s.messageId));
    for (const id of okIds) expect(issued.has(id)).toBe(true);

    // The adapter rebinds by itself and carries on.
    expect(await a.send({ ref: "after", to: "+447911000009", text: "again" })).toMatchObject({ ok: true });
    expect(sim.stats().binds).toBe(2);
  });

  it("holds send() while disconnected until the rebind, and fails it retryably when no bind comes", async () => {
    const sim = await simulator();
    // A slow first reconnect leaves a wide window in which the link is observably down.
    const a = adapter(sim.port, { reconnectInitialMs: 300, reconnectMaxMs: 600 });
    await waitFor("bind", () => a.stats().bound);
    sim.dropConnections();
    await waitFor("link down", () => !a.stats().bound);
    expect(await a.send({ ref: "w", to: "+447911000010", text: "waits" })).toMatchObject({ ok: true });

    const nowhere = adapter(await freePort(), { submitTimeoutMs: 300 });
    expect(await nowhere.send({ ref: "n", to: "+447911000011", text: "nowhere" })).toMatchObject({
      ok: false,
      retryable: true,
      errorCode: "NOT_BOUND",
    });
  });

  it("matches receipts whose TLV quotes the id in the other base", async () => {
    for (const messageIdFormat of ["decimal", "hex"] as const) {
      const sim = await simulator({ messageIdFormat, receiptTlvId: "other-form" });
      const a = adapter(sim.port, { messageIdFormat });
      const reports = collectReports(a);
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => a.send({ ref: `h${i}`, to: number(i), text: "ids" })),
      );
      await waitFor("receipts", () => reports.length === 20);
      const sent = outcomes.map((o) => (o.ok ? o.providerMessageId : "")).sort();
      expect(reports.map((r) => r.providerMessageId).sort()).toEqual(sent);
    }
  });

  it("receives receipts on a separate receiver bind", async () => {
    const sim = await simulator({ receiptDelayMs: 10 });
    const a = adapter(sim.port, { bindMode: "transmitter_receiver" });
    const reports = collectReports(a);
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => a.send({ ref: `rx${i}`, to: number(i), text: "split binds" })),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    await waitFor("receipts", () => reports.length === 50);
    expect(sim.stats().binds).toBe(2);
    expect(await a.test()).toMatchObject({ ok: true });
  });

  it("takes receipts on several receiver binds, each one once, and ends every bind on close", async () => {
    const sim = await simulator({ receiptDelayMs: 5 });
    const a = adapter(sim.port, { bindMode: "transmitter_receiver", receiverBinds: 3 });
    const reports = collectReports(a);
    const outcomes = await Promise.all(
      Array.from({ length: 300 }, (_, i) => a.send({ ref: `rx${i}`, to: number(i), text: "several receivers" })),
    );
    expect(outcomes.every((o) => o.ok)).toBe(true);
    await waitFor("receipts", () => reports.length === 300);
    // One transmitter and three receivers; no receipt handed over twice.
    await waitFor("binds", () => sim.stats().binds === 4);
    expect(new Set(reports.map((r) => r.providerMessageId)).size).toBe(300);
    await waitFor("receipt acks", () => sim.stats().receiptsAcked === 300);
    await a.close();
    await waitFor("unbound", () => sim.stats().sessions === 0);
  });

  it("test() reports a refused bind, a refused connection, and success", async () => {
    const sim = await simulator({ systemId: "switchboard", password: "secret" });
    const wrong = adapter(sim.port, { password: "wrong" });
    const refused = await wrong.test();
    expect(refused.ok).toBe(false);
    expect(refused.detail).toContain("ESME_RINVPASWD");

    const good = await adapter(sim.port).test();
    expect(good).toMatchObject({ ok: true });
    expect(good.detail).toContain("bound as transceiver");

    const closed = await adapter(await freePort()).test();
    expect(closed.ok).toBe(false);
    expect(closed.detail).toContain("connection refused");
  });

  it("fails sends at once with BIND_REFUSED while the account's binds are held elsewhere; a wrong password waits", async () => {
    const sim = await simulator({ systemId: "switchboard", password: "secret", maxBindsPerAccount: 1 });
    const holder = adapter(sim.port);
    expect(await holder.send({ ref: "h", to: number(0), text: "held" })).toMatchObject({ ok: true });
    // Another process's adapter: its bind is refused (ESME_RALYBND), so what it was given goes back at once.
    const other = adapter(sim.port);
    expect(await other.send({ ref: "o1", to: number(1), text: "not here" })).toMatchObject({
      ok: false,
      errorCode: "BIND_REFUSED",
      retryable: true,
    });
    expect(await other.send({ ref: "o2", to: number(2), text: "not here" })).toMatchObject({
      errorCode: "BIND_REFUSED",
    });
    expect(sim.stats().bindsOverLimit).toBeGreaterThan(0);
    // The bind is free again: the other adapter binds on its next try and sends.
    await holder.close();
    await waitFor("the other bound", () => other.stats().bound);
    expect(await other.send({ ref: "o3", to: number(3), text: "now" })).toMatchObject({ ok: true });

    // A wrong password is the channel's own failure: sends wait for a bind that never comes.
    const wrong = adapter(sim.port, { password: "wrong", submitTimeoutMs: 300 });
    expect(await wrong.send({ ref: "w", to: number(4), text: "x" })).toMatchObject({ errorCode: "NOT_BOUND" });
  });

  it("answers a receipt only once its handler's promise resolves; a rejected one gets ESME_RX_T_APPN and comes again", async () => {
    const acked: string[] = [];
    const sim = await simulator({ onReceiptAcked: (id) => acked.push(id) });
    const a = adapter(sim.port);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    a.onReport((r) => {
      seen.push(r.providerMessageId);
      // the first time the receipt cannot be stored; the second time it is stored once released
      return seen.length === 1 ? Promise.reject(new Error("store unreachable")) : held;
    });
    const outcome = await a.send({ ref: "held", to: "+447911123456", text: "receipt held" });
    expect(outcome.ok).toBe(true);
    await waitFor("the receipt refused and delivered again", () => seen.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sim.stats()).toMatchObject({ receiptsRefused: 1, receiptsAcked: 0, receiptsPending: 1 });
    release();
    await waitFor("acknowledged", () => sim.stats().receiptsAcked === 1);
    expect(acked).toEqual([outcome.ok ? outcome.providerMessageId : ""]);
    expect(seen).toEqual([acked[0], acked[0]]);
  });

  it("says when the SMSC's ids start again (a restarted SMSC), and not on a plain reconnect", async () => {
    const first = await startSmscSimulator();
    const port = first.port;
    let restarts = 0;
    const a = createSmppAdapter(
      {
        host: "127.0.0.1",
        port,
        systemId: "switchboard",
        password: "secret",
        reconnectInitialMs: 20,
        reconnectMaxMs: 200,
      },
      { onIdsRestarted: () => restarts++ },
    );
    closeAfter(() => a.close());
    const before = await Promise.all([0, 1, 2].map((i) => a.send({ ref: `b${i}`, to: number(i), text: "before" })));
    await first.close();
    await waitFor("link down", () => !a.stats().bound);
    const second = await simulator({ port });
    await waitFor("bound again", () => a.stats().bound);
    const after = await a.send({ ref: "a0", to: number(3), text: "after" });
    // the new SMSC gives out the first one's ids again
    expect(after.ok && before[0]?.ok && after.providerMessageId === before[0].providerMessageId).toBe(true);
    expect(restarts).toBe(1);
    // The same SMSC again (its ids go on): no restart.
    second.dropConnections();
    await waitFor("link down", () => !a.stats().bound);
    await waitFor("bound again", () => a.stats().bound);
    expect(await a.send({ ref: "a1", to: number(4), text: "again" })).toMatchObject({ ok: true });
    expect(second.stats().binds).toBe(2);
    expect(restarts).toBe(1);
  });

  it("a fresh adapter sees the SMSC's ids start again by the account's highest id kept beyond it", async () => {
    // What the workers keep in Redis (id-restarts.ts), here in a plain object every adapter of the test shares.
    const kept: { highest?: bigint; restarts: bigint[]; writes: number } = { restarts: [], writes: 0 };
    const ids = {
      highest: async () => kept.highest,
      note: async (highest: bigint) => {
        kept.writes++;
        if (kept.highest === undefined || highest > kept.highest) kept.highest = highest;
      },
      restarted: async (id: bigint) => {
        kept.restarts.push(id);
        kept.highest = id;
      },
    };
    const fresh = (port: number) => {
      const a = adapter(port);
      a.useSharedState({ ids });
      return a;
    };
    const first = await startSmscSimulator({ firstMessageId: 500 });
    const port = first.port;
    const before = fresh(port);
    const started = Date.now();
    const sent = await Promise.all(
      Array.from({ length: 300 }, (_, i) => before.send({ ref: `b${i}`, to: number(i), text: "before" })),
    );
    expect(sent.every((o) => o.ok)).toBe(true);
    await before.close(); // the process goes: its highest id is written as its bind ends
    // Written when the bind ended and at most once a second before that, never per message.
    expect(kept.writes).toBeLessThanOrEqual(2 + (Date.now() - started) / 1_000);
    expect(kept.highest).toBe(799n);
    await first.close();

    // The SMSC restarted, counting from 1 again; a new adapter, which never saw it before, sees the restart.
    await simulator({ port, firstMessageId: 1 });
    const after = fresh(port);
    expect(await after.send({ ref: "a0", to: number(0), text: "after" })).toMatchObject({ providerMessageId: "1" });
    await waitFor("the restart kept", () => kept.restarts.length === 1);
    expect(kept.restarts).toEqual([1n]);
    // Another new adapter of the same SMSC: its ids go on from the kept restart, so no restart.
    const another = fresh(port);
    expect(await another.send({ ref: "a1", to: number(1), text: "again" })).toMatchObject({ providerMessageId: "2" });
    expect(kept.restarts).toEqual([1n]);
  });

  it("keeps the link alive with enquire_link", async () => {
    const sim = await simulator();
    const a = adapter(sim.port, { enquireLinkIntervalMs: 150 });
    await waitFor("enquire_link", () => sim.stats().enquireLinks >= 3);
    expect(a.stats().bound).toBe(true);
    expect(sim.stats().binds).toBe(1);
  });
});

describe("SMSC simulator protocol edges", () => {
  it("answers unknown commands with generic_nack ESME_RINVCMDID and submits before bind with ESME_RINVBNDSTS", async () => {
    const sim = await simulator();
    const session = new smpp.Session({ host: "127.0.0.1", port: sim.port });
    closeAfter(() => new Promise((resolve) => session.destroy(() => resolve())));
    await new Promise<void>((resolve) => session.once("connect", () => resolve()));
    const roundTrip = (pdu: smpp.PDU) => new Promise<smpp.PDU>((resolve) => session.send(pdu, resolve));

    const notBound = await roundTrip(new smpp.PDU("submit_sm", { destination_addr: "1", short_message: "x" }));
    expect(notBound.command_status).toBe(0x04);
    const nack = await roundTrip(new smpp.PDU("query_sm", { message_id: "1" }));
    expect(nack.command).toBe("generic_nack");
    expect(nack.command_status).toBe(0x03);
    const enquire = await roundTrip(new smpp.PDU("enquire_link"));
    expect(enquire.command).toBe("enquire_link_resp");
    expect(sim.stats().unknownCommands).toBe(1);
  });
});
