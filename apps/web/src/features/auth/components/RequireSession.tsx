import { useQuery } from "@tanstack/react-query";
import { Alert, Button } from "antd";
import { type ReactNode, useEffect, useMemo } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { DelayedLoading } from "../../../components/DelayedLoading";
import { isApiError } from "../../../lib/api";
import { config } from "../../../lib/config";
import { errorText } from "../../../lib/error-text";
import { useT } from "../../../lib/i18n";
import { storage } from "../../../lib/storage";
import { toUserType } from "../../../lib/user-type";
import { loginPathFor } from "../../../routes/paths";
import { userInfoQueryOptions } from "../api/get-user-info";
import { type Session, SessionContext } from "../context/session-context";

/**
 * Guards an area (spec section 2, "general behaviour"): without a saved token, or when /user/info has
 * no user, it goes to the login page; otherwise it provides the session to the area.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  if (!storage.getToken()) {
    return <Navigate to={loginPathFor(storage.getUserType(), pathname, config.variant)} replace />;
  }
  return <SessionLoader pathname={pathname}>{children}</SessionLoader>;
}

function SessionLoader({ pathname, children }: { pathname: string; children: ReactNode }) {
  const t = useT();
  const { data: user, error, isPending, refetch, isRefetching } = useQuery(userInfoQueryOptions());
  const userType = user ? toUserType(user.type) : null;

  useEffect(() => {
    if (user && userType !== null) {
      storage.saveIdentity({ userType, tenantId: user.tenantId, agentId: user.agentId });
    } else if (user === null) {
      storage.clearSession();
    }
  }, [user, userType]);

  const session = useMemo<Session | null>(
    () => (user && userType !== null ? { user: { ...user, type: userType } } : null),
    [user, userType],
  );

  if (isPending) return <DelayedLoading text={t("app.loading")} fullscreen />;
  if (error) {
    // A 401 has already cleared the session and started the move to the login page.
    if (isApiError(error) && error.kind === "unauthorized") {
      return <Navigate to={loginPathFor(null, pathname, config.variant)} replace />;
    }
    return (
      <div style={{ maxWidth: 560, margin: "15vh auto", padding: "0 16px" }}>
        <Alert
          type="error"
          showIcon
          title={t("app.bootFailed")}
          description={errorText(error, t)}
          action={
            <Button onClick={() => refetch()} loading={isRefetching}>
              {t("common.retry")}
            </Button>
          }
        />
      </div>
    );
  }
  if (!session) return <Navigate to={loginPathFor(storage.getUserType(), pathname, config.variant)} replace />;
  return <SessionContext value={session}>{children}</SessionContext>;
}
