// Opt-out routes (docs/opt-outs.md): a customer manages its own list; staff the lists of the customers in their
// scope (naming the customer with userId); the developer API the key's customer's list.
import {
  OPT_OUT_IMPORT_MAX,
  optOutAddBody,
  optOutExportQuery,
  optOutImportResult,
  optOutList,
  optOutListQuery,
  optOutRemoveBody,
  optOutRow,
  UserType,
  v1OptOut,
  v1OptOutBody,
  v1OptOutList,
  v1OptOutQuery,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { principalOf } from "../../plugins/auth";
import { API_KEY_SECURITY, apiKeyAuth } from "../developer/api-key";
import { apiRateLimit } from "../developer/api-rate-limit";
import {
  addOptOut,
  addOptOutV1,
  exportOptOuts,
  importOptOuts,
  listOptOuts,
  listOptOutsV1,
  removeOptOut,
  removeOptOutV1,
} from "./opt-outs.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["opt-outs"];

/** An import's numbers: parsed from the CSV or TXT file by the client, one entry per line or cell. */
const importBody = z.object({
  numbers: z.array(z.string().trim().max(32)).min(1).max(OPT_OUT_IMPORT_MAX),
  userId: optOutAddBody.shape.userId,
});

export const optOutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, redis, config } = app.deps;
  const anyone = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT, USER)];

  app.get(
    "/opt-out/list",
    {
      preHandler: anyone,
      schema: {
        tags,
        security,
        summary: "Opt-out entries: a customer its own, staff those of the customers in their scope; newest first",
        querystring: optOutListQuery,
        response: { 200: optOutList },
      },
    },
    async (req) => listOptOuts(prisma, principalOf(req), req.query),
  );

  app.post(
    "/opt-out/add",
    {
      preHandler: anyone,
      schema: {
        tags,
        security,
        summary: "Add a number to a customer's opt-out list (staff name the customer with userId); once per number",
        body: optOutAddBody,
        response: { 200: optOutRow },
      },
    },
    async (req) => addOptOut(prisma, principalOf(req), req.body),
  );

  app.post(
    "/opt-out/import",
    {
      preHandler: anyone,
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        security,
        summary: `Import up to ${OPT_OUT_IMPORT_MAX.toLocaleString("en")} numbers (read from a CSV or TXT file) into an opt-out list`,
        body: importBody,
        response: { 200: optOutImportResult },
      },
    },
    async (req) => importOptOuts(prisma, principalOf(req), req.body),
  );

  app.post(
    "/opt-out/remove",
    {
      preHandler: anyone,
      schema: {
        tags,
        security,
        summary: "Remove an entry: later batches send to the number again",
        body: optOutRemoveBody,
        response: { 200: z.object({ id: z.number().int() }) },
      },
    },
    async (req) => removeOptOut(prisma, principalOf(req), req.body.id),
  );

  app.get(
    "/opt-out/export",
    {
      preHandler: anyone,
      schema: {
        tags,
        security,
        summary: "The whole list as CSV: phone, source (1 manual, 2 import, 3 keyword reply, 4 API), createdAt (UTC)",
        querystring: optOutExportQuery,
      },
    },
    async (req, reply) => {
      const csv = await exportOptOuts(prisma, principalOf(req), req.query.userId);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="opt-outs.csv"')
        .header("cache-control", "private, no-store")
        .send(csv);
    },
  );

  // ---------------------------------------------------------------- developer API

  const limit = { perSecond: config.DEVELOPER_API_RATE_PER_SECOND, burst: config.DEVELOPER_API_BURST };
  const rate = apiRateLimit(redis, config.REDIS_PREFIX, limit);
  const description =
    "Authenticate with `Authorization: Bearer sk_...` or `X-Api-Key: sk_...`; the /v1 rate limit applies. " +
    "Numbers on the list are refused at batch creation (counted as opted out, never charged).";

  app.get(
    "/v1/opt-outs",
    {
      preHandler: [apiKeyAuth(prisma, "read"), rate],
      schema: {
        tags: ["developer API"],
        security: API_KEY_SECURITY,
        summary: "The customer's opt-out list, newest first (filter: phone contains)",
        description,
        querystring: v1OptOutQuery,
        response: { 200: v1OptOutList },
      },
    },
    async (req) => listOptOutsV1(prisma, principalOf(req), req.query),
  );

  app.post(
    "/v1/opt-outs",
    {
      preHandler: [apiKeyAuth(prisma, "manage"), rate],
      schema: {
        tags: ["developer API"],
        security: API_KEY_SECURITY,
        summary: "Add a number to the customer's opt-out list (source 4); a number already there keeps its entry",
        description,
        body: v1OptOutBody,
        response: { 200: v1OptOut },
      },
    },
    async (req) => addOptOutV1(prisma, principalOf(req), req.body.phone),
  );

  app.post(
    "/v1/opt-outs/remove",
    {
      preHandler: [apiKeyAuth(prisma, "manage"), rate],
      schema: {
        tags: ["developer API"],
        security: API_KEY_SECURITY,
        summary: "Remove a number from the customer's opt-out list (404 when it is not on it)",
        description,
        body: v1OptOutBody,
        response: { 200: z.object({ phone: z.string() }) },
      },
    },
    async (req) => removeOptOutV1(prisma, principalOf(req), req.body.phone),
  );
};
