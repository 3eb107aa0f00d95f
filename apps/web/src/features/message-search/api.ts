// Message search: the messages sent to one number across the batches the caller may see (GET
// /batch/recipients/search; docs/batches.md).
import type { RecipientSearchResult, RecipientSearchRow } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export type { RecipientSearchResult, RecipientSearchRow };

export type SearchParams = Record<string, string | number>;

export const messageSearchKeys = {
  all: ["message-search"] as const,
  search: (params: SearchParams) => ["message-search", params] as const,
};

export const searchMessages = (params: SearchParams, signal?: AbortSignal) =>
  api.get<RecipientSearchResult>("/batch/recipients/search", { params, signal });

/** Runs only once a number was entered; the previous answer stays on screen while the next page loads. */
export function useMessageSearch(params: SearchParams) {
  return useQuery({
    queryKey: messageSearchKeys.search(params),
    queryFn: ({ signal }) => searchMessages(params, signal),
    enabled: typeof params.number === "string" && params.number.trim() !== "",
    placeholderData: keepPreviousData,
    // A 400 (not a number) or a 404 will not change by asking again.
    retry: false,
  });
}
