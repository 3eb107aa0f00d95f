// Conformance of the project's SMSC simulator against an SMPP client we did not write: Kannel's bearerbox (Debian's
// kannel package, the gateway the benchmarks measure us against), with its smsbox taking HTTP sendsms and calling
// back delivery reports and mobile-originated messages. Our adapter passes our simulator by construction; this
// proves the simulator a newcomer's batches reach speaks SMPP 3.4 as a real ESME expects it: a transceiver bind and
// a transmitter with a receiver, submit_sm with its sender and destination, a long message's UDH parts, UCS-2,
// receipts Kannel matches to its messages (delivered and undelivered), an SMSC refusal, throttling, enquire_link,
// mobile-originated deliver_sm, and unbind.
//
// Kannel is not an npm package: a machine without bearerbox skips this file and says so (CI installs it: .ci/run).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimulatorSubmit, type SmscSimulator, startSmscSimulator } from "../src/simulators/smsc";
import { ESME_RINVDSTADR } from "../src/smpp/errors";
import { freePort } from "./smpp-fixtures";

const BEARERBOX = "/usr/sbin/bearerbox";
const SMSBOX = "/usr/sbin/smsbox";
const KANNEL_PRESENT = existsSync(BEARERBOX) && existsSync(SMSBOX);
if (!KANNEL_PRESENT) console.warn("smsc-simulator-kannel: Kannel (bearerbox, smsbox) not installed, tests skipped");

/** Kannel's delivery report types (dlr-mask bits, the %d of dlr-url). */
const DLR = { delivered: 1, undelivered: 2, smscReject: 16 } as const;
const ADMIN_PASSWORD = "conformance";

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${kannelLogs()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Callback {
  kind: "dlr" | "mo";
  params: URLSearchParams;
}

let dir = "";
let sim: SmscSimulator;
let hooks: Server;
let ports: { admin: number; smsbox: number; sendsms: number; hooks: number };
const boxes: ChildProcess[] = [];
const submits: SimulatorSubmit[] = [];
const callbacks: Callback[] = [];

function kannelLogs(): string {
  const tail = (file: string) => {
    const p = path.join(dir, file);
    return existsSync(p) ? readFileSync(p, "utf8").split("\n").slice(-15).join("\n") : "(no log)";
  };
  return dir ? `\n--- bearerbox.log\n${tail("bearerbox.log")}\n--- smsbox.log\n${tail("smsbox.log")}` : "";
}

/**
 * Two SMSC connections to the simulator under their own accounts (a receipt goes to a receiver of the account
 * that sent the message): `trx` one transceiver bind; `txrx` a transmitter and a receiver (Kannel's two groups of
 * one smsc-id, one with the port, the other with the receive-port).
 */
function kannelConf(smppPort: number): string {
  const smsc = (id: string, account: string, extra: string) => `
group = smsc
smsc = smpp
smsc-id = ${id}
allowed-smsc-id = ${id}
host = 127.0.0.1
smsc-username = ${account}
smsc-password = secret
system-type = ""
${extra}
reconnect-delay = 1
enquire-link-interval = 1
max-pending-submits = 10
wait-ack = 60
wait-ack-expire = 0x02
`;
  return `
group = core
admin-port = ${ports.admin}
admin-interface = "127.0.0.1"
admin-password = ${ADMIN_PASSWORD}
status-password = ${ADMIN_PASSWORD}
admin-allow-ip = "127.0.0.1"
smsbox-port = ${ports.smsbox}
smsbox-interface = "127.0.0.1"
box-allow-ip = "127.0.0.1"
log-file = "${dir}/bearerbox.log"
log-level = 1
dlr-storage = internal
# A message the SMSC refused for now (throttled) is tried again after a second (Kannel's default is a minute).
sms-resend-freq = 1
${smsc("trx", "kannel-trx", `port = ${smppPort}\ntransceiver-mode = true`)}
${smsc("txrx", "kannel-txrx", `port = ${smppPort}\nreceive-port = 0\ntransceiver-mode = false`)}
${smsc("txrx", "kannel-txrx", `port = 0\nreceive-port = ${smppPort}\ntransceiver-mode = false`)}

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${ports.smsbox}
sendsms-port = ${ports.sendsms}
sendsms-interface = "127.0.0.1"
log-file = "${dir}/smsbox.log"
log-level = 1

group = sendsms-user
username = switchboard
password = secret
user-allow-ip = "127.0.0.1"
max-messages = 5
concatenation = true

group = sms-service
keyword = default
catch-all = true
max-messages = 0
get-url = "http://127.0.0.1:${ports.hooks}/mo?from=%p&to=%P&text=%a&smsc=%i"
`;
}

async function adminStatus(): Promise<string> {
  try {
    const res = await fetch(`http://127.0.0.1:${ports.admin}/status.txt?password=${ADMIN_PASSWORD}`);
    return await res.text();
  } catch {
    return "";
  }
}

let serial = 0;

/** One HTTP sendsms through smsbox; resolves with smsbox's answer. */
async function sendsms(params: Record<string, string>): Promise<{ status: number; body: string }> {
  const id = `m${++serial}`;
  const query = new URLSearchParams({
    username: "switchboard",
    password: "secret",
    from: "Switchboard",
    "dlr-mask": String(DLR.delivered | DLR.undelivered | DLR.smscReject),
    "dlr-url": `http://127.0.0.1:${ports.hooks}/dlr?ref=${id}&type=%d&reply=%A`,
    ...params,
  });
  const res = await fetch(`http://127.0.0.1:${ports.sendsms}/cgi-bin/sendsms?${query}`);
  return { status: res.status, body: `${id}|${await res.text()}` };
}

/** The delivery reports Kannel called back for a sendsms (by the ref it was given). */
function reportsOf(sent: { body: string }): number[] {
  const ref = sent.body.split("|")[0];
  return callbacks
    .filter((c) => c.kind === "dlr" && c.params.get("ref") === ref)
    .map((c) => Number(c.params.get("type")));
}

function submitsTo(destination: string): SimulatorSubmit[] {
  return submits.filter((s) => s.destination.endsWith(destination));
}

beforeAll(async () => {
  if (!KANNEL_PRESENT) return;
  dir = mkdtempSync(path.join(tmpdir(), "sb-kannel-"));
  hooks = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    callbacks.push({ kind: url.pathname === "/mo" ? "mo" : "dlr", params: url.searchParams });
    // An sms-service's empty answer: nothing is sent back to the user.
    res.writeHead(200, { "content-type": "text/plain" }).end("");
  });
  await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
  sim = await startSmscSimulator({ port: 0, onSubmit: (s) => submits.push(s) });
  ports = {
    admin: await freePort(),
    smsbox: await freePort(),
    sendsms: await freePort(),
    hooks: (hooks.address() as AddressInfo).port,
  };
  const conf = path.join(dir, "kannel.conf");
  writeFileSync(conf, kannelConf(sim.port));
  boxes.push(spawn(BEARERBOX, [conf], { stdio: "ignore" }));
  await until("bearerbox's SMSC connections online", async () => {
    const status = await adminStatus();
    if (boxes[0]?.exitCode !== null) throw new Error(`bearerbox exited${kannelLogs()}`);
    return (status.match(/\(online /g) ?? []).length >= 3 ? true : undefined;
  });
  boxes.push(spawn(SMSBOX, [conf], { stdio: "ignore" }));
  await until("smsbox connected", async () => ((await adminStatus()).match(/smsbox:.*on-?line/) ? true : undefined));
}, 60_000);

