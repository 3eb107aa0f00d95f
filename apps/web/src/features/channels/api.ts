// Calls of the channel pages (docs/catalog-and-routing.md: channels, routing, transfer, statistics).
import type { ChannelItem, ChannelRouteItem, ChannelStats, ChannelTestResult } from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type QueryParams } from "../../lib/api";
import { productKeys } from "../products/api";

export const channelKeys = {
  all: ["channels"] as const,
  list: (params: QueryParams) => ["channels", "list", params] as const,
  routes: (params: QueryParams) => ["channels", "routes", params] as const,
  stats: (params: QueryParams) => ["channels", "stats", params] as const,
};

export function useChannels(params: QueryParams) {
  return useQuery({
    queryKey: channelKeys.list(params),
    queryFn: ({ signal }) => api.getList<ChannelItem>("/channel/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Every channel (pickers): the API's largest page. */
export function useAllChannels(productCode?: number) {
  return useChannels({ page: 1, pageSize: 200, productCode });
}

export function useRoutes(params: QueryParams) {
  return useQuery({
    queryKey: channelKeys.routes(params),
    queryFn: ({ signal }) => api.getList<ChannelRouteItem>("/channel/route/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useChannelStats(params: QueryParams) {
  return useQuery({
    queryKey: channelKeys.stats(params),
    queryFn: ({ signal }) => api.get<ChannelStats>("/channel/stats", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * A POST of the channel pages; success refreshes every channel query and the product list (default
 * channels show there).
 */
export function useChannelMutation<TBody extends Record<string, unknown>, TResult = ChannelItem>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBody) => api.post<TResult>(path, body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: channelKeys.all }),
        queryClient.invalidateQueries({ queryKey: productKeys.all }),
      ]);
    },
  });
}

export function useTestChannel() {
  return useMutation({
    mutationFn: (id: number) => api.post<ChannelTestResult>("/channel/test", { id }, { timeoutMs: 30_000 }),
  });
}
