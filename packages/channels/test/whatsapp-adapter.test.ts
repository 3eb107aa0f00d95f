import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { FailureReason, SendOutcome, WhatsAppMessage } from "../src/index";
import { createEgressPolicy, egressAgent } from "../src/index";
import {
  startWhatsappSimulator,
  WHATSAPP_ERROR_CATALOG,
  type WhatsappSimulator,
  type WhatsappSimulatorOptions,
} from "../src/simulators/index";
import { createWhatsappAdapter, listTemplates, WA_ERROR, type WhatsappAdapterConfig } from "../src/whatsapp/index";

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function simulator(options: Partial<WhatsappSimulatorOptions> = {}): Promise<WhatsappSimulator> {
  const sim = await startWhatsappSimulator(options);
  cleanups.push(() => sim.close());
  return sim;
}

function configFor(sim: WhatsappSimulator, extra: Partial<WhatsappAdapterConfig> = {}): WhatsappAdapterConfig {
  return {
    baseUrl: sim.url,
    apiVersion: "v21.0",
    phoneNumberId: "106540352242922",
    wabaId: "102290129340398",
    accessToken: "sim-access-token",
    ...extra,
  };
}

function adapter(sim: WhatsappSimulator, extra: Partial<WhatsappAdapterConfig> = {}, timeoutMs?: number) {
  const a = createWhatsappAdapter(configFor(sim, extra), timeoutMs === undefined ? {} : { timeoutMs });
  cleanups.push(() => a.close());
  return a;
}

const number = (i: number) => `+4479${String(i).padStart(7, "0")}1`;

const text = (body: string, previewUrl = false): WhatsAppMessage["body"] => ({ type: "text", text: body, previewUrl });

function msg(to: string, body: WhatsAppMessage["body"]): WhatsAppMessage {
  return { kind: "whatsapp", ref: "r", to, body };
}

