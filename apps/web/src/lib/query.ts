import { type QueryClient, QueryClient as QueryClientClass } from "@tanstack/react-query";
import { isApiError } from "./api";

/** Query keys that describe the site, not the user: kept across login and logout. */
const SITE_QUERY_ROOTS = new Set<unknown>(["website"]);

export function createQueryClient(): QueryClient {
  return new QueryClientClass({
    defaultOptions: {
      queries: {
        // Server answers (code 1, 401, a missing list) will not change on retry; a lost connection may.
        retry: (failureCount, error) =>
          failureCount < 1 && isApiError(error) && (error.kind === "network" || error.kind === "timeout"),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}

/** Forgets every cached answer that belongs to the user (on login and logout). */
export function clearUserQueries(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !SITE_QUERY_ROOTS.has(query.queryKey[0]) });
}
