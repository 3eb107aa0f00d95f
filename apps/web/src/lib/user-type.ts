/** User types as the API sends them (spec section 6): the constants are the contracts' own. */
import { STAFF_TYPES, UserType } from "@switchboard/contracts/codes";

export { UserType };

const known = new Set<number>(Object.values(UserType));

/** Reads a user type from an untyped value (API field, local storage); null when it is not one. */
export function toUserType(value: unknown): UserType | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && known.has(n) ? (n as UserType) : null;
}

/** Admins, agents and super admins work in the back office. */
export function isStaff(type: UserType | null): boolean {
  return type !== null && STAFF_TYPES.includes(type);
}
