// Batch submission calls of the web client: submit (modes 1, 2, 3), send to a screening batch's reachable
// numbers, the WhatsApp templates a WS product can send, and the pre-submit check (numbers or a file). The
// developer API submits with the same services (modules/developer/developer-api.routes.ts). Who may call each:
// docs/batches.md.
import {
  BatchSource,
  batchFileSubmitResult,
  batchSubmitBody,
  batchSubmitResult,
  reachableSendBody,
  sendableTemplate,
  sendableTemplatesQuery,
  submitPreQuery,
  submitPreResult,
  UserType,
} from "@switchboard/contracts";
import { resolveProduct } from "@switchboard/domain/batches/context";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requestLang } from "../../lib/lang";
import { principalOf } from "../../plugins/auth";
import { sendableTemplates } from "../channels/whatsapp-templates.service";
import { FILE_FORM_DESCRIPTION, uploadReceiver } from "./file-form";
import { disconnectSignal } from "./file-summary";
import { preSubmit, preSubmitFile } from "./pre-submit.service";
import { sendToReachable } from "./reachable.service";
import { submitBatch, submitFileBatch } from "./submit.service";

const { USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["batches"];

export const batchSubmitRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const deps = app.batchDeps;
  const customer = [app.authenticate, app.requireRoles(USER)];

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
};
