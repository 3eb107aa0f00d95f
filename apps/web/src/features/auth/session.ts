import type { MessageKey } from "../../lib/i18n";
import { storage } from "../../lib/storage";
import { isStaff, UserType } from "../../lib/user-type";
import { homePathFor, type Portal } from "../../routes/paths";
import type { LoginResult } from "./api/types";

/**
 * Keeps a fresh login (token, user type, tenant) and answers where the user lands: customers on
 * /app/dashboard (/user/home from the RCS portal), everybody else on /backend/dashboard.
 */
export function startSession(result: LoginResult, portal: Portal): { home: string; staff: boolean } {
  storage.clearSession();
  storage.saveSession(result.token, { userType: result.user.type, tenantId: result.user.tenantId });
  return { home: homePathFor(result.user.type, portal), staff: isStaff(result.user.type) };
}

/** Back-office title: 'management platform' for agents, 'system platform' for admins. */
export function platformTitleKey(userType: UserType): MessageKey | null {
  if (userType === UserType.AGENT) return "app.platform.agent";
  if (userType === UserType.ADMIN || userType === UserType.SUPER_ADMIN) return "app.platform.admin";
  return null;
}
