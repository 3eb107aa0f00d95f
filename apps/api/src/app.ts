// Builds the Fastify application from its dependencies; main.ts listens, tests use app.inject().

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Writable } from "node:stream";
import cors from "@fastify/cors";
import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { REFUSAL_STATUS_HEADER } from "@switchboard/contracts";
import { createFileStorage } from "@switchboard/domain/storage";
import Fastify, { type FastifyServerOptions } from "fastify";
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import type { Deps } from "./deps";
import { AppError } from "./lib/errors";
import { authRoutes } from "./modules/auth/auth.routes";
import { authenticationRoutes } from "./modules/authentication/authentication.routes";
import { batchListRoutes } from "./modules/batch-lists/batch-lists.routes";
import { batchDepsPlugin } from "./modules/batch-submit/batch-deps";
import { batchSubmitRoutes } from "./modules/batch-submit/batch-submit.routes";
import { batchTransitionRoutes } from "./modules/batch-transitions/batch-transitions.routes";
import { catalogRoutes } from "./modules/catalog/catalog.routes";
import { channelRoutes } from "./modules/channels/channels.routes";
import { dashboardRoutes } from "./modules/dashboard/dashboard.routes";
import { API_KEY_SECURITY } from "./modules/developer/api-key";
import { developerRoutes } from "./modules/developer/developer.routes";
import { developerApiRoutes } from "./modules/developer/developer-api.routes";
import { declareRequestHeaders } from "./modules/developer/request-headers";
import { webhookCatalogue } from "./modules/developer/webhook-catalogue";
import { financeRoutes } from "./modules/finance/finance.routes";
import { healthRoutes } from "./modules/health/health.routes";
import { linkRoutes } from "./modules/links/links.routes";
import { noticeRoutes } from "./modules/notices/notices.routes";
import { optOutRoutes } from "./modules/opt-outs/opt-outs.routes";
import { queueBoardRoutes } from "./modules/queue-board/queue-board.routes";
import { senderIdRoutes } from "./modules/sender-ids/sender-ids.routes";
import { settingsRoutes } from "./modules/settings/settings.routes";
import { usersRoutes } from "./modules/users/users.routes";
import { webhookRoutes } from "./modules/webhooks/webhooks.routes";
import { websiteRoutes } from "./modules/website/website.routes";
import authPlugin from "./plugins/auth";
import envelopePlugin, { clientErrorHandler, frameworkErrors } from "./plugins/envelope";
import metricsPlugin from "./plugins/metrics";
import outagesPlugin from "./plugins/outages";
import uploadsPlugin from "./plugins/uploads";

/** Request ids: a caller's X-Request-Id is kept when it looks like an id, else a fresh UUID. */
function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
}

/**
 * Log lines never carry passwords, tokens, keys, phone numbers or message text: request bodies are not
 * logged at all, headers that carry secrets are redacted, and query strings (which can hold a phone
 * number typed into a search box) are cut from the logged URL.
 */

export function loggerOptions(level: string, stream?: Writable): FastifyServerOptions["logger"] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ["req.headers.authorization", "req.headers.cookie", "req.headers['x-api-key']", "*.password", "*.token"],
      censor: "[redacted]",
    },
    serializers: {
      req: (req) => ({ method: req.method, url: String(req.url).split("?")[0], remoteAddress: req.ip }),
    },
  };
}

/**
 * The headers helmet's middleware sets with these options. They must not depend on the request (no CSP nonces):
 * the middleware runs once, against a response that only records them.
 */
export function helmetHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

export interface BuildOptions {
  /** Where log lines go (default stdout); tests read them. */
  logStream?: Writable;
  /** Overrides config.LOG_LEVEL. */
  logLevel?: string;
}

