// SMS screening's HLR lookup (packages/channels/src/hlr/lookup.ts) against the project's HLR simulator over
// loopback HTTP: answers per number, slices of 1,000, and the failures the workers act on (a refused token pauses
// the channel, a busy lookup is retried, the egress policy is obeyed).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEgressPolicy, egressAgent } from "../src/egress";
import { createHlrLookup } from "../src/hlr/lookup";
import { type HlrSimulator, startHlrSimulator } from "../src/simulators/hlr";

let sim: HlrSimulator;
const allowLoopback = egressAgent(createEgressPolicy("127.0.0.1"));

beforeAll(async () => {
  sim = await startHlrSimulator({ token: "hlr-token", unreachableShare: 0.2, unknownShare: 0.05 });
});
afterAll(async () => {
  await sim.close();
  await allowLoopback.close();
});

const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `+1415${String(5_550_000 + from + i)}`);

describe("HLR lookup", () => {
  it("answers reachable / unreachable / unknown per number, in slices of 1,000", async () => {
    const lookup = createHlrLookup({ lookupUrl: sim.url, lookupToken: "hlr-token" }, allowLoopback);
    const before = sim.stats();
    const list = [...numbers(2_499, 1), "+14155550000"];
    const outcome = await lookup.checkReachability(list);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(sim.stats().requests - before.requests).toBe(3);
    expect(outcome.results.size).toBe(2_500);
    for (const n of list) expect(outcome.results.get(n)).toBe(sim.statusOf(n));
    expect(outcome.results.get("+14155550000")).toBe("unreachable");
    const counts = { reachable: 0, unreachable: 0, unknown: 0 };
    for (const r of outcome.results.values()) counts[r]++;
    expect(counts.unreachable).toBeGreaterThan(350);
    expect(counts.unknown).toBeGreaterThan(50);
    expect(counts.reachable).toBeGreaterThan(1_700);
  });

  it("a refused token is the channel's problem, not the numbers'", async () => {
    const lookup = createHlrLookup({ lookupUrl: sim.url, lookupToken: "wrong" }, allowLoopback);
    const outcome = await lookup.checkReachability(numbers(3));
    expect(outcome).toMatchObject({ ok: false, retryable: false, reason: "channel_auth", errorCode: "HTTP_401" });
  });

  it("a busy lookup (429) is retried later, after its Retry-After", async () => {
    sim.setOptions({ requestsPerSecond: 1 });
    try {
      const lookup = createHlrLookup({ lookupUrl: sim.url, lookupToken: "hlr-token" }, allowLoopback);
      await lookup.checkReachability(numbers(1));
      const outcome = await lookup.checkReachability(numbers(1));
      expect(outcome).toMatchObject({ ok: false, retryable: true, errorCode: "HTTP_429", retryAfterMs: 1_000 });
    } finally {
      sim.setOptions({ requestsPerSecond: 0 });
    }
  });

  it("a lookup on loopback is refused without an allow entry: nothing is sent", async () => {
    const strict = egressAgent(createEgressPolicy(""));
    try {
      const before = sim.stats().requests;
      const outcome = await createHlrLookup({ lookupUrl: sim.url }, strict).checkReachability(numbers(2));
      expect(outcome).toMatchObject({ ok: false, retryable: false, errorCode: "EGRESS_REFUSED" });
      expect(sim.stats().requests).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
