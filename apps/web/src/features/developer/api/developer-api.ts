// Developer settings calls (spec section 7): info, secret key refresh, IP whitelist, notify URL, API toggle.
import type {
  ApiToggleResult,
  DeveloperInfo,
  IpModResult,
  NotifyAttemptRow,
  NotifyModBody,
  NotifyModResult,
  NotifyResendResult,
  SecretKeyRefreshResult,
} from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api";

/** The developer feature's query keys (its info, its API keys and its callback attempts). */
export const developerKeys = {
  all: ["developer"] as const,
  info: ["developer", "info"] as const,
  apiKeys: ["developer", "api-keys"] as const,
  notifyAttempts: ["developer", "notify-attempts"] as const,
  notifyAttemptList: (params: Record<string, string | number>) =>
    ["developer", "notify-attempts", "list", params] as const,
};

export function useDeveloperInfo() {
  return useQuery({
    queryKey: developerKeys.info,
    queryFn: ({ signal }) => api.get<DeveloperInfo>("/user/developer/info", { signal }),
  });
}

function useInfoUpdate<TVars, TResult>(
  call: (vars: TVars) => Promise<TResult>,
  merge: (info: DeveloperInfo, result: TResult) => DeveloperInfo,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      queryClient.setQueryData<DeveloperInfo>(developerKeys.info, (info) => (info ? merge(info, result) : info));
      void queryClient.invalidateQueries({ queryKey: developerKeys.info });
    },
  });
}

/** The new key is in the mutation's data only: call reset() once it has been shown, so nothing keeps it. */
export function useRefreshSecretKey() {
  return useInfoUpdate(
    () => api.post<SecretKeyRefreshResult>("/user/sk/refresh"),
    (info, r) => ({ ...info, secretKeyPrefix: r.secretKeyPrefix, secretKeyCreatedAt: r.secretKeyCreatedAt }),
  );
}

export function useSaveIpWhitelist() {
  return useInfoUpdate(
    (ips: string[]) => api.post<IpModResult>("/user/ip/mod", { ips }),
    (info, r) => ({ ...info, ipWhitelist: r.ipWhitelist }),
  );
}

export function useSaveNotifyUrl() {
  return useInfoUpdate(
    (body: NotifyModBody) => api.post<NotifyModResult>("/user/notify/mod", body),
    (info, r) => ({ ...info, notifyUrl: r.notifyUrl }),
  );
}

export function useToggleApi() {
  return useInfoUpdate(
    (enabled: boolean) => api.post<ApiToggleResult>("/user/api/toggle", { enabled }),
    (info, r) => ({ ...info, apiEnabled: r.apiEnabled }),
  );
}

/** The customer's callback attempts, newest first (filters: event, batchId; page, pageSize). */
export function useNotifyAttempts(params: Record<string, string | number>) {
  return useQuery({
    queryKey: developerKeys.notifyAttemptList(params),
    queryFn: ({ signal }) => api.getList<NotifyAttemptRow>("/user/notify/attempts", { params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Queues an attempt's event again (same eventId); its answer shows in the list as a new attempt. */
export function useResendNotifyAttempt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (attemptId: string) =>
      api.post<NotifyResendResult>(`/user/notify/attempts/${encodeURIComponent(attemptId)}/resend`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: developerKeys.notifyAttempts }),
  });
}
