// Who may see which rows: the one place that turns the caller into a where-clause.
// Another tenant's or another agent's row is filtered out here, so it answers exactly like a missing one.
//   super admin: every tenant (or the one named by the tenant-id header)
//   admin:       its tenant
//   agent:       itself and the customers it owns
//   customer:    itself
import { UserType } from "@switchboard/contracts";
import type { Db, Prisma } from "@switchboard/db";
import type { Principal } from "../plugins/auth";
import { AppError, notFound } from "./errors";

/** Rows of tenant-scoped tables (products, channels, batches...) the caller may see. */
export function tenantWhere(p: Principal): { tenantId?: number } {
  return p.tenantId === null ? {} : { tenantId: p.tenantId };
}

/** The tenant a write acts in; a super admin must name one with the tenant-id header. */
export function actingTenant(p: Principal): number {
  if (p.tenantId === null) throw new AppError(400, "error.tenant_required");
  return p.tenantId;
}

/** Users (of any type) the caller may see. Deleted users are never visible. */
export function visibleUsersWhere(p: Principal): Prisma.UserWhereInput {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
      return { deletedAt: null, ...tenantWhere(p) };
    case UserType.ADMIN:
      return { deletedAt: null, tenantId: p.tenantId };
    case UserType.AGENT:
      return {
        deletedAt: null,
        tenantId: p.tenantId,
        OR: [{ id: p.userId }, { type: UserType.USER, agentId: p.userId }],
      };
    default:
      return { deletedAt: null, id: p.userId };
  }
}

/** Customers (type 3) the caller manages: all of the tenant for admins, its own for an agent. */
export function managedCustomersWhere(p: Principal): Prisma.UserWhereInput {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
    case UserType.ADMIN:
      return { deletedAt: null, type: UserType.USER, ...tenantWhere(p) };
    case UserType.AGENT:
      return { deletedAt: null, type: UserType.USER, tenantId: p.tenantId, agentId: p.userId };
    default:
      return { deletedAt: null, type: UserType.USER, id: p.userId };
  }
}

/** A customer the caller manages, or 404 (missing, deleted, another tenant's or another agent's alike). */
export async function findManagedCustomer<S extends Prisma.UserSelect>(
  db: Db,
  p: Principal,
  customerId: number,
  select: S,
) {
  const row = await db.user.findFirst({ where: { ...managedCustomersWhere(p), id: customerId }, select });
  if (!row) throw notFound("entity.user");
  return row;
}
