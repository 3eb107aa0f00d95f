// The developer API (/v1): batch submission, the customer's batches, messages, balance, ledger and prices for
// its own systems, authenticated by a secret key (api-key.ts) with the scope each route names, with
// Idempotency-Key support on submissions. Same envelope and HTTP statuses as every route
// (DOMAIN.md): 200, 400, 401 (key missing or unknown), 402 (balance short), 403 (API off, IP not allowed,
// frozen, authentication), 404, 409 (Idempotency-Key reused with another request), 413, 429 (over the
// customer's rate limit, api-rate-limit.ts), 500.
import {
  type ApiKeyScope,
  BatchSource,
  batchFileSubmitResult,
  batchRow,
  batchSubmitBody,
  batchSubmitResult,
  errorEnvelope,
  IDEMPOTENCY_KEY_MAX,
  reachableSendFields,
  userProductPriceList,
  v1Balance,
  v1BalanceLogList,
  v1BalanceLogQuery,
  v1BatchList,
  v1BatchListQuery,
  v1BatchParams,
  v1InboundList,
  v1InboundQuery,
  v1Message,
  v1MessageList,
  v1MessageListQuery,
  v1MessageParams,
  v1PriceQuery,
  v1ProductList,
  v1ScheduleBody,
} from "@switchboard/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors";
import { requestLang } from "../../lib/lang";
import { headerValue, principalOf } from "../../plugins/auth";
import { batchStatus, listBatches, listInbound, listRecipients, messageById } from "../batch-lists/lists.service";
import { FILE_FORM_DESCRIPTION, uploadReceiver } from "../batch-submit/file-form";
import { sendToReachable } from "../batch-submit/reachable.service";
import { type Submitted, submitBatch, submitFileBatch } from "../batch-submit/submit.service";
import { cancelBatch, rescheduleBatch } from "../batch-transitions/transitions.service";
import { userProductPrices } from "../catalog/prices.service";
import { balanceLog, ownBalance } from "../finance/finance.service";
import { API_KEY_SECURITY, apiKeyAuth } from "./api-key";
import { type ApiRateLimit, apiRateLimit } from "./api-rate-limit";
import { listProductsV1 } from "./v1-products.service";

const tags = ["developer API"];
// The secret key travels as a bearer token or in X-Api-Key.
const security = API_KEY_SECURITY;

/** The Idempotency-Key header: absent, or 1..100 printable ASCII characters. */
function idempotencyKey(req: FastifyRequest): string | null {
  const key = headerValue(req, "idempotency-key");
  if (key === undefined) return null;
  if (key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key))
    throw new AppError(400, "batch.idempotency_key_invalid", { max: IDEMPOTENCY_KEY_MAX });
  return key;
}

/** A repeat of an earlier request is answered like it, and says so. */
function answer<T>(reply: FastifyReply, submitted: Submitted<T>): T {
  if (submitted.replayed) reply.header("idempotent-replayed", "true");
  return submitted.result;
}

const keyDescription = (limit: ApiRateLimit) =>
  "Authenticate with `Authorization: Bearer sk_...` or `X-Api-Key: sk_...`. Send `Idempotency-Key: <id>` to make " +
  "retries safe: the same key returns the batch it created (header Idempotent-Replayed: true), never a second " +
  `one, and a different request under a known key is refused with 409. Rate limit per customer, over all /v1 ` +
  `calls: ${limit.perSecond} per second with bursts of ${limit.burst}; over it 429 (nothing done) with ` +
  "Retry-After; every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.";

const integerHeader = (description: string) => ({ description, schema: { type: "integer" } });

/** The OpenAPI answer 429 of the /v1 routes: the envelope with the rate limit's headers. */
const rateLimited = errorEnvelope.meta({
  description: "Over the customer's rate limit: nothing was done; retry after Retry-After seconds",
  headers: {
    "Retry-After": integerHeader("seconds until the next call is allowed"),
    "X-RateLimit-Limit": integerHeader("calls a customer may make at once (the burst)"),
    "X-RateLimit-Remaining": integerHeader("calls left now"),
    "X-RateLimit-Reset": integerHeader("seconds until the full burst is available again"),
  },
});

