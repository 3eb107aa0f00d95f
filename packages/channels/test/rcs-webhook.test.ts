import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryReport, InboundMessage, RcsMessage, WebhookRequest } from "../src/index";
import { createRcsAdapter, parseRcsEvents, signRcsPayload, verifyRcsWebhook } from "../src/rcs/index";
import { type RbmSimulator, type RbmSimulatorOptions, startRbmSimulator } from "../src/simulators/index";

const CLIENT_TOKEN = "test-client-token";
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function envelope(event: unknown, data?: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      message: {
        data: data ?? Buffer.from(JSON.stringify(event)).toString("base64"),
        messageId: "2070443601311540",
        publishTime: "2024-05-02T10:00:01.500Z",
      },
      subscription: "projects/rbm-agent/subscriptions/rbm-agent-subscription",
    }),
  );
}

function signedRequest(event: unknown, token = CLIENT_TOKEN): WebhookRequest {
  const data = Buffer.from(JSON.stringify(event));
  return {
    method: "POST",
    headers: { "x-goog-signature": signRcsPayload(data, token), "content-type": "application/json" },
    query: {},
    rawBody: envelope(undefined, data.toString("base64")),
  };
}

const delivered = {
  senderPhoneNumber: "+447900000001",
  eventType: "DELIVERED",
  eventId: "MxAbCdEf",
  messageId: "0b6b4a4e-5f1e-5c8a-9d3e-1f2a3b4c5d6e",
  sendTime: "2024-05-02T10:00:00.123456Z",
  agentId: "demo-agent",
};

describe("verifyRcsWebhook", () => {
  it("accepts an event signed with the client token over the decoded data", () => {
    expect(verifyRcsWebhook(signedRequest(delivered), CLIENT_TOKEN)).toEqual({ kind: "accept" });
  });

  it("refuses a wrong, a missing, or a tampered signature with 401", () => {
    expect(verifyRcsWebhook(signedRequest(delivered, "another-token"), CLIENT_TOKEN)).toEqual({
      kind: "refuse",
      status: 401,
    });
    const unsigned = signedRequest(delivered);
    unsigned.headers = { "content-type": "application/json" };
    expect(verifyRcsWebhook(unsigned, CLIENT_TOKEN)).toEqual({ kind: "refuse", status: 401 });
    const tampered = signedRequest(delivered);
    tampered.rawBody = envelope({ ...delivered, messageId: "someone-else" });
    expect(verifyRcsWebhook(tampered, CLIENT_TOKEN)).toEqual({ kind: "refuse", status: 401 });
    const garbage = signedRequest(delivered);
    garbage.headers = { "x-goog-signature": "not base64 !" };
    expect(verifyRcsWebhook(garbage, CLIENT_TOKEN)).toEqual({ kind: "refuse", status: 401 });
  });

  it("signs the decoded bytes, not the envelope: the hash of the raw body does not pass", () => {
    const req = signedRequest(delivered);
    req.headers = { "x-goog-signature": signRcsPayload(req.rawBody, CLIENT_TOKEN) };
    expect(verifyRcsWebhook(req, CLIENT_TOKEN)).toEqual({ kind: "refuse", status: 401 });
  });

  it("refuses everything when the channel has no client token, and what is not a POST of JSON", () => {
    expect(verifyRcsWebhook(signedRequest(delivered), undefined)).toEqual({ kind: "refuse", status: 401 });
    expect(verifyRcsWebhook({ ...signedRequest(delivered), method: "GET" }, CLIENT_TOKEN)).toEqual({
      kind: "refuse",
      status: 400,
    });
    expect(verifyRcsWebhook({ ...signedRequest(delivered), rawBody: Buffer.from("nope") }, CLIENT_TOKEN)).toEqual({
      kind: "refuse",
      status: 400,
    });
  });

  it("answers the registration handshake with the secret, only for our client token", () => {
    const handshake = (clientToken: string): WebhookRequest => ({
      method: "POST",
      headers: {},
      query: {},
      rawBody: Buffer.from(JSON.stringify({ clientToken, secret: "s3cr3t-42" })),
    });
    expect(verifyRcsWebhook(handshake(CLIENT_TOKEN), CLIENT_TOKEN)).toEqual({ kind: "challenge", body: "s3cr3t-42" });
    expect(verifyRcsWebhook(handshake("guess"), CLIENT_TOKEN)).toEqual({ kind: "refuse", status: 403 });
  });
});