function lastBody(sim: WhatsappSimulator): unknown {
  return sim.lastBodies().at(-1)?.body;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe("WhatsApp adapter against the Cloud API simulator: request shapes", () => {
  it("sends a text with preview_url and returns the wamid as the provider message id", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    const outcome = await a.send(msg("+447911123456", text("See https://example.com", true)));
    expect(outcome).toMatchObject({ ok: true, parts: 1 });
    if (!outcome.ok) return;
    expect(outcome.providerMessageId).toMatch(/^wamid\./);
    expect(sim.lastBodies().at(-1)?.wamid).toBe(outcome.providerMessageId);
    expect(lastBody(sim)).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "+447911123456",
      type: "text",
      text: { preview_url: true, body: "See https://example.com" },
    });
  });

  it("sends a template with a text header, body parameters and quick-reply buttons", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = await a.send(
      msg("+447911000001", {
        type: "template",
        name: "appointment_reminder",
        language: "en_US",
        header: { type: "text", text: "Ana" },
        parameters: ["12 May", "10:30"],
        buttons: [
          { index: 0, subType: "quick_reply", parameter: "confirm-42" },
          { index: 1, subType: "quick_reply", parameter: "reschedule-42" },
        ],
      }),
    );
    expect(outcome.ok).toBe(true);
    expect(lastBody(sim)).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: "+447911000001",
      type: "template",
      template: {
        name: "appointment_reminder",
        language: { code: "en_US" },
        components: [
          { type: "header", parameters: [{ type: "text", text: "Ana" }] },
          {
            type: "body",
            parameters: [
              { type: "text", text: "12 May" },
              { type: "text", text: "10:30" },
            ],
          },
          {
            type: "button",
            sub_type: "quick_reply",
            index: "0",
            parameters: [{ type: "payload", payload: "confirm-42" }],
          },
          {
            type: "button",
            sub_type: "quick_reply",
            index: "1",
            parameters: [{ type: "payload", payload: "reschedule-42" }],
          },
        ],
      },
    });
  });

  it("sends a template with an image header and a URL button suffix", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = await a.send(
      msg("+447911000002", {
        type: "template",
        name: "spring_offer",
        language: "en_US",
        header: { type: "image", link: "https://cdn.example.com/spring.jpg" },
        parameters: ["20%", "Sunday"],
        buttons: [{ index: 1, subType: "url", parameter: "spring?c=42" }],
      }),
    );
    expect(outcome.ok).toBe(true);
    const body = lastBody(sim) as { template: { components: unknown[] } };
    expect(body.template.components).toEqual([
      { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example.com/spring.jpg" } }] },
      {
        type: "body",
        parameters: [
          { type: "text", text: "20%" },
          { type: "text", text: "Sunday" },
        ],
      },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "spring?c=42" }] },
    ]);
  });

  it("sends a template without variables without a components list", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = await a.send(
      msg("+447911000003", { type: "template", name: "welcome", language: "en_US", parameters: [], buttons: [] }),
    );
    expect(outcome.ok).toBe(true);
    expect((lastBody(sim) as { template: unknown }).template).toEqual({ name: "welcome", language: { code: "en_US" } });
  });

  it("round-trips image, video and document messages by link, with caption and (documents only) filename", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    const cases: Array<[WhatsAppMessage["body"], Record<string, unknown>]> = [
      [
        { type: "media", mediaType: "image", link: "https://cdn.example.com/a.png", caption: "A" },
        { type: "image", image: { link: "https://cdn.example.com/a.png", caption: "A" } },
      ],
      [
        { type: "media", mediaType: "video", link: "https://cdn.example.com/v.mp4", filename: "ignored.mp4" },
        { type: "video", video: { link: "https://cdn.example.com/v.mp4" } },
      ],
      [
        {
          type: "media",
          mediaType: "document",
          link: "https://cdn.example.com/i.pdf",
          caption: "Invoice",
          filename: "invoice.pdf",
        },
        {
          type: "document",
          document: { link: "https://cdn.example.com/i.pdf", caption: "Invoice", filename: "invoice.pdf" },
        },
      ],
    ];
    for (const [body, expected] of cases) {
      const outcome = await a.send(msg("+447911000004", body));
      expect(outcome.ok).toBe(true);
      expect(lastBody(sim)).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: "+447911000004",
        ...expected,
      });
    }
  });

  it("reuses one body object for many recipients, each request carrying its own recipient", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    const body = text("Same body");
    await Promise.all([0, 1, 2].map((i) => a.send(msg(number(i), body))));
    const sent = sim.lastBodies().map((b) => b.body as { to: string; text: unknown });
    expect(sent.map((b) => b.to).sort()).toEqual([number(0), number(1), number(2)]);
    for (const b of sent) expect(b.text).toEqual({ preview_url: false, body: "Same body" });
  });

  it("refuses content of another product without a request", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const outcome = await a.send({ ref: "r", to: "+447911000005", text: "sms" });
    expect(outcome).toMatchObject({ ok: false, retryable: false, reason: "invalid", errorCode: "UNSUPPORTED_CONTENT" });
    expect(sim.stats().requests).toBe(0);
  });
});

/** The verdict every mapped code must get, as the brief and the error-code reference say. */
const EXPECTED: Array<[number, FailureReason, boolean]> = [
  [WA_ERROR.THROUGHPUT, "throttled", true],
  [WA_ERROR.PAIR_RATE_LIMIT, "throttled", true],
  [WA_ERROR.SPAM_RATE_LIMIT, "throttled", true],
  [WA_ERROR.APP_RATE_LIMIT, "throttled", true],
  [WA_ERROR.WABA_RATE_LIMIT, "throttled", true],
  [WA_ERROR.API_SERVICE, "provider", true],
  [WA_ERROR.SOMETHING_WENT_WRONG, "provider", true],
  [WA_ERROR.SERVICE_UNAVAILABLE, "provider", true],
  [WA_ERROR.SERVER_TEMPORARILY_UNAVAILABLE, "provider", true],
  [WA_ERROR.MAINTENANCE_MODE, "provider", true],
  [WA_ERROR.UNDELIVERABLE, "unreachable", false],
  [WA_ERROR.MARKETING_STOPPED, "unreachable", false],
  [WA_ERROR.REENGAGEMENT, "window_closed", false],
  [WA_ERROR.TEMPLATE_PARAM_COUNT_MISMATCH, "template", false],
  [WA_ERROR.TEMPLATE_DOES_NOT_EXIST, "template", false],
  [WA_ERROR.TEMPLATE_HYDRATED_TEXT_TOO_LONG, "template", false],
  [WA_ERROR.TEMPLATE_FORMAT_POLICY_VIOLATED, "template", false],
  [WA_ERROR.TEMPLATE_PARAMETER_FORMAT_MISMATCH, "template", false],
  [WA_ERROR.TEMPLATE_PAUSED, "template", false],
  [WA_ERROR.TEMPLATE_DISABLED, "template", false],
  [WA_ERROR.INVALID_PARAMETER, "invalid", false],
  [WA_ERROR.REQUIRED_PARAMETER_MISSING, "invalid", false],
  [WA_ERROR.PARAMETER_VALUE_INVALID, "invalid", false],
  [WA_ERROR.UNSUPPORTED_MESSAGE_TYPE, "invalid", false],
  [WA_ERROR.RECIPIENT_IS_SENDER, "invalid", false],
  [WA_ERROR.MEDIA_UPLOAD_ERROR, "invalid", false],
  [WA_ERROR.ACCESS_TOKEN_EXPIRED, "channel_auth", false],
  [WA_ERROR.AUTH_EXCEPTION, "channel_auth", false],
  [WA_ERROR.PERMISSION_DENIED, "channel_auth", false],
  [200, "channel_auth", false],
  [WA_ERROR.API_METHOD, "channel_auth", false],
  [WA_ERROR.ACCESS_DENIED, "channel_auth", false],
  [WA_ERROR.ACCOUNT_LOCKED, "channel_auth", false],
  [WA_ERROR.POLICY_BLOCKED, "channel_auth", false],
  [WA_ERROR.PAYMENT_ISSUE, "channel_auth", false],
  [WA_ERROR.ECOSYSTEM_ENGAGEMENT, "provider", false],
  [WA_ERROR.COUNTRY_RESTRICTED, "provider", false],
];

