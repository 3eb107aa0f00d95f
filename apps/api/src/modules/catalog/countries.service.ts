// Countries: the ISO 3166 reference table (seeded from libphonenumber-js and i18n-iso-countries), the country
// list route, and the checks every country scope (products, channels, prices, routes) goes through.
import { type CountryItem, CountryScope, inCountryScope, type Lang } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { badRequest } from "../../lib/errors";

export interface CountryRow {
  code: string;
  dialCode: string;
  nameEn: string;
  nameZh: string;
}

/** Every country, ordered by its name in the language (pinyin order for zh). */
export async function allCountries(db: Db, lang: Lang): Promise<CountryRow[]> {
  const rows = await db.country.findMany();
  const collator = new Intl.Collator(lang === "zh" ? "zh-Hans-u-co-pinyin" : "en");
  return rows.sort((a, b) => collator.compare(countryName(a, lang), countryName(b, lang)));
}

export function countryName(c: CountryRow, lang: Lang): string {
  return lang === "zh" ? c.nameZh : c.nameEn;
}

/** Keyword match on ISO code, dial code ("+86" or "86") and both names; a blank keyword matches all. */
export function matchesCountry(c: CountryRow, keyword: string | undefined): boolean {
  const k = keyword?.trim().toLowerCase();
  if (!k) return true;
  const dial = k.replace(/^\+/, "");
  return (
    c.code.toLowerCase() === k ||
    (dial !== "" && /^\d+$/.test(dial) && c.dialCode.startsWith(dial)) ||
    c.nameEn.toLowerCase().includes(k) ||
    c.nameZh.includes(k)
  );
}

export function toCountryItem(c: CountryRow, lang: Lang): CountryItem {
  return { code: c.code, dialCode: c.dialCode, name: countryName(c, lang), nameEn: c.nameEn, nameZh: c.nameZh };
}

export async function listCountries(db: Db, lang: Lang, keyword: string | undefined) {
  const list = (await allCountries(db, lang))
    .filter((c) => matchesCountry(c, keyword))
    .map((c) => toCountryItem(c, lang));
  return { list, total: list.length };
}

/** The codes deduplicated and sorted; 400 naming every code the countries table does not know. */
export async function knownCountryCodes(db: Db, codes: readonly string[]): Promise<string[]> {
  const unique = [...new Set(codes)].sort();
  if (unique.length === 0) return unique;
  const found = await db.country.findMany({ where: { code: { in: unique } }, select: { code: true } });
  const known = new Set(found.map((c) => c.code));
  const unknown = unique.filter((c) => !known.has(c));
  if (unknown.length > 0) throw badRequest("catalog.country_unknown", { codes: unknown.join(", ") });
  return unique;
}

/** A country scope as stored: scope 1 keeps no list; 2 and 3 keep the known, deduplicated codes. */
export async function normalizeCountryScope(
  db: Db,
  countryScope: number,
  countryCodes: readonly string[],
): Promise<{ countryScope: number; countryCodes: string[] }> {
  if (countryScope === CountryScope.ALL) return { countryScope, countryCodes: [] };
  return { countryScope, countryCodes: await knownCountryCodes(db, countryCodes) };
}

/** Every country code inside a scope (for "all countries the product serves"). */
export async function countryCodesInScope(db: Db, scope: { countryScope: number; countryCodes: string[] }) {
  const all = await db.country.findMany({ select: { code: true }, orderBy: { code: "asc" } });
  return all.map((c) => c.code).filter((code) => inCountryScope(scope.countryScope, scope.countryCodes, code));
}
