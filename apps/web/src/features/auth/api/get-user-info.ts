import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import type { UserType } from "../../../lib/user-type";

/** GET /user/info */
export interface UserInfo {
  id: number | string;
  user: string;
  type: UserType;
  tenantId: number | string | null;
  agentId: number | string | null;
  /** Decimal string, e.g. "1234.5000". */
  balance: string;
  /** The tenant's currency code, e.g. "CNY" (shown after the balance). */
  currency?: string;
  authStatus: number;
  nickname: string | null;
}

export function getUserInfo(signal?: AbortSignal): Promise<UserInfo | null> {
  return api.get<UserInfo | null>("/user/info", { signal });
}

export const authKeys = {
  /** Who is signed in (GET /user/info): also their balance and authentication status. */
  userInfo: ["user", "info"] as const,
};

export function userInfoQueryOptions() {
  return queryOptions({
    queryKey: authKeys.userInfo,
    queryFn: ({ signal }) => getUserInfo(signal),
    staleTime: 60_000,
  });
}

export function useUserInfo() {
  return useQuery(userInfoQueryOptions());
}