describe("parseRcsEvents", () => {
  it("reads DELIVERED and READ as reports with the event's id and time", () => {
    expect(parseRcsEvents(envelope(delivered))).toEqual({
      reports: [
        {
          providerMessageId: delivered.messageId,
          status: "delivered",
          doneAt: new Date("2024-05-02T10:00:00.123456Z"),
        },
      ],
      inbound: [],
      ignored: 0,
    });
    const read = parseRcsEvents(envelope({ ...delivered, eventType: "READ", sendTime: "2024-05-02T10:05:00Z" }));
    expect(read.reports).toEqual([
      { providerMessageId: delivered.messageId, status: "read", doneAt: new Date("2024-05-02T10:05:00Z") },
    ]);
  });

  it("reads a ttl expiry as expired, and ignores typing and failed revocations", () => {
    const expired = parseRcsEvents(
      envelope({
        phoneNumber: "+447900000001",
        messageId: delivered.messageId,
        agentId: "demo-agent",
        eventType: "TTL_EXPIRATION_REVOKED",
        eventId: "MxZz",
        sendTime: "2024-05-03T10:00:00Z",
      }),
    );
    expect(expired.reports).toEqual([
      { providerMessageId: delivered.messageId, status: "expired", doneAt: new Date("2024-05-03T10:00:00Z") },
    ]);
    expect(parseRcsEvents(envelope({ ...delivered, eventType: "IS_TYPING" }))).toMatchObject({
      reports: [],
      inbound: [],
      ignored: 1,
    });
    expect(parseRcsEvents(envelope({ ...delivered, eventType: "TTL_EXPIRATION_REVOKE_FAILED" })).ignored).toBe(1);
  });

  it("reads user messages: text, a suggestion tap, a location and a file", () => {
    const base = {
      senderPhoneNumber: "+447900000002",
      messageId: "MsUser1",
      sendTime: "2024-05-02T11:00:00Z",
      agentId: "demo-agent",
    };
    const inbound = (event: object) => parseRcsEvents(envelope({ ...base, ...event })).inbound;
    const common = {
      providerMessageId: "MsUser1",
      from: "+447900000002",
      to: "demo-agent",
      receivedAt: new Date(base.sendTime),
    };
    expect(inbound({ text: "Yes please" })).toEqual([{ ...common, text: "Yes please" }]);
    expect(inbound({ suggestionResponse: { postbackData: "track-42", text: "Track", type: "REPLY" } })).toEqual([
      { ...common, text: "Track", postbackData: "track-42" },
    ]);
    expect(inbound({ location: { latitude: 51.5, longitude: -0.12 } })).toEqual([common]);
    // Without its own sendTime, the time Pub/Sub published it.
    expect(inbound({ sendTime: undefined, text: "late" })).toEqual([
      { ...common, text: "late", receivedAt: new Date("2024-05-02T10:00:01.500Z") },
    ]);
    expect(
      inbound({
        userFile: {
          payload: { mimeType: "image/jpeg", fileSizeBytes: 1200, fileUri: "https://x/y", fileName: "a.jpg" },
        },
      }),
    ).toEqual([common]);
  });

  it("never throws on malformed bodies: empty events and a reason", () => {
    for (const raw of [
      "not json",
      "[]",
      JSON.stringify({ message: {} }),
      JSON.stringify({ message: { data: "!!!" } }),
      envelope(undefined, Buffer.from("not json").toString("base64")).toString(),
      envelope({ eventType: "DELIVERED" }).toString(),
      envelope({ eventType: "SOMETHING_NEW", messageId: "x" }).toString(),
      // No sendTime, and no publishTime to fall back on.
      JSON.stringify({
        message: {
          data: Buffer.from(
            JSON.stringify({ senderPhoneNumber: "+447900000002", messageId: "MsX", text: "x" }),
          ).toString("base64"),
        },
      }),
    ]) {
      const events = parseRcsEvents(raw);
      expect(events.reports).toEqual([]);
      expect(events.inbound).toEqual([]);
      expect(events.error).toEqual(expect.any(String));
    }
  });
});

interface Received {
  reports: DeliveryReport[];
  inbound: InboundMessage[];
  refused: number;
}

