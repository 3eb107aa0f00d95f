// Developer settings calls of spec section 7: customers only, each for itself (docs/permissions.md), except that
// staff may read a customer's callback attempts they manage (support). The developer
// API itself (/v1, called with a secret key made here) is developer-api.routes.ts beside it.
import {
  apiKeyCreateBody,
  apiKeyCreated,
  apiKeyIdParams,
  apiKeyList,
  apiKeyRow,
  apiToggleBody,
  apiToggleResult,
  developerInfo,
  ipModBody,
  ipModResult,
  notifyAttemptIdParams,
  notifyAttemptList,
  notifyAttemptListQuery,
  notifyModBody,
  notifyModResult,
  notifyResendResult,
  STAFF_TYPES,
  secretKeyRefreshResult,
  UserType,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.service";
import {
  developerInfo as loadDeveloperInfo,
  refreshSecretKey,
  setIpWhitelist,
  setNotifyUrl,
  toggleApi,
} from "./developer.service";
import { bullCallbackQueue, listNotifyAttempts, resendNotifyAttempt } from "./notify-attempts.service";

const security = [{ bearer: [] }];
const tags = ["developer"];

export const developerRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.deps;
  const { prisma } = deps;
  const customer = [app.authenticate, app.requireRoles(UserType.USER)];

  app.get(
    "/user/developer/info",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "The caller's developer settings (the secret key itself is never shown again, only its prefix)",
        response: { 200: developerInfo },
      },
    },
    async (req) => loadDeveloperInfo(prisma, principalOf(req)),
  );

  app.post(
    "/user/sk/refresh",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "New secret key, shown once in this answer; the previous key stops working at once",
        response: { 200: secretKeyRefreshResult },
      },
    },
    async (req) => {
      const result = await refreshSecretKey(prisma, principalOf(req), new Date());
      app.sessions.forget(principalOf(req).userId); // the old key stops here at once (elsewhere: the database tells)
      return result;
    },
  );

  app.post(
    "/user/ip/mod",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Replace the IP whitelist of the secret key (IPv4, IPv6, CIDR; at most 50; empty = any address)",
        body: ipModBody,
        response: { 200: ipModResult },
      },
    },
    async (req) => {
      const result = await setIpWhitelist(prisma, principalOf(req), req.body.ips);
      app.sessions.forget(principalOf(req).userId);
      return result;
    },
  );

  app.post(
    "/user/notify/mod",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Set the notify URL (http/https; empty clears); with test, post a signed sample event and report",
        body: notifyModBody,
        response: { 200: notifyModResult },
      },
    },
    async (req) => setNotifyUrl(deps, principalOf(req), req.body, new Date()),
  );

  // ---------------------------------------------------------------- callback attempts (docs/api-keys.md)
  const callbacks = bullCallbackQueue(deps.redis, deps.config.REDIS_PREFIX);
  app.addHook("onClose", () => callbacks.close());

  app.get(
    "/user/notify/attempts",
    {
      // Staff read a customer's attempts too (support: why does this customer's webhook fail?); only customers
      // resend their own.
      preHandler: [app.authenticate, app.requireRoles(UserType.USER, ...STAFF_TYPES)],
      schema: {
        tags,
        security,
        summary:
          "The caller's callback attempts, newest first: event, eventId, batch, attempt number, HTTP status, error, " +
          "duration, time; filter by event and batch id. Staff name a customer they manage (userId): another " +
          "tenant's or agent's customer answers 404",
        querystring: notifyAttemptListQuery,
        response: { 200: notifyAttemptList },
      },
    },
    async (req) => listNotifyAttempts(prisma, principalOf(req), req.query),
  );

  app.post(
    "/user/notify/attempts/:id/resend",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary:
          "Send an attempt's event again (same eventId, body as of now, one attempt listed like the others); 409 " +
          "while a resend of the event is queued, 404 for another customer's attempt",
        params: notifyAttemptIdParams,
        response: { 200: notifyResendResult },
      },
    },
    async (req) => resendNotifyAttempt(prisma, callbacks, principalOf(req), req.params.id),
  );

  app.post(
    "/user/api/toggle",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Switch the developer API on or off for the caller",
        body: apiToggleBody,
        response: { 200: apiToggleResult },
      },
    },
    async (req) => {
      const result = await toggleApi(prisma, principalOf(req), req.body.enabled);
      app.sessions.forget(principalOf(req).userId);
      return result;
    },
  );
  // ---------------------------------------------------------------- named API keys (docs/api-keys.md)

  app.get(
    "/user/api-keys",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "The caller's API keys, newest first: name, prefix, scopes, expiry, last used (revoked ones too)",
        response: { 200: apiKeyList },
      },
    },
    async (req) => listApiKeys(prisma, principalOf(req)),
  );

  app.post(
    "/user/api-keys",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary:
          "New named API key with scopes (send, read, manage) and an optional expiry; the key is shown once in this " +
          "answer. Rotate with overlap: create the new key, move the integration, then revoke the old one",
        body: apiKeyCreateBody,
        response: { 200: apiKeyCreated },
      },
    },
    async (req) => createApiKey(prisma, principalOf(req), req.body, new Date()),
  );

  app.post(
    "/user/api-keys/:id/revoke",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Revoke one of the caller's API keys: it answers 401 from now on, in every API process",
        params: apiKeyIdParams,
        response: { 200: apiKeyRow },
      },
    },
    async (req) => {
      const result = await revokeApiKey(prisma, principalOf(req), req.params.id, new Date());
      app.sessions.forget(principalOf(req).userId); // here at once; other processes: the api_keys trigger
      return result;
    },
  );
};
