// The response envelope of DOMAIN.md, added in one place:
// - every JSON route's handler result becomes { code: 0, message, data } (its schema is wrapped the same way,
//   so serialisation and OpenAPI agree);
// - every error becomes { code: 1 | 401, message, data: null } with the matching HTTP status, translated;
// - unexpected errors are logged with the request id and answered 500 without internals.
// Routes that are not JSON API calls (health, docs, downloads) opt out with `config: { envelope: false }`.

import type { Socket } from "node:net";
import {
  DEFAULT_LANG,
  envelope,
  errorEnvelope,
  type MessageKey,
  type MessageParams,
  REFUSAL_STATUS_HEADER,
  translate,
} from "@switchboard/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, InputValidationError, nulField } from "../lib/errors";
import { requestLang } from "../lib/lang";

declare module "fastify" {
  interface FastifyContextConfig {
    /** false: the route answers raw (health checks, docs, file downloads). */
    envelope?: boolean;
  }
}

const ERROR_STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500] as const;

/** The business refusals a client may ask to receive with HTTP 200 (REFUSAL_STATUS_HEADER). */
const REFUSALS = new Set([400, 402, 403, 404, 409, 413, 429]);

/**
 * Answers an error envelope. With `x-refusal-status: 200` (the web client) a business refusal answers HTTP 200:
 * the envelope's code 1 says it all, and a browser logs no failed request for an answer the page expected. The
 * body bypasses the route's 200 schema (that one describes success).
 */
function refuse(req: FastifyRequest, reply: FastifyReply, status: number, body: { code: 1 | 401; message: string }) {
  const payload = { ...body, data: null };
  if (body.code === 1 && REFUSALS.has(status) && req.headers[REFUSAL_STATUS_HEADER] === "200") {
    return reply.status(200).type("application/json; charset=utf-8").serializer(JSON.stringify).send(payload);
  }
  return reply.status(status).send(payload);
}

function send(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  key: MessageKey,
  params: MessageParams = {},
  code: 1 | 401 = status === 401 ? 401 : 1,
) {
  return refuse(req, reply, status, { code, message: translate(requestLang(req), key, params) });
}

type Issue = { keyword: string; instancePath: string; message?: string; params?: Record<string, unknown> };

/** One zod issue as a translated sentence that names the field. */
function issueMessage(req: FastifyRequest, issue: Issue, context: string | undefined): string {
  const lang = requestLang(req);
  const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const field = path || context || "body";
  const p = issue.params ?? {};
  const origin = p.origin as string | undefined;
  const sized = origin === "string" || origin === "array";
  switch (issue.keyword) {
    case "invalid_type":
      if (issue.message?.includes("received undefined")) return translate(lang, "validation.required", { field });
      return translate(lang, "validation.type", { field, expected: String(p.expected ?? "value") });
    case "too_big":
      if (!sized && p.inclusive === false)
        return translate(lang, "validation.less_than", { field, max: String(p.maximum) });
      return translate(lang, sized ? "validation.too_long" : "validation.too_big", { field, max: String(p.maximum) });
    case "too_small":
      if (origin === "string" && p.minimum === 1) return translate(lang, "validation.required", { field });
      if (!sized && p.inclusive === false) {
        return translate(lang, "validation.greater_than", { field, min: String(p.minimum) });
      }
      return translate(lang, sized ? "validation.too_short" : "validation.too_small", {
        field,
        min: String(p.minimum),
      });
    case "invalid_format":
      return translate(lang, "validation.format", { field });
    case "invalid_value":
      return translate(lang, "validation.enum", { field, options: ((p.values as unknown[]) ?? []).join(", ") });
    case "unrecognized_keys":
      return translate(lang, "validation.unknown_key", { field: ((p.keys as string[]) ?? []).join(", ") });
    case "custom": {
      const custom = (p.params ?? {}) as { i18n?: MessageKey } & MessageParams;
      if (custom.i18n) return translate(lang, custom.i18n, { ...custom, field });
      return translate(lang, "validation.invalid", { field });
    }
    default:
      return translate(lang, "validation.invalid", { field });
  }
}

/** Fastify derives a HEAD route from each GET with the same options: wrap each schema and handler once. */
const wrapped = new WeakSet<object>();

/** Pages served by plugins whose routes cannot carry `envelope: false`: the API docs, the queue board. */
const RAW_PREFIXES = ["/docs", "/admin/queues"];

function wrapRoute(route: RouteOptions) {
  if (route.config?.envelope === false || RAW_PREFIXES.some((p) => route.url.startsWith(p))) return;
  route.schema ??= {};
  const schema = route.schema;
  if (wrapped.has(schema) || wrapped.has(route.handler)) return;
  const response = (schema.response ?? {}) as Record<string | number, unknown>;
  const data = (response[200] as z.ZodType | undefined) ?? z.null();
  const responses: Record<number, z.ZodType> = { 200: envelope(data) };
  for (const s of ERROR_STATUSES) responses[s] = errorEnvelope;
  schema.response = responses;
  wrapped.add(schema);

  const handler = route.handler;
  route.handler = async function wrappedHandler(this: FastifyInstance, req, reply) {
    const data = await handler.call(this, req, reply);
    if (reply.sent) return reply;
    return { code: 0, message: translate(requestLang(req), "ok"), data: data ?? null };
  };
  wrapped.add(route.handler);
}

/**
 * Prisma's codes for a write that lost a race: P2025 the row to change is gone, P2002 a unique value was taken
 * meanwhile, P2034 a transaction conflict or deadlock.
 */
