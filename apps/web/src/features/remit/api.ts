// The customer's remittances (GET /finance/remit/list, POST /finance/remit/create).
import type { RemittanceList } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export const remitKeys = {
  all: ["remit"] as const,
  list: (params: Record<string, string | number>) => ["remit", "list", params] as const,
};

export function useRemitList(params: Record<string, string | number>) {
  return useQuery({
    queryKey: remitKeys.list(params),
    queryFn: ({ signal }) => api.get<RemittanceList>("/finance/remit/list", { signal, params }),
    placeholderData: keepPreviousData,
  });
}