export async function buildApp(deps: Deps, opts: BuildOptions = {}) {
  const { config } = deps;
  const app = Fastify({
    logger: loggerOptions(opts.logLevel ?? config.LOG_LEVEL, opts.logStream),
    genReqId: requestId,
    requestIdHeader: false,
    // Only the configured proxies' X-Forwarded-For is believed (none by default).
    trustProxy: config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false,
    frameworkErrors,
    clientErrorHandler,
    bodyLimit: 1024 * 1024,
    // Path parameters are ids and codes; anything longer is refused (in the envelope) before routing.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 100 },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate("deps", deps);
  app.decorate("storage", deps.storage ?? createFileStorage(config));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(outagesPlugin);
  await app.register(envelopePlugin);
  await app.register(metricsPlugin);
  // Security headers on every answer: nosniff, no framing (the docs page included), no referrer leaks. The API
  // answers JSON (no CSP needed there); /docs gets swagger-ui's own static CSP. Resources are readable
  // cross-origin (logos shown on tenants' own hosts); nothing here rides on cookies. Headers only legacy browsers
  // read (IE8's download prompt, Flash's cross-domain policies, the old XSS auditors, DNS prefetching) are not
  // sent. They are all fixed values: helmet's middleware is run once here to learn them, and every answer gets
  // them as reply headers. @fastify/helmet builds helmet's middleware again on every request (its onRequest hook
  // calls helmet(options) each time), which with the legacy headers cost GET /user/info a quarter of its rate;
  // running the middleware on every request still cost it a few percent (docs/benchmarks.md, issue 20).
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: { policy: "cross-origin" },
    frameguard: { action: "deny" },
    referrerPolicy: { policy: "no-referrer" },
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  app.addHook("onRequest", (req, reply, done) => {
    reply.headers(securityHeaders);
    reply.header("x-request-id", req.id);
    done();
  });
  await app.register(cors, {
    // An explicit allow list (the web client's origins); without one, no cross-origin page may call.
    origin: config.CORS_ORIGINS.length > 0 ? config.CORS_ORIGINS : false,
    allowedHeaders: [
      "authorization",
      "content-type",
      "tenant-id",
      "lang",
      "idempotency-key",
      "x-request-id",
      REFUSAL_STATUS_HEADER,
    ],
    exposedHeaders: ["x-request-id", "retry-after", "content-disposition"],
  });
  await app.register(rateLimit, {
    global: false,
    redis: deps.redis,
    nameSpace: `${config.REDIS_PREFIX}rl:`,
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, "error.rate_limited", { retryAfter: Math.ceil(ctx.ttl / 1000) }),
  });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Switchboard API",
        version: "1.0.0",
        description:
          "Multi-channel business messaging (RCS, WhatsApp, SMS). Every JSON route answers the envelope " +
          "{ code, message, data }: code 0 success, 1 error (message in the `lang` header's language), 401 signed out.",
      },
      // Every event posted to a customer's notify URL, with its body (packages/contracts/src/webhooks.ts).
      webhooks: webhookCatalogue(),
      components: {
        securitySchemes: {
          // The session token of the web apps (every route outside /v1).
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          // A customer's secret key on the developer API /v1 (docs/api-keys.md): either header.
          secretKey: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "sk_...",
            description: "A secret key: `Authorization: Bearer sk_...`",
          },
          apiKeyHeader: {
            type: "apiKey",
            in: "header",
            name: "X-Api-Key",
            description: "A secret key: `X-Api-Key: sk_...`",
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    // The /v1 operations' lang and Idempotency-Key headers (read by the routes, documented for generated clients).
    transformObject: (doc) => ("openapiObject" in doc ? declareRequestHeaders(doc.openapiObject) : doc.swaggerObject),
  });
  // The developer API is authenticated by a secret key, never by the session token: every /v1 route documents
  // the two secret-key schemes, whatever its module declared (api-key.ts checks the key).
  app.addHook("onRoute", (route) => {
    if (route.url.startsWith("/v1/") && route.schema) route.schema.security = API_KEY_SECURITY;
  });
  await app.register(swaggerUi, { routePrefix: "/docs", staticCSP: true });
  await app.register(authPlugin);
  await app.register(uploadsPlugin);

  await app.register(healthRoutes);
  await app.register(linkRoutes);
  await app.register(websiteRoutes);
  await app.register(authRoutes);
  await app.register(financeRoutes);
  await app.register(usersRoutes);
  await app.register(authenticationRoutes);
  await app.register(developerRoutes);
  await app.register(catalogRoutes);
  await app.register(channelRoutes);
  // Message batches: one job producer and one outcome subscriber (app.batchDeps) for the modules that make and
  // move them; the developer API (/v1) submits, cancels and reads with their services.
  await app.register(batchDepsPlugin);
  await app.register(batchSubmitRoutes);
  await app.register(batchTransitionRoutes);
  await app.register(batchListRoutes);
  await app.register(developerApiRoutes);
  await app.register(settingsRoutes);
  await app.register(dashboardRoutes);
  await app.register(noticeRoutes);
  await app.register(queueBoardRoutes);
  await app.register(senderIdRoutes);
  await app.register(optOutRoutes);
  // Encapsulated: these routes read raw bodies, every other route keeps the JSON parser.
  await app.register(webhookRoutes);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
