import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RcsMessage, SendFailure, SendOutcome } from "../src/index";
import { createEgressPolicy, egressAgent } from "../src/index";
import { createRcsAdapter, type RcsAdapterConfig, type RcsAdapterDeps, rbmMessageId } from "../src/rcs/index";
import { type RbmSimulator, type RbmSimulatorOptions, startRbmSimulator } from "../src/simulators/index";

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function simulator(options: Partial<RbmSimulatorOptions> = {}): Promise<RbmSimulator> {
  const sim = await startRbmSimulator(options);
  cleanups.push(() => sim.close());
  return sim;
}

function configFor(sim: RbmSimulator, extra: Partial<RcsAdapterConfig> = {}): RcsAdapterConfig {
  return {
    baseUrl: sim.url,
    tokenUrl: sim.tokenUrl,
    agentId: sim.agentId,
    serviceAccountKey: sim.serviceAccountKey,
    ...extra,
  };
}

function adapter(sim: RbmSimulator, extra: Partial<RcsAdapterConfig> = {}, deps: RcsAdapterDeps = {}) {
  const a = createRcsAdapter(configFor(sim, extra), deps);
  cleanups.push(() => a.close());
  return a;
}

let counter = 0;
const number = (i: number) => `+4479${String(i).padStart(7, "0")}1`;
const text = (body: string): RcsMessage["body"] => ({ type: "text", text: body, suggestions: [] });

function msg(to: string, body: RcsMessage["body"], extra: Partial<RcsMessage> = {}): RcsMessage {
  counter++;
  return { kind: "rcs", ref: String(counter), to, messageId: `sb-1-${counter}-test`, body, ...extra };
}

function failure(outcome: SendOutcome): SendFailure {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("RBM adapter: OAuth token", () => {
  it("fetches one token for concurrent sends and reuses it", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => a.send(msg(number(i), text("hi")))));
    expect(first.every((o) => o.ok)).toBe(true);
    for (let i = 0; i < 10; i++) expect((await a.send(msg(number(100 + i), text("again")))).ok).toBe(true);
    expect(sim.stats().tokensIssued).toBe(1);
    expect(a.stats().tokens).toBe(1);
    expect(sim.stats().authFailures).toBe(0);
  });

  it("refreshes a token before it lapses, mid-run, without a single 401", async () => {
    // 1 s tokens: refreshed at half their life, so a 1.6 s run needs about four.
    const sim = await simulator({ tokenTtlSeconds: 1 });
    const a = adapter(sim);
    const started = Date.now();
    let sends = 0;
    while (Date.now() - started < 1600) {
      const burst = await Promise.all(Array.from({ length: 5 }, () => a.send(msg(number(sends++), text("tick")))));
      expect(burst.every((o) => o.ok)).toBe(true);
      await sleep(50);
    }
    expect(sim.stats().tokensIssued).toBeGreaterThanOrEqual(3);
    expect(sim.stats().authFailures).toBe(0);
    expect(sim.stats().sent).toBe(sends);
  });

  it("refreshes 60 s before expiry by its clock", async () => {
    const sim = await simulator({ tokenTtlSeconds: 3600 });
    let offset = 0;
    const a = adapter(sim, {}, { now: () => Date.now() + offset });
    expect((await a.send(msg(number(1), text("a")))).ok).toBe(true);
    offset = 3500 * 1000;
    expect((await a.send(msg(number(2), text("b")))).ok).toBe(true);
    expect(sim.stats().tokensIssued).toBe(1);
    offset = 3545 * 1000;
    expect((await a.send(msg(number(3), text("c")))).ok).toBe(true);
    expect(sim.stats().tokensIssued).toBe(2);
  });

  it("answers a 401 with one shared refresh and one retry per send", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    expect((await a.send(msg(number(1), text("before")))).ok).toBe(true);
    sim.expireTokens();
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => a.send(msg(number(10 + i), text("x")))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(sim.stats().tokensIssued).toBe(2);
    expect(sim.stats().authFailures).toBe(30);
    expect(sim.stats().sent).toBe(31);
  });

  it("says channel_auth when the key is refused, and when a fresh token is refused too", async () => {
    const sim = await simulator();
    sim.revokeKey();
    const a = adapter(sim);
    const refused = failure(await a.send(msg(number(1), text("x"))));
    expect(refused).toMatchObject({ reason: "channel_auth", retryable: false, errorCode: "TOKEN_INVALID_GRANT" });
    expect(refused.detail).toContain("Invalid JWT Signature");

    const instant = await simulator({ tokenTtlSeconds: 0 });
    const b = adapter(instant);
    expect(failure(await b.send(msg(number(2), text("x"))))).toMatchObject({
      reason: "channel_auth",
      retryable: false,
      errorCode: "401_UNAUTHENTICATED",
    });
    expect(instant.stats().sent).toBe(0);
  });

  it("refuses at construction a key without client_email / private_key", async () => {
    const sim = await simulator();
    expect(() => createRcsAdapter(configFor(sim, { serviceAccountKey: "{}" }))).toThrow(
      expect.objectContaining({ name: "ChannelError", code: "CONFIG", retryable: false }),
    );
  });
});

