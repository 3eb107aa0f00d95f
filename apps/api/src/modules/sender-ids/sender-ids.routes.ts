// Sender ID routes (who may call what: docs/sender-ids.md): customers request, list and withdraw their own; staff
// list those in their scope; admins approve, reject and revoke; the developer API lists the key's customer's.
import {
  SENDER_IDS_V1_MAX,
  senderIdIdBody,
  senderIdList,
  senderIdListQuery,
  senderIdRejectBody,
  senderIdRequestBody,
  senderIdRevokeBody,
  senderIdRow,
  UserType,
  v1SenderId,
  v1SenderIdList,
  v1SenderIdParams,
  v1SenderIdQuery,
  v1SenderIdRequestBody,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { principalOf } from "../../plugins/auth";
import { apiKeyAuth } from "../developer/api-key";
import { apiRateLimit } from "../developer/api-rate-limit";
import {
  decideSenderId,
  listOwnSenderIdsV1,
  listSenderIds,
  requestSenderId,
  toV1,
  withdrawSenderId,
} from "./sender-ids.service";

const { SUPER_ADMIN, ADMIN, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["sender IDs"];

export const senderIdRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, redis, config } = app.deps;
  const customer = [app.authenticate, app.requireRoles(USER)];
  const admins = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN)];

  app.get(
    "/sender-id/list",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Sender IDs: a customer its own, an agent its customers' (read-only), admins their tenant's",
        querystring: senderIdListQuery,
        response: { 200: senderIdList },
      },
    },
    async (req) => listSenderIds(prisma, principalOf(req), req.query),
  );

  app.post(
    "/sender-id/request",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Request a sender ID for one country (or, without countryCode, every country); it waits for review",
        description:
          "Alphanumeric (up to 11 letters, digits, spaces or . _ -), an international number with its country " +
          "code (+447700900123) or a short code (3 to 8 digits). Asking again for a rejected or revoked one puts " +
          "it back in review; one that waits or is approved answers 409.",
        body: senderIdRequestBody,
        response: { 200: senderIdRow },
      },
    },
    async (req) => requestSenderId(prisma, principalOf(req), req.body),
  );

  app.post(
    "/sender-id/withdraw",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Withdraw one of the customer's own sender IDs (a waiting request, or one no longer wanted)",
        body: senderIdIdBody,
        response: { 200: z.object({ id: z.number().int() }) },
      },
    },
    async (req) => withdrawSenderId(prisma, principalOf(req), req.body.id),
  );

  app.post(
    "/sender-id/approve",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Approve a waiting sender ID request (status 1 -> 2); once",
        body: senderIdIdBody,
        response: { 200: senderIdRow },
      },
    },
    async (req) => decideSenderId(prisma, principalOf(req), req.body.id, { action: "approve" }, new Date()),
  );

  app.post(
    "/sender-id/reject",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Reject a waiting sender ID request with a reason (status 1 -> 3); once",
        body: senderIdRejectBody,
        response: { 200: senderIdRow },
      },
    },
    async (req) =>
      decideSenderId(prisma, principalOf(req), req.body.id, { action: "reject", reason: req.body.reason }, new Date()),
  );

  app.post(
    "/sender-id/revoke",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Revoke an approved sender ID with a reason (status 2 -> 4): later batches may no longer use it",
        body: senderIdRevokeBody,
        response: { 200: senderIdRow },
      },
    },
    async (req) =>
      decideSenderId(prisma, principalOf(req), req.body.id, { action: "revoke", reason: req.body.reason }, new Date()),
  );

  // ---------------------------------------------------------------- developer API

  const limit = { perSecond: config.DEVELOPER_API_RATE_PER_SECOND, burst: config.DEVELOPER_API_BURST };
  app.get(
    "/v1/sender-ids",
    {
      preHandler: [apiKeyAuth(prisma, "read"), apiRateLimit(redis, config.REDIS_PREFIX, limit)],
      schema: {
        tags: ["developer API"],
        security,
        summary: `The customer's sender IDs, newest first (pages of up to ${SENDER_IDS_V1_MAX} by cursor); an SMS may carry only one approved (status 2) for its number's country`,
        description:
          "Authenticate with `Authorization: Bearer sk_...` or `X-Api-Key: sk_...`; the /v1 rate limit applies. " +
          "Filter by status (1 requested, 2 approved, 3 rejected, 4 revoked) and countryCode (the country's own ids and " +
          "those for every country, countryCode null).",
        querystring: v1SenderIdQuery,
        response: { 200: v1SenderIdList },
      },
    },
    async (req) => listOwnSenderIdsV1(prisma, principalOf(req), req.query),
  );

  // Requests and withdrawals change the customer's settings: a key with the manage scope (docs/api-keys.md).
  app.post(
    "/v1/sender-ids",
    {
      preHandler: [apiKeyAuth(prisma, "manage"), apiRateLimit(redis, config.REDIS_PREFIX, limit)],
      schema: {
        tags: ["developer API"],
        security,
        summary:
          "Request a sender ID for one country (or, without countryCode, every country); it waits for review (status 1)",
        description:
          "As the customer app's request: alphanumeric (up to 11 letters, digits, spaces or . _ -), an international " +
          "number (+447700900123) or a short code (3 to 8 digits). Asking again for a rejected or revoked one puts it " +
          "back in review; one that waits or is approved answers 409.",
        body: v1SenderIdRequestBody,
        response: { 200: v1SenderId },
      },
    },
    async (req) => toV1(await requestSenderId(prisma, principalOf(req), req.body)),
  );

  app.post(
    "/v1/sender-ids/:id/withdraw",
    {
      preHandler: [apiKeyAuth(prisma, "manage"), apiRateLimit(redis, config.REDIS_PREFIX, limit)],
      schema: {
        tags: ["developer API"],
        security,
        summary:
          "Withdraw one of the customer's sender IDs (a waiting request, or one no longer wanted): it is removed",
        description:
          "Batches already accepted keep the sender ID they were accepted with. Another customer's id answers 404.",
        params: v1SenderIdParams,
        response: { 200: z.object({ id: z.number().int() }) },
      },
    },
    async (req) => withdrawSenderId(prisma, principalOf(req), req.params.id),
  );
};
