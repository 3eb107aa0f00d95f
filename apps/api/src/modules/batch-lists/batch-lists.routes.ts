// Batch lists and exports: the batch screens' data (list, detail, recipients, replies), the search for one
// number's messages, and the CSV exports. Everyone signed in, within their scope (lib/scope.ts); the developer
// API reads with the same services. Who sees what: docs/batches.md.
import {
  batchDetail,
  batchIdQuery,
  batchList,
  batchListQuery,
  batchReplyList,
  batchReplyQuery,
  inboxList,
  inboxQuery,
  recipientExportQuery,
  recipientList,
  recipientListQuery,
  recipientSearchQuery,
  recipientSearchResult,
} from "@switchboard/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requestLang } from "../../lib/lang";
import { principalOf } from "../../plugins/auth";
import {
  type CsvExport,
  batchDetail as detail,
  exportRecipients,
  exportRejected,
  listBatches,
  listInbox,
  listRecipients,
  listReplies,
} from "./lists.service";
import { searchRecipients } from "./search.service";

const security = [{ bearer: [] }];
const tags = ["batches"];

/** A CSV download, streamed. */
function sendCsv(reply: FastifyReply, csv: CsvExport) {
  return reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${csv.fileName}"`)
    .header("cache-control", "private, no-store")
    .header("x-content-type-options", "nosniff")
    .send(csv.stream);
}

export const batchListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const signedIn = [app.authenticate];

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
    "/inbound/list",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary:
          "The inbox: what users wrote back (replies, suggestion and button taps) across the customer's batches, " +
          "newest first, with the answered batch's product; customers their own, staff one customer of their " +
          "scope (userId)",
        querystring: inboxQuery,
        response: { 200: inboxList },
      },
    },
    async (req) => listInbox(prisma, principalOf(req), req.query),
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
};
