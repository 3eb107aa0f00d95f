// SMS templates and SMS records of the tenant (system settings: admins; super admins name the tenant).
import {
  smsRecordList,
  smsRecordListQuery,
  smsTemplateCreateBody,
  smsTemplateEditBody,
  smsTemplateIdBody,
  smsTemplateList,
  smsTemplateListQuery,
  smsTemplateRow,
  smsTemplateStatusBody,
  UserType,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import {
  createSmsTemplate,
  deleteSmsTemplate,
  editSmsTemplate,
  listSmsRecords,
  listSmsTemplates,
  setSmsTemplateStatus,
} from "./sms-templates.service";

const { SUPER_ADMIN, ADMIN } = UserType;
const security = [{ bearer: [] }];
const tags = ["setting"];

export const smsTemplateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const admins = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN)];

  app.get(
    "/setting/sms/template/list",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "SMS templates of the tenant, newest first",
        querystring: smsTemplateListQuery,
        response: { 200: smsTemplateList },
      },
    },
    async (req) => listSmsTemplates(prisma, principalOf(req), req.query),
  );

  app.post(
    "/setting/sms/template/create",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Create an SMS template: scene, name, content with the scene's {placeholders}",
        body: smsTemplateCreateBody,
        response: { 200: smsTemplateRow },
      },
    },
    async (req) => createSmsTemplate(prisma, principalOf(req), req.body),
  );

  app.post(
    "/setting/sms/template/edit",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Edit an SMS template's scene, name and content",
        body: smsTemplateEditBody,
        response: { 200: smsTemplateRow },
      },
    },
    async (req) => editSmsTemplate(prisma, principalOf(req), req.body),
  );

  app.post(
    "/setting/sms/template/status",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Enable (1) or pause (2) an SMS template",
        body: smsTemplateStatusBody,
        response: { 200: smsTemplateRow },
      },
    },
    async (req) => setSmsTemplateStatus(prisma, principalOf(req), req.body),
  );

  app.post(
    "/setting/sms/template/delete",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Delete an SMS template that has no records (one with records can be paused)",
        body: smsTemplateIdBody,
      },
    },
    async (req) => deleteSmsTemplate(prisma, principalOf(req), req.body),
  );

  app.get(
    "/setting/sms/record/list",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "SMS the platform sent for the tenant, newest first (phone numbers masked to the last 4 digits)",
        querystring: smsRecordListQuery,
        response: { 200: smsRecordList },
      },
    },
    async (req) => listSmsRecords(prisma, principalOf(req), req.query),
  );
};
