// A customer's named developer API keys (docs/api-keys.md): create (the key is returned once, only its sha256 is
// kept), list, revoke. Rotation with overlap is create-then-revoke. users.secretKeyHash (POST /user/sk/refresh)
// stays the key named "default", kept in api_keys by a trigger (20261126130000_api_keys).
import { randomBytes } from "node:crypto";
import {
  API_KEYS_MAX,
  type ApiKeyCreated,
  type ApiKeyList,
  type ApiKeyRow,
  type ApiKeyScope,
  SECRET_KEY_PREFIX,
  SECRET_KEY_SHOWN_PREFIX_LENGTH,
} from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { AppError, conflict, notFound } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";

const rowSelect = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  expiresAt: true,
  lastUsedAt: true,
  createdAt: true,
  revokedAt: true,
} as const;

interface Row {
  id: number;
  name: string;
  prefix: string;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  revokedAt: Date | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toRow(r: Row): ApiKeyRow {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes as ApiKeyScope[],
    expiresAt: iso(r.expiresAt),
    lastUsedAt: iso(r.lastUsedAt),
    createdAt: r.createdAt.toISOString(),
    revokedAt: iso(r.revokedAt),
  };
}

/** The caller's keys, newest first, revoked ones included (so the customer sees what it revoked and when). */
export async function listApiKeys(prisma: PrismaClient, p: Principal): Promise<ApiKeyList> {
  const rows = await prisma.apiKey.findMany({
    where: { userId: p.userId },
    select: rowSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 200,
  });
  return { list: rows.map(toRow), total: rows.length };
}

/** A new key for the caller, returned once with its secret. */
export async function createApiKey(
  prisma: PrismaClient,
  p: Principal,
  body: { name: string; scopes: ApiKeyScope[]; expiresAt?: string | null },
  now: Date,
): Promise<ApiKeyCreated> {
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) throw new AppError(400, "developer.api_key_expiry_past");
  if (p.tenantId === null) throw notFound("entity.user");
  const live = await prisma.apiKey.count({
    where: { userId: p.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
  if (live >= API_KEYS_MAX) throw conflict("developer.api_keys_too_many", { max: API_KEYS_MAX });
  const secretKey = `${SECRET_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = await prisma.apiKey.create({
    data: {
      tenantId: p.tenantId,
      userId: p.userId,
      name: body.name,
      prefix: secretKey.slice(0, SECRET_KEY_SHOWN_PREFIX_LENGTH),
      hash: secretKeyHash(secretKey),
      scopes: body.scopes,
      expiresAt,
      createdAt: now,
    },
    select: rowSelect,
  });
  return { ...toRow(row), secretKey };
}

/**
 * Revokes one of the caller's keys (another customer's key answers 404 like a missing one). Revoking twice is not
 * an error: the first time stays the revocation time.
 */
export async function revokeApiKey(prisma: PrismaClient, p: Principal, id: number, now: Date): Promise<ApiKeyRow> {
  await prisma.apiKey.updateMany({ where: { id, userId: p.userId, revokedAt: null }, data: { revokedAt: now } });
  const row = await prisma.apiKey.findFirst({ where: { id, userId: p.userId }, select: rowSelect });
  if (!row) throw notFound("entity.api_key");
  return toRow(row);
}
