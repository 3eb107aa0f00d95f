import { describe, expect, it } from "vitest";
import { formatMoney, formatNumber } from "../src/lib/format";

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

describe("formatMoney", () => {
  it.each([
    ["1234.5000", "1,234.50"],
    ["0.0000", "0.00"],
    ["12", "12.00"],
    ["999.9900", "999.99"],
    ["1000000.0000", "1,000,000.00"],
    ["0.1234", "0.1234"],
    ["12.3450", "12.345"],
    ["-2500.1000", "-2,500.10"],
    ["1234.56785", "1,234.5679"],
    ["99999999999999999.99995", "100,000,000,000,000,000.00"],
    ["-0.00001", "0.00"],
    [1234.5, "1,234.50"],
  ])("%s -> %s", (value, expected) => {
    expect(formatMoney(value)).toBe(expected);
  });

  it("shows an empty value for missing or unreadable input", () => {
    expect(formatMoney(null)).toBe("-");
    expect(formatMoney("12,00")).toBe("-");
  });
});
