import { ApiError } from "../../../lib/api";
import { translate } from "../../../lib/i18n";
import { toUserType, type UserType } from "../../../lib/user-type";

/** Answer of POST /auth/login, /auth/staff/login and /auth/register. */
export interface LoginResult {
  token: string;
  /** ISO date-time. */
  expiresAt: string;
  user: {
    id: number | string;
    user: string;
    type: UserType;
    tenantId: number | string | null;
  };
}

export interface Credentials {
  username: string;
  password: string;
}

/** Checks the parts the client relies on (a token and a known user type). */
export function parseLoginResult(data: unknown): LoginResult {
  const result = data as Partial<LoginResult> | null;
  const type = toUserType(result?.user?.type);
  if (!result || typeof result.token !== "string" || !result.token || !result.user || type === null) {
    throw new ApiError("bad-response", translate("error.unknown"));
  }
  return { ...result, token: result.token, expiresAt: String(result.expiresAt ?? ""), user: { ...result.user, type } };
}
