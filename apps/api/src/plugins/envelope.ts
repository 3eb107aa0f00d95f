// The response envelope of DOMAIN.md, added in one place:
// - every JSON route's handler result becomes { code: 0, message, data } (its schema is wrapped the same way,
//   so serialisation and OpenAPI agree);
// - every error becomes { code: 1 | 401, message, data: null } with the matching HTTP status, translated;
// - unexpected errors are logged with the request id and answered 500 without internals.
// Routes that are not JSON API calls (health, docs, downloads) opt out with `config: { envelope: false }`.
import { envelope, errorEnvelope, type MessageKey, type MessageParams, translate } from "@switchboard/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, InputValidationError } from "../lib/errors";
import { requestLang } from "../lib/lang";

declare module "fastify" {
  interface FastifyContextConfig {
    /** false: the route answers raw (health checks, docs, file downloads). */
    envelope?: boolean;
  }
}

const ERROR_STATUSES = [400, 401, 402, 403, 404, 409, 413, 429, 500] as const;

function send(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  key: MessageKey,
  params: MessageParams = {},
  code: 1 | 401 = status === 401 ? 401 : 1,
) {
  return reply.status(status).send({ code, message: translate(requestLang(req), key, params), data: null });
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

function wrapRoute(route: RouteOptions) {
  if (route.config?.envelope === false || route.url.startsWith("/docs")) return;
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

export default fp(
  async (app) => {
    app.addHook("onRoute", wrapRoute);

    app.setNotFoundHandler((req, reply) => send(req, reply, 404, "error.not_found_route"));

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
        return reply.status(400).send({ code: 1, message, data: null });
      }
      const err = error as FastifyError;
      if (hasZodFastifySchemaValidationErrors(err)) {
        const ctx = (err as { validationContext?: string }).validationContext;
        const message = err.validation
          .slice(0, 3)
          .map((i) => issueMessage(req, i as Issue, ctx))
          .join("; ");
        return reply.status(400).send({ code: 1, message, data: null });
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
      if (err.code?.startsWith("FST_JWT_")) return send(req, reply, 401, "error.unauthorized");
      if (isResponseSerializationError(err))
        req.log.error({ err, issues: err.cause.issues }, "response does not match its schema");
      else req.log.error({ err }, "unexpected error");
      return send(req, reply, 500, "error.server", { requestId: String(req.id) });
    });
  },
  { name: "envelope" },
);
