// Customer and account management: the /user list, search, tenant, create, edit, delete and login-log calls.
import { z } from "zod";
import { AccountStatus, AuthRequirement, AuthStatus, UserType } from "./codes";
import { acrossTenants, codeIn, flag, id, paging, password, text, timeRange, username } from "./common";

/** A code given in a query string ("2") or a JSON body (2): one of the listed values. */
const queryCode = codeIn;
const bodyCode = <const T extends readonly number[]>(values: T) => z.literal(values);

/** Types of users the /user routes manage; super admins are not managed through them (seed / environment). */
export const MANAGED_USER_TYPES = [UserType.ADMIN, UserType.AGENT, UserType.USER] as const;
const accountStatuses = [AccountStatus.NORMAL, AccountStatus.FROZEN] as const;
const authStatuses = [
  AuthStatus.NOT_AUTHENTICATED,
  AuthStatus.AUTHENTICATING,
  AuthStatus.AUTHENTICATED,
  AuthStatus.REJECTED,
] as const;
const authRequirements = [AuthRequirement.REQUIRED, AuthRequirement.EXEMPT] as const;

/** An optional contact field of a body: a string sets it, null or "" clears it, absent leaves it. */
const clearable = (max: number) => text(max).nullable().optional();

// ---------------------------------------------------------------- GET /user/list

export const userListQuery = paging.extend({
  /** Contained (case-insensitively) in username, nickname, company, email or phone. */
  keyword: text(100).optional(),
  type: queryCode(MANAGED_USER_TYPES).optional(),
  status: queryCode(accountStatuses).optional(),
  /** Customers owned by this agent. */
  agentId: id().optional(),
  authStatus: queryCode(authStatuses).optional(),
  ...timeRange.shape,
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const userRow = z.object({
  id: z.number().int(),
  tenantId: z.number().int().nullable(),
  user: z.string(),
  type: z.number().int(),
  status: z.number().int(),
  nickname: z.string().nullable(),
  company: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  remark: z.string().nullable(),
  agentId: z.number().int().nullable(),
  /** Username of the owning agent. */
  agentUser: z.string().nullable(),
  /** Decimal string in the tenant's currency. */
  balance: z.string(),
  authStatus: z.number().int(),
  authRequirement: z.number().int(),
  authExemptUntil: z.string().nullable(),
  apiEnabled: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  ...acrossTenants,
});
export type UserRow = z.infer<typeof userRow>;

export const userList = z.object({ list: z.array(userRow), total: z.number().int() });
export type UserList = z.infer<typeof userList>;

// ---------------------------------------------------------------- GET /user/search

export const USER_SEARCH_LIMIT = 20;

export const userSearchQuery = z.object({
  keyword: text(100).optional(),
  type: queryCode(MANAGED_USER_TYPES).optional(),
});
export type UserSearchQuery = z.infer<typeof userSearchQuery>;

export const userSearchItem = z.object({
  id: z.number().int(),
  user: z.string(),
  nickname: z.string().nullable(),
  type: z.number().int(),
});
export const userSearchResult = z.object({ list: z.array(userSearchItem), total: z.number().int() });
export type UserSearchResult = z.infer<typeof userSearchResult>;

// ---------------------------------------------------------------- tenants

export const tenantRow = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  status: z.number().int(),
  currency: z.string(),
  /** Live (not deleted) users per type; null for callers that are not told (agents, customers). */
  userCounts: z.object({ admins: z.number().int(), agents: z.number().int(), customers: z.number().int() }).nullable(),
  createdAt: z.string(),
});
export type TenantRow = z.infer<typeof tenantRow>;
export const tenantList = z.object({ list: z.array(tenantRow), total: z.number().int() });
export type TenantList = z.infer<typeof tenantList>;

/** Fields of a new account; `type` and `agentId` are checked against the caller's role by the service. */
const accountFields = {
  username: username(),
  password: password(),
  nickname: text(100).optional(),
  email: z.email().max(254).optional(),
  phone: text(32).optional(),
  company: text(200).optional(),
  remark: text(500).optional(),
};

export const tenantCreateBody = z.object({
  /** Short unique slug: lower-case letters, digits and dashes. */
  code: z
    .string()
    .trim()
    .min(2)
    .max(32)
    .regex(/^[a-z0-9][a-z0-9-]*$/),
  name: text(100, 1),
  /** ISO 4217 code, e.g. CNY, USD. */
  currency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/)
    .default("CNY"),
  /** The tenant's first admin, created in the same transaction (optional: POST /user/create can add it later). */
  admin: z.object(accountFields).optional(),
});
export type TenantCreateBody = z.infer<typeof tenantCreateBody>;

export const tenantCreateResult = z.object({ tenant: tenantRow, admin: userRow.nullable() });
export type TenantCreateResult = z.infer<typeof tenantCreateResult>;

// ---------------------------------------------------------------- POST /user/create, /user/edit, /user/delete

export const userCreateBody = z.object({
  ...accountFields,
  type: bodyCode(MANAGED_USER_TYPES),
  /** Customers only: the owning agent (admins choose one of their agents; an agent's customers are its own). */
  agentId: id().nullable().optional(),
  /** Customers only: 0 needs identity authentication (default), 1 exempt. */
  authRequirement: bodyCode(authRequirements).optional(),
  /** Super admins name the tenant here (or with the tenant-id header); others may only name their own. */
  tenantId: id().optional(),
});
export type UserCreateBody = z.infer<typeof userCreateBody>;

export const userEditBody = z.object({
  id: id(),
  nickname: clearable(100),
  email: z
    .union([z.email().max(254), z.literal("")])
    .nullable()
    .optional(),
  phone: clearable(32),
  company: clearable(200),
  remark: clearable(500),
  /** 1 normal, 2 frozen: freezing ends the user's sessions at once. */
  status: bodyCode(accountStatuses).optional(),
  /** Customers only: 0 needs identity authentication, 1 exempt. */
  authRequirement: bodyCode(authRequirements).optional(),
  /** Customers only, admins only: move the customer to another agent of the tenant (null: owned by the tenant). */
  agentId: id().nullable().optional(),
});
export type UserEditBody = z.infer<typeof userEditBody>;

export const userIdBody = z.object({ id: id() });
export type UserIdBody = z.infer<typeof userIdBody>;

// ---------------------------------------------------------------- GET /user/login/log

export const loginLogQuery = paging.extend({
  /** Contained (case-insensitively) in the username typed at sign-in. */
  username: text(64).optional(),
  userId: id().optional(),
  /** 1/true: successful sign-ins only, 0/false: failed ones only. */
  success: flag().optional(),
  ip: text(45).optional(),
  ...timeRange.shape,
});
export type LoginLogQuery = z.infer<typeof loginLogQuery>;

export const loginLogRow = z.object({
  /** BigInt id as a decimal string. */
  id: z.string(),
  tenantId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  username: z.string(),
  /** customer or staff */
  area: z.string(),
  ip: z.string(),
  userAgent: z.string().nullable(),
  success: z.boolean(),
  /** Why a failed attempt failed: bad_credentials, frozen, locked, tenant_unknown. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  ...acrossTenants,
});
export type LoginLogRow = z.infer<typeof loginLogRow>;
export const loginLogList = z.object({ list: z.array(loginLogRow), total: z.number().int() });
export type LoginLogList = z.infer<typeof loginLogList>;