describe("RBM adapter: agent messages", () => {
  it("sends text with suggestions as a contentMessage, under a stable UUID messageId", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const message = msg(
      "447900000001",
      {
        type: "text",
        text: "Your parcel arrives today",
        suggestions: [
          { type: "reply", text: "Track", postbackData: "track-42" },
          { type: "reply", text: "Thanks" },
          { type: "url", text: "Open", url: "https://example.com/p/42" },
          { type: "dial", text: "Call us", phoneNumber: "+442071234567" },
        ],
      },
      { messageId: "sb-7-99-lz3k" },
    );
    const outcome = await a.send(message);
    const expectedId = rbmMessageId("sb-7-99-lz3k");
    expect(expectedId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rbmMessageId("sb-7-99-lz3k")).toBe(expectedId);
    expect(rbmMessageId("sb-7-99-lz3l")).not.toBe(expectedId);
    expect(outcome).toEqual({ ok: true, providerMessageId: expectedId, parts: 1 });
    const last = sim.lastBodies().at(-1);
    expect(last).toMatchObject({ phone: "+447900000001", messageId: expectedId, status: 200 });
    expect(last?.body).toEqual({
      contentMessage: {
        text: "Your parcel arrives today",
        suggestions: [
          { reply: { text: "Track", postbackData: "track-42" } },
          { reply: { text: "Thanks", postbackData: "Thanks" } },
          { action: { text: "Open", postbackData: "Open", openUrlAction: { url: "https://example.com/p/42" } } },
          { action: { text: "Call us", postbackData: "Call us", dialAction: { phoneNumber: "+442071234567" } } },
        ],
      },
    });
    expect(sim.messageState(expectedId)).toBe("pending");
  });

  it("keeps a UUID messageId as it is and sends ttl as a duration", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const id = "7d444840-9dc0-11d1-b245-5ffdce74fad2";
    const outcome = await a.send(msg(number(5), text("ttl"), { messageId: id, ttlSeconds: 3600 }));
    expect(outcome).toMatchObject({ ok: true, providerMessageId: id });
    expect(sim.lastBodies().at(-1)?.body).toEqual({ contentMessage: { text: "ttl" }, ttl: "3600s" });
  });

  it("sends a standalone rich card (vertical, and horizontal with its image alignment)", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const card = {
      type: "card" as const,
      title: "Spring sale",
      description: "Everything -20% until Sunday",
      mediaUrl: "https://cdn.example.com/sale.jpg",
      mediaHeight: "TALL" as const,
      orientation: "VERTICAL" as const,
      suggestions: [{ type: "reply" as const, text: "Show me", postbackData: "sale" }],
    };
    expect((await a.send(msg(number(6), card))).ok).toBe(true);
    expect(sim.lastBodies().at(-1)?.body).toEqual({
      contentMessage: {
        richCard: {
          standaloneCard: {
            cardOrientation: "VERTICAL",
            cardContent: {
              title: "Spring sale",
              description: "Everything -20% until Sunday",
              media: { height: "TALL", contentInfo: { fileUrl: "https://cdn.example.com/sale.jpg" } },
              suggestions: [{ reply: { text: "Show me", postbackData: "sale" } }],
            },
          },
        },
      },
    });
    expect((await a.send(msg(number(7), { ...card, orientation: "HORIZONTAL", suggestions: [] }))).ok).toBe(true);
    expect(sim.lastBodies().at(-1)?.body).toEqual({
      contentMessage: {
        richCard: {
          standaloneCard: {
            cardOrientation: "HORIZONTAL",
            thumbnailImageAlignment: "LEFT",
            cardContent: {
              title: "Spring sale",
              description: "Everything -20% until Sunday",
              media: { height: "TALL", contentInfo: { fileUrl: "https://cdn.example.com/sale.jpg" } },
            },
          },
        },
      },
    });
  });

  it("sends a carousel with per-card suggestions and chips under it", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = await a.send(
      msg(number(8), {
        type: "carousel",
        cardWidth: "SMALL",
        cards: [
          {
            title: "Red",
            mediaUrl: "https://cdn.example.com/red.jpg",
            mediaHeight: "SHORT",
            suggestions: [{ type: "reply", text: "Red", postbackData: "c=red" }],
          },
          { title: "Blue", description: "Navy", mediaHeight: "MEDIUM", suggestions: [] },
        ],
        suggestions: [{ type: "url", text: "All colours", url: "https://example.com/colours" }],
      }),
    );
    expect(outcome.ok).toBe(true);
    expect(sim.lastBodies().at(-1)?.body).toEqual({
      contentMessage: {
        richCard: {
          carouselCard: {
            cardWidth: "SMALL",
            cardContents: [
              {
                title: "Red",
                media: { height: "SHORT", contentInfo: { fileUrl: "https://cdn.example.com/red.jpg" } },
                suggestions: [{ reply: { text: "Red", postbackData: "c=red" } }],
              },
              { title: "Blue", description: "Navy" },
            ],
          },
        },
        suggestions: [
          {
            action: {
              text: "All colours",
              postbackData: "All colours",
              openUrlAction: { url: "https://example.com/colours" },
            },
          },
        ],
      },
    });
  });

  it("maps 404 (not RCS-capable) to unreachable, not retryable", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = failure(await a.send(msg("+447900000404", text("fallback me"))));
    expect(outcome).toMatchObject({ reason: "unreachable", retryable: false, errorCode: "404_NOT_FOUND" });
    expect(sim.sentTo("+447900000404")).toBe(0);
    expect(sim.stats().notFound).toBe(1);
  });

  it("takes 409 on a reused messageId as accepted, and the phone gets the message once", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const message = msg(number(9), text("once"));
    const first = await a.send(message);
    const again = await a.send(message);
    expect(first.ok && again.ok).toBe(true);
    expect(again).toEqual(first);
    expect(sim.stats()).toMatchObject({ sent: 1, alreadyExists: 1 });
    expect(sim.sentTo(number(9))).toBe(1);
    expect(a.stats().alreadyAccepted).toBe(1);
  });

  it("reports a timeout as retryable (not an ambiguous code), and the resend lands once", async () => {
    // undici's timers are coarse (about half a second), hence the wide margins.
    const sim = await simulator();
    const a = adapter(sim, {}, { timeoutMs: 300 });
    // The token first, so the deadline hits the send itself.
    expect((await a.send(msg(number(10), text("warm-up")))).ok).toBe(true);
    sim.setOptions({ latencyMs: 2500 });
    const message = msg(number(11), text("slow"));
    const timedOut = failure(await a.send(message));
    expect(timedOut).toMatchObject({ errorCode: "TIMEOUT", retryable: true, reason: "provider" });
    expect(["SUBMIT_TIMEOUT", "CONNECTION_LOST"]).not.toContain(timedOut.errorCode);
    // RBM took it all the same: only its answer was late.
    expect(sim.sentTo(number(11))).toBe(1);
    sim.setOptions({ latencyMs: 0 });
    expect((await a.send(message)).ok).toBe(true);
    expect(sim.sentTo(number(11))).toBe(1);
    expect(sim.stats().alreadyExists).toBe(1);
  });

  it("turns a 429 storm into throttled outcomes with the wait RBM asked for", async () => {
    // Two a second with a one-second burst: of 40 at once, a couple pass, the rest are told to wait.
    const sim = await simulator({ rps: 2 });
    const a = adapter(sim);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => a.send(msg(number(200 + i), text("burst")))),
    );
    const throttled = outcomes.filter((o) => !o.ok) as SendFailure[];
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThanOrEqual(1);
    expect(throttled.length).toBeGreaterThanOrEqual(35);
    for (const t of throttled) {
      expect(t).toMatchObject({ reason: "throttled", retryable: true, errorCode: "429_RESOURCE_EXHAUSTED" });
      expect(t.retryAfterMs).toBeGreaterThanOrEqual(1000);
    }
    expect(sim.stats().throttled).toBe(throttled.length);
    expect(a.stats().throttled).toBe(throttled.length);
  });

  it("maps 5xx to a retryable provider failure and a malformed message to invalid", async () => {
    const sim = await simulator({ serverErrorShare: 1 });
    const a = adapter(sim);
    const down = failure(await a.send(msg(number(12), text("x"))));
    expect(down.retryable).toBe(true);
    expect(down.reason).toBe("provider");
    expect(["500_INTERNAL", "503_UNAVAILABLE"]).toContain(down.errorCode);

    sim.setOptions({ serverErrorShare: 0 });
    const tooMany = Array.from({ length: 12 }, (_, i) => ({ type: "reply" as const, text: `s${i}` }));
    const invalid = failure(await a.send(msg(number(13), { type: "text", text: "x", suggestions: tooMany })));
    expect(invalid).toMatchObject({ reason: "invalid", retryable: false, errorCode: "400_INVALID_ARGUMENT" });
    expect(invalid.detail).toContain("at most 11");
  });

  it("says nothing was sent when the API cannot be reached", async () => {
    const sim = await simulator();
    const port = await freePort();
    const a = adapter(sim, { baseUrl: `http://127.0.0.1:${port}` });
    expect(failure(await a.send(msg(number(14), text("x"))))).toMatchObject({
      errorCode: "CONNECT_FAILED",
      retryable: true,
    });
    const b = adapter(sim, { tokenUrl: `http://127.0.0.1:${port}/token` });
    expect(failure(await b.send(msg(number(15), text("x"))))).toMatchObject({
      errorCode: "CONNECT_FAILED",
      retryable: true,
    });
  });

  it("obeys the egress policy, its own dispatcher's or an injected one, for the token and the API alike", async () => {
    const sim = await simulator();
    const refused = adapter(sim, {}, { egress: createEgressPolicy("") });
    expect(failure(await refused.send(msg(number(16), text("x"))))).toMatchObject({
      errorCode: "EGRESS_REFUSED",
      retryable: false,
    });
    const agent = egressAgent(createEgressPolicy(""));
    cleanups.push(() => agent.close());
    const injected = adapter(sim, {}, { dispatcher: agent });
    expect(failure(await injected.send(msg(number(17), text("x"))))).toMatchObject({ errorCode: "EGRESS_REFUSED" });
    expect(sim.stats().requests).toBe(0);
    const allowed = adapter(sim, {}, { egress: createEgressPolicy("127.0.0.1") });
    expect((await allowed.send(msg(number(18), text("x")))).ok).toBe(true);
  });

  it("completes 1,000 sends at concurrency 100, each messageId seen once", async () => {
    const sim = await simulator({ keepBodies: 0, deliveryDelayMs: 0 });
    const a = adapter(sim);
    const body = text("bulk");
    const ids = new Set<string>();
    let next = 0;
    const worker = async () => {
      while (next < 1000) {
        const i = next++;
        const outcome = await a.send({ kind: "rcs", ref: String(i), to: number(i), messageId: `sb-9-${i}-bulk`, body });
        if (!outcome.ok) throw new Error(`send ${i} failed: ${outcome.errorCode}`);
        ids.add(outcome.providerMessageId);
      }
    };
    await Promise.all(Array.from({ length: 100 }, worker));
    expect(ids.size).toBe(1000);
    expect(sim.stats()).toMatchObject({ sent: 1000, alreadyExists: 0, recipients: 1000 });
    expect([...sim.sentByNumber().values()].every((n) => n === 1)).toBe(true);
    expect(sim.stats().tokensIssued).toBe(1);
  });
});

