// Message batch calls of the web client: submission (modes 1, 2, 3), the pre-submit check, review, cancel,
// terminate and the batch screens' data; the developer API (/v1) is registered beside them with the same
// services. Who may call each: docs/batches.md.
import {
  BatchSource,
  batchDetail,
  batchFileSubmitResult,
  batchIdBody,
  batchIdQuery,
  batchList,
  batchListQuery,
  batchReplyList,
  batchReplyQuery,
  batchRow,
  batchScheduleBody,
  batchSubmitBody,
  batchSubmitResult,
  reachableSendBody,
  recipientExportQuery,
  recipientList,
  recipientListQuery,
  recipientSearchQuery,
  recipientSearchResult,
  reviewPassBody,
  reviewRejectBody,
  sendableTemplate,
  sendableTemplatesQuery,
  submitPreQuery,
  submitPreResult,
  terminateBody,
  UserType,
} from "@switchboard/contracts";
import { bullBatchJobs } from "@switchboard/domain/batches/batch-jobs";
import { resolveProduct } from "@switchboard/domain/batches/context";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLang } from "../../lib/lang";
import { principalOf } from "../../plugins/auth";
import { sendableTemplates } from "../channels/whatsapp-templates.service";
import type { BatchDeps } from "./batch-deps";
import { FILE_FORM_DESCRIPTION, sendCsv, uploadReceiver } from "./batch-http";
import { developerApiRoutes } from "./developer-api.routes";
import { disconnectSignal } from "./file-summary";
import {
  batchDetail as detail,
  exportRecipients,
  exportRejected,
  listBatches,
  listRecipients,
  listReplies,
} from "./lists.service";
import { OutcomeSignal } from "./outcome-signal";
import { preSubmit, preSubmitFile } from "./pre.service";
import { sendToReachable } from "./reachable.service";
import { searchRecipients } from "./search.service";
import { submitBatch, submitFileBatch } from "./submit.service";
import { cancelBatch, passReview, rejectReview, rescheduleBatch, terminateBatch } from "./transitions.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["batches"];

