// The number sorter holds a file's valid numbers compactly (digits in a double, an open-addressing index): what it
// answers must be what a string list and a Map would answer, at any size.
import { RejectReason } from "@switchboard/contracts";
import { describe, expect, it } from "vitest";
import { decodeOutcome, NumberSorter } from "../src/batches/number-sorter";

describe("NumberSorter", () => {
  it("keeps valid distinct numbers in input order with their country, and rejects invalid and duplicate ones", () => {
    const sorted = new NumberSorter({ domesticCountry: null }, true);
    for (const raw of ["+12025550181", "garbage", "+8613912345678", "0012025550181", " +33 6 12 34 56 78 ", "+1"])
      sorted.add(raw);
    expect(sorted.size).toBe(3);
    expect(sorted.phoneList()).toEqual(["+12025550181", "+8613912345678", "+33612345678"]);
    expect([0, 1, 2].map((i) => sorted.country(i))).toEqual(["US", "CN", "FR"]);
    expect([sorted.total, sorted.invalid, sorted.duplicate]).toEqual([6, 2, 1]);
    expect(sorted.rejectedRaw).toEqual(["garbage", "0012025550181", "+1"]);
    expect(sorted.rejectedReason).toEqual([RejectReason.INVALID, RejectReason.DUPLICATE, RejectReason.INVALID]);
    expect(sorted.outcomes?.map(decodeOutcome)).toEqual([
      { kind: "valid", index: 0 },
      { kind: "invalid" },
      { kind: "valid", index: 1 },
      { kind: "duplicate", index: 0 },
      { kind: "valid", index: 2 },
      { kind: "invalid" },
    ]);
    expect(sorted.countByCountry()).toEqual(
      new Map([
        ["US", 1],
        ["CN", 1],
        ["FR", 1],
      ]),
    );
  });

  it("answers as a list and a map would for 300,000 numbers, a third of them repeated (its index grows many times)", () => {
    const sorted = new NumberSorter({ domesticCountry: null }, true);
    const expected: string[] = [];
    const firstAt = new Map<string, number>();
    const outcomes: number[] = [];
    // US numbers spread over the whole range, and 15-digit Chinese ones (the longest E.164 numbers there are).
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (let n = 0; n < 300_000; n++) {
      const repeat = n % 3 === 2 && expected.length > 0;
      const phone = repeat
        ? (expected[next() % expected.length] as string)
        : n % 2 === 0
          ? `+1212${String(2_000_000 + (next() % 8_000_000)).padStart(7, "0")}`
          : `+86138${String(next() % 100_000_000).padStart(8, "0")}`;
      sorted.add(phone);
      const first = firstAt.get(phone);
      if (first === undefined) {
        firstAt.set(phone, expected.length);
        outcomes.push(expected.length);
        expected.push(phone);
      } else outcomes.push(-2 - first);
    }
    expect(sorted.size).toBe(expected.length);
    expect(sorted.duplicate).toBe(300_000 - expected.length);
    expect(sorted.phoneList()).toEqual(expected);
    expect(sorted.outcomes).toEqual(outcomes);
    const countries = sorted.countByCountry();
    expect((countries.get("US") ?? 0) + (countries.get("CN") ?? 0)).toBe(expected.length);
    const seen: string[] = [];
    sorted.forEach((phone, country, i) => {
      if (i < 3) seen.push(`${phone} ${country}`);
    });
    expect(seen).toEqual(expected.slice(0, 3).map((p) => `${p} ${p.startsWith("+1") ? "US" : "CN"}`));
  });
});
