// Pieces every list route shares: paging arguments, a created-at range, a "contains" keyword.
import type { Paging } from "@switchboard/contracts";

/** A list query that the developer API may also page by cursor (lib/cursor.ts). */
export type Paged<T> = T & { cursor?: string | undefined };

/** skip/take of a page (page and pageSize are bounded by the contract). */
export function pageArgs(q: Paging): { skip: number; take: number } {
  return { skip: (q.page - 1) * q.pageSize, take: q.pageSize };
}

/** createdAt between from and to (both inclusive, either may be absent); undefined when neither is given. */
export function createdBetween(q: { from?: string | undefined; to?: string | undefined }) {
  if (!q.from && !q.to) return undefined;
  return { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) };
}

/** A case-insensitive "contains" filter, or undefined for an absent or blank keyword. */
export function containing(keyword: string | undefined) {
  const k = keyword?.trim();
  return k ? { contains: k, mode: "insensitive" as const } : undefined;
}
