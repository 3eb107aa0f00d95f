// The customer's own balance records (GET /finance/recharge/list, GET /finance/consume/list).
import type { BalanceLogList, ConsumeList } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api";

export type RecordParams = Record<string, string | number | undefined>;

export const financeRecordKeys = {
  all: ["finance-records"] as const,
  recharge: (params: RecordParams) => ["finance-records", "recharge", params] as const,
  consume: (params: RecordParams) => ["finance-records", "consume", params] as const,
};

/** Credits by staff (`type: "add"`) or deducts (`type: "deduct"`), with their total. */
export function useRechargeRecords(params: RecordParams) {
  return useQuery({
    queryKey: financeRecordKeys.recharge(params),
    queryFn: ({ signal }) => api.get<BalanceLogList>("/finance/recharge/list", { signal, params }),
    placeholderData: keepPreviousData,
  });
}

/** What the customer's batches cost and gave back, with their total. */
export function useConsumeRecords(params: RecordParams) {
  return useQuery({
    queryKey: financeRecordKeys.consume(params),
    queryFn: ({ signal }) => api.get<ConsumeList>("/finance/consume/list", { signal, params }),
    placeholderData: keepPreviousData,
  });
}
