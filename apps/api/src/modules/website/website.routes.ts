import { websiteConfig } from "@switchboard/contracts";
import { linkSettings } from "@switchboard/domain/links";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { websiteConfigFor } from "./website.service";

export const websiteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, config } = app.deps;
  const { linkLength: shortLinkLength } = linkSettings(config);
  app.get(
    "/website/config",
    {
      schema: {
        tags: ["website"],
        summary: "Website config (title, logos, description) for the request's host",
        response: { 200: websiteConfig },
      },
    },
    async (req) => ({
      ...(await websiteConfigFor(prisma, req, config.PUBLIC_BASE_URL)),
      shortLinkLength,
    }),
  );
};
