// Tracked link placeholders in a batch's content (links.ts, batches.ts): http(s) targets only, at most
// MAX_LINKS_PER_BATCH distinct ones, and segments counted with the short link's length.
import { describe, expect, it } from "vitest";
import {
  batchContent,
  batchLinks,
  chargeableUnits,
  LINK_CODE_LENGTH,
  MAX_LINKS_PER_BATCH,
  ProductCode,
  shortLinkLength,
} from "../src";

const sms = (text: string) => ({ product: ProductCode.SMS, text });

describe("tracked link placeholders", () => {
  it("accept http and https targets", () => {
    expect(
      batchContent.safeParse(sms("Hi {{link:https://shop.example/a?b=1}} {{link:http://x.example}}")).success,
    ).toBe(true);
  });

  it("refuse other schemes, relative and empty targets, naming the message key", () => {
    for (const bad of ["javascript:alert(1)", "ftp://x.example", "/relative", "", "https://"]) {
      const r = batchContent.safeParse(sms(`Hi {{link:${bad}}}`));
      expect(r.success, bad).toBe(false);
      const issue = r.error?.issues[0] as { params?: { i18n?: string } } | undefined;
      expect(issue?.params?.i18n).toBe("link.target_invalid");
    }
  });

  it("refuse more distinct links than the limit, in SMS and across RCS texts", () => {
    const many = Array.from({ length: MAX_LINKS_PER_BATCH + 1 }, (_, i) => `{{link:https://x.example/${i}}}`);
    const r = batchContent.safeParse(sms(many.join(" ")));
    expect((r.error?.issues[0] as { params?: { i18n?: string } } | undefined)?.params?.i18n).toBe("link.too_many");
    const rcs = batchContent.safeParse({
      product: ProductCode.RCS,
      body: { type: "text", text: many.slice(0, 3).join(" ") },
      fallbackText: many.slice(3).join(" "),
    });
    expect(rcs.success).toBe(false);
    // The same link repeated counts once.
    expect(batchContent.safeParse(sms(Array(8).fill("{{link:https://x.example}}").join(" "))).success).toBe(true);
  });

  it("list a batch's links in order of first appearance over its texts", () => {
    const content = batchContent.parse({
      product: ProductCode.RCS,
      body: {
        type: "carousel",
        cards: [
          { title: "a", description: "{{link:https://x.example/2}}" },
          { title: "b", description: "{{link:https://x.example/1}} {{link:https://x.example/2}}" },
        ],
      },
      fallbackText: "{{link:https://x.example/3}} {{link:https://x.example/1}}",
    });
    expect(batchLinks(content)).toEqual(["https://x.example/2", "https://x.example/1", "https://x.example/3"]);
  });

  it("count the short link's length in the segments once the submission set where links are served", () => {
    const base = "https://sb.example";
    const length = shortLinkLength(base);
    expect(length).toBe(base.length + 3 + LINK_CODE_LENGTH);
    // 120 characters plus one short link of 40: 160 fit one segment, one character more does not.
    const fits = { ...sms(`${"a".repeat(160 - length)}{{link:https://shop.example/a-long-path-that-is-not-sent}}`) };
    expect(chargeableUnits(batchContent.parse({ ...fits, linkBaseUrl: base }))).toBe(1);
    const over = sms(`${"a".repeat(161 - length)}{{link:https://shop.example/x}}`);
    expect(chargeableUnits(batchContent.parse({ ...over, linkBaseUrl: base }))).toBe(2);
    // Before that (a content not submitted), placeholders count as they are written.
    expect(chargeableUnits(batchContent.parse(over))).toBe(1);
  });
});
