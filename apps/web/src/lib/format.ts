/**
 * Number and money display (spec section 9): values of 1000 and above get thousands separators.
 * Money arrives as decimal strings ("1234.5000") and is formatted on the digits, never through a
 * binary float.
 */

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

function group(integer: string): string {
  return integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

interface Decimal {
  negative: boolean;
  integer: string;
  fraction: string;
}

function parseDecimal(value: string | number | bigint): Decimal | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    // Up to 10 fraction digits is beyond any count or price the platform shows.
    value = value.toFixed(10);
  }
  const match = DECIMAL.exec(String(value).trim());
  if (!match) return null;
  const integer = (match[2] ?? "0").replace(/^0+(?=\d)/, "");
  return { negative: match[1] === "-", integer, fraction: match[3] ?? "" };
}

/** Rounds half up to `digits` fraction digits, on the digit strings. */
function roundFraction({ negative, integer, fraction }: Decimal, digits: number): Decimal {
  if (fraction.length <= digits) return { negative, integer, fraction };
  const kept = BigInt(integer + fraction.slice(0, digits)) + (Number(fraction[digits]) >= 5 ? 1n : 0n);
  const text = kept.toString().padStart(digits + 1, "0");
  return {
    negative,
    integer: text.slice(0, text.length - digits),
    fraction: text.slice(text.length - digits),
  };
}

function render({ negative, integer, fraction }: Decimal, minFraction: number, maxFraction: number): string {
  const rounded = roundFraction({ negative, integer, fraction }, maxFraction);
  let digits = rounded.fraction.replace(/0+$/, "");
  if (digits.length < minFraction) digits = digits.padEnd(minFraction, "0");
  const isZero = /^0*$/.test(rounded.integer + digits);
  const sign = rounded.negative && !isZero ? "-" : "";
  return `${sign}${group(rounded.integer)}${digits ? `.${digits}` : ""}`;
}

export interface FormatNumberOptions {
  /** Fraction digits kept at most (rounded half up). Default 4. */
  maxFraction?: number;
  /** Text for a missing or unreadable value. Default "-". */
  empty?: string;
}

/** 999 -> "999", 1000 -> "1,000", "1234567.5" -> "1,234,567.5". */
export function formatNumber(
  value: number | string | bigint | null | undefined,
  { maxFraction = 4, empty = "-" }: FormatNumberOptions = {},
): string {
  if (value === null || value === undefined || value === "") return empty;
  const decimal = parseDecimal(value);
  return decimal ? render(decimal, 0, maxFraction) : empty;
}

/** A rate of 0..1 as a percentage: 0.8571 -> "85.71%"; null (nothing to divide by) -> "-". Rates arrive rounded to 4 decimals. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return "-";
  return `${(Math.round(rate * 10_000) / 100).toFixed(2)}%`;
}

export interface FormatMoneyOptions {
  /** The tenant's currency code, shown after the figure ("1,234.50 CNY") on screens that name a currency. */
  currency?: string | null | undefined;
  /** Text for a missing or unreadable value. Default "-". */
  empty?: string;
}

function money(
  value: number | string | bigint | null | undefined,
  minFraction: number,
  maxFraction: number,
  { currency, empty = "-" }: FormatMoneyOptions,
): string {
  if (value === null || value === undefined || value === "") return empty;
  const decimal = parseDecimal(value);
  if (!decimal) return empty;
  const text = render(decimal, minFraction, maxFraction);
  return currency ? `${text} ${currency}` : text;
}

/**
 * The one money format of the web client. The API sends exact decimal strings with 4 decimals ("999.9120");
 * what a screen shows depends on what the figure is:
 *
 * - an amount (a balance, a recharge or deduction, a batch's cost, a total, a refund): exactly 2 decimals,
 *   rounded half up, with thousands separators: "999.9120" -> "999.91", "16.6920" -> "16.69",
 *   "0.0000" -> "0.00", "1234567.5" -> "1,234,567.50". Use formatMoney.
 * - a unit price (per message or segment, what one recipient costs, an average per message): at least 2 and at
 *   most 4 decimals, because prices like 0.0118 matter: "0.0118" -> "0.0118", "0.0500" -> "0.05",
 *   "1200" -> "1,200.00". Use formatPrice.
 *
 * With `currency` the tenant's currency code follows the figure after a space ("16.69 CNY"); a column or card
 * that names the currency in its title shows the bare figure.
 */
export function formatMoney(
  value: number | string | bigint | null | undefined,
  options: FormatMoneyOptions = {},
): string {
  return money(value, 2, 2, options);
}

/** A unit price: 2 to 4 decimals (see formatMoney). "0.0118" -> "0.0118", "12.3450" -> "12.345", "3" -> "3.00". */
export function formatPrice(
  value: number | string | bigint | null | undefined,
  options: FormatMoneyOptions = {},
): string {
  return money(value, 2, 4, options);
}
