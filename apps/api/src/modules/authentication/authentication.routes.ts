// Identity authentication calls of spec section 7, and the seven-day exemption (who may call: docs/permissions.md).
import {
  AUTH_DOCUMENT_FIELD,
  AUTH_DOCUMENT_KINDS,
  AUTH_DOCUMENT_MAX_BYTES,
  AUTH_DOCUMENT_MAX_FILES,
  authenticationDocumentQuery,
  authenticationList,
  authenticationListQuery,
  authenticationPassBody,
  authenticationRejectBody,
  authenticationRow,
  sevenDayAuthenticateBody,
  sevenDayAuthenticateResult,
  UserType,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { notFound } from "../../lib/errors";
import { principalOf } from "../../plugins/auth";
import { CONTENT_TYPES, readUpload } from "../../plugins/uploads";
import {
  findDocument,
  grantSevenDays,
  listAuthentications,
  reviewAuthentication,
  saveAuthentication,
} from "./authentication.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["authentication"];

const documentUpload = {
  fileField: AUTH_DOCUMENT_FIELD,
  maxFiles: AUTH_DOCUMENT_MAX_FILES,
  maxFileBytes: AUTH_DOCUMENT_MAX_BYTES,
  kinds: AUTH_DOCUMENT_KINDS,
};

export const authenticationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const staff = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)];

  app.post(
    "/user/seven/day/authenticate",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Grant a customer a 7-day authentication exemption from now (admin: its tenant; agent: its customers)",
        body: sevenDayAuthenticateBody,
        response: { 200: sevenDayAuthenticateResult },
      },
    },
    async (req) => grantSevenDays(prisma, principalOf(req), req.body.userId, new Date()),
  );

  app.get(
    "/user/authentication/list",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Authentication submissions: admin its tenant's, agent its customers', customer its own",
        querystring: authenticationListQuery,
        response: { 200: authenticationList },
      },
    },
    async (req) => listAuthentications(prisma, principalOf(req), req.query),
  );

  app.post(
    "/user/authentication/save",
    {
      preHandler: [app.authenticate, app.requireRoles(USER)],
      schema: {
        tags,
        security,
        summary: "Submit identity authentication (customers; from status 0 not authenticated or 3 rejected)",
        description:
          "multipart/form-data with text fields subjectType (1 individual, 2 company), name (real or company " +
          "name), idNumber (ID or licence number), contactName, contactPhone, and 1 to 5 files in the field " +
          "`documents` (PNG, JPG or PDF by content, at most 5 MB each).",
        consumes: ["multipart/form-data"],
        response: { 200: authenticationRow },
      },
    },
    async (req) => {
      const form = await readUpload(req, documentUpload);
      return saveAuthentication({ prisma, storage: app.storage }, principalOf(req), form, req.log);
    },
  );

  app.post(
    "/user/authentication/pass",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Pass a waiting submission (status 1 -> 2; the customer becomes authenticated); once",
        body: authenticationPassBody,
        response: { 200: authenticationRow },
      },
    },
    async (req) => reviewAuthentication(prisma, principalOf(req), req.body.id, { pass: true }, new Date()),
  );

  app.post(
    "/user/authentication/reject",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Reject a waiting submission with a reason (status 1 -> 3; the customer may submit again); once",
        body: authenticationRejectBody,
        response: { 200: authenticationRow },
      },
    },
    async (req) =>
      reviewAuthentication(prisma, principalOf(req), req.body.id, { pass: false, reason: req.body.reason }, new Date()),
  );

  app.get(
    "/user/authentication/document",
    {
      preHandler: app.authenticate,
      // The file itself, not an envelope; errors still answer the JSON envelope.
      config: { envelope: false },
      schema: {
        tags,
        security,
        summary: "One document of a submission (0-based index), for its customer, the customer's agent and admins",
        querystring: authenticationDocumentQuery,
      },
    },
    async (req, reply) => {
      const doc = await findDocument(prisma, principalOf(req), req.query.id, req.query.index);
      const info = await app.storage.stat(doc.key);
      if (!info) throw notFound("entity.document");
      return reply
        .type(CONTENT_TYPES[doc.kind])
        .header("content-length", info.size)
        .header("content-disposition", `inline; filename="${doc.fileName}"`)
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .send(await app.storage.read(doc.key));
    },
  );
};
