// The developer API (/v1): batch submission and status for a customer's own systems, authenticated by its
// secret key (api-key.ts), with Idempotency-Key support. Same envelope and HTTP statuses as every route
// (DOMAIN.md): 200, 400, 401 (key missing or unknown), 402 (balance short), 403 (API off, IP not allowed,
// frozen, authentication), 404, 409 (Idempotency-Key reused with another request), 413, 500.
import {
  BatchSource,
  batchFileSubmitResult,
  batchRow,
  batchSubmitBody,
  batchSubmitResult,
  IDEMPOTENCY_KEY_MAX,
  v1BatchParams,
} from "@switchboard/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors";
import { headerValue, principalOf } from "../../plugins/auth";
import { apiKeyAuth } from "./api-key";
import type { BatchDeps } from "./batch-deps";
import { FILE_FORM_DESCRIPTION, uploadReceiver } from "./batch-http";
import { batchStatus } from "./lists.service";
import { type Submitted, submitBatch, submitFileBatch } from "./submit.service";

const tags = ["developer API"];
// The secret key travels as a bearer token (or in X-Api-Key, see the description).
const security = [{ bearer: [] }];

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

const keyDescription =
  "Authenticate with `Authorization: Bearer sk_...` or `X-Api-Key: sk_...`. Send `Idempotency-Key: <id>` to make " +
  "retries safe: the same key returns the batch it created (header Idempotent-Replayed: true), never a second " +
  "one, and a different request under a known key is refused with 409.";

export const developerApiRoutes =
  (deps: BatchDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const authenticated = [apiKeyAuth(deps.prisma)];

    app.post(
      "/v1/messages",
      {
        preHandler: authenticated,
        schema: {
          tags,
          security,
          summary: "Submit a batch: mode 1 (one number, answers the provider's outcome) or 2 (up to 10,000 numbers)",
          description: keyDescription,
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
          { source: BatchSource.DEVELOPER_API, idempotencyKey: key },
          new Date(),
        );
        return answer(reply, submitted);
      },
    );

    app.post(
      "/v1/messages/file",
      {
        preHandler: authenticated,
        schema: {
          tags,
          security,
          summary: "Submit a file batch (mode 3): the batch id returns at once; poll GET /v1/batches/{id}",
          description: `${FILE_FORM_DESCRIPTION} ${keyDescription}`,
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
          { source: BatchSource.DEVELOPER_API, idempotencyKey: key },
          new Date(),
        );
        return answer(reply, submitted);
      },
    );

    app.get(
      "/v1/batches/:id",
      {
        preHandler: authenticated,
        schema: {
          tags,
          security,
          summary: "One of the customer's batches: status, counts, cost, refunded, progress (poll this)",
          description: keyDescription,
          params: v1BatchParams,
          response: { 200: batchRow },
        },
      },
      async (req) => batchStatus(deps.prisma, principalOf(req), req.params.id),
    );
  };
