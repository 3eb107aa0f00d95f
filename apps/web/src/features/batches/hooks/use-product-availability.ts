// Whether the customer can send with a task page's product, before anything is paid: GET /product/list?code=
// answers a customer the active products of that code, each with `sendable` and the reason when not (no channel
// carries it for them, or only paused ones; translated by the API).
import type { ProductItem } from "@switchboard/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { useI18n } from "../../../lib/i18n";
import { batchKeys } from "../api";

export type ProductAvailability =
  | { state: "loading" }
  /** The list could not be read: nothing is blocked (the pre-submit check refuses with its reason). */
  | { state: "unknown" }
  | { state: "available" }
  /** reason: the API's (translated), or null when no active product of the code exists for the customer. */
  | { state: "unavailable"; reason: string | null };

export const fetchCustomerProducts = (productCode: number, signal?: AbortSignal) =>
  api.getList<ProductItem>("/product/list", { params: { code: productCode, page: 1, pageSize: 100 }, signal });

/** What the API says of the products of one code; a product that says nothing of `sendable` counts as sendable. */
export function availabilityOf(products: readonly ProductItem[]): ProductAvailability {
  if (products.length === 0) return { state: "unavailable", reason: null };
  if (products.some((p) => p.sendable !== false)) return { state: "available" };
  return { state: "unavailable", reason: products.find((p) => p.unavailableReason)?.unavailableReason ?? null };
}

export function useProductAvailability(productCode: number): ProductAvailability {
  const { lang } = useI18n();
  const query = useQuery({
    queryKey: batchKeys.productAvailability(productCode, lang),
    queryFn: ({ signal }) => fetchCustomerProducts(productCode, signal),
    staleTime: 60_000,
  });
  if (query.isPending) return { state: "loading" };
  if (!query.data) return { state: "unknown" };
  return availabilityOf(query.data.list);
}
