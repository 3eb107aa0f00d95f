import { describe, expect, it } from "vitest";
import { BatchStatus, batchContent, canTransition, chargeableUnits, contentText, ProductCode } from "../src";

const S = BatchStatus;

describe("batch status machine", () => {
  const allowed: Array<[number, number]> = [
    [S.UNDER_REVIEW, S.REVIEW_PASSED],
    [S.UNDER_REVIEW, S.REVIEW_REJECTED],
    [S.UNDER_REVIEW, S.SEND_CANCELLED],
    [S.REVIEW_PASSED, S.PENDING_SEND],
    [S.REVIEW_PASSED, S.SEND_CANCELLED],
    [S.PENDING_SEND, S.SENDING],
    [S.PENDING_SEND, S.SEND_CANCELLED],
    [S.SENDING, S.SEND_FINISHED],
    [S.SENDING, S.SEND_TERMINATED],
    [S.SENDING, S.SEND_FAILED],
  ];
  const all = Object.values(S);
  it.each(all.flatMap((from) => all.map((to) => [from, to] as const)))("%i -> %i", (from, to) => {
    expect(canTransition(from, to)).toBe(allowed.some(([f, t]) => f === from && t === to));
  });
  it("knows no unknown status", () => {
    expect(canTransition(99, S.SENDING)).toBe(false);
  });
});

describe("batch content", () => {
  it("accepts SMS text with a sender id and counts segments as chargeable units", () => {
    const c = batchContent.parse({ product: ProductCode.SMS, text: "a".repeat(161), senderId: "ACME" });
    expect(chargeableUnits(c)).toBe(2);
    expect(chargeableUnits(batchContent.parse({ product: ProductCode.SMS, text: "你好".repeat(36) }))).toBe(2);
  });

  it("refuses SMS over 10 parts, empty text and bad sender ids", () => {
    expect(batchContent.safeParse({ product: ProductCode.SMS, text: "a".repeat(1531) }).success).toBe(false);
    expect(batchContent.safeParse({ product: ProductCode.SMS, text: "中".repeat(671) }).success).toBe(false);
    expect(batchContent.safeParse({ product: ProductCode.SMS, text: "" }).success).toBe(false);
    expect(batchContent.safeParse({ product: ProductCode.SMS, text: "hi", senderId: "TWELVECHARSX" }).success).toBe(
      false,
    );
  });

  it("accepts WS text and templates, one unit each", () => {
    const t = batchContent.parse({
      product: ProductCode.WS,
      body: { type: "template", name: "order_update", language: "en_US", parameters: ["42"] },
    });
    expect(chargeableUnits(t)).toBe(1);
    expect(contentText(t)).toBe("order_update 42");
    expect(
      batchContent.safeParse({ product: ProductCode.WS, body: { type: "template", name: "Bad Name", language: "en" } })
        .success,
    ).toBe(false);
  });

  it("accepts RCS rich cards with suggestions and an SMS fallback", () => {
    const c = batchContent.parse({
      product: ProductCode.RCS,
      body: {
        type: "card",
        title: "Sale",
        description: "50% off",
        mediaUrl: "https://cdn.example/a.png",
        suggestions: [{ type: "url", text: "Open", url: "https://example.com" }],
      },
      fallbackText: "Sale: 50% off",
    });
    expect(contentText(c)).toContain("Sale");
    expect(
      batchContent.safeParse({
        product: ProductCode.RCS,
        body: { type: "card", title: "x", mediaUrl: "http://insecure" },
      }).success,
    ).toBe(false);
  });
});
