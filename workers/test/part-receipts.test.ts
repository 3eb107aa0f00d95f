// Long SMS part receipts folded across worker processes (part-receipts.ts): two SMPP adapters, each with a store of
// its own Redis connection as two processes have, bound to one account of the SMSC simulator, which hands every
// receipt to whichever receiver bind of the account has the fewest unacknowledged.
import { createSmppAdapter, type DeliveryReport, type SmppAdapter } from "@switchboard/channels";
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import { Redis } from "ioredis";
import pino from "pino";
import { afterEach, describe, expect, inject, it } from "vitest";
import { PartReceipts } from "../src/lib/part-receipts";
import { waitFor, workerPrefix } from "./helpers";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const logger = pino({ level: "silent" });

async function simulator(options: Parameters<typeof startSmscSimulator>[0]): Promise<SmscSimulator> {
  const sim = await startSmscSimulator(options);
  cleanups.push(() => sim.close());
  return sim;
}

/** What one worker process holds: its own Redis connection and store (on the run's prefix). */
function processStore(prefix: string): PartReceipts {
  const redis = new Redis(inject("redisUrl"));
  cleanups.push(async () => redis.disconnect());
  return new PartReceipts(redis, prefix, logger);
}

/** An adapter of that process, its receipts collected. */
function adapter(port: number, store: PartReceipts): { adapter: SmppAdapter; reports: DeliveryReport[] } {
  const a = createSmppAdapter({
    host: "127.0.0.1",
    port,
    systemId: "switchboard",
    password: "secret",
    reconnectInitialMs: 20,
    reconnectMaxMs: 200,
  });
  a.useSharedState({ parts: store.of(`smpp:127.0.0.1:${port}:switchboard`, 1) });
  const reports: DeliveryReport[] = [];
  a.onReport((r) => {
    reports.push(r);
  });
  cleanups.push(() => a.close());
  return { adapter: a, reports };
}

const long = `${"Your parcel is on its way [ref] ".repeat(8)}end`; // 2 GSM-7 parts
const number = (i: number, ending = "") => `+4479${String(i).padStart(4, "0")}${ending || "0001"}`;

/** Sends long messages; returns each one's id (its first part's) and the status its receipt must say. */
async function sendLong(a: SmppAdapter, count: number, from: number) {
  const sent = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      // ...9999: the simulator answers every part's receipt UNDELIV; the rest are delivered.
      const undelivered = i % 4 === 0;
      const outcome = await a.send({
        ref: `m${from + i}`,
        to: number(from + i, undelivered ? "9999" : ""),
        text: long,
      });
      if (!outcome.ok || outcome.parts !== 2) throw new Error("a long message was not accepted whole");
      return [outcome.providerMessageId, undelivered ? "undelivered" : "delivered"] as const;
    }),
  );
  return new Map(sent);
}

describe("long SMS part receipts across processes", () => {
  it("folds the parts that come in on two processes' binds into one receipt per message", async () => {
    const sim = await simulator({ systemId: "switchboard", receiptDelayMs: 100 });
    const prefix = workerPrefix();
    const one = adapter(sim.port, processStore(prefix));
    const two = adapter(sim.port, processStore(prefix));
    await waitFor("both bound", async () => (sim.stats().binds === 2 ? true : undefined));
    // Both processes send; each message's parts' receipts are spread over both binds.
    const expected = new Map([...(await sendLong(one.adapter, 40, 0)), ...(await sendLong(two.adapter, 40, 100))]);
    await waitFor("every part's receipt acknowledged", async () =>
      sim.stats().receiptsAcked === 160 ? true : undefined,
    );
    const reports = [...one.reports, ...two.reports];
    // One receipt per message, under its first part's id, none for a part alone.
    expect(reports.map((r) => r.providerMessageId).sort()).toEqual([...expected.keys()].sort());
    for (const report of reports) expect(report.status).toBe(expected.get(report.providerMessageId));
    expect(reports.find((r) => r.status === "undelivered")?.errorCode).toBe("001");
  });

  it("processes started after another sent the parts fold them from what the store kept", async () => {
    // No receiver bind takes receipts (a window of 0): the SMSC holds them until the new processes bind.
    const sim = await simulator({ systemId: "switchboard", receiptWindow: 0 });
    const prefix = workerPrefix();
    const gone = adapter(sim.port, processStore(prefix));
    const expected = await sendLong(gone.adapter, 20, 0);
    await gone.adapter.close(); // a deploy: this process's memory goes with it
    expect(sim.stats().receiptsSent).toBe(0);
    sim.setOptions({ receiptWindow: 500 });
    const fresh = [adapter(sim.port, processStore(prefix)), adapter(sim.port, processStore(prefix))];
    await waitFor("every part's receipt acknowledged", async () =>
      sim.stats().receiptsAcked === 40 ? true : undefined,
    );
    const reports = fresh.flatMap((f) => f.reports);
    expect(reports.map((r) => r.providerMessageId).sort()).toEqual([...expected.keys()].sort());
    for (const report of reports) expect(report.status).toBe(expected.get(report.providerMessageId));
  });

  it("folds a message once when two processes take its last parts at the same moment", async () => {
    const prefix = workerPrefix();
    const account = "smpp:127.0.0.1:1:race";
    const stores = [processStore(prefix).of(account, 1), processStore(prefix).of(account, 1)];
    const messages = Array.from({ length: 200 }, (_, m) => {
      const message = stores[0]!.open(2);
      stores[0]!.accepted(message, 0, `race-${m}-a`);
      stores[0]!.accepted(message, 1, `race-${m}-b`);
      return message;
    });
    // The parts are written with the store's next turn (their receipts come seconds later in life).
    expect(await stores[0]!.report({ providerMessageId: "short-0", status: "delivered" })).toBe("not_a_part");
    // Each message's two parts at once, one on each process: the script decides, one of them folds.
    const answers = await Promise.all(
      messages.flatMap((_, m) => [
        stores[0]!.report({ providerMessageId: `race-${m}-a`, status: "delivered" }),
        stores[1]!.report({ providerMessageId: `race-${m}-b`, status: "expired", errorCode: "017" }),
      ]),
    );
    const folded = answers.filter((a) => typeof a === "object");
    expect(folded).toHaveLength(200);
    expect(answers.filter((a) => a === "waiting")).toHaveLength(200);
    for (const [m] of messages.entries()) {
      expect(folded).toContainEqual({
        firstId: `race-${m}-a`,
        parts: [{ status: "delivered" }, { status: "expired", errorCode: "017" }],
      });
    }
    // A part delivered again once folded (its process died before taking the fold) gets the fold again; a receipt
    // of no long message passes.
    expect(await stores[1]!.report({ providerMessageId: "race-0-b", status: "expired" })).toEqual({
      firstId: "race-0-a",
      parts: [{ status: "delivered" }, { status: "expired", errorCode: "017" }],
    });
    expect(await stores[1]!.report({ providerMessageId: "short-1", status: "delivered" })).toBe("not_a_part");
  });
});
