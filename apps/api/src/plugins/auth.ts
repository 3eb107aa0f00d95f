// Sessions: a JWT per sign-in, checked on every request against the signed-out tokens and the user row (deleted,
// frozen, or password changed since the token was issued -> 401), both held in memory by session-cache.ts and
// kept true by Redis messages and PostgreSQL notifications, so a check costs no round trip.
// Tenancy: a signed-in user's tenant comes from its token; a super admin may act inside one tenant by
// sending the tenant-id header. Before sign-in the tenant comes from the tenant-id header or the website
// config of the request's host (DOMAIN.md).
import { randomUUID } from "node:crypto";
import fastifyJwt from "@fastify/jwt";
import { AccountStatus, UserType } from "@switchboard/contracts";
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from "fastify";
import fp from "fastify-plugin";
import { AppError, forbidden, unauthorized } from "../lib/errors";
import { NotifiedMemory } from "../lib/notified-memory";
import { SessionCache, type SessionUser } from "./session-cache";

export interface TokenClaims {
  sub: string;
  /** tenant id, null for super admins */
  tid: number | null;
  typ: number;
  /** users.tokenVersion when issued */
  ver: number;
  jti: string;
  exp: number;
}

/** The signed-in caller, on every authenticated request. */
export interface Principal {
  userId: number;
  type: UserType;
  /** The user's own tenant (null for super admins). */
  homeTenantId: number | null;
  /** The tenant this request acts in: the home tenant, or for a super admin the tenant-id header (or null = all). */
  tenantId: number | null;
  agentId: number | null;
  username: string;
  jti: string;
  exp: number;
}

declare module "@fastify/jwt" {
  interface FastifyJWT {
    payload: Omit<TokenClaims, "exp">;
    user: TokenClaims;
  }
}

declare module "fastify" {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyInstance {
    /** A route's guard (run before its body is read: guardsFirst): 401 unless a valid, live session token is presented. */
    authenticate: preHandlerAsyncHookHandler;
    /** A route's guard factory (guardsFirst): 403 unless the caller has one of these types. */
    requireRoles: (...types: UserType[]) => preHandlerAsyncHookHandler;
    signToken: (user: { id: number; tenantId: number | null; type: number; tokenVersion: number }) => {
      token: string;
      expiresAt: Date;
    };
    revokeToken: (principal: Pick<Principal, "jti" | "exp">) => Promise<void>;
    /**
     * The user of a session's claims while the session lives (not signed out; the user not deleted, frozen, nor
     * changed since the token was issued), else null. What authenticate checks, for other carriers of a session
     * (the queue board's cookie, modules/queue-board).
     */
    liveSession: (claims: Pick<TokenClaims, "sub" | "jti" | "ver" | "tid">) => Promise<SessionUser | null>;
    /** The session check's memory; forget(userId) after changing a user's status, password or role. */
    sessions: SessionCache;
    /** GET /user/info's rows (userInfoMemory below). */
    userInfos: NotifiedMemory;
  }
}

/**
 * GET /user/info is read on every page load and by every client's polling. Its row is held for at most
 * USER_INFO_MAX_AGE_MS: dropped at once when the user's session columns change (the session_users notification)
 * or when any change goes through this process; a balance moved by another process (a worker's refund, another
 * API process's send) shows within that second.
 */
export const USER_INFO_MAX_AGE_MS = 1_000;

function userInfoMemory(app: FastifyInstance): NotifiedMemory {
  return new NotifiedMemory({
    databaseUrl: app.deps.config.DATABASE_URL,
    channel: "session_users",
    keysOf: (userId) => [userInfoKey(Number(userId))],
    maxAgeMs: USER_INFO_MAX_AGE_MS,
    onError: (err) => {
      if (!app.outages.report(err)) app.log.warn({ err: { message: err.message } }, "user info memory: notifications");
    },
  });
}

export const userInfoKey = (userId: number) => `info:${userId}`;

/** The caller of an authenticated route (the authenticate preHandler guarantees it). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

/** A header value as one trimmed string. */
export function headerValue(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

/** The tenant-id header as a positive integer, or undefined when absent; malformed values are refused. */
export function tenantHeader(req: FastifyRequest): number | undefined {
  const raw = headerValue(req, "tenant-id");
  if (raw === undefined || raw === "" || raw === "null" || raw === "undefined") return undefined;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw new AppError(400, "error.tenant_unknown");
  return Number(raw);
}

/** The token of an `Authorization: Bearer <token>` header (the one form sessions use), else undefined. */
function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header.length < 8 || header.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
  const token = header.slice(7);
  return token.length > 0 && !token.includes(" ") ? token : undefined;
}

/**
 * Session tokens whose signature and claims were checked, with their claims, until they expire: the next request
 * with the same token (the same string, so the same signature) skips the HMAC and the JSON decoding. Held by the
 * token itself, a Map lookup, because fast-jwt's own cache hashes every token with SHA-256 to find it, which cost
 * about as much as verifying it (GET /user/info's profile, docs/benchmarks.md). Whether the session still lives
 * (signed out, user frozen or changed) is checked on every request all the same (liveSession).
 */
export class VerifiedTokens {
  private readonly claims = new Map<string, TokenClaims>();

  constructor(private readonly max = 10_000) {}

  get(token: string): TokenClaims | undefined {
    const claims = this.claims.get(token);
    if (claims === undefined) return undefined;
    if (claims.exp * 1000 > Date.now()) return claims;
    this.claims.delete(token);
    return undefined;
  }

