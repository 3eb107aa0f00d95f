/**
 * A country's name in the reader's language from its ISO 3166 code (the browser's Intl.DisplayNames, no table to
 * ship), e.g. GG: "Guernsey" / "根西岛". A code the browser does not know stays as it is.
 */
import type { Lang } from "./storage";

const LOCALE: Record<Lang, string> = { zh: "zh-CN", en: "en" };
const byLang = new Map<Lang, Intl.DisplayNames | null>();

function displayNames(lang: Lang): Intl.DisplayNames | null {
  if (!byLang.has(lang)) {
    byLang.set(
      lang,
      typeof Intl.DisplayNames === "function" ? new Intl.DisplayNames([LOCALE[lang]], { type: "region" }) : null,
    );
  }
  return byLang.get(lang) ?? null;
}

export function countryName(code: string, lang: Lang): string {
  // only two-letter codes: anything else (a route's "*", a typo) would be refused by Intl with a RangeError
  if (!/^[A-Za-z]{2}$/.test(code)) return code;
  return displayNames(lang)?.of(code.toUpperCase()) ?? code;
}
