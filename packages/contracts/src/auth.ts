// Sign-in, registration and session contracts.
import { z } from "zod";
import { id, password, passwordInput, text, username } from "./common";

export const loginBody = z.object({
  username: username(),
  password: passwordInput(),
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

/**
 * POST /user/password/mod, two uses in one contract:
 * - without userId (or with the caller's own id): change the caller's own password; oldPassword is required;
 * - with another user's id: an admin (any user of its tenant) or an agent (its own customers) resets that
 *   user's password without knowing the old one; oldPassword is then ignored.
 */
export const passwordModBody = z.object({
  userId: id().optional(),
  oldPassword: passwordInput().optional(),
  newPassword: password(),
});
export type PasswordModBody = z.infer<typeof passwordModBody>;

/** Answer to a reset of another user's password: that user's sessions have ended. */
export const passwordResetResult = z.object({ userId: z.number().int() });
export type PasswordResetResult = z.infer<typeof passwordResetResult>;

export const websiteConfig = z.object({
  title: z.string(),
  logo: z.string().nullable(),
  logoSmall: z.string().nullable(),
  description: z.string().nullable(),
  agentId: z.number().int().nullable(),
  tenantId: z.number().int().nullable(),
  /**
   * The tenant's mode (TenantSetting.international): true international, false domestic (the customer menu then
   * shows notices). Of the tenant-id header's tenant, else the host's; absent when neither names a tenant.
   */
  international: z.boolean().optional(),
  /**
   * Tracked links (docs/batches.md): the characters each `{{link:...}}` takes in an SMS as sent, this deployment's
   * short link length, for the composer's live segment counter.
   */
  shortLinkLength: z.number().int().optional(),
});
export type WebsiteConfig = z.infer<typeof websiteConfig>;
