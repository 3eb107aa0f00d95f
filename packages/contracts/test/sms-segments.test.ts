import { describe, expect, it } from "vitest";
import { countSegments, detectEncoding, splitSegments } from "../src/sms-segments";

describe("detectEncoding", () => {
  it("keeps GSM-7 for the default alphabet and the extension table", () => {
    expect(detectEncoding("Hello @£$¥ ÄÖÑÜ§¿ äöñüà Δ_ΦΓ\n\r")).toBe("gsm7");
    expect(detectEncoding("^{}\\[~]|€")).toBe("gsm7");
  });

  it("falls back to UCS-2 for anything else", () => {
    expect(detectEncoding("naïve")).toBe("ucs2");
    expect(detectEncoding("你好")).toBe("ucs2");
    expect(detectEncoding("ok 👍")).toBe("ucs2");
    expect(detectEncoding("`")).toBe("ucs2");
    expect(detectEncoding("\x1b")).toBe("ucs2");
  });
});

describe("countSegments", () => {
  it.each([
    [0, 0],
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
    [459, 3],
    [460, 4],
  ])("GSM-7 with %i characters is %i segment(s)", (length, segments) => {
    const count = countSegments("a".repeat(length));
    expect(count).toEqual({
      encoding: "gsm7",
      characters: length,
      segments,
      perSegment: length > 160 ? 153 : 160,
    });
  });

  it("counts extension characters as two septets", () => {
    expect(countSegments("€").characters).toBe(2);
    expect(countSegments("a{b}").characters).toBe(6);
    expect(countSegments("€".repeat(80))).toMatchObject({ characters: 160, segments: 1 });
    expect(countSegments(`${"€".repeat(80)}a`)).toMatchObject({ characters: 161, segments: 2 });
  });

  it.each([
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
  ])("UCS-2 with %i code units is %i segment(s)", (length, segments) => {
    const count = countSegments("ж".repeat(length));
    expect(count).toEqual({
      encoding: "ucs2",
      characters: length,
      segments,
      perSegment: length > 70 ? 67 : 70,
    });
  });

  it("counts emoji as two UTF-16 code units", () => {
    expect(countSegments("👍".repeat(35))).toMatchObject({ encoding: "ucs2", characters: 70, segments: 1 });
  });

  it("counts an extension character pushed to the next part", () => {
    // 152 plain septets + "€" (2) would straddle the 153 boundary, so the escape moves whole to part 2.
    const text = `${"a".repeat(152)}€${"b".repeat(152)}`;
    expect(countSegments(text)).toMatchObject({ characters: 306, segments: 3 });
  });
});

describe("splitSegments", () => {
  it("returns nothing for empty text and the text itself when it fits", () => {
    expect(splitSegments("")).toEqual([]);
    expect(splitSegments("hi")).toEqual(["hi"]);
    expect(splitSegments("a".repeat(160))).toEqual(["a".repeat(160)]);
  });

  it("splits GSM-7 at 153 septets", () => {
    const parts = splitSegments("a".repeat(307));
    expect(parts.map((p) => p.length)).toEqual([153, 153, 1]);
    expect(parts.join("")).toBe("a".repeat(307));
  });

  it("never splits an extension character across parts", () => {
    const text = `${"a".repeat(152)}€${"b".repeat(10)}`;
    const parts = splitSegments(text);
    expect(parts).toEqual(["a".repeat(152), `€${"b".repeat(10)}`]);
    for (const part of parts) expect(countSegments(part).characters).toBeLessThanOrEqual(153);
  });

  it("splits UCS-2 at 67 code units", () => {
    const parts = splitSegments("ж".repeat(135));
    expect(parts.map((p) => p.length)).toEqual([67, 67, 1]);
  });

  it("never splits a surrogate pair", () => {
    const text = `${"ж".repeat(66)}👍${"ж".repeat(10)}`;
    const parts = splitSegments(text);
    expect(parts).toEqual(["ж".repeat(66), `👍${"ж".repeat(10)}`]);
    const emoji = splitSegments("👍".repeat(40));
    expect(emoji.map((p) => p.length)).toEqual([66, 14]);
    expect(emoji.join("")).toBe("👍".repeat(40));
  });
});
