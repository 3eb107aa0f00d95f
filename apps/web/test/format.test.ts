import { describe, expect, it } from "vitest";
import { formatMoney, formatNumber, formatPrice } from "../src/lib/format";

describe("formatNumber", () => {
  it.each([
    [0, "0"],
    [7, "7"],
    [999, "999"],
    [999.5, "999.5"],
    [-999, "-999"],
    ["42", "42"],
  ])("keeps %s below 1000 plain: %s", (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it.each([
    [1000, "1,000"],
    [12345, "12,345"],
    [1234567, "1,234,567"],
    [-1234567.5, "-1,234,567.5"],
    ["9876543210", "9,876,543,210"],
    [12345678901234567890n, "12,345,678,901,234,567,890"],
    [0.1 + 0.2 + 1000, "1,000.3"],
  ])("separates thousands from 1000 on: %s -> %s", (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });

  it("rounds to the maximum number of fraction digits", () => {
    expect(formatNumber(1234.56789)).toBe("1,234.5679");
    expect(formatNumber("1234.5", { maxFraction: 0 })).toBe("1,235");
  });

  it("shows an empty value for missing or unreadable input", () => {
    expect(formatNumber(null)).toBe("-");
    expect(formatNumber(undefined)).toBe("-");
    expect(formatNumber("")).toBe("-");
    expect(formatNumber("abc")).toBe("-");
    expect(formatNumber(Number.NaN, { empty: "" })).toBe("");
  });
});

describe("formatMoney: amounts (balances, costs, totals) with exactly 2 decimals", () => {
  it.each([
    ["1234.5000", "1,234.50"],
    ["0.0000", "0.00"],
    ["12", "12.00"],
    ["999.9120", "999.91"],
    ["999.912", "999.91"],
    ["16.6920", "16.69"],
    ["999.9950", "1,000.00"],
    ["1000000.0000", "1,000,000.00"],
    ["0.1234", "0.12"],
    ["0.0049", "0.00"],
    ["12.3450", "12.35"],
    ["-2500.1000", "-2,500.10"],
    ["-0.0040", "0.00"],
    ["1234.56785", "1,234.57"],
    ["99999999999999999.99995", "100,000,000,000,000,000.00"],
    [1234.5, "1,234.50"],
    [0.1 + 0.2, "0.30"],
  ])("%s -> %s", (value, expected) => {
    expect(formatMoney(value)).toBe(expected);
  });

  it("puts the tenant's currency after the figure when given", () => {
    expect(formatMoney("16.6920", { currency: "CNY" })).toBe("16.69 CNY");
    expect(formatMoney("1234567", { currency: "USD" })).toBe("1,234,567.00 USD");
    expect(formatMoney("5", { currency: "" })).toBe("5.00");
    expect(formatMoney("5", { currency: undefined })).toBe("5.00");
    expect(formatMoney(null, { currency: "CNY" })).toBe("-");
  });

  it("shows an empty value for missing or unreadable input", () => {
    expect(formatMoney(null)).toBe("-");
    expect(formatMoney(undefined)).toBe("-");
    expect(formatMoney("12,00")).toBe("-");
    expect(formatMoney("", { empty: "" })).toBe("");
  });
});

describe("formatPrice: unit prices with 2 to 4 decimals", () => {
  it.each([
    ["0.0118", "0.0118"],
    ["0.0500", "0.05"],
    ["0.0000", "0.00"],
    ["12.3450", "12.345"],
    ["3", "3.00"],
    ["1200.0000", "1,200.00"],
    ["10000.0000", "10,000.00"],
    ["0.01185", "0.0119"],
    [0.0035, "0.0035"],
  ])("%s -> %s", (value, expected) => {
    expect(formatPrice(value)).toBe(expected);
  });

  it("takes the currency and the empty text like formatMoney", () => {
    expect(formatPrice("0.0118", { currency: "CNY" })).toBe("0.0118 CNY");
    expect(formatPrice(undefined)).toBe("-");
  });
});
