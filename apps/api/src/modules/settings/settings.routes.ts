// System settings (admins of the tenant; super admins name the tenant), and the other system-settings calls:
// website configs (modules/website/website-admin.routes.ts) and SMS templates and records
// (modules/sms-templates), registered from here.
import { systemSetting, systemSettingBody, systemSettingQuery, UserType } from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import { smsTemplateRoutes } from "../sms-templates/sms-templates.routes";
import { websiteAdminRoutes } from "../website/website-admin.routes";
import { getSystemSetting, saveSystemSetting } from "./settings.service";

const { SUPER_ADMIN, ADMIN } = UserType;
const security = [{ bearer: [] }];
const tags = ["setting"];

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const admins = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN)];

  app.get(
    "/setting/system",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "The tenant's system settings: review rules, sensitive words, registration, mode",
        querystring: systemSettingQuery,
        response: { 200: systemSetting },
      },
    },
    async (req) => getSystemSetting(prisma, principalOf(req), req.query.tenantId),
  );

  app.post(
    "/setting/system",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Save the tenant's system settings (every field at once); new batches and registrations follow them",
        body: systemSettingBody,
        response: { 200: systemSetting },
      },
    },
    async (req) => saveSystemSetting(prisma, principalOf(req), req.body),
  );

  await app.register(websiteAdminRoutes);
  await app.register(smsTemplateRoutes);
};
