import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { config } from "../../../lib/config";
import { clearUserQueries } from "../../../lib/query";
import { storage } from "../../../lib/storage";
import { loginPathFor } from "../../../routes/paths";
import { logout } from "../api/logout";

/**
 * Logs out: tells the server (best-effort, a failure is logged), then always clears the token, tenant
 * and agent identity locally and goes to the right login page (type 3 -> /login, RCS portal ->
 * /control/login, staff -> the staff login).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  return useCallback(async () => {
    const target = loginPathFor(storage.getUserType(), pathname, config.variant);
    try {
      await logout();
    } catch (error) {
      console.warn("logout request failed; the local session is cleared anyway", error);
    }
    storage.clearSession();
    clearUserQueries(queryClient);
    navigate(target, { replace: true });
  }, [pathname, queryClient, navigate]);
}
