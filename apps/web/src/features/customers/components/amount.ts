import { MAX_MONEY_UNITS, parseMoney } from "@switchboard/contracts/money";

/**
 * Amounts people type for recharge, deduct and gift: greater than zero, at most AMOUNT_DECIMALS decimals and at
 * most 100,000,000 (docs/finance.md: the API refuses anything else with a 400).
 */
export const AMOUNT_DECIMALS = 2;
export const AMOUNT_MAX_TEXT = "100,000,000.00";

export type AmountProblem = "required" | "invalid" | "decimals" | "max" | null;

export function checkAmount(input: string | undefined | null): AmountProblem {
  const text = (input ?? "").trim();
  if (text === "") return "required";
  const fraction = /^\d+\.(\d+)$/.exec(text)?.[1];
  if (fraction && fraction.length > AMOUNT_DECIMALS) return "decimals";
  const units = parseMoney(text, AMOUNT_DECIMALS);
  if (units === null) {
    return /^\d{13,}(\.\d*)?$/.test(text) ? "max" : "invalid";
  }
  if (units <= 0n) return "invalid";
  if (units > MAX_MONEY_UNITS) return "max";
  return null;
}

/**
 * Whether a valid amount (checkAmount gave null) is more than a balance (the API's decimal string): what an agent
 * recharges or gives comes out of its own balance. False when either cannot be read (the server decides).
 */
export function exceedsBalance(input: string | undefined | null, balance: string | undefined | null): boolean {
  const units = parseMoney((input ?? "").trim(), AMOUNT_DECIMALS);
  const text = (balance ?? "").trim();
  if (units === null || text === "") return false;
  // Nothing can come out of a balance below zero.
  if (text.startsWith("-")) return true;
  const available = parseMoney(text);
  return available !== null && units > available;
}
