// Account management: listing, lookup, tenants, creating, editing, freezing and deleting accounts, login logs.
// Which rows a caller may touch is decided by lib/scope.ts; this file decides what may be done to them.
import {
  AccountStatus,
  AuthRequirement,
  BatchStatus,
  displayMoney,
  formatMoney,
  type LoginLogList,
  type LoginLogQuery,
  type TenantCreateBody,
  type TenantCreateResult,
  type TenantList,
  type TenantRow,
  USER_SEARCH_LIMIT,
  type UserCreateBody,
  type UserEditBody,
  type UserList,
  type UserListQuery,
  type UserRow,
  type UserSearchQuery,
  type UserSearchResult,
  UserType,
} from "@switchboard/contracts";
import { type Db, hashPassword, Prisma, type PrismaClient } from "@switchboard/db";
import { AppError, conflict, notFound } from "../../lib/errors";
import { containing, createdBetween, pageArgs } from "../../lib/listing";
import { findManagedUser, managedUsersWhere, tenantWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";
import { requireAcceptablePassword, tenantWords } from "../auth/password-policy";

/** Batches that still hold the customer's money or are on their way out: deleting the customer waits for them. */
const RUNNING_BATCH_STATUSES = [
  BatchStatus.UNDER_REVIEW,
  BatchStatus.REVIEW_PASSED,
  BatchStatus.PENDING_SEND,
  BatchStatus.SENDING,
];

const userRowSelect = {
  id: true,
  tenantId: true,
  username: true,
  type: true,
  status: true,
  nickname: true,
  company: true,
  email: true,
  phone: true,
  remark: true,
  agentId: true,
  agent: { select: { username: true } },
  balance: true,
  authStatus: true,
  authRequirement: true,
  authExemptUntil: true,
  apiEnabled: true,
  createdAt: true,
  lastLoginAt: true,
} satisfies Prisma.UserSelect;

type UserRowData = Prisma.UserGetPayload<{ select: typeof userRowSelect }>;

export function toUserRow(u: UserRowData): UserRow {
  return {
    id: u.id,
    tenantId: u.tenantId,
    user: u.username,
    type: u.type,
    status: u.status,
    nickname: u.nickname,
    company: u.company,
    email: u.email,
    phone: u.phone,
    remark: u.remark,
    agentId: u.agentId,
    agentUser: u.agent?.username ?? null,
    balance: formatMoney(u.balance),
    authStatus: u.authStatus,
    authRequirement: u.authRequirement,
    authExemptUntil: u.authExemptUntil?.toISOString() ?? null,
    apiEnabled: u.apiEnabled,
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  };
}

function keywordWhere(keyword: string | undefined): Prisma.UserWhereInput | undefined {
  const c = containing(keyword);
  if (!c) return undefined;
  return {
    OR: [{ username: c }, { nickname: c }, { company: c }, { email: c }, { phone: c }],
  };
}

// ---------------------------------------------------------------- list and search

export async function listUsers(db: Db, p: Principal, q: UserListQuery): Promise<UserList> {
  const where: Prisma.UserWhereInput = {
    AND: [
      managedUsersWhere(p),
      keywordWhere(q.keyword) ?? {},
      {
        type: q.type,
        status: q.status,
        agentId: q.agentId,
        authStatus: q.authStatus,
        createdAt: createdBetween(q),
      },
    ],
  };
  const [rows, total] = await Promise.all([
    db.user.findMany({
      where,
      select: userRowSelect,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...pageArgs(q),
    }),
    db.user.count({ where }),
  ]);
  const tenantOf = await tenantNamesFor(
    db,
    p,
    rows.map((r) => r.tenantId),
  );
  return { list: rows.map((r) => ({ ...toUserRow(r), ...tenantOf(r.tenantId) })), total };
}

/** Quick lookup for select boxes: at most USER_SEARCH_LIMIT rows, newest first; total counts every match. */
export async function searchUsers(db: Db, p: Principal, q: UserSearchQuery): Promise<UserSearchResult> {
  const where: Prisma.UserWhereInput = {
    AND: [managedUsersWhere(p), keywordWhere(q.keyword) ?? {}, { type: q.type }],
  };
  const [rows, total] = await Promise.all([
    db.user.findMany({
      where,
      select: { id: true, username: true, nickname: true, type: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: USER_SEARCH_LIMIT,
    }),
    db.user.count({ where }),
  ]);
  return { list: rows.map((r) => ({ id: r.id, user: r.username, nickname: r.nickname, type: r.type })), total };
}

// ---------------------------------------------------------------- tenants

const tenantSelect = { id: true, code: true, name: true, status: true, currency: true, createdAt: true } as const;
type TenantData = Prisma.TenantGetPayload<{ select: typeof tenantSelect }>;

async function userCounts(db: Db, tenantIds: number[]) {
  const groups = await db.user.groupBy({
    by: ["tenantId", "type"],
    where: { tenantId: { in: tenantIds }, deletedAt: null },
    _count: { _all: true },
  });
  const counts = new Map<number, { admins: number; agents: number; customers: number }>();
  for (const id of tenantIds) counts.set(id, { admins: 0, agents: 0, customers: 0 });
  for (const g of groups) {
    const c = g.tenantId === null ? undefined : counts.get(g.tenantId);
    if (!c) continue;
    if (g.type === UserType.ADMIN) c.admins = g._count._all;
    else if (g.type === UserType.AGENT) c.agents = g._count._all;
    else if (g.type === UserType.USER) c.customers = g._count._all;
  }
  return counts;
}

function toTenantRow(t: TenantData, counts: TenantRow["userCounts"]): TenantRow {
  return { ...t, createdAt: t.createdAt.toISOString(), userCounts: counts };
}

/**
 * Super admin: every tenant (the tenant-id header does not narrow it: this list is how a tenant is chosen).
 * Everybody else: its own tenant; user counts only for admins (they are business figures of the platform).
 */
export async function listTenants(db: Db, p: Principal): Promise<TenantList> {
  const where = p.type === UserType.SUPER_ADMIN ? {} : { id: p.homeTenantId ?? -1 };
  const tenants = await db.tenant.findMany({ where, select: tenantSelect, orderBy: { id: "asc" } });
  const showCounts = p.type === UserType.SUPER_ADMIN || p.type === UserType.ADMIN;
  const ids = tenants.map((t) => t.id);
  const counts = showCounts ? await userCounts(db, ids) : undefined;
  return { list: tenants.map((t) => toTenantRow(t, counts?.get(t.id) ?? null)), total: tenants.length };
}

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** A tenant with its settings, and optionally its first admin, in one transaction. Super admins only. */
export async function createTenant(prisma: PrismaClient, p: Principal, body: TenantCreateBody) {
  if (body.admin) {
    const { username, password, email, company, nickname } = body.admin;
    await requireAcceptablePassword(password, { username, related: [body.name, body.code, email, company, nickname] });
  }
  const adminHash = body.admin ? await hashPassword(body.admin.password) : null;
  try {
    return await prisma.$transaction(async (tx): Promise<TenantCreateResult> => {
      const tenant = await tx.tenant.create({
        data: { code: body.code, name: body.name, currency: body.currency, setting: { create: {} } },
        select: tenantSelect,
      });
      let admin: UserRow | null = null;
      if (body.admin && adminHash) {
        const { password: _pw, ...fields } = body.admin;
        const created = await tx.user.create({
          data: {
            ...fields,
            tenantId: tenant.id,
            type: UserType.ADMIN,
            passwordHash: adminHash,
            createdById: p.userId,
          },
          select: userRowSelect,
        });
        admin = toUserRow(created);
      }
      return {
        tenant: toTenantRow(tenant, { admins: admin ? 1 : 0, agents: 0, customers: 0 }),
        admin,
      };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("user.tenant_code_taken");
    throw err;
  }
}

// ---------------------------------------------------------------- create

/** The tenant a new account goes to: a super admin names it (body or header); others create in their own. */
async function creationTenant(db: Db, p: Principal, requested: number | undefined): Promise<number> {
  if (p.type !== UserType.SUPER_ADMIN) {
    // Naming another tenant answers like naming one that does not exist.
    if (requested !== undefined && requested !== p.tenantId) throw notFound("entity.tenant");
    if (p.tenantId === null) throw new AppError(400, "error.tenant_required");
    return p.tenantId;
  }
  const tenantId = requested ?? p.tenantId;
  if (tenantId === null) throw new AppError(400, "error.tenant_required");
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw notFound("entity.tenant");
  return tenantId;
}

/** A live agent of the tenant, or 404 (another tenant's agent answers like a missing one). */
async function requireAgent(db: Db, tenantId: number, agentId: number) {
  const agent = await db.user.findFirst({
    where: { id: agentId, tenantId, type: UserType.AGENT, deletedAt: null },
    select: { id: true },
  });
  if (!agent) throw notFound("entity.agent");
}

/** Types each role may create: admins (and super admins) any tenant account, agents their own customers. */
function mayCreate(p: Principal, type: number): boolean {
  switch (p.type) {
    case UserType.SUPER_ADMIN:
    case UserType.ADMIN:
      return type === UserType.ADMIN || type === UserType.AGENT || type === UserType.USER;
    case UserType.AGENT:
      return type === UserType.USER;
    default:
      return false;
  }
}

/** The owning agent of a new customer: an agent's customers are its own; admins may pick one of their agents. */
async function ownerOfNewCustomer(db: Db, p: Principal, tenantId: number, requested: number | null | undefined) {
  if (p.type === UserType.AGENT) {
    if (requested !== undefined && requested !== null && requested !== p.userId) throw notFound("entity.agent");
    return p.userId;
  }
  if (requested === undefined || requested === null) return null;
  await requireAgent(db, tenantId, requested);
  return requested;
}

export async function createUser(prisma: PrismaClient, p: Principal, body: UserCreateBody): Promise<UserRow> {
  if (!mayCreate(p, body.type)) throw new AppError(403, "user.type_not_allowed");
  const isCustomer = body.type === UserType.USER;
  if (!isCustomer && body.agentId !== undefined && body.agentId !== null)
    throw new AppError(400, "user.agent_only_for_customers");
  if (!isCustomer && body.authRequirement !== undefined) throw new AppError(400, "user.requirement_only_for_customers");

  const tenantId = await creationTenant(prisma, p, body.tenantId);
  await requireAcceptablePassword(body.password, {
    username: body.username,
    related: [...(await tenantWords(prisma, tenantId)), body.email, body.company, body.nickname],
  });
  const agentId = isCustomer ? await ownerOfNewCustomer(prisma, p, tenantId, body.agentId) : null;
  const setting = await prisma.tenantSetting.findUnique({ where: { tenantId }, select: { international: true } });
  const passwordHash = await hashPassword(body.password);
  try {
    const created = await prisma.user.create({
      data: {
        tenantId,
        type: body.type,
        username: body.username,
        passwordHash,
        agentId,
        createdById: p.userId,
        nickname: body.nickname ?? null,
        email: body.email ?? null,
        phone: body.phone ?? null,
        company: body.company ?? null,
        remark: body.remark ?? null,
        authRequirement: body.authRequirement ?? AuthRequirement.REQUIRED,
        international: setting?.international ?? true,
      },
      select: userRowSelect,
    });
    return toUserRow(created);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("auth.username_taken");
    throw err;
  }
}

// ---------------------------------------------------------------- edit

/** "" and null both clear an optional text field; undefined leaves it alone. */
const cleared = (v: string | null | undefined) => (v === undefined ? undefined : v === "" ? null : v);

export async function editUser(prisma: PrismaClient, p: Principal, body: UserEditBody): Promise<UserRow> {
  const target = await findManagedUser(prisma, p, body.id, {
    id: true,
    type: true,
    tenantId: true,
    status: true,
    agentId: true,
  });
  const isCustomer = target.type === UserType.USER;
  if (body.status !== undefined && body.status !== target.status && target.id === p.userId)
    throw new AppError(400, "user.status_self");
  if (body.authRequirement !== undefined && !isCustomer) throw new AppError(400, "user.requirement_only_for_customers");
  if (body.agentId !== undefined && body.agentId !== target.agentId) {
    if (p.type !== UserType.ADMIN && p.type !== UserType.SUPER_ADMIN)
      throw new AppError(403, "user.agent_change_admins_only");
    if (!isCustomer) throw new AppError(400, "user.agent_only_for_customers");
    if (body.agentId !== null && target.tenantId !== null) await requireAgent(prisma, target.tenantId, body.agentId);
  }

  const freezing = body.status === AccountStatus.FROZEN && target.status !== AccountStatus.FROZEN;
  const data: Prisma.UserUncheckedUpdateManyInput = {
    nickname: cleared(body.nickname),
    email: cleared(body.email),
    phone: cleared(body.phone),
    company: cleared(body.company),
    remark: cleared(body.remark),
    status: body.status,
    authRequirement: body.authRequirement,
    agentId: body.agentId,
    // Freezing ends every session of the user at once: tokens carry the version they were issued with.
    ...(freezing ? { tokenVersion: { increment: 1 } } : {}),
  };
  // Conditional on the row still being live: a concurrent delete makes this a 404, not an edit of a deleted row.
  const updated = await prisma.user.updateMany({ where: { id: target.id, deletedAt: null }, data });
  if (updated.count === 0) throw notFound("entity.user");
  return toUserRow(await prisma.user.findUniqueOrThrow({ where: { id: target.id }, select: userRowSelect }));
}

// ---------------------------------------------------------------- delete

/**
 * Soft delete: the row stays (ledger, batches and logs point at it; its username stays taken), its sessions
 * and API key end at once. Refused while it still holds money, has batches on their way, owns customers, or
 * (agents) brands a website whose registrations would land under a deleted agent.
 * The user row is locked for the checks, so a concurrent balance change or batch submission waits for it.
 */
export async function deleteUser(prisma: PrismaClient, p: Principal, userId: number): Promise<null> {
  if (userId === p.userId) throw new AppError(400, "user.delete_self");
  await findManagedUser(prisma, p, userId, { id: true });
  await prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: number; balance: bigint }[]>`
      SELECT id, balance FROM users WHERE id = ${userId} AND "deletedAt" IS NULL FOR UPDATE`;
    const row = locked[0];
    if (!row) throw notFound("entity.user");
    if (row.balance !== 0n) throw conflict("user.delete_has_balance", { balance: displayMoney(row.balance) });
    const batches = await tx.messageBatch.count({ where: { userId, status: { in: RUNNING_BATCH_STATUSES } } });
    if (batches > 0) throw conflict("user.delete_has_batches", { count: batches });
    const customers = await tx.user.count({ where: { agentId: userId, deletedAt: null } });
    if (customers > 0) throw conflict("user.delete_has_customers", { count: customers });
    const websites = await tx.websiteConfig.count({ where: { agentId: userId } });
    if (websites > 0) throw conflict("user.delete_has_websites", { count: websites });
    await tx.user.update({
      where: { id: userId },
      data: {
        deletedAt: new Date(),
        tokenVersion: { increment: 1 },
        apiEnabled: false,
        secretKeyHash: null,
        secretKeyPrefix: null,
      },
    });
  });
  return null;
}

// ---------------------------------------------------------------- login log

export async function listLoginLogs(db: Db, p: Principal, q: LoginLogQuery): Promise<LoginLogList> {
  const where: Prisma.LoginLogWhereInput = {
    ...tenantWhere(p),
    username: containing(q.username),
    userId: q.userId,
    success: q.success,
    ip: q.ip ? { startsWith: q.ip } : undefined,
    createdAt: createdBetween(q),
  };
  const [rows, total] = await Promise.all([
    db.loginLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...pageArgs(q) }),
    db.loginLog.count({ where }),
  ]);
  const tenantOf = await tenantNamesFor(
    db,
    p,
    rows.map((r) => r.tenantId),
  );
  return {
    list: rows.map((r) => ({
      ...tenantOf(r.tenantId),
      id: r.id.toString(),
      tenantId: r.tenantId,
      userId: r.userId,
      username: r.username,
      area: r.area,
      ip: r.ip,
      userAgent: r.userAgent,
      success: r.success,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
  };
}
