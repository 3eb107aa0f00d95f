// Authentication of the developer API: one of the customer's secret keys (api_keys, docs/api-keys.md) in
// `Authorization: Bearer sk_...` or `X-Api-Key: sk_...`, looked up by its sha256 (the key itself is never stored).
// Refused with 401 when missing, unknown, revoked or expired (all alike); 403 when the key lacks the route's scope,
// the account is frozen, the API is turned off, or the caller's address is outside a non-empty IP whitelist. A
// passing request acts as that customer (req.principal), in its tenant.
import { AccountStatus, type ApiKeyScope, SECRET_KEY_PREFIX, UserType } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors";
import { headerValue } from "../../plugins/auth";
import { ipAllowed } from "./ip-whitelist";

/** The OpenAPI schemes of a secret key (components.securitySchemes in app.ts): either one is enough. */
export const API_KEY_SECURITY: Record<string, string[]>[] = [{ secretKey: [] }, { apiKeyHeader: [] }];

/** A key's lastUsedAt is written at most this often (per key, per process; and never twice within it in SQL). */
export const LAST_USED_EVERY_MS = 60_000;

/** The key a request presents, or undefined. */
function presentedKey(req: FastifyRequest): string | undefined {
  const explicit = headerValue(req, "x-api-key");
  if (explicit) return explicit;
  const auth = headerValue(req, "authorization");
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

/** What the check reads about a key and its customer (held in memory by the session cache). */
async function loadKey(prisma: PrismaClient, hash: string) {
  const key = await prisma.apiKey.findUnique({
    where: { hash },
    select: {
      id: true,
      scopes: true,
      expiresAt: true,
      revokedAt: true,
      user: {
        select: {
          id: true,
          type: true,
          tenantId: true,
          agentId: true,
          username: true,
          status: true,
          deletedAt: true,
          apiEnabled: true,
          ipWhitelist: true,
        },
      },
    },
  });
  if (!key) return null;
  const { user, ...rest } = key;
  return { ...user, key: rest };
}

/**
 * Writes lastUsedAt at most once a minute per key: a map in this process skips the write in between, and the
 * conditional update skips it when another process wrote it within the minute. Not awaited by the request.
 */
function lastUsedWriter(prisma: PrismaClient) {
  const written = new Map<number, number>();
  return (req: FastifyRequest, keyId: number) => {
    const now = Date.now();
    const last = written.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    if (written.size >= 100_000) written.clear();
    written.set(keyId, now);
    const since = new Date(now - LAST_USED_EVERY_MS);
    prisma.apiKey
      .updateMany({
        where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: since } }] },
        data: { lastUsedAt: new Date(now) },
      })
      .catch((err: Error) => {
        written.delete(keyId);
        req.log.warn({ err, keyId }, "api key: writing lastUsedAt failed");
      });
  };
}

/** preHandler of /v1 routes: the key must carry `scope` (send: create/cancel batches; read: GETs; manage: settings). */
export function apiKeyAuth(prisma: PrismaClient, scope: ApiKeyScope) {
  const touch = lastUsedWriter(prisma);
  return async (req: FastifyRequest) => {
    const presented = presentedKey(req);
    if (!presented) throw new AppError(401, "batch.api_key_missing");
    // Anything that is not one of our keys (a session token, a typo) is simply not found.
    const hash = presented.startsWith(SECRET_KEY_PREFIX) ? secretKeyHash(presented) : null;
    // Held in memory and dropped on any change of the key row, or of the user's switch, whitelist or status
    // (session-cache.ts; triggers of 20261126030000_api_key_notify and 20261126130000_api_keys).
    const user = hash === null ? null : await req.server.sessions.keyUser(hash, () => loadKey(prisma, hash));
    const now = Date.now();
    if (
      !user ||
      user.key.revokedAt !== null ||
      (user.key.expiresAt !== null && user.key.expiresAt.getTime() <= now) ||
      user.deletedAt ||
      user.type !== UserType.USER ||
      user.tenantId === null
    )
      throw new AppError(401, "batch.api_key_invalid");
    if (user.status !== AccountStatus.NORMAL) throw new AppError(403, "batch.api_frozen");
    if (!user.apiEnabled) throw new AppError(403, "batch.api_disabled");
    if (!ipAllowed(user.ipWhitelist, req.ip)) throw new AppError(403, "batch.api_ip_not_allowed", { ip: req.ip });
    if (!user.key.scopes.includes(scope)) throw new AppError(403, "batch.api_key_scope", { scope });
    touch(req, user.key.id);
    req.principal = {
      userId: user.id,
      type: UserType.USER,
      homeTenantId: user.tenantId,
      tenantId: user.tenantId,
      agentId: user.agentId,
      username: user.username,
      // A key is not a session: there is no token id to revoke and no expiry.
      jti: "",
      exp: 0,
    };
  };
}
