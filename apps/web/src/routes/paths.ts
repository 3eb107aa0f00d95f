/** Entry paths of the areas, and where a user logs in and lands (spec sections 2, 4 and 6). */
import type { Variant } from "../lib/config";
import { isStaff, UserType } from "../lib/user-type";

export const PATHS = {
  customerLogin: "/login",
  customerRegister: "/register",
  controlLogin: "/control/login",
  controlRegister: "/control/register",
  systemLogin: "/system/login",
  backendLogin: "/backend/login",
  appHome: "/app/dashboard",
  rcsHome: "/user/home",
  backendHome: "/backend/dashboard",
} as const;

/** Which login page a user came through: the customer app, the RCS portal or the back office. */
export type Portal = "customer" | "control" | "staff";

export const PUBLIC_PATHS: readonly string[] = [
  PATHS.customerLogin,
  PATHS.customerRegister,
  PATHS.controlLogin,
  PATHS.controlRegister,
  PATHS.systemLogin,
  PATHS.backendLogin,
];

export function staffLoginPath(variant: Variant): string {
  return variant === "rcs" ? PATHS.backendLogin : PATHS.systemLogin;
}

/** The staff login pages: no tenant-id header is sent from them (a super admin logs in there). */
export function isSystemLoginPage(pathname: string): boolean {
  return pathname === PATHS.systemLogin || pathname === PATHS.backendLogin;
}

function under(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** The RCS portal: /user/... and its public pages /control/... */
export function isRcsPortalPath(pathname: string): boolean {
  return under(pathname, "/user") || under(pathname, "/control");
}

/**
 * Where to send a user whose session ended: RCS-portal customers to /control/login, other
 * customers (type 3) to /login, staff to /system/login (/backend/login in the RCS variant).
 * Without a known type the current path decides.
 */
export function loginPathFor(userType: UserType | null, pathname: string, variant: Variant): string {
  if (isStaff(userType)) return staffLoginPath(variant);
  if (isRcsPortalPath(pathname)) return PATHS.controlLogin;
  if (userType === UserType.USER) return PATHS.customerLogin;
  if (under(pathname, "/backend") || under(pathname, "/system")) return staffLoginPath(variant);
  return PATHS.customerLogin;
}

/** Where a user lands after login: customers on their home, everybody else on /backend/dashboard. */
export function homePathFor(userType: UserType, portal: Portal): string {
  if (userType !== UserType.USER) return PATHS.backendHome;
  return portal === "control" ? PATHS.rcsHome : PATHS.appHome;
}
