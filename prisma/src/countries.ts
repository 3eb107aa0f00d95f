// ISO 3166-1 countries with calling codes and zh/en names, from well-kept sources rather than a typed list:
// the ISO code list from i18n-iso-countries, calling codes from libphonenumber-js (the same metadata that
// validates numbers), everyday names from CLDR through Intl.DisplayNames ("China", "United Kingdom"), with
// i18n-iso-countries' names where CLDR has none.
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json" with { type: "json" };
import zh from "i18n-iso-countries/langs/zh.json" with { type: "json" };
import { type CountryCode, getCountries, getCountryCallingCode } from "libphonenumber-js";
import type { PrismaClient } from "../generated/client";

countries.registerLocale(en);
countries.registerLocale(zh);

export interface CountryRow {
  code: string;
  dialCode: string;
  nameEn: string;
  nameZh: string;
}

const cldrEn = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const cldrZh = new Intl.DisplayNames(["zh-Hans"], { type: "region", fallback: "none" });

/** Every ISO country that has a calling code (territories without telephone numbering, e.g. AQ, BV, HM, are left out). */
export function countryRows(): CountryRow[] {
  const iso = new Set(Object.keys(countries.getAlpha2Codes()));
  return getCountries()
    .filter((code) => iso.has(code))
    .map((code) => ({
      code,
      dialCode: getCountryCallingCode(code as CountryCode),
      nameEn: cldrEn.of(code) ?? countries.getName(code, "en") ?? code,
      nameZh: cldrZh.of(code) ?? countries.getName(code, "zh") ?? code,
    }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

/** Upserts every country (so library updates land): the reference data every start seeds. The number of rows. */
export async function seedCountries(prisma: PrismaClient): Promise<number> {
  const rows = countryRows();
  await prisma.$transaction(rows.map((r) => prisma.country.upsert({ where: { code: r.code }, create: r, update: r })));
  return rows.length;
}
