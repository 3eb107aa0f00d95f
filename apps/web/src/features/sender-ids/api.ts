// Sender ID calls (docs/sender-ids.md): customers request, list and withdraw their own; admins approve, reject and
// revoke; agents list their customers'.
import { SENDER_ID_STATUSES, type SenderIdRequestBody, type SenderIdRow, SenderIdStatus } from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api";

export type { SenderIdRow };
export { SENDER_ID_STATUSES, SenderIdStatus };

export type ListParams = Record<string, string | number>;

export const senderIdKeys = {
  all: ["sender-ids"] as const,
  list: (params: ListParams) => ["sender-ids", "list", params] as const,
  approved: ["sender-ids", "approved"] as const,
};

/** The page's list (the customer's own; staff: those in their scope). */
export function useSenderIds(params: ListParams) {
  return useQuery({
    queryKey: senderIdKeys.list(params),
    queryFn: ({ signal }) => api.getList<SenderIdRow>("/sender-id/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The customer's approved ids (the SMS editor's choices): one page of the most a customer plausibly has. */
export function useApprovedSenderIds() {
  return useQuery({
    queryKey: senderIdKeys.approved,
    queryFn: ({ signal }) =>
      api.getList<SenderIdRow>("/sender-id/list", {
        params: { status: SenderIdStatus.APPROVED, page: 1, pageSize: 200 },
        signal,
      }),
  });
}

function useSenderIdMutation<TVars, TResult>(call: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: senderIdKeys.all }),
  });
}

export const useRequestSenderId = () =>
  useSenderIdMutation((body: SenderIdRequestBody) => api.post<SenderIdRow>("/sender-id/request", body));
export const useWithdrawSenderId = () =>
  useSenderIdMutation((id: number) => api.post<{ id: number }>("/sender-id/withdraw", { id }));
export const useApproveSenderId = () =>
  useSenderIdMutation((id: number) => api.post<SenderIdRow>("/sender-id/approve", { id }));
export const useRejectSenderId = () =>
  useSenderIdMutation((v: { id: number; reason: string }) => api.post<SenderIdRow>("/sender-id/reject", v));
export const useRevokeSenderId = () =>
  useSenderIdMutation((v: { id: number; reason: string }) => api.post<SenderIdRow>("/sender-id/revoke", v));
