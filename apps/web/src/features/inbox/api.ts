// The inbox call (docs/batches.md, "Inbound messages"): what users wrote back to the signed-in customer across its
// batches, newest first.
import type { InboxRow } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export type { InboxRow };

export const inboxKeys = {
  all: ["inbox"] as const,
  list: (params: Record<string, string | number>) => ["inbox", "list", params] as const,
};

/** Replies keep arriving while batches are delivered: the list looks again every 15 s while open. */
export const INBOX_REFRESH_MS = 15_000;

export function useInbox(params: Record<string, string | number>) {
  return useQuery({
    queryKey: inboxKeys.list(params),
    queryFn: ({ signal }) => api.getList<InboxRow>("/inbound/list", { params, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: INBOX_REFRESH_MS,
  });
}
