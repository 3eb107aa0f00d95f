// Provider webhooks: verified with the channel's own secret, stored raw before the 200, refused (and nothing
// stored) on a bad or missing signature, the WhatsApp subscription handshake, unknown channels.
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { signWhatsappPayload } from "@switchboard/channels/whatsapp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, demoTenantId, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let channelId: number;
const appSecret = "app-secret-for-webhook-tests";
const verifyToken = "verify-token-for-webhook-tests";

beforeAll(async () => {
  t = await createTestApp();
  const tenantId = await demoTenantId(t.prisma);
  const key = channelSecretKey(t.config.CHANNEL_SECRET_KEY);
  const channel = await t.prisma.channel.create({
    data: {
      tenantId,
      name: uniqueName("wa"),
      kind: "whatsapp",
      productCode: 2000,
      config: { baseUrl: "https://graph.facebook.com", apiVersion: "v21.0", phoneNumberId: "1234567890" },
      secrets: encryptSecrets(key, tenantId, { accessToken: "token", appSecret, webhookVerifyToken: verifyToken }),
      throughput: 80,
    },
  });
  channelId = channel.id;
});

afterAll(async () => {
  await t.close();
});

const stored = () => t.prisma.channelEvent.count({ where: { channelId } });

describe("WhatsApp webhook", () => {
  it("answers the subscription handshake with the challenge, and 403 to a wrong verify token", async () => {
    const ok = await t.app.inject({
      method: "GET",
      url: `/webhooks/whatsapp/${channelId}`,
      query: { "hub.mode": "subscribe", "hub.verify_token": verifyToken, "hub.challenge": "1158201444" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe("1158201444");
    const wrong = await t.app.inject({
      method: "GET",
      url: `/webhooks/whatsapp/${channelId}`,
      query: { "hub.mode": "subscribe", "hub.verify_token": "guess", "hub.challenge": "1" },
    });
    expect(wrong.statusCode).toBe(403);
  });

  it("stores a signed call before answering 200; a bad or missing signature is 401 and stores nothing", async () => {
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const before = await stored();
    const bad = await t.app.inject({
      method: "POST",
      url: `/webhooks/whatsapp/${channelId}`,
      headers: { "content-type": "application/json", "x-hub-signature-256": signWhatsappPayload(body, "other") },
      payload: body,
    });
    expect(bad.statusCode).toBe(401);
    const missing = await t.app.inject({
      method: "POST",
      url: `/webhooks/whatsapp/${channelId}`,
      headers: { "content-type": "application/json" },
      payload: body,
    });
    expect(missing.statusCode).toBe(401);
    expect(await stored()).toBe(before);
    // the signature covers the exact bytes: a body that JSON.parse would read the same but differs is refused
    const spaced = body.replace(":", ": ");
    const respaced = await t.app.inject({
      method: "POST",
      url: `/webhooks/whatsapp/${channelId}`,
      headers: { "content-type": "application/json", "x-hub-signature-256": signWhatsappPayload(body, appSecret) },
      payload: spaced,
    });
    expect(respaced.statusCode).toBe(401);

    const good = await t.app.inject({
      method: "POST",
      url: `/webhooks/whatsapp/${channelId}`,
      headers: { "content-type": "application/json", "x-hub-signature-256": signWhatsappPayload(body, appSecret) },
      payload: body,
    });
    expect(good.statusCode).toBe(200);
    const rows = await t.prisma.channelEvent.findMany({ where: { channelId }, orderBy: { id: "desc" }, take: 1 });
    expect(rows[0]?.body).toBe(body);
  });

  it("stores every one of many parallel calls (written together) and answers each", async () => {
    const before = await stored();
    const bodies = Array.from({ length: 50 }, (_, i) => JSON.stringify({ object: "whatsapp_business_account", n: i }));
    const answers = await Promise.all(
      bodies.map((body) =>
        t.app.inject({
          method: "POST",
          url: `/webhooks/whatsapp/${channelId}`,
          headers: { "content-type": "application/json", "x-hub-signature-256": signWhatsappPayload(body, appSecret) },
          payload: body,
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await stored()).toBe(before + 50);
  });

  it("answers 404 for an unknown channel or the wrong kind", async () => {
    expect((await t.app.inject({ method: "POST", url: "/webhooks/whatsapp/0x10", payload: "{}" })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: "POST", url: "/webhooks/whatsapp/999999", payload: "{}" })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: "POST", url: `/webhooks/rcs/${channelId}`, payload: "{}" })).statusCode).toBe(
      404,
    );
  });
});