export const batchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, config, redis } = app.deps;
  const jobs = bullBatchJobs(redis, config.REDIS_PREFIX, prisma);
  const outcomes = new OutcomeSignal(redis, config.REDIS_PREFIX);
  app.addHook("onClose", () => Promise.all([jobs.close(), outcomes.close()]));
  const deps: BatchDeps = {
    prisma,
    redis,
    redisPrefix: config.REDIS_PREFIX,
    uploadDir: config.UPLOAD_DIR,
    jobs,
    singleWaitMs: config.BATCH_SINGLE_WAIT_MS,
    outcomes,
    log: app.log,
  };
  const signedIn = [app.authenticate];
  const customer = [app.authenticate, app.requireRoles(USER)];
  const staff = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)];

  // ---------------------------------------------------------------- submission

  app.post(
    "/batch/submit",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Submit a batch: mode 1 (one number, answers the provider's outcome) or 2 (up to 10,000 numbers)",
        description:
          "Charged whole at creation (402 when the balance is short, nothing written). Invalid, duplicate and " +
          "not-served numbers are listed per number and never charged. Mode 1 waits up to " +
          "BATCH_SINGLE_WAIT_MS for the provider's answer and says `sending` if none came.",
        body: batchSubmitBody,
        response: { 200: batchSubmitResult },
      },
    },
    async (req) =>
      (
        await submitBatch(
          deps,
          principalOf(req).userId,
          req.body,
          { source: BatchSource.WEB, lang: requestLang(req) },
          new Date(),
        )
      ).result,
  );

  app.post(
    "/batch/screening/send",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Send a message batch to the numbers a finished screening batch found reachable",
        description:
          "The screening batch (task type 1) must be the customer's and in status 22. A mode 2 message batch on " +
          "the same product is submitted with this content: priced, charged and reviewed like any other.",
        body: reachableSendBody,
        response: { 200: batchSubmitResult },
      },
    },
    async (req) =>
      (
        await sendToReachable(
          deps,
          principalOf(req).userId,
          req.body,
          { source: BatchSource.WEB, lang: requestLang(req) },
          new Date(),
        )
      ).result,
  );

  app.post(
    "/batch/submit/file",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Submit a file batch (mode 3): the batch id returns at once, a worker reads the numbers",
        description:
          `${FILE_FORM_DESCRIPTION} The batch is created in status 11 with ingesting=true; GET /batch/detail ` +
          "shows ingestedCount of totalCount, then the batch is charged and goes to 20 (or stays 11 for review); " +
          "a batch that cannot be made (no valid number, balance short) ends in 13 with the reason.",
        consumes: ["multipart/form-data"],
        response: { 200: batchFileSubmitResult },
      },
    },
    async (req) =>
      (
        await submitFileBatch(
          deps,
          principalOf(req).userId,
          uploadReceiver(deps, req),
          { source: BatchSource.WEB, lang: requestLang(req) },
          new Date(),
        )
      ).result,
  );

  // ---------------------------------------------------------------- pre-submit check

  app.get(
    "/batch/whatsapp/templates",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary:
          "The approved WhatsApp templates this WS product can send for the caller (its channels' synced templates), " +
          "with what each asks of a message: body parameters, header, dynamic buttons",
        querystring: sendableTemplatesQuery,
        response: { 200: z.array(sendableTemplate) },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const tenantId = p.tenantId as number;
      const product = await resolveProduct(prisma, tenantId, req.query);
      return sendableTemplates(prisma, { id: p.userId, tenantId }, product.id);
    },
  );

  const preSummary =
    "Pre-submit check: counts (total, valid, invalid, duplicate, per country), segments, unit prices, total " +
    "cost, balance and whether it suffices, whether authentication allows sending; writes nothing";
  app.get(
    "/user/submit/pre",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: preSummary,
        description: "numbers comma-separated; content as JSON text. For long lists use POST with a JSON body.",
        querystring: submitPreQuery,
        response: { 200: submitPreResult },
      },
    },
    async (req) => preSubmit(deps, principalOf(req).userId, req.query, requestLang(req), new Date()),
  );
  app.post(
    "/user/submit/pre",
    {
      preHandler: customer,
      schema: { tags, security, summary: preSummary, body: submitPreQuery, response: { 200: submitPreResult } },
    },
    async (req) => preSubmit(deps, principalOf(req).userId, req.body, requestLang(req), new Date()),
  );
  app.post(
    "/user/submit/pre/file",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: `${preSummary} (for a file: read, summarised, not kept)`,
        description: FILE_FORM_DESCRIPTION,
        consumes: ["multipart/form-data"],
        response: { 200: submitPreResult },
      },
    },
    async (req, reply) =>
      preSubmitFile(
        deps,
        principalOf(req).userId,
        uploadReceiver(deps, req),
        requestLang(req),
        new Date(),
        disconnectSignal(reply),
      ),
  );

  // ---------------------------------------------------------------- review, cancel, terminate

  app.post(
    "/batch/review/pass",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Pass a batch under review (11 -> 12 -> 20), optionally scheduled; admin or the owning agent",
        body: reviewPassBody,
        response: { 200: batchRow },
      },
    },
    async (req) => passReview(deps, principalOf(req), req.body, new Date(), requestLang(req)),
  );
  app.post(
    "/batch/review/reject",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Reject a batch under review with a reason (11 -> 13), refunded whole; admin or the owning agent",
        body: reviewRejectBody,
        response: { 200: batchRow },
      },
    },
    async (req) => rejectReview(deps, principalOf(req), req.body, new Date(), requestLang(req)),
  );
  app.post(
    "/batch/cancel",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Cancel an own batch not yet sending (11, 12 or 20 -> 29), refunded whole",
        body: batchIdBody,
        response: { 200: batchRow },
      },
    },
    async (req) => cancelBatch(deps, principalOf(req), req.body.id, new Date(), requestLang(req)),
  );
  app.post(
    "/batch/schedule",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Change the send time of a batch pending send (20), or null to send at once; admin or owning agent",
        description:
          "One conditional update on status 20: a batch that started sending (or ended) answers 409. The time " +
          "must be in the future and at most 90 days ahead.",
        body: batchScheduleBody,
        response: { 200: batchRow },
      },
    },
    async (req) => rescheduleBatch(deps, principalOf(req), req.body, new Date(), requestLang(req)),
  );
  app.post(
    "/batch/terminate",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Stop a sending batch (21 -> 23); unsent recipients get send result 3 and are refunded",
        body: terminateBody,
        response: { 200: batchRow },
      },
    },
    async (req) => terminateBatch(deps, principalOf(req), req.body, requestLang(req)),
  );

  // ---------------------------------------------------------------- screens

  app.get(
    "/batch/list",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "Batches: customers their own, agents their customers', admins the tenant's",
        querystring: batchListQuery,
        response: { 200: batchList },
      },
    },
    async (req) => listBatches(prisma, principalOf(req), req.query, requestLang(req)),
  );
  app.get(
    "/batch/detail",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "One batch with its content, reviewer and recipients per country",
        querystring: batchIdQuery,
        response: { 200: batchDetail },
      },
    },
    async (req) => detail(prisma, principalOf(req), req.query.id, requestLang(req)),
  );
  app.get(
    "/batch/recipients",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "A batch's recipients: search by number prefix, filter by send/receive result and country",
        querystring: recipientListQuery,
        response: { 200: recipientList },
      },
    },
    async (req) => listRecipients(prisma, principalOf(req), req.query),
  );
  app.get(
    "/batch/recipients/search",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary:
          "Messages to one number across the batches the caller may see (customers their own, agents their " +
          "customers', admins the tenant's), newest first; the number is read to E.164 as a submission reads it",
        querystring: recipientSearchQuery,
        response: { 200: recipientSearchResult },
      },
    },
    async (req) => searchRecipients(prisma, principalOf(req), req.query),
  );
  app.get(
    "/batch/replies",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "What a batch's recipients wrote back (WhatsApp and RCS replies, button taps), newest first",
        querystring: batchReplyQuery,
        response: { 200: batchReplyList },
      },
    },
    async (req) => listReplies(prisma, principalOf(req), req.query),
  );
  app.get(
    "/batch/recipients/export",
    {
      preHandler: signedIn,
      config: { envelope: false },
      schema: {
        tags,
        security,
        summary:
          "A batch's recipients as CSV (same filters as the list, streamed): header and result labels in the " +
          "request's language, times in `tz` (IANA, default UTC), the result codes in their own columns",
        querystring: recipientExportQuery,
      },
    },
    async (req, reply) => sendCsv(reply, await exportRecipients(prisma, principalOf(req), req.query, requestLang(req))),
  );
  app.get(
    "/batch/rejected/export",
    {
      preHandler: signedIn,
      config: { envelope: false },
      schema: {
        tags,
        security,
        summary: "A batch's invalid, duplicate and not-served numbers as CSV (streamed)",
        querystring: batchIdQuery,
      },
    },
    async (req, reply) => sendCsv(reply, await exportRejected(prisma, principalOf(req), req.query.id)),
  );

  await app.register(developerApiRoutes(deps));
};
