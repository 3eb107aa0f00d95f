import { Navigate } from "react-router-dom";
import { Forbidden } from "../components/status";
import { useOptionalSession } from "../features/auth/context/session-context";
import { config } from "../lib/config";
import { storage } from "../lib/storage";
import { firstChildPath } from "./flatten";
import { homePathFor, PATHS } from "./paths";
import type { FlatRoute } from "./types";

/** A parent path without its own page: go to its first child the user may see (403 when none). */
export function ParentRedirect({ parent, pages }: { parent: string; pages: readonly FlatRoute[] }) {
  const session = useOptionalSession();
  const target = firstChildPath(parent, pages, session?.user.type ?? null, config.variant);
  return target ? <Navigate to={target} replace /> : <Forbidden />;
}

/**
 * "/": the home of a logged-in user, else the login page (the RCS portal's in the RCS variant).
 * The area guard then checks the token with /user/info.
 */
export function HomeRedirect() {
  const userType = storage.getToken() ? storage.getUserType() : null;
  const rcs = config.variant === "rcs";
  if (userType !== null) return <Navigate to={homePathFor(userType, rcs ? "control" : "customer")} replace />;
  return <Navigate to={rcs ? PATHS.controlLogin : PATHS.customerLogin} replace />;
}
