// The webhook signature check against the scheme as documented (OpenAPI `webhooks`, docs/api-keys.md), computed
// here with node:crypto independently of the SDK's Web Crypto code. That the platform's own signer agrees is
// apps/api/test/sdk.test.ts's job (a base package's tests import no other workspace).
import { createHash, createHmac } from "node:crypto";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  parseWebhookEvent,
  signWebhookPayload,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
  WebhookSignatureError,
} from "../src/index";

const SECRET = "sk_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg";
const NOW = 1_800_000_000;
const at = (seconds: number) => ({ now: seconds * 1000 });

/** The documented scheme: key = sha256_hex(secret key); v1 = hmac_sha256_hex(key, t + "." + raw body). */
function documented(body: string, secret: string, t: number): string {
  const key = createHash("sha256").update(secret, "utf8").digest("hex");
  return `t=${t},v1=${createHmac("sha256", key).update(`${t}.${body}`, "utf8").digest("hex")}`;
}

const event: WebhookEvent<"inbound"> = {
  event: "inbound",
  eventId: "evt_1",
  createdAt: "2027-01-15T08:00:00.000Z",
  data: {
    inboundId: "12",
    batchId: "34",
    recipientId: "56",
    from: "+8613800138000",
    text: "好的，谢谢 👍",
    postbackData: null,
    inReplyTo: null,
    receivedAt: "2027-01-15T07:59:59.000Z",
  },
};
const body = JSON.stringify(event);

describe("verifyWebhookSignature", () => {
  it("accepts the documented signature of the raw body, from every kind of headers object", async () => {
    const header = documented(body, SECRET, NOW);
    expect(await verifyWebhookSignature(body, { [WEBHOOK_SIGNATURE_HEADER]: header }, SECRET, at(NOW))).toBe(true);
    // Node's req.headers (lower case), fetch's Headers, the body as bytes (a Buffer is a Uint8Array)
    expect(await verifyWebhookSignature(body, { "x-switchboard-signature": header }, SECRET, at(NOW))).toBe(true);
    const headers = new Headers({ "X-Switchboard-Signature": header });
    expect(await verifyWebhookSignature(Buffer.from(body), headers, SECRET, at(NOW))).toBe(true);
    expect(await verifyWebhookSignature(new TextEncoder().encode(body), headers, SECRET, at(NOW))).toBe(true);
  });

  it("signs exactly as documented", async () => {
    expect(await signWebhookPayload(body, SECRET, NOW)).toBe(documented(body, SECRET, NOW));
    expect(await signWebhookPayload("", SECRET, 0)).toBe(documented("", SECRET, 0));
    await expect(signWebhookPayload(body, SECRET, -1)).rejects.toThrow(RangeError);
    await expect(signWebhookPayload(body, SECRET, 1.5)).rejects.toThrow(RangeError);
  });

  it("accepts a timestamp within the tolerance either side, and refuses one outside it", async () => {
    const headers = { "x-switchboard-signature": documented(body, SECRET, NOW) };
    expect(await verifyWebhookSignature(body, headers, SECRET, at(NOW + 300))).toBe(true);
    expect(await verifyWebhookSignature(body, headers, SECRET, at(NOW - 300))).toBe(true);
    expect(await verifyWebhookSignature(body, headers, SECRET, at(NOW + 301))).toBe(false);
    expect(await verifyWebhookSignature(body, headers, SECRET, at(NOW - 301))).toBe(false);
    expect(
      await verifyWebhookSignature(body, headers, SECRET, { now: (NOW + 3600) * 1000, toleranceSeconds: 3600 }),
    ).toBe(true);
    // the default clock: a signature made now passes, an hour-old one does not
    const fresh = { "x-switchboard-signature": await signWebhookPayload(body, SECRET) };
    expect(await verifyWebhookSignature(body, fresh, SECRET)).toBe(true);
    const old = {
      "x-switchboard-signature": await signWebhookPayload(body, SECRET, Math.floor(Date.now() / 1000) - 3600),
    };
    expect(await verifyWebhookSignature(body, old, SECRET)).toBe(false);
  });

  it("refuses another key, another body, another time in the signed text, and malformed headers", async () => {
    const header = documented(body, SECRET, NOW);
    const check = (b: string, h: string | undefined, secret = SECRET) =>
      verifyWebhookSignature(b, h === undefined ? {} : { "x-switchboard-signature": h }, secret, at(NOW));
    expect(await check(body, header, `${SECRET}x`)).toBe(false);
    expect(await check(`${body} `, header)).toBe(false);
    expect(await check(JSON.stringify(JSON.parse(body), null, 2), header)).toBe(false);
    // the v1 of one timestamp under another t
    expect(await check(body, header.replace(`t=${NOW}`, `t=${NOW + 1}`))).toBe(false);
    expect(await check(body, undefined)).toBe(false);
    expect(await check(body, "")).toBe(false);
    expect(await check(body, header.replace("t=", "ts="))).toBe(false);
    expect(await check(body, `t=${NOW}`)).toBe(false);
    expect(await check(body, header.toUpperCase().replace("T=", "t=").replace("V1=", "v1="))).toBe(false);
    expect(await check(body, header.slice(0, -2))).toBe(false);
    expect(await check(body, `t=abc,${header.split(",")[1]}`)).toBe(false);
    expect(await check(body, header, "")).toBe(false);
  });

  it("accepts any matching v1 among several, and tolerates spaces and unknown fields", async () => {
    const header = documented(body, SECRET, NOW);
    const v1 = header.split(",")[1]!;
    const other = documented(body, "sk_other", NOW).split(",")[1]!;
    const check = (h: string) => verifyWebhookSignature(body, { "x-switchboard-signature": h }, SECRET, at(NOW));
    expect(await check(`t=${NOW},${other},${v1}`)).toBe(true);
    expect(await check(`t=${NOW}, v0=abc, ${v1}`)).toBe(true);
    expect(await check(`t=${NOW},${other}`)).toBe(false);
  });
});

describe("parseWebhookEvent", () => {
  it("answers the typed event of a signed body and refuses an unsigned one", async () => {
    const header = await signWebhookPayload(body, SECRET, NOW);
    const parsed = await parseWebhookEvent(body, { "x-switchboard-signature": header }, SECRET, at(NOW));
    expect(parsed).toEqual(event);
    if (parsed.event === "inbound") expectTypeOf(parsed.data.from).toEqualTypeOf<string>();
    if (parsed.event === "batch_finished") expectTypeOf(parsed.data.refunded).toEqualTypeOf<string>();
    await expect(parseWebhookEvent(body, {}, SECRET, at(NOW))).rejects.toThrow(WebhookSignatureError);
  });

  it("types every event of the catalogue by its name", () => {
    expectTypeOf<WebhookEvent["event"]>().toEqualTypeOf<
      "batch_finished" | "batch_status" | "delivery_report" | "message_fallback" | "inbound" | "opt_out"
    >();
    expectTypeOf<WebhookEvent<"batch_finished">["data"]["batchId"]>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEvent<"batch_status">["data"]["change"]>().toEqualTypeOf<
      "review_passed" | "review_rejected" | "scheduled" | "sending" | "finished" | "terminated" | "failed" | "cancelled"
    >();
    expectTypeOf<WebhookEvent<"opt_out">["data"]["phone"]>().toEqualTypeOf<string>();
    expectTypeOf<WebhookEvent<"message_fallback">["data"]["messages"][number]["recipientId"]>().toEqualTypeOf<string>();
  });
});
