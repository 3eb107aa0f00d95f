/** User types as the API sends them (spec section 6). */
export const UserType = {
  ADMIN: 1,
  AGENT: 2,
  USER: 3,
  SUPER_ADMIN: 9,
} as const;

export type UserType = (typeof UserType)[keyof typeof UserType];

const known = new Set<number>(Object.values(UserType));

/** Reads a user type from an untyped value (API field, local storage); null when it is not one. */
export function toUserType(value: unknown): UserType | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && known.has(n) ? (n as UserType) : null;
}

/** Admins, agents and super admins work in the back office. */
export function isStaff(type: UserType | null): boolean {
  return type === UserType.ADMIN || type === UserType.AGENT || type === UserType.SUPER_ADMIN;
}