describe("WhatsApp adapter: error mapping over the wire", () => {
  it("maps every documented code the simulator answers to its reason and retryability", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    for (const [i, [code, reason, retryable]] of EXPECTED.entries()) {
      const to = number(100 + i);
      sim.failRecipient(to, code);
      const outcome = await a.send(msg(to, text("hi")));
      expect({ code, outcome }).toMatchObject({
        code,
        outcome: { ok: false, errorCode: String(code), reason, retryable },
      });
      const failure = outcome as Extract<SendOutcome, { ok: false }>;
      // the documented title, never the raw answer
      expect(failure.detail).toContain(`HTTP ${WHATSAPP_ERROR_CATALOG[code]?.http}`);
    }
  });

  it("asks for the documented waits: a second for throughput, six seconds for the pair rate", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    sim.failRecipient(number(1), WA_ERROR.THROUGHPUT);
    sim.failRecipient(number(2), WA_ERROR.PAIR_RATE_LIMIT);
    expect(await a.send(msg(number(1), text("x")))).toMatchObject({ retryAfterMs: 1_000 });
    expect(await a.send(msg(number(2), text("x")))).toMatchObject({ retryAfterMs: 6_000 });
  });

  it("a revoked token is channel_auth with code 190, not a recipient failure, and test() says so", async () => {
    const sim = await simulator({ enforceWindow: false });
    const a = adapter(sim);
    expect((await a.send(msg(number(1), text("before")))).ok).toBe(true);
    expect(await a.test()).toMatchObject({ ok: true });
    sim.revokeToken();
    const outcome = await a.send(msg(number(2), text("after")));
    expect(outcome).toMatchObject({ ok: false, errorCode: "190", reason: "channel_auth", retryable: false });
    expect(await a.test()).toMatchObject({ ok: false });
    expect(sim.stats().authFailures).toBe(2);
  });

  it("a wrong token is refused with 190 as well", async () => {
    const sim = await simulator();
    const a = adapter(sim, { accessToken: "not-the-token" });
    expect(await a.send(msg(number(1), text("x")))).toMatchObject({ errorCode: "190", reason: "channel_auth" });
  });

  it("a 130429 storm: beyond the number's messages per second every refusal is throttled and retryable", async () => {
    const sim = await simulator({ enforceWindow: false, mps: 10 });
    const a = adapter(sim);
    const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => a.send(msg(number(i), text("storm")))));
    const accepted = outcomes.filter((o) => o.ok).length;
    const throttled = outcomes.filter((o) => !o.ok);
    expect(accepted).toBeGreaterThanOrEqual(10);
    expect(accepted).toBeLessThan(20);
    expect(throttled.length).toBe(60 - accepted);
    for (const o of throttled) {
      expect(o).toMatchObject({ errorCode: "130429", reason: "throttled", retryable: true, retryAfterMs: 1_000 });
    }
    expect(sim.stats().throttled).toBe(throttled.length);
    expect(a.stats()).toMatchObject({ sent: 60, accepted, throttled: throttled.length, inflight: 0 });
  });

  it("the pair rate limit refuses a second message to the same user within the interval (131056)", async () => {
    const sim = await simulator({ enforceWindow: false, pairRateIntervalMs: 6_000 });
    const a = adapter(sim);
    expect((await a.send(msg(number(1), text("one")))).ok).toBe(true);
    expect(await a.send(msg(number(1), text("two")))).toMatchObject({
      errorCode: "131056",
      reason: "throttled",
      retryAfterMs: 6_000,
    });
    expect((await a.send(msg(number(2), text("other user")))).ok).toBe(true);
    expect(sim.stats().pairThrottled).toBe(1);
  });

  it("the simulator's template checks come back as template failures", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const template = (name: string, extra: Record<string, unknown> = {}) =>
      msg(number(7), { type: "template", name, language: "en_US", parameters: [], buttons: [], ...extra } as never);
    const cases: Array<[WhatsAppMessage, string]> = [
      [template("no_such_template"), "132001"],
      [template("crypto_giveaway", { parameters: ["BTC"] }), "132001"],
      [template("summer_sale", { parameters: ["10%"] }), "132015"],
      [template("order_update", { parameters: ["Ana"] }), "132000"],
      [template("order_update", { parameters: ["Ana", "42", "extra"] }), "132000"],
      [template("invoice_ready", { parameters: ["7"] }), "132000"],
      [
        template("invoice_ready", {
          parameters: ["7"],
          header: { type: "image", link: "https://cdn.example.com/x.png" },
        }),
        "132012",
      ],
      [
        template("spring_offer", {
          parameters: ["1", "2"],
          header: { type: "image", link: "https://x.example/a.png" },
        }),
        "132000",
      ],
    ];
    for (const [m, code] of cases) {
      expect({ body: m.body, outcome: await a.send(m) }).toMatchObject({
        outcome: { ok: false, errorCode: code, reason: "template", retryable: false },
      });
    }
    const zh = await a.send(
      msg(number(8), {
        type: "template",
        name: "order_update",
        language: "zh_CN",
        parameters: ["安", "42"],
        buttons: [],
      }),
    );
    expect(zh.ok).toBe(true);
  });

  it("5xx answers are retryable provider failures", async () => {
    const sim = await simulator({ enforceWindow: false, serverErrorShare: 1 });
    const a = adapter(sim);
    expect(await a.send(msg(number(1), text("x")))).toMatchObject({
      ok: false,
      errorCode: "131000",
      reason: "provider",
      retryable: true,
    });
  });

  it("numbers ending 0000 are undeliverable at once", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    expect(await a.send(msg("+447900000000", text("x")))).toMatchObject({ errorCode: "131026", reason: "unreachable" });
  });

  it("a timeout and a refused connection are retryable, and say whether anything may have been sent", async () => {
    // undici's timers are coarse (about half a second), hence the wide margins
    const sim = await simulator({ enforceWindow: false, latencyMs: 3_000 });
    const slow = adapter(sim, {}, 300);
    const timedOut = await slow.send(msg(number(1), text("x")));
    expect(timedOut).toMatchObject({ ok: false, errorCode: "TIMEOUT", retryable: true });
    expect((timedOut as { detail: string }).detail).toContain("may have been accepted");

    const port = await freePort();
    const nowhere = createWhatsappAdapter({ ...configFor(sim), baseUrl: `http://127.0.0.1:${port}` });
    cleanups.push(() => nowhere.close());
    const refused = await nowhere.send(msg(number(2), text("x")));
    expect(refused).toMatchObject({ ok: false, errorCode: "CONNECT_FAILED", retryable: true });
  });

  it("a closed adapter sends nothing", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    await a.close();
    expect(await a.send(msg(number(1), text("x")))).toMatchObject({ ok: false, errorCode: "CLOSED" });
    expect(sim.stats().requests).toBe(0);
  });

  it("obeys the egress policy: a refused address sends nothing, the allow list lets it through", async () => {
    const sim = await simulator({ enforceWindow: false });
    const refusedOwn = createWhatsappAdapter(configFor(sim), { egress: createEgressPolicy("") });
    const agent = egressAgent(createEgressPolicy(""));
    const refusedInjected = createWhatsappAdapter(configFor(sim), { dispatcher: agent });
    cleanups.push(async () => {
      await refusedOwn.close();
      await refusedInjected.close();
      await agent.close();
    });
    for (const a of [refusedOwn, refusedInjected]) {
      expect(await a.send(msg(number(1), text("x")))).toMatchObject({
        ok: false,
        errorCode: "EGRESS_REFUSED",
        retryable: false,
      });
      expect(await a.test()).toMatchObject({ ok: false });
    }
    expect(sim.stats().requests).toBe(0);

    const allowed = createWhatsappAdapter(configFor(sim), { egress: createEgressPolicy("127.0.0.1") });
    cleanups.push(() => allowed.close());
    expect((await allowed.send(msg(number(2), text("x")))).ok).toBe(true);
    expect(await allowed.test()).toMatchObject({ ok: true });
  });

  it("refuses a configuration without an access token", () => {
    expect(() => createWhatsappAdapter({ phoneNumberId: "1", accessToken: "" })).toThrow(/access token/);
  });
});

