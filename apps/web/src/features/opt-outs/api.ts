// Opt-out list calls (docs/opt-outs.md): the customer's own list (staff: a customer's, naming it with userId).
// `userId` is left out for a customer (its own list).
import type { OptOutImportResult, OptOutRow } from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../lib/api";

export type { OptOutImportResult, OptOutRow };

export type ListParams = Record<string, string | number>;

export const optOutKeys = {
  all: ["opt-outs"] as const,
  list: (params: ListParams) => ["opt-outs", "list", params] as const,
};

export function useOptOuts(params: ListParams) {
  return useQuery({
    queryKey: optOutKeys.list(params),
    queryFn: ({ signal }) => api.getList<OptOutRow>("/opt-out/list", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

function useOptOutMutation<TVars, TResult>(call: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optOutKeys.all }),
  });
}

type ForCustomer = { userId?: number | undefined };

export const useAddOptOut = () =>
  useOptOutMutation(({ phone, userId }: { phone: string } & ForCustomer) =>
    api.post<OptOutRow>("/opt-out/add", userId === undefined ? { phone } : { phone, userId }),
  );
export const useImportOptOuts = () =>
  useOptOutMutation(({ numbers, userId }: { numbers: string[] } & ForCustomer) =>
    api.post<OptOutImportResult>("/opt-out/import", userId === undefined ? { numbers } : { numbers, userId }),
  );
export const useRemoveOptOut = () =>
  useOptOutMutation((id: number) => api.post<{ id: number }>("/opt-out/remove", { id }));

/**
 * The numbers of a CSV or TXT file: every non-empty cell of every line (a header such as "phone" is sent too and
 * counted as unreadable by the server, like any other text that is no number).
 */
export function numbersOfFile(text: string): string[] {
  return text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .flatMap((line) => line.split(/[,;\t]/))
    .map((cell) => cell.trim().replace(/^"|"$/g, ""))
    .filter((cell) => cell !== "" && /\d/.test(cell));
}