/** Our side: verify each push with the channel's client token, parse it, keep what came, in arrival order. */
async function endpoint(clientToken: string) {
  const received: Received = { reports: [], inbound: [], refused: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const verdict = verifyRcsWebhook(
        {
          method: req.method ?? "POST",
          headers: req.headers as IncomingHttpHeaders as WebhookRequest["headers"],
          query: {},
          rawBody,
        },
        clientToken,
      );
      if (verdict.kind === "refuse") {
        received.refused++;
        res.writeHead(verdict.status).end();
        return;
      }
      if (verdict.kind === "challenge") {
        res.writeHead(200).end(verdict.body);
        return;
      }
      const events = parseRcsEvents(rawBody);
      received.reports.push(...events.reports);
      received.inbound.push(...events.inbound);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/rcs/1`, received };
}

async function simulator(options: Partial<RbmSimulatorOptions>): Promise<RbmSimulator> {
  const sim = await startRbmSimulator({ clientToken: CLIENT_TOKEN, ...options });
  cleanups.push(() => sim.close());
  return sim;
}

function adapterFor(sim: RbmSimulator) {
  const a = createRcsAdapter({
    baseUrl: sim.url,
    tokenUrl: sim.tokenUrl,
    agentId: sim.agentId,
    serviceAccountKey: sim.serviceAccountKey,
  });
  cleanups.push(() => a.close());
  return a;
}

const number = (i: number) => `+4479${String(i).padStart(7, "0")}2`;

describe("RBM simulator events through the webhook verifier and parser", () => {
  it("passes the registration handshake, and fails it with another client token", async () => {
    const ours = await endpoint(CLIENT_TOKEN);
    const sim = await simulator({ webhookUrl: ours.url, verifyOnStart: true });
    expect(sim.stats().verified).toBe(true);
    const theirs = await endpoint("other-token");
    sim.setOptions({ webhookUrl: theirs.url });
    expect(await sim.verifyWebhook()).toBe(false);
  });

  it("delivers duplicated and reordered events as they come, ids and times intact", async () => {
    const ours = await endpoint(CLIENT_TOKEN);
    const sim = await simulator({
      webhookUrl: ours.url,
      deliveryDelayMs: 5,
      readShare: 1,
      readDelayMs: 30,
      reorderShare: 1,
      duplicateShare: 1,
      // One push at a time, so arrival order is push order (with more, concurrent POSTs may overtake each other).
      webhookConcurrency: 1,
    });
    const a = adapterFor(sim);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const outcome = await a.send({
        kind: "rcs",
        ref: String(i),
        to: number(i),
        messageId: `sb-3-${i}-evt`,
        body: { type: "text", text: "hello", suggestions: [] },
      });
      if (!outcome.ok) throw new Error(outcome.errorCode);
      ids.push(outcome.providerMessageId);
    }
    await sim.idle();
    expect(ours.received.refused).toBe(0);
    // Every event twice (Pub/Sub redelivery), none dropped, none merged.
    expect(ours.received.reports).toHaveLength(40);
    for (const id of ids) {
      const mine = ours.received.reports.filter((r) => r.providerMessageId === id);
      expect(mine.map((r) => r.status)).toEqual(["read", "read", "delivered", "delivered"]);
      const [read, , deliveredReport] = mine as [DeliveryReport, DeliveryReport, DeliveryReport];
      // Pushed out of order, stamped in order.
      expect((read.doneAt as Date).getTime()).toBeGreaterThan((deliveredReport.doneAt as Date).getTime());
    }
    expect(sim.stats()).toMatchObject({ eventsQueued: 40, duplicatesQueued: 20, eventsAcked: 40, webhookDropped: 0 });
  });

  it("pushes replies: a tap on the message's suggested reply, else a text", async () => {
    const ours = await endpoint(CLIENT_TOKEN);
    const sim = await simulator({ webhookUrl: ours.url, deliveryDelayMs: 5, replyShare: 1, replyDelayMs: 10 });
    const a = adapterFor(sim);
    const withChip: RcsMessage["body"] = {
      type: "card",
      title: "Confirm your slot",
      mediaHeight: "MEDIUM",
      orientation: "VERTICAL",
      suggestions: [{ type: "reply", text: "Confirm", postbackData: "slot=42" }],
    };
    await a.send({ kind: "rcs", ref: "1", to: number(1), messageId: "sb-4-1-r", body: withChip });
    await a.send({
      kind: "rcs",
      ref: "2",
      to: number(2),
      messageId: "sb-4-2-r",
      body: { type: "text", text: "How was it?", suggestions: [] },
    });
    await sim.idle();
    const byFrom = new Map(ours.received.inbound.map((m) => [m.from, m]));
    expect(byFrom.get(number(1))).toMatchObject({ postbackData: "slot=42", text: "Confirm", to: sim.agentId });
    expect(byFrom.get(number(2))).toMatchObject({ text: "Thanks!", to: sim.agentId });
    expect(byFrom.get(number(2))?.postbackData).toBeUndefined();
    expect(ours.received.inbound.every((m) => m.receivedAt instanceof Date && m.providerMessageId !== "")).toBe(true);
  });

  it("expires an undelivered message at its ttl and says so by event", async () => {
    const ours = await endpoint(CLIENT_TOKEN);
    const sim = await simulator({ webhookUrl: ours.url });
    sim.setOffline(number(7), true);
    const a = adapterFor(sim);
    const outcome = await a.send({
      kind: "rcs",
      ref: "7",
      to: number(7),
      messageId: "sb-5-7-ttl",
      body: { type: "text", text: "only for a second", suggestions: [] },
      ttlSeconds: 1,
    });
    if (!outcome.ok) throw new Error(outcome.errorCode);
    for (let i = 0; i < 60 && ours.received.reports.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(ours.received.reports).toEqual([
      { providerMessageId: outcome.providerMessageId, status: "expired", doneAt: expect.any(Date) },
    ]);
    expect(sim.messageState(outcome.providerMessageId)).toBe("expired");
    expect(await a.revoke({ to: number(7), providerMessageId: outcome.providerMessageId })).toEqual({
      ok: true,
      revoked: false,
    });
  });

  it("retries pushes a webhook refuses, then drops them", async () => {
    const theirs = await endpoint("not-the-simulators-token");
    const sim = await simulator({ webhookUrl: theirs.url, webhookRetries: 2, webhookRetryBaseMs: 5 });
    sim.pushUserMessage({ from: number(9), text: "hello?" });
    await sim.idle();
    expect(theirs.received.refused).toBe(3);
    expect(sim.stats()).toMatchObject({ webhookPosts: 3, webhookRetries: 2, webhookDropped: 1, eventsAcked: 0 });
  });
});
