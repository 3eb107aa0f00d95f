/** Client-side check of a typed amount, the same rules as the API (docs/finance.md). */

/** 100,000,000.00: the largest amount one request may carry. */
export const MAX_AMOUNT = "100000000.00";
const MAX_CENTS = 10_000_000_000n;

export type AmountProblem = "required" | "invalid" | "max";

/** null when `text` is a positive amount with at most 2 decimals and at most MAX_AMOUNT. */
export function amountProblem(text: string | undefined | null): AmountProblem | null {
  const v = (text ?? "").trim();
  if (v === "") return "required";
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(v);
  if (!m) return "invalid";
  const cents = BigInt(m[1] ?? "0") * 100n + BigInt((m[2] ?? "").padEnd(2, "0") || "0");
  if (cents <= 0n) return "invalid";
  if (cents > MAX_CENTS) return "max";
  return null;
}
