import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router-dom";
import { useI18n } from "../../../lib/i18n";
import { clearUserQueries } from "../../../lib/query";
import type { Portal } from "../../../routes/paths";
import type { LoginResult } from "../api/types";
import { startSession } from "../session";

/** After a successful login or registration: store the session, drop old data, go home. */
export function useCompleteLogin(portal: Portal) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { setLang } = useI18n();

  return useCallback(
    (result: LoginResult) => {
      const { home, staff } = startSession(result, portal);
      // Data of a previous user must not show up for this one.
      clearUserQueries(queryClient);
      // Admins and agents work in Chinese (spec section 6); they can still switch in the header.
      if (staff) setLang("zh");
      navigate(home, { replace: true });
    },
    [portal, queryClient, navigate, setLang],
  );
}
