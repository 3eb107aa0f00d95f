import { randomUUID } from "node:crypto";
// Sign-in, registration, session info and password change.
import {
  AccountStatus,
  AuthRequirement,
  AuthStatus,
  formatMoney,
  type LoginBody,
  type PasswordResetResult,
  type RegisterBody,
  STAFF_TYPES,
  type UserInfo,
  UserType,
} from "@switchboard/contracts";
import { type Db, hashPassword, Prisma, verifyPassword } from "@switchboard/db";
import { getMany } from "@switchboard/domain/redis";
import type { Deps } from "../../deps";
import { AppError, conflict, forbidden, notFound } from "../../lib/errors";
import { findManagedUser } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { type LoginArea, type LoginAttempt, type LoginFailure, writeLoginLog } from "./login-log";
import { requireAcceptablePassword, tenantWords } from "./password-policy";

/** A hash of a random string: verifying against it when no account matches costs the same time as a real check. */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomUUID()));

const userInfoSelect = {
  id: true,
  username: true,
  type: true,
  tenantId: true,
  agentId: true,
  nickname: true,
  balance: true,
  status: true,
  authStatus: true,
  authRequirement: true,
  authExemptUntil: true,
  lang: true,
  tokenVersion: true,
  tenant: { select: { currency: true } },
} satisfies Prisma.UserSelect;

type UserRow = Prisma.UserGetPayload<{ select: typeof userInfoSelect }>;

export function toUserInfo(u: UserRow): UserInfo {
  return {
    id: u.id,
    user: u.username,
    type: u.type,
    tenantId: u.tenantId,
    agentId: u.agentId,
    nickname: u.nickname,
    balance: formatMoney(u.balance),
    currency: u.tenant?.currency ?? "CNY",
    status: u.status,
    authStatus: u.authStatus,
    authRequirement: u.authRequirement,
    authExemptUntil: u.authExemptUntil?.toISOString() ?? null,
    lang: u.lang,
  };
}

type Signer = (u: { id: number; tenantId: number | null; type: number; tokenVersion: number }) => {
  token: string;
  expiresAt: Date;
};

/**
 * Failed password checks of one account, whichever route checked it (customer or staff sign-in, the old
 * password of a change) and whichever tenant-id header came with it: one lock per account.
 */
export function accountLockKey(prefix: string, userId: number) {
  return `${prefix}login:fail:user:${userId}`;
}

/**
 * Guesses at a username no account has: counted and locked like an account's, so a lock tells nothing about
 * whether the account exists. Staff names are counted across tenants, as a super admin's are (a super admin
 * is found under every tenant's header): otherwise a lock seen under a second tenant would single one out.
 */
function unknownNameKey(prefix: string, area: LoginArea, tenantId: number | null, username: string) {
  const scope = area === "staff" ? "*" : String(tenantId ?? 0);
  return `${prefix}login:fail:name:${area}:${scope}:${username.toLowerCase()}`;
}

/** The sign-in-log row of an attempt on an account: under the account's own tenant (none for a super admin). */
function onAccount(attempt: LoginAttempt, account: { id: number; tenantId: number | null }): LoginAttempt {
  return { ...attempt, userId: account.id, tenantId: account.tenantId };
}

async function writeLoginLogs(db: Db, attempts: LoginAttempt[], failure: LoginFailure) {
  for (const a of attempts) await writeLoginLog(db, a, failure);
}

export interface LoginInput extends LoginBody {
  area: LoginArea;
  tenantId: number | null;
  ip: string;
  userAgent: string | undefined;
}

