// Named developer API keys (docs/api-keys.md): list, create (the key comes back once), revoke.
import type { ApiKeyCreateBody, ApiKeyCreated, ApiKeyList, ApiKeyRow } from "@switchboard/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { developerKeys } from "./developer-api";

export function useApiKeys() {
  return useQuery({
    queryKey: developerKeys.apiKeys,
    queryFn: ({ signal }) => api.get<ApiKeyList>("/user/api-keys", { signal }),
  });
}

/** The new key is in the mutation's data only: call reset() once it has been shown, so nothing keeps it. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiKeyCreateBody) => api.post<ApiKeyCreated>("/user/api-keys", body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ApiKeyRow>(`/user/api-keys/${id}/revoke`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: developerKeys.apiKeys }),
  });
}
