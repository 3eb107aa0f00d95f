// Platform notices: customers read the published notices of their tenant; the tenant's admins manage them.
import {
  noticeCreateBody,
  noticeDeleteResult,
  noticeDetail,
  noticeEditBody,
  noticeIdBody,
  noticeIdQuery,
  noticeList,
  noticeListQuery,
  noticeManageList,
  noticeManageListQuery,
  noticeRow,
  UserType,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import {
  createNotice,
  deleteNotice,
  editNotice,
  listManaged,
  listPublished,
  publishedDetail,
  publishNotice,
  withdrawNotice,
} from "./notices.service";

const security = [{ bearer: [] }];
const tags = ["notice"];

export const noticeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const customer = [app.authenticate, app.requireRoles(UserType.USER)];
  // A super admin acts as the admin of every tenant (of one with the tenant-id header; writes need one).
  const admin = [app.authenticate, app.requireRoles(UserType.ADMIN, UserType.SUPER_ADMIN)];

  app.get(
    "/notice/list",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "Published notices of the caller's tenant, newest first (customers)",
        querystring: noticeListQuery,
        response: { 200: noticeList },
      },
    },
    async (req) => listPublished(prisma, principalOf(req), req.query),
  );

  app.get(
    "/notice/detail",
    {
      preHandler: customer,
      schema: {
        tags,
        security,
        summary: "One published notice of the caller's tenant (drafts answer like missing ones)",
        querystring: noticeIdQuery,
        response: { 200: noticeDetail },
      },
    },
    async (req) => publishedDetail(prisma, principalOf(req), req.query.id),
  );

  app.get(
    "/notice/manage/list",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Every notice of the tenant, drafts included (admins)",
        querystring: noticeManageListQuery,
        response: { 200: noticeManageList },
      },
    },
    async (req) => listManaged(prisma, principalOf(req), req.query),
  );

  app.post(
    "/notice/create",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Write a notice, as a draft or published at once (admins)",
        body: noticeCreateBody,
        response: { 200: noticeRow },
      },
    },
    async (req) => createNotice(prisma, principalOf(req), req.body, new Date()),
  );

  app.post(
    "/notice/edit",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Change the title and text of a notice; its status stays (admins)",
        body: noticeEditBody,
        response: { 200: noticeRow },
      },
    },
    async (req) => editNotice(prisma, principalOf(req), req.body),
  );

  app.post(
    "/notice/publish",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Publish a draft: the tenant's customers see it from now on (admins)",
        body: noticeIdBody,
        response: { 200: noticeRow },
      },
    },
    async (req) => publishNotice(prisma, principalOf(req), req.body.id, new Date()),
  );

  app.post(
    "/notice/withdraw",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Take a published notice back to a draft (admins)",
        body: noticeIdBody,
        response: { 200: noticeRow },
      },
    },
    async (req) => withdrawNotice(prisma, principalOf(req), req.body.id),
  );

  app.post(
    "/notice/delete",
    {
      preHandler: admin,
      schema: {
        tags,
        security,
        summary: "Delete a notice, draft or published (admins)",
        body: noticeIdBody,
        response: { 200: noticeDeleteResult },
      },
    },
    async (req) => deleteNotice(prisma, principalOf(req), req.body.id),
  );
};