export async function login(deps: Deps, sign: Signer, input: LoginInput) {
  const { prisma, redis, config } = deps;
  const attempt: LoginAttempt = {
    tenantId: input.tenantId,
    userId: null,
    username: input.username,
    area: input.area,
    ip: input.ip,
    userAgent: input.userAgent,
  };
  if (input.area === "customer" && input.tenantId === null) {
    await writeLoginLog(prisma, attempt, "tenant_unknown");
    throw new AppError(400, "error.tenant_unknown");
  }

  const staffTypes = [UserType.ADMIN, UserType.AGENT];
  const candidates = await prisma.user.findMany({
    where:
      input.area === "customer"
        ? { tenantId: input.tenantId, type: UserType.USER, username: input.username, deletedAt: null }
        : {
            username: input.username,
            deletedAt: null,
            OR: [
              { type: UserType.SUPER_ADMIN },
              ...(input.tenantId !== null ? [{ tenantId: input.tenantId, type: { in: staffTypes } }] : []),
            ],
          },
    select: { ...userInfoSelect, passwordHash: true },
    take: 2,
  });

  // Per-account lock: after N failures the account refuses sign-in for the window, whatever the IP.
  const keys =
    candidates.length > 0
      ? candidates.map((c) => accountLockKey(config.REDIS_PREFIX, c.id))
      : [unknownNameKey(config.REDIS_PREFIX, input.area, input.tenantId, input.username)];
  const counts = (await getMany(redis, keys)).map((v) => Number(v ?? 0));
  const isOpen = (i: number) => (counts[i] ?? 0) < config.LOGIN_ACCOUNT_MAX_FAILURES;
  const open = candidates.filter((_, i) => isOpen(i));
  if (candidates.length > 0 ? open.length === 0 : !isOpen(0)) {
    const ttl = Math.max(...(await Promise.all(keys.map((k) => redis.ttl(k)))));
    // Each account's row goes to its own tenant's log: a super admin's never to the tenant named by the header.
    await writeLoginLogs(
      prisma,
      candidates.length > 0 ? candidates.map((c) => onAccount(attempt, c)) : [attempt],
      "locked",
    );
    throw new AppError(429, "auth.too_many_attempts", {
      minutes: Math.max(1, Math.ceil(ttl / 60)),
      retryAfter: Math.max(1, ttl),
    });
  }

  let user: (typeof candidates)[number] | undefined;
  for (const c of open) {
    if (await verifyPassword(c.passwordHash, input.password)) {
      user = c;
      break;
    }
  }
  if (candidates.length === 0) await verifyPassword(await dummy(), input.password);

  if (!user) {
    const failed = candidates.length > 0 ? open.map((c) => accountLockKey(config.REDIS_PREFIX, c.id)) : keys;
    // One MULTI per key: the accounts' keys may live on different nodes of a Redis Cluster.
    await Promise.all(failed.map((k) => redis.multi().incr(k).expire(k, config.LOGIN_ACCOUNT_WINDOW_SECONDS).exec()));
    await writeLoginLogs(
      prisma,
      candidates.length > 0 ? open.map((c) => onAccount(attempt, c)) : [attempt],
      "bad_credentials",
    );
    // HTTP 401 but envelope code 1: the client shows the message instead of treating it as a lost session.
    throw new AppError(401, "auth.bad_credentials", {}, 1);
  }
  if (user.status !== AccountStatus.NORMAL) {
    await writeLoginLog(prisma, onAccount(attempt, user), "frozen");
    throw new AppError(403, "auth.frozen");
  }

  await redis.del(accountLockKey(config.REDIS_PREFIX, user.id));
  await prisma.$transaction([
    prisma.user.update({
      where: { id: user.id },
      data: { lastLoginAt: new Date(), lastLoginIp: input.ip.slice(0, 45) },
    }),
    prisma.loginLog.create({
      data: {
        tenantId: user.tenantId,
        userId: user.id,
        username: user.username,
        area: input.area,
        ip: input.ip.slice(0, 45),
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        success: true,
      },
    }),
  ]);
  const { token, expiresAt } = sign(user);
  return { token, expiresAt: expiresAt.toISOString(), user: toUserInfo(user) };
}

export interface RegisterInput extends RegisterBody {
  tenantId: number;
  agentId: number | null;
  ip: string;
  userAgent: string | undefined;
}

export async function register(deps: Deps, sign: Signer, input: RegisterInput) {
  const { prisma } = deps;
  const setting = await prisma.tenantSetting.findUnique({ where: { tenantId: input.tenantId } });
  if (setting && !setting.registrationOpen) throw new AppError(403, "auth.registration_closed");
  await requireAcceptablePassword(input.password, {
    username: input.username,
    related: [...(await tenantWords(prisma, input.tenantId)), input.email, input.company, input.nickname],
  });

  const passwordHash = await hashPassword(input.password);
  try {
    const user = await prisma.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: {
          tenantId: input.tenantId,
          type: UserType.USER,
          username: input.username,
          passwordHash,
          agentId: input.agentId,
          email: input.email ?? null,
          phone: input.phone ?? null,
          company: input.company ?? null,
          nickname: input.nickname ?? null,
          authStatus: AuthStatus.NOT_AUTHENTICATED,
          authRequirement: AuthRequirement.REQUIRED,
          international: setting?.international ?? true,
          lastLoginAt: new Date(),
          lastLoginIp: input.ip.slice(0, 45),
        },
        select: userInfoSelect,
      });
      await writeLoginLog(tx, {
        tenantId: input.tenantId,
        userId: created.id,
        username: created.username,
        area: "customer",
        ip: input.ip,
        userAgent: input.userAgent,
      });
      return created;
    });
    const { token, expiresAt } = sign(user);
    return { token, expiresAt: expiresAt.toISOString(), user: toUserInfo(user) };
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
      throw conflict("auth.username_taken");
    throw err;
  }
}

