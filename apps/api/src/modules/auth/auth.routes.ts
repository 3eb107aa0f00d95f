import {
  loginBody,
  loginResult,
  passwordModBody,
  passwordResetResult,
  registerBody,
  userInfo,
} from "@switchboard/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, notFound } from "../../lib/errors";
import { principalOf, userInfoKey } from "../../plugins/auth";
import { requirePublicTenant, resolvePublicTenant } from "../website/website.service";
import { changeOwnPassword, userInfo as loadUserInfo, login, register, resetPassword } from "./auth.service";

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const sign = app.signToken;
  // One per-IP budget shared by every route that checks a password or tells whether a username exists (both
  // sign-ins, registration, a change of one's own password): one counter, not one per route (IPv6 addresses
  // count per /56, as @fastify/rate-limit groups them). The per-account lock lives in the service.
  const ipBudget = app.createRateLimit({ max: deps.config.LOGIN_IP_PER_MINUTE, timeWindow: 60_000 });
  const limitPerIp = async (req: FastifyRequest) => {
    const r = await ipBudget(req);
    if (!r.isAllowed && r.isExceeded)
      throw new AppError(429, "error.rate_limited", { retryAfter: Math.max(1, r.ttlInSeconds) });
  };

  // Customers sign in through /auth/login (customer app /login, RCS portal /control/login); staff through
  // /auth/staff/login (/system/login, /backend/login). A super admin signs in without a tenant; everyone else
  // needs the tenant (tenant-id header or host).
  const signInRoutes = [
    ["/auth/login", "customer", "Customer sign-in (customer app /login and RCS portal /control/login)"],
    ["/auth/staff/login", "staff", "Staff sign-in: admins, agents and super admins (/system/login, /backend/login)"],
  ] as const;
  for (const [url, area, summary] of signInRoutes) {
    app.post(
      url,
      { onRequest: limitPerIp, schema: { tags: ["auth"], summary, body: loginBody, response: { 200: loginResult } } },
      async (req) => {
        const tenant = await resolvePublicTenant(deps.prisma, req);
        return login(deps, sign, {
          ...req.body,
          area,
          tenantId: tenant?.tenantId ?? null,
          ip: req.ip,
          userAgent: req.headers["user-agent"],
        });
      },
    );
  }

  app.post(
    "/auth/register",
    {
      onRequest: limitPerIp,
      schema: {
        tags: ["auth"],
        summary: "Customer registration; lands under the agent whose website config matches the host, else the tenant",
        body: registerBody,
        response: { 200: loginResult },
      },
    },
    async (req) => {
      const tenant = requirePublicTenant(await resolvePublicTenant(deps.prisma, req));
      return register(deps, sign, {
        ...req.body,
        tenantId: tenant.tenantId,
        agentId: tenant.agentId,
        ip: req.ip,
        userAgent: req.headers["user-agent"],
      });
    },
  );

  app.post(
    "/auth/logout",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["auth"],
        summary: "End this session: the token answers 401 from now on",
        security: [{ bearer: [] }],
      },
    },
    async (req) => {
      await app.revokeToken(principalOf(req));
      return null;
    },
  );

  app.get(
    "/user/info",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["user"],
        summary: "The signed-in user: id, user, type, tenantId and what the shell shows",
        security: [{ bearer: [] }],
        response: { 200: userInfo },
      },
    },
    async (req) => {
      const { userId } = principalOf(req);
      const info = await app.userInfos.held(userInfoKey(userId), () => loadUserInfo(deps, userId));
      if (!info) throw notFound("entity.user");
      return info;
    },
  );

  app.post(
    "/user/password/mod",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["user"],
        summary:
          "Without userId: change the caller's own password (old password required; other sessions end, a new " +
          "token is returned). With another user's id: an admin (its tenant's accounts) or an agent (its own " +
          "customers) resets that user's password without the old one; that user's sessions end.",
        security: [{ bearer: [] }],
        body: passwordModBody,
        response: { 200: z.union([loginResult, passwordResetResult]) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { userId, oldPassword, newPassword } = req.body;
      // The sessions that end are forgotten here at once; other API processes hear of it from the database.
      if (userId !== undefined && userId !== p.userId) {
        const reset = await resetPassword(deps, p, userId, newPassword);
        app.sessions.forget(reset.userId);
        return reset;
      }
      // The old password is a guess like a sign-in's (a stolen session must not become a way to try more).
      await limitPerIp(req);
      const result = await changeOwnPassword(deps, sign, p.userId, oldPassword, newPassword);
      app.sessions.forget(p.userId);
      await app.revokeToken(p);
      return result;
    },
  );
};
