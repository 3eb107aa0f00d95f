// Who may see which rows: the one place that turns the caller into a where-clause.
// Another tenant's or another agent's row is filtered out here, so it answers exactly like a missing one.
//   super admin: every tenant (or the one named by the tenant-id header)
//   admin:       its tenant
//   agent:       itself and the customers it owns
//   customer:    itself
import { UserType } from "@switchboard/contracts";
import { type Db, Prisma } from "@switchboard/db";
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

/** Accounts of tenants (admins, agents, customers): super admins are not managed through the /user routes. */
const TENANT_ACCOUNT_TYPES = [UserType.ADMIN, UserType.AGENT, UserType.USER];

/**
 * Accounts the caller manages (lists them, edits, freezes, deletes, resets passwords):
 *   super admin: every tenant's admins, agents and customers (or those of the tenant-id header's tenant)
 *   admin:       its tenant's admins, agents and customers (itself included)
 *   agent:       the customers it owns
 *   customer:    none
 */
export function managedUsersWhere(p: Principal): Prisma.UserWhereInput {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
      return {
        deletedAt: null,
        type: { in: TENANT_ACCOUNT_TYPES },
        tenantId: p.tenantId === null ? { not: null } : p.tenantId,
      };
    case UserType.ADMIN:
      return { deletedAt: null, type: { in: TENANT_ACCOUNT_TYPES }, tenantId: p.tenantId };
    case UserType.AGENT:
      return managedCustomersWhere(p);
    default:
      return { id: { in: [] } };
  }
}

/** An account the caller manages, or 404 (missing, deleted, another tenant's or another agent's alike). */
export async function findManagedUser<S extends Prisma.UserSelect>(db: Db, p: Principal, userId: number, select: S) {
  return findUserIn(db, managedUsersWhere(p), userId, select);
}

/** A customer the caller manages, or 404 (missing, deleted, another tenant's or another agent's alike). */
export async function findManagedCustomer<S extends Prisma.UserSelect>(
  db: Db,
  p: Principal,
  customerId: number,
  select: S,
) {
  return findUserIn(db, managedCustomersWhere(p), customerId, select);
}

/**
 * Accounts whose balance the caller may recharge or deduct (docs/finance.md): agents and customers among the
 * accounts it manages, i.e. an admin its tenant's agents and customers, an agent only its own customers.
 */
export function managedBalanceAccountsWhere(p: Principal): Prisma.UserWhereInput {
  return { AND: [managedUsersWhere(p), { type: { in: [UserType.AGENT, UserType.USER] } }] };
}

/** A balance account the caller manages, or 404 (missing, deleted, another tenant's or another agent's alike). */
export async function findManagedBalanceAccount<S extends Prisma.UserSelect>(
  db: Db,
  p: Principal,
  userId: number,
  select: S,
) {
  return findUserIn(db, managedBalanceAccountsWhere(p), userId, select);
}

/**
 * Users whose price list the caller may read (GET /price/list, /user/product/price):
 *   super admin, admin: the tenant's agents (their cost prices) and customers
 *   agent:              itself (its cost prices) and the customers it owns
 *   customer:           itself
 */
export function priceHoldersWhere(p: Principal): Prisma.UserWhereInput {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
    case UserType.ADMIN:
      return { deletedAt: null, type: { in: [UserType.AGENT, UserType.USER] }, ...tenantWhere(p) };
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

/**
 * Users whose prices the caller may set (POST /price/customer/set): admins any agent (its cost price) or
 * customer of the tenant; an agent only the customers it owns (never itself).
 */
export function priceTargetsWhere(p: Principal): Prisma.UserWhereInput {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
    case UserType.ADMIN:
      return { deletedAt: null, type: { in: [UserType.AGENT, UserType.USER] }, ...tenantWhere(p) };
    case UserType.AGENT:
      return managedCustomersWhere(p);
    default:
      return { id: { in: [] } };
  }
}

/** A user inside a scope, or 404: missing, deleted and out-of-scope users answer alike. */
async function findUserIn<S extends Prisma.UserSelect>(
  db: Db,
  scope: Prisma.UserWhereInput,
  userId: number,
  select: S,
) {
  // AND, not a spread: a scope that itself names an id (a customer's own) must not be overridden.
  const row = await db.user.findFirst({ where: { AND: [scope, { id: userId }] }, select });
  if (!row) throw notFound("entity.user");
  return row;
}

/**
 * Message batches the caller may see and act on (the batch screens, review, cancel, terminate):
 *   super admin: every tenant's (or the tenant-id header's tenant's)
 *   admin:       its tenant's
 *   agent:       its customers' (the owning agent recorded on the batch at submission)
 *   customer:    its own
 */
export function visibleBatchesWhere(p: Principal): Prisma.MessageBatchWhereInput {
  return visibleBatchesScope(p);
}

/** The columns of message_batches that decide what the caller sees, and their values (all must match). */
function visibleBatchesScope(p: Principal): { tenantId?: number; agentId?: number; userId?: number } {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
      return tenantWhere(p);
    case UserType.ADMIN:
      return { tenantId: p.tenantId ?? -1 };
    case UserType.AGENT:
      return { tenantId: p.tenantId ?? -1, agentId: p.userId };
    default:
      return { userId: p.userId };
  }
}

/**
 * visibleBatchesWhere for raw SQL over message_batches aliased `alias` (a join the query builder cannot write, e.g.
 * recipients by number across batches): the same columns and values, so both always agree.
 */
export function visibleBatchesSql(p: Principal, alias: string): Prisma.Sql {
  if (!/^[a-z_]+$/.test(alias)) throw new Error(`visibleBatchesSql: bad alias ${alias}`);
  const parts = Object.entries(visibleBatchesScope(p)).map(
    ([column, value]) => Prisma.sql`${Prisma.raw(`${alias}."${column}"`)} = ${value}`,
  );
  return parts.length > 0 ? Prisma.join(parts, " AND ") : Prisma.sql`TRUE`;
}

/** A batch the caller may see, or 404 (missing, another tenant's, another agent's or customer's alike). */
export async function findVisibleBatch<S extends Prisma.MessageBatchSelect>(
  db: Db,
  p: Principal,
  batchId: bigint,
  select: S,
) {
  const row = await db.messageBatch.findFirst({ where: { AND: [visibleBatchesWhere(p), { id: batchId }] }, select });
  if (!row) throw notFound("entity.batch");
  return row;
}
