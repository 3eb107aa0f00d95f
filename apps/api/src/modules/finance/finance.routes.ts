// Finance calls: recharge and deduct, gifts, the balance log, consume records and remittances.
// Who may call each, and the reseller model behind them: docs/finance.md.
import {
  balanceChangeResult,
  balanceLogList,
  balanceLogQuery,
  consumeList,
  consumeListQuery,
  deductBody,
  giftSendBody,
  REMITTANCE_PROOF_FIELD,
  REMITTANCE_PROOF_KINDS,
  REMITTANCE_PROOF_MAX_BYTES,
  rechargeBody,
  rechargeListQuery,
  remitCreateFields,
  remitIdBody,
  remitIdQuery,
  remitListQuery,
  remitRejectBody,
  remittanceList,
  remittanceRow,
  UserType,
} from "@switchboard/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError, parseInput } from "../../lib/errors";
import { principalOf } from "../../plugins/auth";
import { readUpload, type UploadForm } from "../../plugins/uploads";
import { balanceLog, deduct, consumeList as listConsume, recharge, rechargeList, sendGift } from "./finance.service";
import {
  confirmRemittance,
  createRemittance,
  remittanceList as listRemittances,
  rejectRemittance,
  remittanceProof,
} from "./remittance.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["finance"];

const proofSpec = {
  fileField: REMITTANCE_PROOF_FIELD,
  maxFiles: 1,
  maxFileBytes: REMITTANCE_PROOF_MAX_BYTES,
  kinds: REMITTANCE_PROOF_KINDS,
};

/** The remittance form: multipart/form-data (fields + optional proof) or plain JSON without a proof. */
async function readRemitForm(req: FastifyRequest): Promise<UploadForm> {
  if (req.isMultipart()) return readUpload(req, proofSpec);
  if (req.body !== null && typeof req.body === "object")
    return { fields: req.body as Record<string, unknown>, files: [] };
  throw new AppError(400, "validation.required", { field: "body" });
}

export const financeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const remitDeps = { prisma, storage: app.storage };
  const signedIn = [app.authenticate];
  const staff = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)];
  const customer = [app.authenticate, app.requireRoles(USER)];

  app.post(
    "/finance/recharge",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary:
          "Recharge (add): admin credits an agent or customer of its tenant; agent credits its own customer " +
          "from its own balance",
        body: rechargeBody,
        response: { 200: balanceChangeResult },
      },
    },
    async (req) => recharge({ prisma }, principalOf(req), req.body),
  );

  app.post(
    "/finance/deduct",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary:
          "Deduct: same scope as recharge; 402 when the balance is short. An agent gets the amount back and may take " +
          "back only what it paid into the customer and the customer has not spent (409 beyond it)",
        body: deductBody,
        response: { 200: balanceChangeResult },
      },
    },
    async (req) => deduct({ prisma }, principalOf(req), req.body),
  );

  app.post(
    "/user/gift/send",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Gift free balance to a customer (logged as gift; an agent's gift comes out of its own balance)",
        body: giftSendBody,
        response: { 200: balanceChangeResult },
      },
    },
    async (req) => sendGift({ prisma }, principalOf(req), req.body),
  );

  app.get(
    "/finance/recharge/list",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "Recharge (add: recharge, gift, remittance credits) or deduct records, with the amount total",
        querystring: rechargeListQuery,
        response: { 200: balanceLogList },
      },
    },
    async (req) => rechargeList({ prisma }, principalOf(req), req.query),
  );

  app.get(
    "/finance/consume/list",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "Consume and refund records of message batches, with the amount total",
        querystring: consumeListQuery,
        response: { 200: consumeList },
      },
    },
    async (req) => listConsume({ prisma }, principalOf(req), req.query),
  );

  app.get(
    "/user/balance/log",
    {
      preHandler: signedIn,
      schema: {
        tags: ["user", ...tags],
        security,
        summary: "Balance log: customers their own, agents theirs and their customers', admins the tenant's",
        querystring: balanceLogQuery,
        response: { 200: balanceLogList },
      },
    },
    async (req) => balanceLog({ prisma }, principalOf(req), req.query),
  );

  app.post(
    "/finance/remit/create",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary:
          "Customer declares a bank transfer: multipart/form-data fields amount, payer, reference?, remark? and an " +
          "optional file `proof` (png/jpg/pdf, at most 5 MB), or the same fields as JSON without a proof",
        consumes: ["multipart/form-data", "application/json"],
        response: { 200: remittanceRow },
      },
    },
    async (req) => {
      const form = await readRemitForm(req);
      const fields = parseInput(remitCreateFields, form.fields);
      return createRemittance(remitDeps, principalOf(req), fields, form.files[0]);
    },
  );

  app.get(
    "/finance/remit/list",
    {
      preHandler: signedIn,
      schema: {
        tags,
        security,
        summary: "Remittances: customers their own, agents their customers', admins the tenant's",
        querystring: remitListQuery,
        response: { 200: remittanceList },
      },
    },
    async (req) => listRemittances(remitDeps, principalOf(req), req.query),
  );

  app.post(
    "/finance/remit/confirm",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary:
          "Confirm a pending remittance: credits the customer once (an agent's confirmation draws from its balance)",
        body: remitIdBody,
        response: { 200: remittanceRow },
      },
    },
    async (req) => confirmRemittance(remitDeps, principalOf(req), req.body.id),
  );

  app.post(
    "/finance/remit/reject",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Reject a pending remittance with a reason",
        body: remitRejectBody,
        response: { 200: remittanceRow },
      },
    },
    async (req) => rejectRemittance(remitDeps, principalOf(req), req.body),
  );

  app.get(
    "/finance/remit/proof",
    {
      preHandler: signedIn,
      config: { envelope: false },
      schema: {
        tags,
        security,
        summary: "The proof file of a remittance: to its customer, that customer's agent and admins only",
        querystring: remitIdQuery,
      },
    },
    async (req, reply) => {
      const proof = await remittanceProof(remitDeps, principalOf(req), req.query.id);
      return reply
        .type(proof.contentType)
        .header("content-disposition", `inline; filename="${proof.fileName}"`)
        .header("cache-control", "private, no-store")
        .header("x-content-type-options", "nosniff")
        .send(await app.storage.read(proof.key));
    },
  );
};
