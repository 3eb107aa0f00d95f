/**
 * The back office's customer and finance calls (docs/accounts.md, docs/finance.md, docs/permissions.md).
 * Types come from the contracts (type-only imports: nothing of zod lands in the bundle).
 */
import type {
  AuthenticationList,
  AuthenticationListQuery,
  AuthenticationRow,
  BalanceChangeResult,
  BalanceLogList,
  ConsumeList,
  LoginLogList,
  RemittanceList,
  RemittanceRow,
  SevenDayAuthenticateResult,
  TenantList,
  UserList,
  UserRow,
  UserSearchResult,
} from "@switchboard/contracts";
import { api, type QueryParams } from "../../../lib/api";

export type {
  AuthenticationRow,
  BalanceLogList,
  BalanceLogRow,
  ConsumeList,
  LoginLogRow,
  RemittanceRow,
  UserRow,
} from "@switchboard/contracts";

/** Query keys: everything of the feature starts with "customers" so a mutation can refresh it all at once. */
export const customerKeys = {
  all: ["customers"] as const,
  users: (params: QueryParams) => ["customers", "users", params] as const,
  search: (keyword: string, type: string) => ["customers", "search", keyword, type] as const,
  tenants: ["customers", "tenants"] as const,
  recharge: (params: QueryParams) => ["customers", "recharge", params] as const,
  consume: (params: QueryParams) => ["customers", "consume", params] as const,
  balanceLog: (params: QueryParams) => ["customers", "balance-log", params] as const,
  remit: (params: QueryParams) => ["customers", "remit", params] as const,
  authentication: (params: QueryParams) => ["customers", "authentication", params] as const,
  loginLog: (params: QueryParams) => ["customers", "login-log", params] as const,
  file: (path: string, params: QueryParams) => ["customers", "file", path, params] as const,
};

type Signal = { signal?: AbortSignal };

export const listUsers = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<UserList>("/user/list", { params, signal });

export const searchUsers = (params: { keyword?: string; type?: number }, { signal }: Signal = {}) =>
  api.get<UserSearchResult>("/user/search", { params, signal });

export const listTenants = ({ signal }: Signal = {}) => api.get<TenantList>("/user/tenant", { signal });

export interface UserCreateInput {
  username: string;
  password: string;
  type: number;
  nickname?: string;
  email?: string;
  phone?: string;
  company?: string;
  remark?: string;
  agentId?: number | null;
  authRequirement?: number;
  tenantId?: number;
}
export const createUser = (body: UserCreateInput) => api.post<UserRow>("/user/create", { ...body });

export interface UserEditInput {
  id: number;
  nickname?: string | null;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  remark?: string | null;
  status?: number;
  authRequirement?: number;
  agentId?: number | null;
}
export const editUser = (body: UserEditInput) => api.post<UserRow>("/user/edit", { ...body });
export const deleteUser = (id: number) => api.post<null>("/user/delete", { id });
export const resetPassword = (userId: number, newPassword: string) =>
  api.post<{ userId: number }>("/user/password/mod", { userId, newPassword });
export const grantSevenDays = (userId: number) =>
  api.post<SevenDayAuthenticateResult>("/user/seven/day/authenticate", { userId });

export type BalanceAction = "recharge" | "deduct" | "gift";
const BALANCE_PATHS: Record<BalanceAction, string> = {
  recharge: "/finance/recharge",
  deduct: "/finance/deduct",
  gift: "/user/gift/send",
};
export const changeBalance = (action: BalanceAction, body: { userId: number; amount: string; remark?: string }) =>
  api.post<BalanceChangeResult>(BALANCE_PATHS[action], { ...body });

export const listRecharge = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<BalanceLogList>("/finance/recharge/list", { params, signal });
export const listConsume = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<ConsumeList>("/finance/consume/list", { params, signal });
export const listBalanceLog = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<BalanceLogList>("/user/balance/log", { params, signal });

export const listRemittances = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<RemittanceList>("/finance/remit/list", { params, signal });
export const confirmRemittance = (id: number) => api.post<RemittanceRow>("/finance/remit/confirm", { id });
export const rejectRemittance = (id: number, reason: string) =>
  api.post<RemittanceRow>("/finance/remit/reject", { id, reason });

export const listAuthentications = (params: QueryParams & Partial<AuthenticationListQuery>, { signal }: Signal = {}) =>
  api.get<AuthenticationList>("/user/authentication/list", { params, signal });
export const passAuthentication = (id: number) => api.post<AuthenticationRow>("/user/authentication/pass", { id });
export const rejectAuthentication = (id: number, reason: string) =>
  api.post<AuthenticationRow>("/user/authentication/reject", { id, reason });

export const listLoginLogs = (params: QueryParams, { signal }: Signal = {}) =>
  api.get<LoginLogList>("/user/login/log", { params, signal });