describe("RBM adapter: capability checks", () => {
  it("screens with users:batchGet in slices; listed numbers are reachable, the rest not", async () => {
    const sim = await simulator({ nonCapableShare: 0.3 });
    const a = adapter(sim, {}, { batchGetSize: 10 });
    const numbers = Array.from({ length: 25 }, (_, i) => number(300 + i));
    numbers.push("447900000404");
    sim.setCapable(numbers[0] as string, false);
    sim.setCapable(numbers[1] as string, true);
    const outcome = await a.checkReachability(numbers);
    if (!outcome.ok) throw new Error(outcome.errorCode);
    expect(sim.stats().batchGets).toBe(3);
    expect(sim.stats().capabilityChecks).toBe(26);
    expect(outcome.results.size).toBe(26);
    expect(outcome.results.get(numbers[0] as string)).toBe("unreachable");
    expect(outcome.results.get(numbers[1] as string)).toBe("reachable");
    expect(outcome.results.get("447900000404")).toBe("unreachable");
    const unreachable = [...outcome.results.values()].filter((r) => r === "unreachable").length;
    expect(unreachable).toBeGreaterThan(1);
    expect(unreachable).toBeLessThan(26);
    // The screening agrees with what a send meets.
    for (const n of numbers.slice(2, 8)) {
      const sent = await a.send(msg(n, text("after screening")));
      expect(sent.ok).toBe(outcome.results.get(n) === "reachable");
    }
  });

  it("sends 10,000 numbers per batchGet at most", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const numbers = Array.from({ length: 20_001 }, (_, i) => `+3361${String(i).padStart(7, "0")}`);
    const outcome = await a.checkReachability(numbers);
    expect(outcome.ok).toBe(true);
    expect(sim.stats().batchGets).toBe(3);
  });

  it("reports batchGet's per-minute quota as throttled", async () => {
    const sim = await simulator({ batchGetQpm: 60 });
    const a = adapter(sim, {}, { batchGetSize: 1 });
    const outcome = await a.checkReachability([number(1), number(2)]);
    expect(outcome).toMatchObject({ ok: false, reason: "throttled", errorCode: "429_RESOURCE_EXHAUSTED" });
    if (outcome.ok) return;
    expect(outcome.retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it("checks one number per capabilities call when configured so, a bounded number at once", async () => {
    const sim = await simulator();
    const a = adapter(sim, { capabilityCheck: "single" }, { capabilityConcurrency: 4 });
    const numbers = Array.from({ length: 30 }, (_, i) =>
      i % 5 === 0 ? `+44790000${String(i).padStart(1, "0")}404` : number(400 + i),
    );
    const outcome = await a.checkReachability(numbers);
    if (!outcome.ok) throw new Error(outcome.errorCode);
    expect(sim.stats().capabilityChecks).toBe(30);
    expect(sim.stats().batchGets).toBe(0);
    for (const n of numbers) expect(outcome.results.get(n)).toBe(n.endsWith("404") ? "unreachable" : "reachable");
  });

  it("stops a per-number check on refused credentials", async () => {
    const sim = await simulator();
    sim.revokeKey();
    const a = adapter(sim, { capabilityCheck: "single" });
    expect(await a.checkReachability([number(1), number(2)])).toMatchObject({ ok: false, reason: "channel_auth" });
  });
});

describe("RBM adapter: revoke and connection test", () => {
  it("revokes a message not yet delivered; a delivered one answers revoked false", async () => {
    const sim = await simulator({ deliveryDelayMs: 10_000 });
    const a = adapter(sim);
    const pending = await a.send(msg(number(20), text("to withdraw")));
    if (!pending.ok) throw new Error(pending.errorCode);
    expect(await a.revoke({ to: number(20), providerMessageId: pending.providerMessageId })).toEqual({
      ok: true,
      revoked: true,
    });
    expect(sim.messageState(pending.providerMessageId)).toBe("revoked");
    expect(sim.stats().revoked).toBe(1);
    // Revoking twice: nothing left to withdraw.
    expect(await a.revoke({ to: number(20), providerMessageId: pending.providerMessageId })).toEqual({
      ok: true,
      revoked: false,
    });

    sim.setOptions({ deliveryDelayMs: 0 });
    const delivered = await a.send(msg(number(21), text("too late")));
    if (!delivered.ok) throw new Error(delivered.errorCode);
    for (let i = 0; i < 100 && sim.messageState(delivered.providerMessageId) !== "delivered"; i++) await sleep(5);
    expect(await a.revoke({ to: number(21), providerMessageId: delivered.providerMessageId })).toEqual({
      ok: true,
      revoked: false,
    });
    expect(sim.stats()).toMatchObject({ revoked: 1, delivered: 1 });
  });

  it("tests the connection with the key through its own dispatcher", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const result = await a.test();
    expect(result.ok).toBe(true);
    expect(result.detail).toContain("rbm-agent@rbm-simulator.iam.gserviceaccount.com");
    sim.revokeKey();
    const refused = await a.test();
    expect(refused.ok).toBe(false);
    expect(refused.detail).toContain("invalid_grant");
  });

  it("refuses content of another kind without calling RBM", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    expect(failure(await a.send({ ref: "1", to: number(1), text: "sms" }))).toMatchObject({
      errorCode: "UNSUPPORTED_CONTENT",
      reason: "invalid",
    });
    expect(sim.stats().requests).toBe(0);
  });
});
