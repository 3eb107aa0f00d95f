// Batch transitions made by people: review (pass, reject), cancel, a new send time, terminate; each moves a batch
// from one status to another (packages/contracts batches.ts, canTransition) with its refund and its job. The
// developer API cancels with the same service. Who may call each: docs/batches.md.
import {
  batchIdBody,
  batchRow,
  batchScheduleBody,
  reviewPassBody,
  reviewRejectBody,
  terminateBody,
  UserType,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requestLang } from "../../lib/lang";
import { principalOf } from "../../plugins/auth";
import { cancelBatch, passReview, rejectReview, rescheduleBatch, terminateBatch } from "./transitions.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["batches"];

export const batchTransitionRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = app.batchDeps;
  const customer = [app.authenticate, app.requireRoles(USER)];
  const staff = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)];

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
};