export const developerApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.batchDeps;
  const limit: ApiRateLimit = {
    perSecond: app.deps.config.DEVELOPER_API_RATE_PER_SECOND,
    burst: app.deps.config.DEVELOPER_API_BURST,
  };
  // The key first (the limit is per customer), then the limit, before the body is read (guardsFirst, plugins/auth.ts,
  // runs every route's guards as it arrives): a caller without a valid key, or over its limit, gets its 401 or 429
  // without its body being parsed or validated.
  // Each route names the scope its key needs (docs/api-keys.md): send to create or cancel batches, read for GETs.
  const perCustomerLimit = apiRateLimit(deps.redis, deps.redisPrefix, limit);
  const authenticated = (scope: ApiKeyScope) => [apiKeyAuth(deps.prisma, scope), perCustomerLimit];
  const description = keyDescription(limit);
  // Runs after the envelope plugin's hook has set every route's answers: documents 429 with its headers.
  app.addHook("onRoute", (route) => {
    const response = route.schema?.response as Record<number, unknown> | undefined;
    if (response?.[429]) response[429] = rateLimited;
  });

  app.post(
    "/v1/messages",
    {
      preHandler: authenticated("send"),
      schema: {
        tags,
        security,
        summary: "Submit a batch: mode 1 (one number, answers the provider's outcome) or 2 (up to 10,000 numbers)",
        description,
        body: batchSubmitBody,
        response: { 200: batchSubmitResult },
      },
    },
    async (req, reply) => {
      const key = idempotencyKey(req);
      const submitted = await submitBatch(
        deps,
        principalOf(req).userId,
        req.body,
        { source: BatchSource.DEVELOPER_API, idempotencyKey: key, lang: requestLang(req) },
        new Date(),
      );
      return answer(reply, submitted);
    },
  );

  app.post(
    "/v1/messages/file",
    {
      preHandler: authenticated("send"),
      schema: {
        tags,
        security,
        summary: "Submit a file batch (mode 3): the batch id returns at once; poll GET /v1/batches/{id}",
        description: `${FILE_FORM_DESCRIPTION} ${description}`,
        consumes: ["multipart/form-data"],
        response: { 200: batchFileSubmitResult },
      },
    },
    async (req, reply) => {
      const key = idempotencyKey(req);
      const submitted = await submitFileBatch(
        deps,
        principalOf(req).userId,
        uploadReceiver(deps, req),
        { source: BatchSource.DEVELOPER_API, idempotencyKey: key, lang: requestLang(req) },
        new Date(),
      );
      return answer(reply, submitted);
    },
  );

  app.post(
    "/v1/batches/:id/send-reachable",
    {
      preHandler: authenticated("send"),
      schema: {
        tags,
        security,
        summary: "Send a message batch to the numbers a finished screening batch (task type 1) found reachable",
        description,
        params: v1BatchParams,
        body: reachableSendFields,
        response: { 200: batchSubmitResult },
      },
    },
    async (req, reply) => {
      const submitted = await sendToReachable(
        deps,
        principalOf(req).userId,
        { ...req.body, id: req.params.id },
        { source: BatchSource.DEVELOPER_API, idempotencyKey: idempotencyKey(req), lang: requestLang(req) },
        new Date(),
      );
      return answer(reply, submitted);
    },
  );

  app.get(
    "/v1/batches/:id",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "One of the customer's batches: status, counts, cost, refunded, progress (poll this)",
        description,
        params: v1BatchParams,
        response: { 200: batchRow },
      },
    },
    async (req) => batchStatus(deps.prisma, principalOf(req), req.params.id, requestLang(req)),
  );

  // ---------------------------------------------------------------- the customer's own resources
  // The same services as the customer app's screens, acting as the key's customer: another customer's batch or
  // message answers 404 like a missing one. Lists are paged (page, pageSize <= 200) with their total, or by
  // cursor: each answer's nextCursor asks for the rows after its last one (lib/cursor.ts).

  app.get(
    "/v1/batches",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "The customer's batches, newest first: by product, status, stage, batch id and creation time",
        description,
        querystring: v1BatchListQuery,
        response: { 200: v1BatchList },
      },
    },
    async (req) => listBatches(deps.prisma, principalOf(req), req.query, requestLang(req)),
  );

  app.post(
    "/v1/batches/:id/cancel",
    {
      preHandler: authenticated("send"),
      schema: {
        tags,
        security,
        summary: "Cancel a batch not yet sending (11, 12 or 20 -> 29); its whole cost is refunded",
        description: `A batch already sending (or ended) answers 409 and nothing changes. ${description}`,
        params: v1BatchParams,
        response: { 200: batchRow },
      },
    },
    async (req) => cancelBatch(deps, principalOf(req), req.params.id, new Date(), requestLang(req)),
  );

  app.post(
    "/v1/batches/:id/schedule",
    {
      preHandler: authenticated("send"),
      schema: {
        tags,
        security,
        summary: "A new send time for a batch pending send (20), or null to send it at once",
        description:
          "The customer app's rules: the time must be in the future and at most 90 days ahead; a batch that started " +
          "sending (or ended, or waits for review) answers 409 and keeps its time. The customer's notify URL gets a " +
          `batch_status event (change scheduled). ${description}`,
        params: v1BatchParams,
        body: v1ScheduleBody,
        response: { 200: batchRow },
      },
    },
    async (req) =>
      rescheduleBatch(
        deps,
        principalOf(req),
        { id: req.params.id, scheduledAt: req.body.scheduledAt },
        new Date(),
        requestLang(req),
      ),
  );

  app.get(
    "/v1/batches/:id/messages",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "A batch's messages (one per recipient): send and delivery results, times, price, error code",
        description,
        params: v1BatchParams,
        querystring: v1MessageListQuery,
        response: { 200: v1MessageList },
      },
    },
    async (req) => listRecipients(deps.prisma, principalOf(req), { ...req.query, id: req.params.id }),
  );

  app.get(
    "/v1/messages/:id",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "One message by its id (the recipient id of the batch lists): its results, times and batch",
        description,
        params: v1MessageParams,
        response: { 200: v1Message },
      },
    },
    async (req) => messageById(deps.prisma, principalOf(req), req.params.id),
  );

  app.get(
    "/v1/inbound",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "What users wrote back (replies, suggestion and button taps), newest first, as the inbound webhook",
        description,
        querystring: v1InboundQuery,
        response: { 200: v1InboundList },
      },
    },
    async (req) => listInbound(deps.prisma, principalOf(req).userId, req.query),
  );

  app.get(
    "/v1/balance",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "The customer's balance and its currency",
        description,
        response: { 200: v1Balance },
      },
    },
    async (req) => ownBalance(deps.prisma, principalOf(req).userId),
  );

  app.get(
    "/v1/balance/logs",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "The customer's balance log: every charge, refund and credit with the balance after it",
        description,
        querystring: v1BalanceLogQuery,
        response: { 200: v1BalanceLogList },
      },
    },
    async (req) => balanceLog({ prisma: deps.prisma }, principalOf(req), req.query),
  );

  app.get(
    "/v1/products",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "The customer's products (active ones of its tenant), each with whether it can send for them now",
        description,
        response: { 200: v1ProductList },
      },
    },
    async (req) => listProductsV1(deps.prisma, principalOf(req), requestLang(req)),
  );

  app.get(
    "/v1/prices",
    {
      preHandler: authenticated("read"),
      schema: {
        tags,
        security,
        summary: "The customer's prices per product and country (what a message costs before it is sent)",
        description,
        querystring: v1PriceQuery,
        response: { 200: userProductPriceList },
      },
    },
    async (req) => userProductPrices(deps.prisma, principalOf(req), req.query, requestLang(req)),
  );
};
