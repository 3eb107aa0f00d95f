// Money is exact: the database keeps integer "money units", 1/10,000 of the currency unit
// (12.34 CNY = 123400 units), so per-message prices like 0.0035 are exact too. The API speaks decimal
// strings ("12.3400"); these two functions are the only conversion between the two forms.

export const MONEY_SCALE = 4;
const UNITS_PER_WHOLE = 10n ** BigInt(MONEY_SCALE);

/** Largest amount accepted in one request: 100,000,000.0000 (keeps every sum far inside int64). */
export const MAX_MONEY_UNITS = 100_000_000n * UNITS_PER_WHOLE;

/**
 * Highest unit price (per message; per segment for SMS): 10,000.0000. Room for currencies with small units (VND,
 * IDR), and a batch at this price (10 segments, 1,000,000 numbers) costs 100,000,000,000.0000: below
 * MAX_BALANCE_UNITS, so every batch cost a valid price can make fits the BIGINT columns (docs/finance.md).
 */
export const MAX_UNIT_PRICE_UNITS = 10_000n * UNITS_PER_WHOLE;

/**
 * Largest balance a credit by staff may leave (1,000,000,000,000.0000), and the largest batch cost that can be
 * charged: a batch costing more cannot be afforded (402) and is never written. Nine hundred accounts at the
 * limit still sum inside int64 (9,223,372,036,854,775,807 units).
 */
export const MAX_BALANCE_UNITS = 1_000_000_000_000n * UNITS_PER_WHOLE;

/** "12.34" -> 123400n. Returns null for anything that is not a plain non-negative decimal with <= scale decimals. */
export function parseMoney(text: string, maxDecimals = MONEY_SCALE): bigint | null {
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = m[2] ?? "";
  if (frac.length > maxDecimals) return null;
  return BigInt(m[1]!) * UNITS_PER_WHOLE + BigInt(frac.padEnd(MONEY_SCALE, "0") || "0");
}

/** 123400n -> "12.3400" (always MONEY_SCALE decimals, "-" for negatives). */
export function formatMoney(units: bigint | number): string {
  const v = BigInt(units);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const whole = abs / UNITS_PER_WHOLE;
  const frac = (abs % UNITS_PER_WHOLE).toString().padStart(MONEY_SCALE, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/**
 * 123456789n -> "12,345.68": an amount as people read it in a message text (an error's "current balance"):
 * 2 decimals rounded half up, thousands separators, the same as the web client's formatMoney. API fields keep
 * the exact formatMoney form. `round: "down"` for a limit the reader acts on ("you can take back at most"):
 * requests carry at most 2 decimals, so 0.0250 reads "0.02", an amount that is really allowed.
 */
export function displayMoney(
  units: bigint | number,
  { round = "half-up" }: { round?: "half-up" | "down" } = {},
): string {
  const v = BigInt(units);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const cents = (abs + (round === "down" ? 0n : 50n)) / 100n;
  const whole = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (cents % 100n).toString().padStart(2, "0");
  return `${neg && cents > 0n ? "-" : ""}${whole}.${frac}`;
}