afterAll(async () => {
  for (const box of boxes) if (box.exitCode === null) box.kill("SIGKILL");
  await sim?.close();
  await new Promise<void>((resolve) => (hooks ? hooks.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!KANNEL_PRESENT)("the SMSC simulator against Kannel's SMPP client (bearerbox)", () => {
  it("takes Kannel's binds: a transceiver, and a transmitter with its receiver", () => {
    // Both of bearerbox's SMSC groups are online (beforeAll), on three binds of two accounts.
    expect(sim.stats().binds).toBeGreaterThanOrEqual(3);
    expect(sim.stats().bindFailures).toBe(0);
  });

  it("accepts a short text as Kannel submits it and sends a receipt Kannel reports as delivered", async () => {
    for (const smsc of ["trx", "txrx"]) {
      const to = smsc === "trx" ? "447911100001" : "447911100002";
      const sent = await sendsms({ to, text: "Your code is 123456", smsc });
      expect(sent.status, sent.body).toBe(202);
      const [submit] = await until(`${smsc}'s submit_sm`, () => {
        const got = submitsTo(to);
        return got.length > 0 ? got : undefined;
      });
      expect(submit).toMatchObject({ text: "Your code is 123456", source: "Switchboard", status: 0 });
      // Kannel marks an alphanumeric sender as such (TON 5) and asks for a receipt (registered_delivery).
      expect(submit?.sourceTon).toBe(5);
      expect((submit?.registeredDelivery ?? 0) & 0x01).toBe(1);
      await until(`${smsc}'s delivery report`, () => (reportsOf(sent).includes(DLR.delivered) ? true : undefined));
      expect(callbacks.find((c) => c.params.get("ref") === sent.body.split("|")[0])?.params.get("reply")).toMatch(
        /stat:DELIVRD/,
      );
    }
  });

  it("sends an undelivered receipt that Kannel reports as undelivered", async () => {
    const sent = await sendsms({ to: "447911109999", text: "Will not arrive", smsc: "trx" });
    expect(sent.status, sent.body).toBe(202);
    await until("the undelivered report", () => (reportsOf(sent).includes(DLR.undelivered) ? true : undefined));
    expect(reportsOf(sent)).not.toContain(DLR.delivered);
  });

  it("refuses a submit (ESME_RINVDSTADR), which Kannel reports as an SMSC reject", async () => {
    const sent = await sendsms({ to: "447911100000", text: "Bad number", smsc: "trx" });
    expect(sent.status, sent.body).toBe(202);
    await until("the SMSC reject report", () => (reportsOf(sent).includes(DLR.smscReject) ? true : undefined));
    expect(submitsTo("447911100000")[0]?.status).toBe(ESME_RINVDSTADR);
  });

  it("takes a long text in Kannel's UDH parts and a UCS-2 text, decoded as they were written", async () => {
    const long = `${"Long message part. ".repeat(12)}End.`;
    const sent = await sendsms({ to: "447911100003", text: long, smsc: "trx" });
    expect(sent.status, sent.body).toBe(202);
    const parts = await until("the long message's parts", () => {
      const got = submitsTo("447911100003");
      return got.length >= 2 ? got : undefined;
    });
    // Each part carries a concatenation header (IEI 0x00 or 0x08) with its sequence; the parts make the text.
    const seqOf = (s: SimulatorSubmit) => {
      const ie = s.udh.find((e) => e[0] === 0x00 || e[0] === 0x08);
      return ie ? (ie[0] === 0x00 ? ie[4] : ie[5]) : undefined;
    };
    expect(parts.every((p) => (p.esmClass & 0x40) !== 0 && seqOf(p) !== undefined)).toBe(true);
    const ordered = [...parts].sort((a, b) => (seqOf(a) ?? 0) - (seqOf(b) ?? 0));
    expect(ordered.map((p) => p.text).join("")).toBe(long);
    await until("the long message's delivery report", () =>
      reportsOf(sent).includes(DLR.delivered) ? true : undefined,
    );

    const unicode = "您的验证码是 4321，五分钟内有效。";
    const ucs2 = await sendsms({ to: "447911100004", text: unicode, smsc: "trx", coding: "2", charset: "UTF-8" });
    expect(ucs2.status, ucs2.body).toBe(202);
    const [submit] = await until("the UCS-2 submit_sm", () => {
      const got = submitsTo("447911100004");
      return got.length > 0 ? got : undefined;
    });
    expect(submit).toMatchObject({ dataCoding: 8, text: unicode });
  });

  it("throttles Kannel (ESME_RTHROTTLED), which retries until every message is accepted once", async () => {
    sim.setOptions({ throttle: 4 });
    try {
      const numbers = Array.from({ length: 10 }, (_, i) => `4479112001${String(i).padStart(2, "0")}`);
      const sent = await Promise.all(numbers.map((to) => sendsms({ to, text: "Throttled", smsc: "trx" })));
      expect(sent.map((s) => s.status)).toEqual(numbers.map(() => 202));
      await until(
        "every throttled message's delivery report",
        () => (sent.every((s) => reportsOf(s).includes(DLR.delivered)) ? true : undefined),
        30_000,
      );
      expect(sim.stats().submitThrottled).toBeGreaterThan(0);
      for (const to of numbers) expect(submitsTo(to).filter((s) => s.status === 0)).toHaveLength(1);
    } finally {
      sim.setOptions({ throttle: 0 });
    }
  }, 40_000);

  it("answers Kannel's enquire_link and hands it a mobile-originated SMS on its receiver", async () => {
    const before = sim.stats().enquireLinks;
    await until("enquire_links from both connections", () =>
      sim.stats().enquireLinks >= before + 2 ? true : undefined,
    );
    sim.sendMo({ systemId: "kannel-txrx", from: "447911100005", to: "10690001", text: "STOP please" });
    const mo = await until("the MO at the sms-service", () => callbacks.find((c) => c.kind === "mo"));
    expect(Object.fromEntries(mo.params)).toMatchObject({ text: "STOP please", to: "10690001", smsc: "txrx" });
    expect(mo.params.get("from")).toMatch(/447911100005$/);
  });

  it("is unbound politely when Kannel shuts down", async () => {
    const before = sim.stats().unbinds;
    await fetch(`http://127.0.0.1:${ports.admin}/shutdown?password=${ADMIN_PASSWORD}`).catch(() => undefined);
    await until("the unbinds of all three binds", () => (sim.stats().unbinds >= before + 3 ? true : undefined));
  });
});
