import { UserType } from "@switchboard/contracts/codes";
import { useSession } from "../../auth/context/session-context";

/** Admins and super admins manage the whole tenant; agents their own customers. */
export function useStaffRole() {
  const { user } = useSession();
  const isAdmin = user.type === UserType.ADMIN || user.type === UserType.SUPER_ADMIN;
  return { user, isAdmin, isAgent: user.type === UserType.AGENT };
}
