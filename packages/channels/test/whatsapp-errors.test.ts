import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyWhatsappError, createWhatsappAdapter, messagePayload, WA_ERROR } from "../src/whatsapp/index";

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("classifyWhatsappError", () => {
  it("decides by the documented code whatever the HTTP status or the deprecated subcode", () => {
    expect(classifyWhatsappError(WA_ERROR.UNDELIVERABLE, 2494010, 500)).toEqual({
      retryable: false,
      reason: "unreachable",
    });
    expect(classifyWhatsappError(WA_ERROR.ACCESS_TOKEN_EXPIRED, 463, 400)).toEqual({
      retryable: false,
      reason: "channel_auth",
    });
    expect(classifyWhatsappError(WA_ERROR.THROUGHPUT, 2494055, 400)).toEqual({
      retryable: true,
      reason: "throttled",
      retryAfterMs: 1_000,
    });
  });

  it("treats the whole 200-299 permission range as a channel problem", () => {
    for (const code of [200, 250, 299]) expect(classifyWhatsappError(code, undefined, 403).reason).toBe("channel_auth");
    expect(classifyWhatsappError(300, undefined, 400)).toEqual({ retryable: false, reason: "provider" });
  });

  it("falls back to the HTTP status for unknown or missing codes", () => {
    expect(classifyWhatsappError(undefined, undefined, 429)).toEqual({ retryable: true, reason: "throttled" });
    expect(classifyWhatsappError(999_999, undefined, 502)).toEqual({ retryable: true, reason: "provider" });
    expect(classifyWhatsappError(undefined, undefined, 401)).toEqual({ retryable: false, reason: "channel_auth" });
    expect(classifyWhatsappError(undefined, undefined, 403)).toEqual({ retryable: false, reason: "channel_auth" });
    expect(classifyWhatsappError(undefined, undefined, 404)).toEqual({ retryable: false, reason: "provider" });
  });
});

describe("send failures without a Graph API error object", () => {
  it("never quote the far side's body, and honour Retry-After", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(503, { "content-type": "text/html", "retry-after": "7" });
      res.end("<html>internal-db-password=hunter2</html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const a = createWhatsappAdapter({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      phoneNumberId: "1",
      accessToken: "t",
    });
    cleanups.push(() => a.close());
    const outcome = await a.send({
      kind: "whatsapp",
      ref: "r",
      to: "+447911123456",
      body: { type: "text", text: "x", previewUrl: false },
    });
    expect(outcome).toEqual({
      ok: false,
      retryable: true,
      errorCode: "HTTP_503",
      detail: "HTTP 503",
      reason: "provider",
      retryAfterMs: 7_000,
    });
  });

  it("a 200 without a message id is not retried (it may have been accepted)", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"messaging_product":"whatsapp","messages":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const a = createWhatsappAdapter({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graph`,
      phoneNumberId: "1",
      accessToken: "t",
    });
    cleanups.push(() => a.close());
    const outcome = await a.send({
      kind: "whatsapp",
      ref: "r",
      to: "1",
      body: { type: "text", text: "x", previewUrl: false },
    });
    expect(outcome).toMatchObject({ ok: false, retryable: false, errorCode: "NO_MESSAGE_ID" });
  });
});

describe("messagePayload", () => {
  it("leaves out the caption and filename when there are none, and filename on non-documents", () => {
    expect(messagePayload({ type: "media", mediaType: "image", link: "https://x.example/a.png" })).toEqual({
      type: "image",
      image: { link: "https://x.example/a.png" },
    });
    expect(
      messagePayload({ type: "media", mediaType: "image", link: "https://x.example/a.png", filename: "a.png" }),
    ).toEqual({ type: "image", image: { link: "https://x.example/a.png" } });
  });

  it("sends document and video template headers as media parameters", () => {
    const payload = messagePayload({
      type: "template",
      name: "invoice_ready",
      language: "en_US",
      header: { type: "document", link: "https://x.example/i.pdf" },
      parameters: ["7"],
      buttons: [],
    });
    expect(payload).toEqual({
      type: "template",
      template: {
        name: "invoice_ready",
        language: { code: "en_US" },
        components: [
          { type: "header", parameters: [{ type: "document", document: { link: "https://x.example/i.pdf" } }] },
          { type: "body", parameters: [{ type: "text", text: "7" }] },
        ],
      },
    });
  });
});
