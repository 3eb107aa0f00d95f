// Conformance against an SMSC we did not write: ../shared/bench/kannel/smsc-sim.js (the simulator Kannel is
// measured against, built on another SMPP implementation) as a child process. Our codec and session pass the
// project's own simulator by construction; this proves they speak SMPP 3.4, not just our own dialect: bind,
// submit_sm, receipts, a long message's parts, throttling, enquire_link, unbind, and generic_nack for an unknown
// command.
//
// The simulator needs its own npm packages: it runs from a scratch copy with them installed, as bench:batch does.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryReport } from "../src/adapter";
import { PDU, Session } from "../src/smpp/protocol/index";
import { adapter, closeAfter, closeAll, freePort, waitFor } from "./smpp-fixtures";
import { sharedDir } from "./workplace";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SHARED = sharedDir(ROOT, "bench/kannel/smsc-sim.js");
const SOURCE = path.join(SHARED ?? path.resolve(ROOT, "../shared"), "bench/kannel");
const COPY = path.join(ROOT, ".bench-work/kannel-sim-conformance");
/**
 * The simulator is the workplace's (workplace.ts), not the repository's: a machine without it skips
 * this file rather than failing, and says so.
 */
const SIMULATOR_PRESENT = SHARED !== undefined;
if (!SIMULATOR_PRESENT) console.warn(`smpp-kannel-sim: ${SOURCE}/smsc-sim.js not found, conformance tests skipped`);

function simulatorCopy(): string {
  mkdirSync(COPY, { recursive: true });
  for (const file of ["smsc-sim.js", "package.json", "package-lock.json"]) {
    copyFileSync(path.join(SOURCE, file), path.join(COPY, file));
  }
  if (!existsSync(path.join(COPY, "node_modules/smpp"))) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
      cwd: COPY,
      stdio: "inherit",
    });
  }
  return COPY;
}

interface KannelSim {
  port: number;
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** smsc-sim.js as a child process on free ports, with its counters over HTTP. */
async function startKannelSim(extra: string[] = []): Promise<KannelSim> {
  const dir = simulatorCopy();
  const port = await freePort();
  const statsPort = await freePort();
  const sim: ChildProcess = spawn(
    process.execPath,
    [
      "smsc-sim.js",
      ...["--port", String(port), "--stats-port", String(statsPort), "--dlr"],
      ...["--system-id", "switchboard", "--password", "secret"],
      ...["--interval-s", "0", "--idle-exit-s", "0", "--max-s", "300", "--quiet"],
      ...extra,
    ],
    { cwd: dir, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    sim.once("exit", (code) => reject(new Error(`smsc-sim.js exited with ${code}`)));
    sim.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening")) resolve();
    });
  });
  return {
    port,
    stats: async () => (await (await fetch(`http://127.0.0.1:${statsPort}/stats`)).json()) as Record<string, number>,
    stop: () =>
      new Promise<void>((resolve) => {
        if (sim.exitCode !== null) return resolve();
        sim.once("exit", () => resolve());
        sim.kill("SIGTERM");
      }),
  };
}

let kannel: KannelSim;
let smppPort = 0;

function simStats(): Promise<Record<string, number>> {
  return kannel.stats();
}

async function statsReach(what: string, key: string, atLeast: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (((await simStats())[key] ?? 0) >= atLeast) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  if (!SIMULATOR_PRESENT) return;
  kannel = await startKannelSim();
  smppPort = kannel.port;
}, 180_000);

afterAll(() => kannel?.stop());

afterEach(closeAll);

function receipts(a: ReturnType<typeof adapter>): DeliveryReport[] {
  const got: DeliveryReport[] = [];
  a.onReport((r) => got.push(r));
  return got;
}

