import { describe, expect, it } from "vitest";
import { displayMoney, formatMoney, MAX_BALANCE_UNITS } from "../src/money";

describe("displayMoney: amounts in message texts, read like the web client shows them", () => {
  it.each([
    [0n, "0.00"],
    [99_991_200n / 10n, "999.91"],
    [166_920n, "16.69"],
    [9_999_950n, "1,000.00"],
    [250n, "0.03"],
    [49n, "0.00"],
    [-12_345_000n, "-1,234.50"],
    [-49n, "0.00"],
    [MAX_BALANCE_UNITS, "1,000,000,000,000.00"],
  ])("%s units -> %s", (units, text) => {
    expect(displayMoney(units)).toBe(text);
  });

  it("rounds a limit down to what a request (2 decimals) may really carry", () => {
    expect(displayMoney(250n, { round: "down" })).toBe("0.02");
    expect(displayMoney(450_000n, { round: "down" })).toBe("45.00");
    expect(displayMoney(99n, { round: "down" })).toBe("0.00");
  });

  it("leaves API fields to the exact form", () => {
    expect(formatMoney(166_920n)).toBe("16.6920");
  });
});
