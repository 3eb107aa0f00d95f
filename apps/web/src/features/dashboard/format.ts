/** Display helpers of the dashboards. */
import { PRODUCT_SLUG, type ProductCode } from "@switchboard/contracts/codes";

/** The one percentage format (the batch detail's click-through rates use it too). */
export { formatRate } from "../../lib/format";

/** "RCS", "WS", "SMS" (product names are the same in every language). */
export function productLabel(code: number): string {
  return (PRODUCT_SLUG[code as ProductCode] ?? String(code)).toUpperCase();
}

export const PRODUCT_COLORS: Record<number, string> = { 1000: "#1677ff", 2000: "#52c41a", 3000: "#fa8c16" };
