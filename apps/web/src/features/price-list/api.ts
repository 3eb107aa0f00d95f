// The effective unit prices of the signed-in customer or, for staff, of one customer (GET /user/product/price).
import type { UserProductPriceItem } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export interface PriceListParams {
  userId?: number | undefined;
  keyword?: string | undefined;
  productCode?: number | undefined;
  page: number;
  pageSize: number;
}

export interface PriceAnswer {
  list: UserProductPriceItem[];
  total: number;
  currency: string;
}

export const priceListKeys = {
  all: ["price-list"] as const,
  list: (params: PriceListParams) => ["price-list", params] as const,
};

export function usePriceList(params: PriceListParams, enabled: boolean) {
  return useQuery({
    queryKey: priceListKeys.list(params),
    queryFn: ({ signal }) => api.get<PriceAnswer>("/user/product/price", { signal, params: { ...params } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
