// GET /metrics: only for allowed addresses (loopback by default) or the METRICS_TOKEN bearer, 404 for everybody
// else; request durations labelled by route pattern (never the URL with its ids) and status; webhook intake by
// provider and outcome.
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { signWhatsappPayload } from "@switchboard/channels/whatsapp";
import { metricsGuard } from "@switchboard/domain/metrics-guard";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, demoTenantId, type TestContext, uniqueName } from "./helpers";

const TOKEN = "metrics-token-for-the-tests-0123";
let t: TestContext;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: "127.0.0.1,10.9.0.0/16" });
});

afterAll(async () => {
  await t.close();
});

const scrape = (o: { ip?: string; token?: string } = {}) =>
  t.app.inject({
    method: "GET",
    url: "/metrics",
    remoteAddress: o.ip ?? "127.0.0.1",
    headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
  });

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, prefix: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("GET /metrics", () => {
  it("answers loopback and the allowed range, and the token from anywhere; 404 to everybody else", async () => {
    expect((await scrape()).statusCode).toBe(200);
    expect((await scrape({ ip: "::ffff:127.0.0.1" })).statusCode).toBe(200);
    expect((await scrape({ ip: "10.9.3.4" })).statusCode).toBe(200);
    const outsider = await scrape({ ip: "203.0.113.7" });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.body).not.toContain("switchboard_");
    expect((await scrape({ ip: "203.0.113.7", token: "wrong-token-wrong-token" })).statusCode).toBe(404);
    const withToken = await scrape({ ip: "203.0.113.7", token: TOKEN });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("labels request durations with the route pattern and the status, never the URL", async () => {
    await t.app.inject({ method: "GET", url: "/healthz" });
    await t.app.inject({ method: "GET", url: "/no/such/path/0891234567" });
    const res = await t.app.inject({ method: "GET", url: "/webhooks/whatsapp/987654321" });
    expect(res.statusCode).toBe(404);
    const text = (await scrape()).body;
    expect(
      sample(text, 'switchboard_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'switchboard_http_request_duration_seconds_count{method="GET",route="/webhooks/whatsapp/:channelId",status="404"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'switchboard_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain("0891234567");
    expect(text).not.toContain("987654321");
  });

  it("counts webhook intake per provider: accepted, rejected, unknown channel", async () => {
    const tenantId = await demoTenantId(t.prisma);
    const appSecret = "app-secret-for-metrics-tests";
    const channel = await t.prisma.channel.create({
      data: {
        tenantId,
        name: uniqueName("wa"),
        kind: "whatsapp",
        productCode: 2000,
        config: { baseUrl: "https://graph.facebook.com", apiVersion: "v21.0", phoneNumberId: "1234567890" },
        secrets: encryptSecrets(channelSecretKey(t.config.CHANNEL_SECRET_KEY), tenantId, {
          accessToken: "token",
          appSecret,
          webhookVerifyToken: "verify",
        }),
        throughput: 80,
      },
    });
    const before = (await scrape()).body;
    const key = (outcome: string) => `switchboard_webhook_events_total{provider="whatsapp",outcome="${outcome}"}`;
    const body = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
    const post = (signature: string) =>
      t.app.inject({
        method: "POST",
        url: `/webhooks/whatsapp/${channel.id}`,
        headers: { "content-type": "application/json", "x-hub-signature-256": signature },
        payload: body,
      });
    expect((await post(signWhatsappPayload(body, appSecret))).statusCode).toBe(200);
    expect((await post(signWhatsappPayload(body, appSecret))).statusCode).toBe(200);
    expect((await post(signWhatsappPayload(body, "forged"))).statusCode).toBe(401);
    const after = (await scrape()).body;
    const delta = (outcome: string) => (sample(after, key(outcome)) ?? 0) - (sample(before, key(outcome)) ?? 0);
    expect(delta("accepted")).toBe(2);
    expect(delta("rejected")).toBe(1);
    // the earlier test's call to a channel that does not exist
    expect(sample(after, key("unknown_channel"))).toBeGreaterThanOrEqual(1);
  });
});

describe("metricsGuard", () => {
  it("matches addresses, ranges, IPv6 and the token; no token configured means addresses only", () => {
    const guard = metricsGuard({ allow: ["127.0.0.1", "::1", "172.16.0.0/12"] });
    expect(guard("127.0.0.1", undefined)).toBe(true);
    expect(guard("::1", undefined)).toBe(true);
    expect(guard("172.20.1.2", undefined)).toBe(true);
    expect(guard("172.32.0.1", undefined)).toBe(false);
    expect(guard("8.8.8.8", "Bearer ")).toBe(false);
    const withToken = metricsGuard({ allow: [], token: "a-long-enough-token" });
    expect(withToken("127.0.0.1", undefined)).toBe(false);
    expect(withToken("8.8.8.8", "Bearer a-long-enough-token")).toBe(true);
    expect(withToken("8.8.8.8", "Basic a-long-enough-token")).toBe(false);
  });
});
