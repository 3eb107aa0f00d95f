import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryReport, InboundMessage, WebhookRequest, WebhookVerdict } from "../src/index";
import { startWhatsappSimulator, type WhatsappSimulator, type WhatsappSimulatorOptions } from "../src/simulators/index";
import {
  createWhatsappAdapter,
  parseWhatsappEvents,
  signWhatsappPayload,
  verifyWhatsappWebhook,
  type WhatsappAdapter,
} from "../src/whatsapp/index";

const APP_SECRET = "app-secret-for-tests";
const VERIFY_TOKEN = "verify-token-for-tests";
const secrets = { appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN };

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function post(rawBody: string | Buffer, headers: Record<string, string | undefined> = {}): WebhookRequest {
  return { method: "POST", headers, query: {}, rawBody: Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody) };
}

function get(query: Record<string, string | undefined>): WebhookRequest {
  return { method: "GET", headers: {}, query, rawBody: Buffer.alloc(0) };
}

describe("verifyWhatsappWebhook", () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it("accepts a POST signed with the app secret over the raw bytes", () => {
    const verdict = verifyWhatsappWebhook(
      post(body, { "x-hub-signature-256": signWhatsappPayload(body, APP_SECRET) }),
      secrets,
    );
    expect(verdict).toEqual({ kind: "accept" });
  });

  it("accepts the signature in upper-case hex too", () => {
    const sig = signWhatsappPayload(body, APP_SECRET).replace(/^sha256=/, "");
    expect(
      verifyWhatsappWebhook(post(body, { "x-hub-signature-256": `sha256=${sig.toUpperCase()}` }), secrets),
    ).toEqual({ kind: "accept" });
  });

  it("refuses (401) a bad, missing, malformed or other-secret signature, and a body changed after signing", () => {
    const good = signWhatsappPayload(body, APP_SECRET);
    const cases: Array<Record<string, string | undefined>> = [
      {},
      { "x-hub-signature-256": "" },
      { "x-hub-signature-256": good.replace("sha256=", "") },
      { "x-hub-signature-256": good.replace("sha256=", "sha1=") },
      { "x-hub-signature-256": `${good}00` },
      { "x-hub-signature-256": signWhatsappPayload(body, "another-secret") },
      { "x-hub-signature-256": `sha256=${"0".repeat(64)}` },
    ];
    for (const headers of cases) {
      expect(verifyWhatsappWebhook(post(body, headers), secrets)).toEqual({ kind: "refuse", status: 401 });
    }
    const tampered = Buffer.from(body.toString().replace("[]", "[{}]"));
    expect(verifyWhatsappWebhook(post(tampered, { "x-hub-signature-256": good }), secrets)).toEqual({
      kind: "refuse",
      status: 401,
    });
  });

  it("refuses every POST when the channel has no app secret", () => {
    const verdict = verifyWhatsappWebhook(post(body, { "x-hub-signature-256": signWhatsappPayload(body, "") }), {
      appSecret: undefined,
      verifyToken: VERIFY_TOKEN,
    });
    expect(verdict).toEqual({ kind: "refuse", status: 401 });
  });

  it("answers the GET handshake with the challenge when the verify token matches", () => {
    const verdict = verifyWhatsappWebhook(
      get({ "hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1158201444" }),
      secrets,
    );
    expect(verdict).toEqual({ kind: "challenge", body: "1158201444" });
  });

  it("refuses (403) a handshake with a wrong or missing token or mode, and (400) one without a challenge", () => {
    const cases: Array<[Record<string, string | undefined>, WebhookVerdict]> = [
      [
        { "hub.mode": "subscribe", "hub.verify_token": "wrong", "hub.challenge": "1" },
        { kind: "refuse", status: 403 },
      ],
      [
        { "hub.mode": "subscribe", "hub.verify_token": `${VERIFY_TOKEN}x`, "hub.challenge": "1" },
        { kind: "refuse", status: 403 },
      ],
      [
        { "hub.mode": "subscribe", "hub.challenge": "1" },
        { kind: "refuse", status: 403 },
      ],
      [
        { "hub.mode": "unsubscribe", "hub.verify_token": VERIFY_TOKEN, "hub.challenge": "1" },
        { kind: "refuse", status: 403 },
      ],
      [
        { "hub.mode": "subscribe", "hub.verify_token": VERIFY_TOKEN },
        { kind: "refuse", status: 400 },
      ],
    ];
    for (const [query, verdict] of cases) expect(verifyWhatsappWebhook(get(query), secrets)).toEqual(verdict);
    expect(
      verifyWhatsappWebhook(get({ "hub.mode": "subscribe", "hub.verify_token": "x", "hub.challenge": "1" }), {
        appSecret: APP_SECRET,
        verifyToken: undefined,
      }),
    ).toEqual({ kind: "refuse", status: 403 });
  });

  it("refuses other methods", () => {
    expect(verifyWhatsappWebhook({ ...post(body), method: "PUT" }, secrets)).toEqual({ kind: "refuse", status: 400 });
  });
});

