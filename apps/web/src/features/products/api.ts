// Calls of the product list, prices and the shared pickers (docs/catalog-and-routing.md).
import type { CountryItem, PriceList, PriceSetResult, ProductItem, UserSearchResult } from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type QueryParams } from "../../lib/api";
import { useI18n } from "../../lib/i18n";

export const productKeys = {
  all: ["products"] as const,
  list: (params: QueryParams) => ["products", "list", params] as const,
  countries: (lang: string) => ["products", "countries", lang] as const,
  allPrices: ["products", "prices"] as const,
  prices: (params: QueryParams) => ["products", "prices", params] as const,
  userSearch: (keyword: string, type: number | undefined) => ["products", "user-search", keyword, type] as const,
};

export function useProducts(params: QueryParams) {
  return useQuery({
    queryKey: productKeys.list(params),
    queryFn: ({ signal }) => api.getList<ProductItem>("/product/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every product of the tenant (pickers): the API's largest page. */
export function useAllProducts(code?: number) {
  return useProducts({ page: 1, pageSize: 200, code });
}

/** Every country once per language (reference data). */
export function useCountries() {
  const { lang } = useI18n();
  return useQuery({
    queryKey: productKeys.countries(lang),
    queryFn: ({ signal }) => api.getList<CountryItem>("/country/list", { signal }),
    staleTime: 60 * 60_000,
  });
}

export function usePrices(params: QueryParams, enabled: boolean) {
  return useQuery({
    queryKey: productKeys.prices(params),
    queryFn: ({ signal }) => api.get<PriceList>("/price/list", { params, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useUserSearch(keyword: string, type?: number) {
  return useQuery({
    queryKey: productKeys.userSearch(keyword, type),
    queryFn: ({ signal }) =>
      api.get<UserSearchResult>("/user/search", { params: { keyword: keyword || undefined, type }, signal }),
  });
}

/** A POST that refreshes every product query (lists, prices) when it succeeds. */
export function useProductMutation<TBody extends Record<string, unknown>, TResult = ProductItem>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => api.post<TResult>(path, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}

export interface PriceChange extends Record<string, unknown> {
  productId: number;
  userId?: number;
  action: 1 | 2;
  countryScope: 1 | 2 | 3;
  countryCodes: string[];
  unitPrice?: string;
  screeningPrice?: string;
  marketingPrice?: string;
  utilityPrice?: string;
  authenticationPrice?: string;
}

/** Default prices without a user, a user's own prices with one. */
export function usePriceMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PriceChange) =>
      api.post<PriceSetResult>(body.userId === undefined ? "/price/default/set" : "/price/customer/set", body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.allPrices }),
  });
}
