// Website-config management (admins of the tenant; super admins for the tenant they name) and the public
// logo files. GET /website/config (website.routes.ts) reads the same rows by host.
import {
  UserType,
  WEBSITE_LOGO_FIELD,
  WEBSITE_LOGO_KINDS,
  WEBSITE_LOGO_MAX_BYTES,
  websiteConfigList,
  websiteConfigRow,
  websiteDeleteBody,
  websiteListQuery,
  websiteLogoFields,
  websiteLogoResult,
  websiteSaveBody,
} from "@switchboard/contracts";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, notFound, parseInput } from "../../lib/errors";
import { principalOf } from "../../plugins/auth";
import { CONTENT_TYPES, readUpload } from "../../plugins/uploads";
import {
  deleteWebsiteConfig,
  listWebsiteConfigs,
  logoFile,
  saveWebsiteConfig,
  storeLogo,
} from "./website-admin.service";

const { SUPER_ADMIN, ADMIN } = UserType;
const security = [{ bearer: [] }];
const tags = ["setting"];

const logoUpload = {
  fileField: WEBSITE_LOGO_FIELD,
  maxFiles: 1,
  maxFileBytes: WEBSITE_LOGO_MAX_BYTES,
  kinds: WEBSITE_LOGO_KINDS,
};

export const websiteAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, config } = app.deps;
  const admins = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN)];
  const base = (req: FastifyRequest) => config.PUBLIC_BASE_URL ?? `${req.protocol}://${req.host}`;

  app.get(
    "/setting/website/list",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary: "Website configs of the tenant (admins; super admins name the tenant)",
        querystring: websiteListQuery,
        response: { 200: websiteConfigList },
      },
    },
    async (req) => listWebsiteConfigs(prisma, principalOf(req), req.query.tenantId, base(req)),
  );

  app.post(
    "/setting/website/save",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary:
          "Create (no id) or replace a website config: host (unique; a tenant admin's new host resolves once a " +
          "super admin approved it, which a super admin's save does), title, description, logos, agent",
        body: websiteSaveBody,
        response: { 200: websiteConfigRow },
      },
    },
    async (req) => saveWebsiteConfig(prisma, principalOf(req), req.body, base(req), app.storage, req.log),
  );

  app.post(
    "/setting/website/delete",
    {
      preHandler: admins,
      schema: { tags, security, summary: "Delete a website config of the tenant", body: websiteDeleteBody },
    },
    async (req) => deleteWebsiteConfig(prisma, principalOf(req), req.body, app.storage, req.log),
  );

  app.post(
    "/setting/website/logo",
    {
      preHandler: admins,
      schema: {
        tags,
        security,
        summary:
          "Upload a logo (PNG or JPG by content, at most 2 MB); save its path in a config's logo or logoSmall " +
          "(an upload no config uses is removed after a day)",
        description: "multipart/form-data: the image in the field `file`; super admins add the text field tenantId.",
        consumes: ["multipart/form-data"],
        response: { 200: websiteLogoResult },
      },
    },
    async (req) => {
      const form = await readUpload(req, logoUpload);
      const fields = parseInput(websiteLogoFields, form.fields);
      const file = form.files[0];
      if (!file) throw new AppError(400, "validation.required", { field: WEBSITE_LOGO_FIELD });
      return storeLogo(prisma, principalOf(req), fields.tenantId, file, app.storage, base(req), req.log);
    },
  );

  app.get(
    "/website/logo/:tenantId/:name",
    {
      config: { envelope: false },
      schema: {
        tags: ["website"],
        summary: "An uploaded logo (public: logos show on the sign-in pages)",
        params: z.object({ tenantId: z.string().max(10), name: z.string().max(40) }),
      },
    },
    async (req, reply) => {
      const file = logoFile(req.params.tenantId, req.params.name);
      const info = await app.storage.stat(file.key);
      if (!info) throw notFound("entity.website_logo");
      return reply
        .type(CONTENT_TYPES[file.kind])
        .header("content-length", info.size)
        .header("cache-control", "public, max-age=86400, immutable")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'")
        .send(await app.storage.read(file.key));
    },
  );
};
