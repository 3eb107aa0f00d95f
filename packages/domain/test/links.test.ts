// Tracked links' codes and rendering (src/links/): a code decodes to the recipient and link it was made for, has
// the fixed length the segment count assumes, and anything else (another key, one changed character, a forged
// index, a malformed string) decodes to nothing.
import { randomBytes } from "node:crypto";
import {
  batchContent,
  batchLinks,
  LINK_CODE_LENGTH,
  ProductCode,
  shortLinkLength,
  textAsSent,
} from "@switchboard/contracts";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { decodeLinkCode, encodeLinkCode, linkRendererFor, linkSettings, renderLinks, withLinkBase } from "../src/links";

const key = randomBytes(32);
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("link codes", () => {
  it("decode to the recipient and link index they were made for, at a fixed length", () => {
    for (const recipientId of [0n, 1n, 42n, 9_007_199_254_740_993n, (1n << 61n) - 1n]) {
      for (const linkIndex of [0, 1, 4]) {
        const code = encodeLinkCode(key, { recipientId, linkIndex });
        expect(code).toMatch(/^[0-9A-Za-z]+$/);
        expect(code).toHaveLength(LINK_CODE_LENGTH);
        expect(decodeLinkCode(key, code)).toEqual({ recipientId, linkIndex });
      }
    }
  });

  it("differ between neighbouring recipients and links (nothing to read off a sequence)", () => {
    const a = encodeLinkCode(key, { recipientId: 1000n, linkIndex: 0 });
    const b = encodeLinkCode(key, { recipientId: 1001n, linkIndex: 0 });
    const c = encodeLinkCode(key, { recipientId: 1000n, linkIndex: 1 });
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it("refuse a code made with another key", () => {
    const code = encodeLinkCode(randomBytes(32), { recipientId: 77n, linkIndex: 0 });
    expect(decodeLinkCode(key, code)).toBeNull();
  });

  it("refuse every one-character change of a valid code", () => {
    const code = encodeLinkCode(key, { recipientId: 123_456n, linkIndex: 2 });
    for (let i = 0; i < code.length; i++) {
      for (const c of [ALPHABET[(ALPHABET.indexOf(code[i] as string) + 1) % 62], "z", "0"]) {
        if (c === code[i]) continue;
        const forged = code.slice(0, i) + c + code.slice(i + 1);
        expect(decodeLinkCode(key, forged)).toBeNull();
      }
    }
  });

  it("refuse a forged link index: the MAC covers it", () => {
    // The same recipient's code for link 0, with the payload's index bits changed and the MAC kept.
    const code = encodeLinkCode(key, { recipientId: 5n, linkIndex: 0 });
    let n = 0n;
    for (const ch of code) n = n * 62n + BigInt(ALPHABET.indexOf(ch));
    n += 1n << 48n; // link index 0 -> 1
    let forged = "";
    while (n > 0n) {
      forged = ALPHABET[Number(n % 62n)] + forged;
      n /= 62n;
    }
    expect(decodeLinkCode(key, forged.padStart(LINK_CODE_LENGTH, "0"))).toBeNull();
  });

  it("refuse malformed codes", () => {
    for (const bad of ["", "abc", "0".repeat(LINK_CODE_LENGTH), "z".repeat(LINK_CODE_LENGTH), "!".repeat(19)])
      expect(decodeLinkCode(key, bad)).toBeNull();
    expect(decodeLinkCode(key, `${encodeLinkCode(key, { recipientId: 1n, linkIndex: 0 })}0`)).toBeNull();
  });
});

describe("renderLinks", () => {
  const config = loadConfig({
    DATABASE_URL: "postgresql://x@y/z",
    JWT_SECRET: "j".repeat(32),
    CHANNEL_SECRET_KEY: "0".repeat(64),
    LINK_BASE_URL: "https://sb.example",
    LINK_SECRET: "s".repeat(32),
  });
  const settings = linkSettings(config);

  it("replaces each placeholder with the recipient's short link, exactly as long as counted", () => {
    const text =
      "Sale {{link:https://shop.example/a}} and {{link:https://shop.example/b?x=1}} and again {{link:https://shop.example/a}}";
    const links = batchLinks({ product: 3000, text } as never);
    expect(links).toEqual(["https://shop.example/a", "https://shop.example/b?x=1"]);
    const sent = renderLinks(text, { recipientId: 900n, links }, settings);
    const found = [...sent.matchAll(/https:\/\/sb\.example\/l\/([0-9A-Za-z]+)/g)].map((m) => m[1] as string);
    expect(found).toHaveLength(3);
    expect(found.map((c) => decodeLinkCode(settings.key, c))).toEqual([
      { recipientId: 900n, linkIndex: 0 },
      { recipientId: 900n, linkIndex: 1 },
      { recipientId: 900n, linkIndex: 0 },
    ]);
    expect(sent.length).toBe(textAsSent(text, shortLinkLength("https://sb.example")).length);
    expect(settings.linkLength).toBe("https://sb.example/l/".length + LINK_CODE_LENGTH);
  });

  it("leaves text without placeholders as it is", () => {
    expect(renderLinks("plain https://x.example", { recipientId: 1n, links: [] }, settings)).toBe(
      "plain https://x.example",
    );
  });

  it("defaults to PUBLIC_BASE_URL and a key derived from JWT_SECRET", () => {
    const c = loadConfig({
      DATABASE_URL: "postgresql://x@y/z",
      JWT_SECRET: "j".repeat(32),
      CHANNEL_SECRET_KEY: "0".repeat(64),
      PUBLIC_BASE_URL: "https://api.example/",
    });
    const s = linkSettings(c);
    expect(s.baseUrl).toBe("https://api.example");
    expect(s.key.equals(Buffer.from("j".repeat(32)))).toBe(false);
    expect(linkSettings(c).key.equals(s.key)).toBe(true);
  });
});

describe("a submitted content's links", () => {
  const settings = linkSettings(
    loadConfig({
      DATABASE_URL: "postgresql://x@y/z",
      JWT_SECRET: "j".repeat(32),
      CHANNEL_SECRET_KEY: "0".repeat(64),
      LINK_BASE_URL: "https://sb.example",
    }),
  );

  it("keep where they are served, whatever the client sent, and only when there are links", () => {
    const withLinks = batchContent.parse({
      product: ProductCode.SMS,
      text: "Go {{link:https://shop.example}}",
      linkBaseUrl: "https://evil.example",
    });
    expect(withLinkBase(withLinks, settings)).toMatchObject({ linkBaseUrl: "https://sb.example" });
    const without = batchContent.parse({ product: ProductCode.SMS, text: "Hi", linkBaseUrl: "https://evil.example" });
    expect(withLinkBase(without, settings)).toEqual({ product: ProductCode.SMS, text: "Hi" });
  });

  it("refuse a text the exact short links make longer than ten segments", () => {
    const text = `${"a".repeat(1530 - 60)}{{link:https://s.example/x}} {{link:https://s.example/y}}`;
    const content = batchContent.parse({ product: ProductCode.SMS, text });
    expect(() => withLinkBase(content, settings)).toThrowError(expect.objectContaining({ key: "batch.sms_too_long" }));
  });

  it("render in SMS text, RCS text and card descriptions, served from the content's own base", () => {
    const content = withLinkBase(
      batchContent.parse({
        product: ProductCode.RCS,
        body: {
          type: "carousel",
          cards: [
            { title: "a", description: "A {{link:https://x.example/1}}" },
            { title: "b", description: "B {{link:https://x.example/2}}" },
          ],
        },
        fallbackText: "SMS {{link:https://x.example/2}}",
      }),
      settings,
    );
    // The setting changed since the submission: the batch keeps its own base (its segments were priced with it).
    const later = { ...settings, baseUrl: "https://elsewhere.example", linkLength: 99 };
    const render = linkRendererFor(content, later);
    if (!render) throw new Error("no renderer");
    const rcs = render(
      { kind: "rcs", ref: "1", to: "+1", messageId: "m", body: (content as never as { body: never }).body },
      7n,
    );
    const cards = (rcs as { body: { cards: { description: string }[] } }).body.cards;
    expect(cards[0]?.description).toMatch(/^A https:\/\/sb\.example\/l\/[0-9A-Za-z]{19}$/);
    const code = cards[1]?.description.slice(-LINK_CODE_LENGTH) as string;
    expect(decodeLinkCode(settings.key, code)).toEqual({ recipientId: 7n, linkIndex: 1 });
    const sms = render({ ref: "1", to: "+1", text: "SMS {{link:https://x.example/2}}" }, 7n) as { text: string };
    expect(sms.text.slice(-LINK_CODE_LENGTH)).toBe(code);
    expect(linkRendererFor(batchContent.parse({ product: ProductCode.SMS, text: "none" }), settings)).toBeNull();
  });
});
