// Authentication of the developer API: the customer's secret key in `Authorization: Bearer sk_...` or
// `X-Api-Key: sk_...`, looked up by its sha256 (the key itself is never stored). Refused with 401 when missing
// or unknown, 403 when the account is frozen, the API is turned off, or the caller's address is outside a
// non-empty IP whitelist. A passing request acts as that customer (req.principal), in its tenant.
import { AccountStatus, SECRET_KEY_PREFIX, UserType } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/errors";
import { headerValue } from "../../plugins/auth";
import { secretKeyHash } from "../developer/callback-signature";
import { ipAllowed } from "../developer/ip-whitelist";

/** The key a request presents, or undefined. */
function presentedKey(req: FastifyRequest): string | undefined {
  const explicit = headerValue(req, "x-api-key");
  if (explicit) return explicit;
  const auth = headerValue(req, "authorization");
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1];
}

/** preHandler of /v1 routes. */
export function apiKeyAuth(prisma: PrismaClient) {
  return async (req: FastifyRequest) => {
    const key = presentedKey(req);
    if (!key) throw new AppError(401, "batch.api_key_missing");
    // Anything that is not one of our keys (a session token, a typo) is simply not found.
    const hash = key.startsWith(SECRET_KEY_PREFIX) ? secretKeyHash(key) : null;
    // Held in memory and dropped on any change of the row's key, switch, whitelist or status (session-cache.ts).
    const user =
      hash === null
        ? null
        : await req.server.sessions.keyUser(hash, () =>
            prisma.user.findUnique({
              where: { secretKeyHash: hash },
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
            }),
          );
    if (!user || user.deletedAt || user.type !== UserType.USER || user.tenantId === null)
      throw new AppError(401, "batch.api_key_invalid");
    if (user.status !== AccountStatus.NORMAL) throw new AppError(403, "batch.api_frozen");
    if (!user.apiEnabled) throw new AppError(403, "batch.api_disabled");
    if (!ipAllowed(user.ipWhitelist, req.ip)) throw new AppError(403, "batch.api_ip_not_allowed", { ip: req.ip });
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