  add(token: string, claims: TokenClaims): void {
    // Full: the oldest entry goes (a Map iterates in insertion order).
    if (this.claims.size >= this.max) this.claims.delete(this.claims.keys().next().value as string);
    this.claims.set(token, claims);
  }
}

const SESSION_USER = {
  id: true,
  type: true,
  tenantId: true,
  agentId: true,
  status: true,
  tokenVersion: true,
  deletedAt: true,
  username: true,
} as const;

/**
 * A route's own preHandlers are its guards (authenticate, requireRoles, apiKeyAuth, apiRateLimit: no route has any
 * other), and they run as its first onRequest hooks instead, in their order: who may call is settled before the
 * body is read, so a caller without a valid session or key gets its 401 (or 403) without its body being parsed or
 * validated, and learns nothing of the fields a route expects. Routes declare their guards as preHandler, the one
 * way; this hook is where they are moved.
 */
function guardsFirst(route: RouteOptions): void {
  if (!route.preHandler) return;
  const guards = Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
  const before = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
  route.onRequest = [...before, ...(guards as unknown as onRequestHookHandler[])];
  route.preHandler = undefined;
}

export default fp(
  async (app: FastifyInstance) => {
    // Before any route is declared (the plugin is registered ahead of every module's routes).
    app.addHook("onRoute", guardsFirst);
    const { config, prisma, redis } = app.deps;
    const sessions = new SessionCache({
      databaseUrl: config.DATABASE_URL,
      redis,
      redisPrefix: config.REDIS_PREFIX,
      // A lost Redis or database is the outage's one line at a bounded rate (plugins/outages.ts).
      onError: (err, what) => {
        if (!app.outages.report(err)) app.log.warn({ err: { message: err.message } }, what);
      },
    });
    sessions.start();
    app.decorate("sessions", sessions);
    app.addHook("onClose", () => sessions.close());
    const userInfos = userInfoMemory(app);
    userInfos.start();
    app.decorate("userInfos", userInfos);
    app.addHook("onClose", () => userInfos.close());
    // Any change made through this process (a send moves the balance, a profile edit, a recharge) is seen by its
    // next /user/info at once: before the answer leaves, so the caller's next request cannot overtake it.
    app.addHook("onSend", (req, _reply, payload, done) => {
      if (req.method !== "GET" && req.method !== "HEAD") userInfos.forget(null);
      done(null, payload);
    });
    const loadUser = (id: number): Promise<SessionUser | null> =>
      prisma.user.findUnique({ where: { id }, select: SESSION_USER });
    await app.register(fastifyJwt, {
      secret: config.JWT_SECRET,
      sign: { algorithm: "HS256", expiresIn: config.JWT_TTL_SECONDS },
      // A token that never expires is refused, whoever signed it: every session we issue has exp. Verified tokens
      // are held by authenticate (VerifiedTokens), not by fast-jwt's cache, which hashes every token to look it up.
      verify: { algorithms: ["HS256"], requiredClaims: ["exp", "iat", "sub", "jti"] },
    });
    const verified = new VerifiedTokens();

    app.decorate("signToken", (user) => {
      const token = app.jwt.sign({
        sub: String(user.id),
        tid: user.tenantId,
        typ: user.type,
        ver: user.tokenVersion,
        jti: randomUUID(),
      });
      const { exp } = app.jwt.decode<TokenClaims>(token)!;
      return { token, expiresAt: new Date(exp * 1000) };
    });

    app.decorate("revokeToken", ({ jti, exp }) => sessions.revoke(jti, exp));

    app.decorate("liveSession", async (claims: Pick<TokenClaims, "sub" | "jti" | "ver" | "tid">) => {
      if (await sessions.isRevoked(claims.jti)) return null;
      const user = await sessions.user(Number(claims.sub), loadUser);
      if (
        !user ||
        user.deletedAt ||
        user.status !== AccountStatus.NORMAL ||
        user.tokenVersion !== claims.ver ||
        user.tenantId !== claims.tid
      ) {
        return null;
      }
      return user;
    });

    app.decorate("authenticate", async (req: FastifyRequest) => {
      const token = bearerToken(req);
      // missing, malformed, tampered or expired: all the same to the caller
      if (token === undefined) throw unauthorized();
      let claims = verified.get(token);
      if (!claims) {
        try {
          claims = app.jwt.verify<TokenClaims>(token);
        } catch {
          throw unauthorized();
        }
        verified.add(token, claims);
      }
      // The verified claims, where @fastify/jwt's own check would have put them (the queue board's ticket reads them).
      req.user = claims;
      const user = await app.liveSession(claims);
      if (!user) throw unauthorized();
      const type = user.type as UserType;
      let tenantId = user.tenantId;
      if (type === UserType.SUPER_ADMIN) tenantId = tenantHeader(req) ?? null;
      req.principal = {
        userId: user.id,
        type,
        homeTenantId: user.tenantId,
        tenantId,
        agentId: user.agentId,
        username: user.username,
        jti: claims.jti,
        exp: claims.exp,
      };
    });

    app.decorate("requireRoles", (...types: UserType[]) => async (req: FastifyRequest) => {
      const p = principalOf(req);
      if (!types.includes(p.type)) throw forbidden();
    });
  },
  { name: "auth", dependencies: ["envelope"] },
);