function raceOutcome(error: unknown): "gone" | "conflict" | null {
  const code = (error as { code?: unknown; name?: unknown })?.code;
  if ((error as { name?: unknown })?.name !== "PrismaClientKnownRequestError") return null;
  if (code === "P2025") return "gone";
  if (code === "P2002" || code === "P2034") return "conflict";
  return null;
}

/**
 * Errors Fastify's router raises before any route runs (a path parameter over the router's limit, a URL that
 * does not decode): answered in the envelope like everything else, never echoing the path.
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") return send(req, reply, 414, "error.uri_too_long");
  return send(req, reply, 400, "error.bad_request");
}

const CLIENT_ERRORS: Record<string, { status: number; key: MessageKey }> = {
  HPE_HEADER_OVERFLOW: { status: 431, key: "error.headers_too_large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: "error.request_timeout" },
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL over 16 KB, malformed
 * requests, timeouts): answered with the envelope, written by hand since there is no request object. The
 * request's language cannot be read from headers that did not parse, so the default language answers.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const { status, key } = CLIENT_ERRORS[err.code ?? ""] ?? { status: 400, key: "error.bad_request" as const };
  const body = JSON.stringify({ code: 1, message: translate(DEFAULT_LANG, key), data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Bad Request"}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" +
        body,
    );
  }
  socket.destroy();
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

/** Refuses a NUL character anywhere in a request's parsed input (PostgreSQL cannot store one in text). */
function refuseNul(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  const field = nulIn(req.params, "params") ?? nulIn(req.query, "querystring") ?? nulIn(req.body, "body");
  done(field === undefined ? undefined : new AppError(400, "validation.nul", { field }));
}

/** Where a NUL character is in one part of a request (the part's name when it is the whole part), or undefined. */
function nulIn(value: unknown, part: string): string | undefined {
  const field = nulField(value);
  return field === null ? undefined : field || part;
}

export default fp(
  async (app) => {
    app.addHook("onRoute", wrapRoute);
    // One place for every route's text input: before validation, so no schema has to remember it.
    app.addHook("preValidation", refuseNul);
    // JSON answers carry balances and personal data: never kept by a browser or a shared cache.
    app.addHook("onSend", (_req, reply, payload, done) => {
      const type = reply.getHeader("content-type");
      if (typeof type === "string" && type.startsWith("application/json") && !reply.hasHeader("cache-control")) {
        reply.header("cache-control", "no-store");
      }
      done(null, payload);
    });

    // An unknown route is a client's mistake, not a business answer: always 404.
    app.setNotFoundHandler((req, reply) =>
      reply.status(404).send({ code: 1, message: translate(requestLang(req), "error.not_found_route"), data: null }),
    );

    app.setErrorHandler((error: unknown, req, reply) => {
      if (error instanceof AppError) {
        if (error.status === 429 && error.params.retryAfter)
          reply.header("retry-after", String(error.params.retryAfter));
        return send(req, reply, error.status, error.key, error.params, error.envelopeCode);
      }
      if (error instanceof InputValidationError) {
        const message = error.issues
          .slice(0, 3)
          .map(({ code, path, message, ...params }) =>
            issueMessage(req, { keyword: code, instancePath: `/${path.join("/")}`, message, params }, error.context),
          )
          .join("; ");
        return refuse(req, reply, 400, { code: 1, message });
      }
      const err = error as FastifyError;
      if (hasZodFastifySchemaValidationErrors(err)) {
        const ctx = (err as { validationContext?: string }).validationContext;
        const message = err.validation
          .slice(0, 3)
          .map((i) => issueMessage(req, i as Issue, ctx))
          .join("; ");
        return refuse(req, reply, 400, { code: 1, message });
      }
      switch (err.code) {
        case "FST_ERR_CTP_BODY_TOO_LARGE":
        case "FST_REQ_FILE_TOO_LARGE":
        case "FST_FILES_LIMIT":
        case "FST_PARTS_LIMIT":
          return send(req, reply, 413, "error.payload_too_large");
        case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
          return send(req, reply, 400, "error.unsupported_media_type");
        case "FST_ERR_CTP_EMPTY_JSON_BODY":
        case "FST_ERR_CTP_INVALID_JSON_BODY":
          return send(req, reply, 400, "error.bad_json");
      }
      if (err.statusCode === 400 && err instanceof SyntaxError) return send(req, reply, 400, "error.bad_json");
      // The last line of defence for races a service did not foresee (every find-then-write should be one
      // conditional statement): a row that vanished between the read and the write is gone for this caller
      // too, and a row someone else wrote first is a conflict to retry; never a 500.
      const raceKey = raceOutcome(error);
      if (raceKey) {
        req.log.warn({ err }, "database race answered as a business outcome");
        return raceKey === "gone"
          ? send(req, reply, 404, "error.not_found", { entity: translate(requestLang(req), "entity.record") })
          : send(req, reply, 409, "error.concurrent_change");
      }
      if (err.code?.startsWith("FST_JWT_")) return send(req, reply, 401, "error.unauthorized");
      if (isResponseSerializationError(err))
        req.log.error({ err, issues: err.cause.issues }, "response does not match its schema");
      // A lost database or Redis is one line at a bounded rate (plugins/outages.ts), not a stack per request.
      else if (!req.server.outages?.report(err)) req.log.error({ err }, "unexpected error");
      return send(req, reply, 500, "error.server", { requestId: String(req.id) });
    });
  },
  { name: "envelope" },
);
