/** Display helpers of the dashboards. */
import { PRODUCT_SLUG, type ProductCode } from "@switchboard/contracts/codes";

/** 0.8571 -> "85.71%"; null (nothing sent) -> "-". Rates arrive rounded to 4 decimals. */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return "-";
  return `${(Math.round(rate * 10_000) / 100).toFixed(2)}%`;
}

/** "RCS", "WS", "SMS" (product names are the same in every language). */
export function productLabel(code: number): string {
  return (PRODUCT_SLUG[code as ProductCode] ?? String(code)).toUpperCase();
}

export const PRODUCT_COLORS: Record<number, string> = { 1000: "#1677ff", 2000: "#52c41a", 3000: "#fa8c16" };
