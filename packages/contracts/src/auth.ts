// Sign-in, registration and session contracts.
import { z } from "zod";
import { password, text, username } from "./common";

export const loginBody = z.object({
  username: username(),
  password: z.string().min(1).max(128),
});
export type LoginBody = z.infer<typeof loginBody>;

export const registerBody = z.object({
  username: username(),
  password: password(),
  email: z.email().max(254).optional(),
  phone: text(32).optional(),
  company: text(200).optional(),
  nickname: text(100).optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** The spec's user info: id, user, type, tenantId (plus what the shell shows). */
export const userInfo = z.object({
  id: z.number().int(),
  user: z.string(),
  type: z.number().int(),
  tenantId: z.number().int().nullable(),
  agentId: z.number().int().nullable(),
  nickname: z.string().nullable(),
  /** Decimal string in the tenant's currency. */
  balance: z.string(),
  currency: z.string(),
  status: z.number().int(),
  authStatus: z.number().int(),
  authRequirement: z.number().int(),
  authExemptUntil: z.string().nullable(),
  lang: z.string(),
});
export type UserInfo = z.infer<typeof userInfo>;

export const loginResult = z.object({
  token: z.string(),
  expiresAt: z.string(),
  user: userInfo,
});
export type LoginResult = z.infer<typeof loginResult>;

export const passwordModBody = z.object({
  oldPassword: z.string().min(1).max(128),
  newPassword: password(),
});
export type PasswordModBody = z.infer<typeof passwordModBody>;

export const websiteConfig = z.object({
  title: z.string(),
  logo: z.string().nullable(),
  logoSmall: z.string().nullable(),
  description: z.string().nullable(),
  agentId: z.number().int().nullable(),
  tenantId: z.number().int().nullable(),
});
export type WebsiteConfig = z.infer<typeof websiteConfig>;
