// A super admin who names no tenant (no tenant-id header) reads every tenant's rows in one list: each row then
// carries its tenant's name, so the list can say whose it is. Everybody else reads one tenant: no name is added.
import { UserType } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import type { Principal } from "../plugins/auth";

/** Whether the caller's lists span every tenant. */
export function seesEveryTenant(p: Principal): boolean {
  return p.type === UserType.SUPER_ADMIN && p.tenantId === null;
}

/**
 * For a page of rows: `{ tenantName }` to spread into a row of that tenant when the caller sees every tenant,
 * `{}` otherwise (one query for the page's tenants, none when not needed).
 */
export async function tenantNamesFor(
  db: Db,
  p: Principal,
  tenantIds: Iterable<number | null>,
): Promise<(tenantId: number | null) => { tenantName?: string }> {
  if (!seesEveryTenant(p)) return () => ({});
  const ids = [...new Set([...tenantIds].filter((id): id is number => id !== null))];
  const rows =
    ids.length > 0 ? await db.tenant.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) : [];
  const names = new Map(rows.map((t) => [t.id, t.name]));
  return (tenantId) => {
    const name = tenantId === null ? undefined : names.get(tenantId);
    return name === undefined ? {} : { tenantName: name };
  };
}