/**
 * The signed-in user, read on every page load and by every client's polling: one statement (Prisma would load
 * the tenant's currency with a second one, and its query building cost more than the statement here).
 */
export async function userInfo(deps: Deps, userId: number): Promise<UserInfo> {
  const [u] = await deps.prisma.$queryRaw<Array<Omit<UserRow, "tenant"> & { currency: string | null }>>`
    SELECT u.id, u.username, u.type, u."tenantId", u."agentId", u.nickname, u.balance, u.status, u."authStatus",
           u."authRequirement", u."authExemptUntil", u.lang, u."tokenVersion", t.currency
    FROM users u LEFT JOIN tenants t ON t.id = u."tenantId"
    WHERE u.id = ${userId}`;
  if (!u) throw notFound("entity.user");
  return toUserInfo({ ...u, tenant: u.currency === null ? null : { currency: u.currency } });
}

/**
 * Changes the caller's own password; every other session of the user ends (tokenVersion bump). A wrong old
 * password counts against the account's sign-in lock: a stolen session must not become a way to guess it.
 */
export async function changeOwnPassword(
  deps: Deps,
  sign: Signer,
  userId: number,
  oldPassword: string | undefined,
  newPassword: string,
) {
  const { prisma, redis, config } = deps;
  if (oldPassword === undefined) throw new AppError(400, "validation.required", { field: "oldPassword" });
  const u = await prisma.user.findUnique({
    where: { id: userId },
    select: {
      username: true,
      tenantId: true,
      email: true,
      company: true,
      nickname: true,
      passwordHash: true,
      tokenVersion: true,
    },
  });
  if (!u) throw notFound("entity.user");
  const lockKey = accountLockKey(config.REDIS_PREFIX, userId);
  if (Number((await redis.get(lockKey)) ?? 0) >= config.LOGIN_ACCOUNT_MAX_FAILURES) {
    const ttl = await redis.ttl(lockKey);
    throw new AppError(429, "auth.too_many_attempts", {
      minutes: Math.max(1, Math.ceil(ttl / 60)),
      retryAfter: Math.max(1, ttl),
    });
  }
  if (!(await verifyPassword(u.passwordHash, oldPassword))) {
    await redis.multi().incr(lockKey).expire(lockKey, config.LOGIN_ACCOUNT_WINDOW_SECONDS).exec();
    throw new AppError(400, "auth.old_password_wrong");
  }
  if (oldPassword === newPassword) throw new AppError(400, "auth.password_same");
  await requireAcceptablePassword(newPassword, {
    username: u.username,
    related: [...(await tenantWords(prisma, u.tenantId)), u.email, u.company, u.nickname],
  });
  const passwordHash = await hashPassword(newPassword);
  // Conditional on the version read above: a concurrent change makes this one fail instead of both winning.
  const updated = await prisma.user.updateManyAndReturn({
    where: { id: userId, tokenVersion: u.tokenVersion },
    data: { passwordHash, tokenVersion: { increment: 1 } },
    select: userInfoSelect,
  });
  const user = updated[0];
  if (!user) throw conflict("auth.old_password_wrong");
  await redis.del(lockKey);
  const { token, expiresAt } = sign(user);
  return { token, expiresAt: expiresAt.toISOString(), user: toUserInfo(user) };
}

/**
 * An admin (any account of its tenant; a super admin: any tenant's) or an agent (its own customers) sets
 * another user's password without the old one. The user's sessions end at once and a sign-in lock from
 * earlier failures is lifted, so the new password works straight away.
 */
export async function resetPassword(
  deps: Deps,
  p: Principal,
  userId: number,
  newPassword: string,
): Promise<PasswordResetResult> {
  const { prisma, redis, config } = deps;
  if (!STAFF_TYPES.includes(p.type)) throw forbidden();
  const target = await findManagedUser(prisma, p, userId, {
    id: true,
    tenantId: true,
    username: true,
    email: true,
    company: true,
    nickname: true,
  });
  await requireAcceptablePassword(newPassword, {
    username: target.username,
    related: [...(await tenantWords(prisma, target.tenantId)), target.email, target.company, target.nickname],
  });
  const passwordHash = await hashPassword(newPassword);
  const updated = await prisma.user.updateMany({
    where: { id: target.id, deletedAt: null },
    data: { passwordHash, tokenVersion: { increment: 1 } },
  });
  if (updated.count === 0) throw notFound("entity.user");
  await redis.del(accountLockKey(config.REDIS_PREFIX, target.id));
  return { userId: target.id };
}
