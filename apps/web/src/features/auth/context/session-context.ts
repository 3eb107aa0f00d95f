import { createContext, useContext } from "react";
import type { UserInfo } from "../api/get-user-info";

export interface Session {
  user: UserInfo;
}

/** Provided by RequireSession inside the /app, /backend and /user areas. */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession must be used inside an area guarded by RequireSession");
  return session;
}

/** The session on pages that may also be public. */
export function useOptionalSession(): Session | null {
  return useContext(SessionContext);
}
