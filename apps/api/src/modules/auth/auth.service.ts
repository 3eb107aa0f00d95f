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
import { hashPassword, Prisma, verifyPassword } from "@switchboard/db";
import type { Deps } from "../../deps";
import { AppError, conflict, forbidden, notFound } from "../../lib/errors";
import { findManagedUser } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { type LoginArea, type LoginAttempt, writeLoginLog } from "./login-log";

/** A hash of a random string: verifying against it when no account matches costs the same time as a real check. */
let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword(randomUUID()));

/** Letters and digits, 8..128 characters (length is checked by the contract). */
export function isStrongPassword(pw: string): boolean {
  return /[A-Za-z]/.test(pw) && /\d/.test(pw);
}

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

function failureKey(prefix: string, area: LoginArea, tenantId: number | null, username: string) {
  return `${prefix}login:fail:${area}:${tenantId ?? 0}:${username.toLowerCase()}`;
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

  // Per-account lock: after N failures the account refuses sign-in for the window, whatever the IP.
  const key = failureKey(config.REDIS_PREFIX, input.area, input.tenantId, input.username);
  const failures = Number((await redis.get(key)) ?? 0);
  if (failures >= config.LOGIN_ACCOUNT_MAX_FAILURES) {
    const ttl = await redis.ttl(key);
    await writeLoginLog(prisma, attempt, "locked");
    throw new AppError(429, "auth.too_many_attempts", {
      minutes: Math.max(1, Math.ceil(ttl / 60)),
      retryAfter: Math.max(1, ttl),
    });
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

  let user: (typeof candidates)[number] | undefined;
  for (const c of candidates) {
    if (await verifyPassword(c.passwordHash, input.password)) {
      user = c;
      break;
    }
  }
  if (candidates.length === 0) await verifyPassword(await dummy(), input.password);

  if (!user) {
    await redis.multi().incr(key).expire(key, config.LOGIN_ACCOUNT_WINDOW_SECONDS).exec();
    await writeLoginLog(prisma, { ...attempt, userId: candidates[0]?.id ?? null }, "bad_credentials");
    // HTTP 401 but envelope code 1: the client shows the message instead of treating it as a lost session.
    throw new AppError(401, "auth.bad_credentials", {}, 1);
  }
  attempt.userId = user.id;
  attempt.tenantId = user.tenantId;
  if (user.status !== AccountStatus.NORMAL) {
    await writeLoginLog(prisma, attempt, "frozen");
    throw new AppError(403, "auth.frozen");
  }

  await redis.del(key);
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
  if (!isStrongPassword(input.password)) throw new AppError(400, "auth.password_weak");

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

export async function userInfo(deps: Deps, userId: number): Promise<UserInfo> {
  const u = await deps.prisma.user.findUnique({ where: { id: userId }, select: userInfoSelect });
  if (!u) throw notFound("entity.user");
  return toUserInfo(u);
}

/** Changes the caller's own password; every other session of the user ends (tokenVersion bump). */
export async function changeOwnPassword(
  deps: Deps,
  sign: Signer,
  userId: number,
  oldPassword: string | undefined,
  newPassword: string,
) {
  const { prisma } = deps;
  if (oldPassword === undefined) throw new AppError(400, "validation.required", { field: "oldPassword" });
  const u = await prisma.user.findUnique({ where: { id: userId }, select: { passwordHash: true, tokenVersion: true } });
  if (!u) throw notFound("entity.user");
  if (!(await verifyPassword(u.passwordHash, oldPassword))) throw new AppError(400, "auth.old_password_wrong");
  if (oldPassword === newPassword) throw new AppError(400, "auth.password_same");
  if (!isStrongPassword(newPassword)) throw new AppError(400, "auth.password_weak");
  const passwordHash = await hashPassword(newPassword);
  // Conditional on the version read above: a concurrent change makes this one fail instead of both winning.
  const updated = await prisma.user.updateManyAndReturn({
    where: { id: userId, tokenVersion: u.tokenVersion },
    data: { passwordHash, tokenVersion: { increment: 1 } },
    select: userInfoSelect,
  });
  const user = updated[0];
  if (!user) throw conflict("auth.old_password_wrong");
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
  if (!isStrongPassword(newPassword)) throw new AppError(400, "auth.password_weak");
  const target = await findManagedUser(prisma, p, userId, { id: true, type: true, tenantId: true, username: true });
  const passwordHash = await hashPassword(newPassword);
  const updated = await prisma.user.updateMany({
    where: { id: target.id, deletedAt: null },
    data: { passwordHash, tokenVersion: { increment: 1 } },
  });
  if (updated.count === 0) throw notFound("entity.user");
  const area: LoginArea = target.type === UserType.USER ? "customer" : "staff";
  await redis.del(failureKey(config.REDIS_PREFIX, area, target.tenantId, target.username));
  return { userId: target.id };
}