describe("WhatsApp adapter: templates, contacts check, volume", () => {
  it("lists the account's templates across pages, with their status and components", async () => {
    const sim = await simulator();
    const a = adapter(sim);
    const listed = await a.listTemplates({ pageSize: 3 });
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    expect(listed.templates).toHaveLength(8);
    expect(sim.stats().templatesListed).toBe(3);
    expect(listed.templates.map((t) => `${t.name}/${t.language}/${t.status}`)).toEqual([
      "order_update/en_US/APPROVED",
      "order_update/zh_CN/APPROVED",
      "appointment_reminder/en_US/APPROVED",
      "spring_offer/en_US/APPROVED",
      "invoice_ready/en_US/APPROVED",
      "welcome/en_US/APPROVED",
      "summer_sale/en_US/PAUSED",
      "crypto_giveaway/en_US/REJECTED",
    ]);
    expect(listed.templates[2]).toMatchObject({
      category: "UTILITY",
      components: [{ type: "HEADER", format: "TEXT" }, { type: "BODY" }, { type: "BUTTONS" }],
    });

    const alone = await listTemplates(configFor(sim), { pageSize: 100 });
    expect(alone.ok && alone.templates.length).toBe(8);
  });

  it("template listing needs the account id and a valid token", async () => {
    const sim = await simulator();
    const noWaba = adapter(sim, { wabaId: undefined });
    expect(await noWaba.listTemplates()).toMatchObject({ ok: false, errorCode: "NO_WABA_ID" });
    sim.revokeToken();
    expect(await adapter(sim).listTemplates()).toMatchObject({ ok: false, errorCode: "190", reason: "channel_auth" });
  });

  it("has no reachability check without a contacts check URL, and uses the On-Premises shape with one", async () => {
    const sim = await simulator();
    expect(adapter(sim).checkReachability).toBeUndefined();
    const a = adapter(sim, { contactsCheckUrl: `${sim.url}/v1/contacts` });
    const outcome = await a.checkReachability?.(["+447911000001", "+447900000000", "447911000002"]);
    expect(outcome?.ok).toBe(true);
    if (!outcome?.ok) return;
    expect([...outcome.results]).toEqual([
      ["+447911000001", "reachable"],
      ["+447900000000", "unreachable"],
      ["447911000002", "reachable"],
    ]);
    expect(sim.stats().contactsChecked).toBe(3);
  });

  it("1,000 sends at concurrency 100 all complete and the simulator sees each exactly once", async () => {
    const sim = await simulator({ enforceWindow: false, keepBodies: 0 });
    const a = adapter(sim);
    const total = 1_000;
    const ids = new Set<string>();
    let next = 0;
    let failures = 0;
    const worker = async () => {
      while (next < total) {
        const i = next++;
        const outcome = await a.send(msg(number(i), text("volume")));
        if (outcome.ok) ids.add(outcome.providerMessageId);
        else failures++;
      }
    };
    await Promise.all(Array.from({ length: 100 }, worker));
    expect(failures).toBe(0);
    expect(ids.size).toBe(total);
    expect(sim.stats()).toMatchObject({ messagesReceived: total, messagesAccepted: total, recipients: total });
    for (let i = 0; i < total; i++) expect(sim.acceptedFor(number(i))).toBe(1);
  });
});
