import examples from "libphonenumber-js/examples.mobile.json";
import { getCountries, getExampleNumber, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { describe, expect, it } from "vitest";
import { normalizeNumber } from "../src";

/** libphonenumber-js's own answer, the reference this module must agree with. */
function reference(e164: string) {
  const p = parsePhoneNumberFromString(e164);
  return p?.isValid() ? { ok: true, e164: p.number, country: p.country } : { ok: false };
}

/** Every country's example mobile number and deterministic mutations of it (valid and invalid alike). */
function samples(): string[] {
  const out: string[] = [];
  for (const country of getCountries()) {
    const ex = getExampleNumber(country, examples as never);
    if (!ex) continue;
    const cc = ex.countryCallingCode;
    const nsn = ex.nationalNumber as string;
    out.push(`+${cc}${nsn}`);
    for (let i = 0; i < nsn.length; i++) {
      const d = (Number(nsn[i]) + 3) % 10;
      out.push(`+${cc}${nsn.slice(0, i)}${d}${nsn.slice(i + 1)}`);
    }
    out.push(`+${cc}${nsn}7`, `+${cc}${nsn.slice(0, -1)}`, `+${cc}${nsn.slice(0, -2)}`);
  }
  return out;
}

describe("normalizeNumber", () => {
  it("agrees with libphonenumber-js on every country's example numbers and their mutations", () => {
    const all = samples();
    expect(all.length).toBeGreaterThan(2000);
    const disagreements = all.filter((n) => JSON.stringify(normalizeNumber(n)) !== JSON.stringify(reference(n)));
    expect(disagreements).toEqual([]);
  });

  it.each([
    ["+86 138 0013 8000", "+8613800138000", "CN"],
    ["008613800138000", "+8613800138000", "CN"],
    ["8613800138000", "+8613800138000", "CN"],
    ["+1 (415) 555-2671", "+14155552671", "US"],
    ["+1 416 555 0123", "+14165550123", "CA"],
    ["+44 7400 123456", "+447400123456", "GB"],
    ["+7 701 123 4567", "+77011234567", "KZ"],
    ["+7 912 345 6789", "+79123456789", "RU"],
  ])("reads %s as %s (%s) in international mode", (raw, e164, country) => {
    expect(normalizeNumber(raw)).toEqual({ ok: true, e164, country });
  });

  it.each([
    ["13800138000", "CN", "+8613800138000"],
    ["07911 123456", "GB", "+447911123456"],
    ["(415) 555-2671", "US", "+14155552671"],
    ["+447911123456", "CN", "+447911123456"],
    ["0044 7911 123456", "CN", "+447911123456"],
  ])("reads %s in domestic mode (%s) as %s", (raw, domesticCountry, e164) => {
    expect(normalizeNumber(raw, { domesticCountry })).toMatchObject({ ok: true, e164 });
  });

  it.each([
    "",
    "   ",
    "abc",
    "+",
    "+86",
    "12",
    "+86 138 0013 8000 999 999",
    "+8613800138000x",
    "+1-800-FLOWERS",
    "+80012345678",
    "1".repeat(40),
  ])("refuses %j", (raw) => {
    expect(normalizeNumber(raw)).toEqual({ ok: false });
  });
});
