import { api } from "../../../lib/api";
import { LOGOUT_TIMEOUT_MS } from "../../../lib/constants";

/** POST /auth/logout: ends the token on the server. Best-effort: see useLogout. */
export function logout(): Promise<null> {
  return api.post<null>("/auth/logout", undefined, { timeoutMs: LOGOUT_TIMEOUT_MS });
}