describe.skipIf(!SIMULATOR_PRESENT)("our SMPP client against the independent simulator (smsc-sim.js)", () => {
  it("binds, submits, and takes the receipt (text and receipted_message_id TLV)", async () => {
    const a = adapter(smppPort);
    const got = receipts(a);
    const outcome = await a.send({ ref: "k1", to: "+447911123456", from: "Switchboard", text: "Hello €[x]" });
    expect(outcome).toMatchObject({ ok: true, parts: 1 });
    const id = outcome.ok ? outcome.providerMessageId : "";
    expect(id).toMatch(/^\d+$/);
    await waitFor("the receipt", () => got.some((r) => r.providerMessageId === id));
    expect(got.find((r) => r.providerMessageId === id)?.status).toBe("delivered");
  });

  it("sends a long message as UDH parts (GSM and UCS-2) and folds the parts' receipts into one", async () => {
    const a = adapter(smppPort);
    const got = receipts(a);
    const before = (await simStats()).submit_sm ?? 0;
    const gsm = await a.send({ ref: "k2", to: "+447911123457", from: "Switchboard", text: "Long text. ".repeat(30) });
    expect(gsm).toMatchObject({ ok: true, parts: 3 });
    const ucs2 = await a.send({
      ref: "k3",
      to: "+447911123458",
      from: "Switchboard",
      text: "Привет, мир! ".repeat(12),
    });
    expect(ucs2).toMatchObject({ ok: true, parts: 3 });
    expect((await simStats()).submit_sm).toBe(before + 6);
    const ids = [gsm, ucs2].map((o) => (o.ok ? o.providerMessageId : ""));
    await waitFor("both folded receipts", () => ids.every((id) => got.some((r) => r.providerMessageId === id)));
    expect(got.filter((r) => ids.includes(r.providerMessageId)).map((r) => r.status)).toEqual([
      "delivered",
      "delivered",
    ]);
  });

  it("keeps the link with enquire_link and unbinds politely on close", async () => {
    const start = await simStats();
    const a = adapter(smppPort, { enquireLinkIntervalMs: 100 });
    await waitFor("the bind", () => a.stats().bound);
    await statsReach("two enquire_links answered", "enquire_link", (start.enquire_link ?? 0) + 2);
    expect(a.stats().bound).toBe(true);
    await a.close();
    await statsReach("the unbind", "unbinds", (start.unbinds ?? 0) + 1);
  });

  it("is refused with a wrong password, and gets generic_nack for an unknown command", async () => {
    const session = new Session({ host: "127.0.0.1", port: smppPort });
    session.on("error", () => session.destroy());
    closeAfter(() => new Promise((resolve) => session.destroy(() => resolve())));
    await new Promise<void>((resolve) => session.once("connect", () => resolve()));
    const roundTrip = (pdu: PDU) => new Promise<PDU>((resolve) => session.send(pdu, resolve));

    const enquire = await roundTrip(new PDU("enquire_link"));
    expect(enquire.command).toBe("enquire_link_resp");
    const unknown = new PDU("unknown");
    unknown.command_id = 0x00000777;
    const nack = await roundTrip(unknown);
    expect(nack.command).toBe("generic_nack");
    expect(nack.command_status).toBe(0x03);
    const refused = await roundTrip(
      new PDU("bind_transceiver", { system_id: "switchboard", password: "wrong", interface_version: 0x34 }),
    );
    expect(refused.command).toBe("bind_transceiver_resp");
    expect(refused.command_status).toBe(0x0d);
  });

  it("slows down when the simulator throttles (ESME_RTHROTTLED) and still delivers every message once", async () => {
    // Answers after 20 ms and throttles beyond 5 unanswered submits: our window of 50 must shrink and retry.
    const throttling = await startKannelSim(["--latency-ms", "20", "--submit-window", "5"]);
    closeAfter(() => throttling.stop());
    const a = adapter(throttling.port, { windowSize: 50, throttleBackoffMs: 20, throttleBackoffMaxMs: 200 });
    const got = receipts(a);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        a.send({ ref: `t${i}`, to: `+4479110${String(i).padStart(5, "0")}`, text: "throttled" }),
      ),
    );
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(a.stats().throttled).toBeGreaterThan(0);
    const stats = await throttling.stats();
    expect(stats.throttled).toBe(a.stats().throttled);
    expect(stats.submit_sm).toBe(200);
    const ids = new Set(outcomes.map((o) => (o.ok ? o.providerMessageId : "")));
    expect(ids.size).toBe(200);
    await waitFor("every receipt", () => got.length === 200);
  });
});