/** A statuses / messages payload the way Meta's reference shows it. */
function payload(value: Record<string, unknown>): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: "102290129340398",
        changes: [
          {
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550783881", phone_number_id: "106540352242922" },
              ...value,
            },
            field: "messages",
          },
        ],
      },
    ],
  });
}

describe("parseWhatsappEvents", () => {
  it("maps delivered, read and failed (with its code); sent is not a final report", () => {
    const events = parseWhatsappEvents(
      payload({
        statuses: [
          { id: "wamid.A", status: "sent", timestamp: "1750030073", recipient_id: "16505551234" },
          { id: "wamid.A", status: "delivered", timestamp: "1750030074", recipient_id: "16505551234" },
          { id: "wamid.A", status: "read", timestamp: "1750030080", recipient_id: "16505551234" },
          {
            id: "wamid.B",
            status: "failed",
            timestamp: "1751142888",
            recipient_id: "16505551234",
            errors: [
              { code: 131049, title: "This message was not delivered to maintain healthy ecosystem engagement." },
            ],
          },
        ],
      }),
    );
    expect(events.error).toBeUndefined();
    expect(events.ignored).toBe(1);
    expect(events.reports).toEqual([
      { providerMessageId: "wamid.A", status: "delivered", doneAt: new Date(1750030074_000) },
      { providerMessageId: "wamid.A", status: "read", doneAt: new Date(1750030080_000) },
      { providerMessageId: "wamid.B", status: "failed", errorCode: "131049", doneAt: new Date(1751142888_000) },
    ]);
    expect(events.inbound).toEqual([]);
  });

  it("maps a text reply, a quick-reply button tap and interactive replies, with the context id", () => {
    const events = parseWhatsappEvents(
      payload({
        contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: "16505551234" }],
        messages: [
          {
            from: "16505551234",
            id: "wamid.T",
            timestamp: "1749416383",
            type: "text",
            text: { body: "Another color?" },
          },
          {
            context: { from: "15550783881", id: "wamid.OURS" },
            from: "16505551234",
            id: "wamid.BTN",
            timestamp: "1750091045",
            type: "button",
            button: { payload: "unsubscribe-42", text: "Unsubscribe" },
          },
          {
            context: { from: "15550783881", id: "wamid.OURS2" },
            from: "+16505551234",
            id: "wamid.IR",
            timestamp: "1750091046",
            type: "interactive",
            interactive: { type: "button_reply", button_reply: { id: "yes-1", title: "Yes" } },
          },
          {
            from: "16505551234",
            id: "wamid.LR",
            timestamp: "1750091047",
            type: "interactive",
            interactive: { type: "list_reply", list_reply: { id: "slot-10", title: "10:00", description: "" } },
          },
          { from: "16505551234", id: "wamid.IMG", timestamp: "1750091048", type: "image", image: { caption: "look" } },
          { from: "16505551234", id: "wamid.LOC", timestamp: "1750091049", type: "location", location: {} },
        ],
      }),
    );
    const base = { from: "+16505551234", to: "106540352242922" };
    expect(events.inbound).toEqual<InboundMessage[]>([
      { ...base, providerMessageId: "wamid.T", text: "Another color?", receivedAt: new Date(1749416383_000) },
      {
        ...base,
        providerMessageId: "wamid.BTN",
        text: "Unsubscribe",
        postbackData: "unsubscribe-42",
        inReplyTo: "wamid.OURS",
        receivedAt: new Date(1750091045_000),
      },
      {
        ...base,
        providerMessageId: "wamid.IR",
        text: "Yes",
        postbackData: "yes-1",
        inReplyTo: "wamid.OURS2",
        receivedAt: new Date(1750091046_000),
      },
      {
        ...base,
        providerMessageId: "wamid.LR",
        text: "10:00",
        postbackData: "slot-10",
        receivedAt: new Date(1750091047_000),
      },
      { ...base, providerMessageId: "wamid.IMG", text: "look", receivedAt: new Date(1750091048_000) },
      { ...base, providerMessageId: "wamid.LOC", receivedAt: new Date(1750091049_000) },
    ]);
  });

  it("keeps duplicates and the payload's order as they came (dedupe and ordering are the caller's)", () => {
    const read = { id: "wamid.A", status: "read", timestamp: "1750030080", recipient_id: "1" };
    const delivered = { id: "wamid.A", status: "delivered", timestamp: "1750030074", recipient_id: "1" };
    const events = parseWhatsappEvents(payload({ statuses: [read, delivered, read] }));
    expect(events.reports.map((r) => `${r.status}@${r.doneAt?.getTime()}`)).toEqual([
      "read@1750030080000",
      "delivered@1750030074000",
      "read@1750030080000",
    ]);
  });

  it("never throws: malformed payloads give empty events and an error, bad entries are skipped", () => {
    for (const raw of ["", "not json", "[]", "null", '{"entry":{}}', '{"object":"x"}']) {
      const events = parseWhatsappEvents(raw);
      expect(events.reports).toEqual([]);
      expect(events.inbound).toEqual([]);
      expect(events.error).toEqual(expect.any(String));
    }
    const mixed = parseWhatsappEvents(
      JSON.stringify({
        entry: [
          null,
          { changes: "x" },
          { changes: [null, { field: "message_template_status_update", value: { event: "APPROVED" } }] },
          {
            changes: [
              {
                field: "messages",
                value: {
                  statuses: [
                    { status: "delivered", timestamp: "1" },
                    { id: "wamid.X", status: "bogus", timestamp: "1" },
                    { id: "wamid.Y", status: "delivered", timestamp: "not-a-time" },
                  ],
                  messages: [{ id: "wamid.M", timestamp: "1" }, { from: "1", id: "wamid.N", timestamp: "x" }, 7],
                },
              },
            ],
          },
        ],
      }),
    );
    expect(mixed.error).toBeUndefined();
    expect(mixed.reports).toEqual([{ providerMessageId: "wamid.Y", status: "delivered" }]);
    expect(mixed.inbound).toEqual([]);
    expect(mixed.skipped).toBe(9);
  });

  it("reads a Buffer as well as a string", () => {
    const raw = payload({ statuses: [{ id: "wamid.A", status: "delivered", timestamp: "1", recipient_id: "1" }] });
    expect(parseWhatsappEvents(Buffer.from(raw)).reports).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- end to end: simulator -> our webhook

interface Receiver {
  url: string;
  verdicts: WebhookVerdict[];
  reports: DeliveryReport[];
  inbound: InboundMessage[];
  /** Answer this status to the next n POSTs before accepting (to exercise the simulator's retries). */
  failNext(n: number): void;
}

/** A webhook endpoint doing what the API will do: verify, then parse. */
async function receiver(): Promise<Receiver> {
  let failing = 0;
  const r: Receiver = {
    url: "",
    verdicts: [],
    reports: [],
    inbound: [],
    failNext(n) {
      failing = n;
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const verdict = verifyWhatsappWebhook(
        {
          method: req.method ?? "GET",
          headers: req.headers as Record<string, string | undefined>,
          query: Object.fromEntries(url.searchParams),
          rawBody: Buffer.concat(chunks),
        },
        secrets,
      );
      r.verdicts.push(verdict);
      if (verdict.kind === "challenge") {
        res.writeHead(200).end(verdict.body);
        return;
      }
      if (verdict.kind === "refuse") {
        res.writeHead(verdict.status).end();
        return;
      }
      if (failing > 0) {
        failing--;
        res.writeHead(500).end();
        return;
      }
      const events = parseWhatsappEvents(Buffer.concat(chunks));
      r.reports.push(...events.reports);
      r.inbound.push(...events.inbound);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return r;
}

async function simulator(options: Partial<WhatsappSimulatorOptions>): Promise<WhatsappSimulator> {
  const sim = await startWhatsappSimulator({ appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN, ...options });
  cleanups.push(() => sim.close());
  return sim;
}

function adapterFor(sim: WhatsappSimulator): WhatsappAdapter {
  const a = createWhatsappAdapter({
    baseUrl: sim.url,
    phoneNumberId: "106540352242922",
    accessToken: "sim-access-token",
  });
  cleanups.push(() => a.close());
  return a;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const template = {
  type: "template" as const,
  name: "appointment_reminder",
  language: "en_US",
  header: { type: "text" as const, text: "Ana" },
  parameters: ["12 May", "10:30"],
  buttons: [{ index: 0, subType: "quick_reply" as const, parameter: "confirm-42" }],
};

describe("simulator webhooks into our verifier and parser", () => {
  it("performs the GET handshake on start, and refuses to start when the verify token is wrong", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, verifyOnStart: true });
    expect(sim.stats().verified).toBe(true);
    expect(r.verdicts[0]).toMatchObject({ kind: "challenge" });
    await expect(
      startWhatsappSimulator({ webhookUrl: r.url, verifyOnStart: true, verifyToken: "wrong-token" }),
    ).rejects.toThrow(/handshake/);
    expect(r.verdicts[1]).toEqual({ kind: "refuse", status: 403 });
  });

  it("pushes signed sent, delivered and read statuses for a template; sent is skipped, ids and times kept", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 10, readShare: 1, readDelayMs: 10 });
    const a = adapterFor(sim);
    const outcome = await a.send({ kind: "whatsapp", ref: "1", to: "+447911000001", body: template });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    await waitFor("delivered and read", () => r.reports.length === 2);
    await sim.idle();
    expect(r.reports.map((x) => [x.providerMessageId, x.status])).toEqual([
      [outcome.providerMessageId, "delivered"],
      [outcome.providerMessageId, "read"],
    ]);
    for (const report of r.reports) expect(Math.abs((report.doneAt?.getTime() ?? 0) - Date.now())).toBeLessThan(5_000);
    expect(r.verdicts.every((v) => v.kind === "accept")).toBe(true);
    expect(sim.stats()).toMatchObject({ statusesPushed: 3, statusesAcked: 3, webhookDropped: 0 });
  });

  it("a free-form text outside the 24-hour window is accepted, then fails by webhook with 131047", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 5 });
    const a = adapterFor(sim);
    const outcome = await a.send({
      kind: "whatsapp",
      ref: "1",
      to: "+447911000002",
      body: { type: "text", text: "hello", previewUrl: false },
    });
    expect(outcome.ok).toBe(true);
    await waitFor("the failed status", () => r.reports.length === 1);
    expect(r.reports[0]).toMatchObject({
      providerMessageId: outcome.ok ? outcome.providerMessageId : "",
      status: "failed",
      errorCode: "131047",
    });
    expect(sim.stats().asyncFailuresByCode).toEqual({ "131047": 1 });
  });

  it("a user message opens the window: the reply arrives as inbound and the next free-form text is delivered", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 5 });
    const a = adapterFor(sim);
    const inboundId = sim.simulateInbound({ from: "+447911000003", text: "Hi, any news?" });
    await waitFor("the inbound message", () => r.inbound.length === 1);
    expect(r.inbound[0]).toMatchObject({
      providerMessageId: inboundId,
      from: "+447911000003",
      to: "106540352242922",
      text: "Hi, any news?",
    });
    const outcome = await a.send({
      kind: "whatsapp",
      ref: "1",
      to: "447911000003",
      body: { type: "text", text: "Yes!", previewUrl: false },
    });
    await waitFor("delivered", () => r.reports.length === 1);
    expect(r.reports[0]).toMatchObject({
      providerMessageId: outcome.ok && outcome.providerMessageId,
      status: "delivered",
    });
  });

  it("user replies to a template arrive as button taps carrying our payload and our message id", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 5, replyShare: 1, replyDelayMs: 5 });
    const a = adapterFor(sim);
    const outcome = await a.send({ kind: "whatsapp", ref: "1", to: "+447911000004", body: template });
    await waitFor("the reply", () => r.inbound.length === 1);
    expect(r.inbound[0]).toMatchObject({
      from: "+447911000004",
      text: "Confirm",
      postbackData: "confirm-42",
      inReplyTo: outcome.ok ? outcome.providerMessageId : "",
    });
  });

  it("failed statuses for the failure share carry the configured code", async () => {
    const r = await receiver();
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 5, failureShare: 1, failureCode: 131049 });
    const a = adapterFor(sim);
    await a.send({ kind: "whatsapp", ref: "1", to: "+447911000005", body: template });
    await a.send({ kind: "whatsapp", ref: "2", to: "+447911009999", body: template });
    await waitFor("two failures", () => r.reports.length === 2);
    expect(r.reports.map((x) => `${x.status}:${x.errorCode}`).sort()).toEqual(["failed:131049", "failed:131049"]);
  });

  it("duplicated and reordered statuses come through as they were pushed, with their ids and timestamps", async () => {
    const r = await receiver();
    const sim = await simulator({
      webhookUrl: r.url,
      deliveryDelayMs: 0,
      readShare: 1,
      readDelayMs: 0,
      duplicateShare: 1,
      reorder: true,
      batchWindowMs: 50,
    });
    const a = adapterFor(sim);
    const sends = await Promise.all(
      [1, 2, 3].map((i) => a.send({ kind: "whatsapp", ref: String(i), to: `+44791100001${i}`, body: template })),
    );
    await waitFor("all duplicates", () => r.reports.length === 12);
    await sim.idle();
    const ids = sends.map((s) => (s.ok ? s.providerMessageId : ""));
    for (const id of ids) {
      const mine = r.reports.filter((x) => x.providerMessageId === id);
      expect(mine.map((x) => x.status).sort()).toEqual(["delivered", "delivered", "read", "read"]);
      const [first, second] = mine.filter((x) => x.status === "read");
      expect(first?.doneAt).toEqual(second?.doneAt);
    }
    expect(sim.stats()).toMatchObject({ duplicatesQueued: 9, statusesPushed: 18, statusesAcked: 18 });
    expect(sim.stats().webhookPosts).toBeLessThan(18);
  });

  it("retries a POST our endpoint refused, with backoff, until it is accepted", async () => {
    const r = await receiver();
    r.failNext(2);
    const sim = await simulator({ webhookUrl: r.url, deliveryDelayMs: 5, webhookRetryBaseMs: 10 });
    const a = adapterFor(sim);
    await a.send({ kind: "whatsapp", ref: "1", to: "+447911000020", body: template });
    await waitFor("delivered", () => r.reports.length === 1);
    await sim.idle();
    expect(sim.stats().webhookRetries).toBeGreaterThanOrEqual(2);
    expect(sim.stats()).toMatchObject({ statusesAcked: 2, webhookDropped: 0 });
  });

  it("a webhook signed with another secret is refused by our verifier and dropped after the retries", async () => {
    const r = await receiver();
    const sim = await simulator({
      webhookUrl: r.url,
      appSecret: "not-our-secret",
      deliveryDelayMs: 5,
      webhookRetries: 1,
      webhookRetryBaseMs: 5,
    });
    const a = adapterFor(sim);
    await a.send({ kind: "whatsapp", ref: "1", to: "+447911000021", body: template });
    await sim.idle();
    expect(r.reports).toEqual([]);
    expect(r.verdicts.length).toBeGreaterThan(0);
    expect(r.verdicts.every((v) => v.kind === "refuse" && v.status === 401)).toBe(true);
    expect(sim.stats().webhookDropped).toBe(2);
  });
});
