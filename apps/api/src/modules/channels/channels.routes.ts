// Channels, routing, data transfer and statistics: the admin's "channel and product" area (admin only, as the
// spec says; a super admin acts inside the tenant named by the tenant-id header). docs/catalog-and-routing.md.

import { channelSecretKey, createEgressPolicy } from "@switchboard/channels";
import {
  channelCreateBody,
  channelDefaultBody,
  channelEditBody,
  channelIdBody,
  channelIdQuery,
  channelItem,
  channelList,
  channelListQuery,
  channelRouteBody,
  channelRouteList,
  channelRouteListQuery,
  channelRouteResult,
  channelStats,
  channelStatsQuery,
  channelStatusBody,
  channelTestResult,
  channelTransferBody,
  channelTransferResult,
  templateSyncResult,
  UserType,
  whatsappTemplateRow,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { principalOf } from "../../plugins/auth";
import {
  type ChannelDeps,
  channelDetail,
  createChannel,
  editChannel,
  listChannels,
  setChannelStatus,
  setDefaultChannel,
  testChannel,
} from "./channels.service";
import { listRoutes, setRoute, transferRoutes } from "./routing.service";
import { channelStats as loadChannelStats } from "./stats.service";
import { channelTemplates, syncTemplates } from "./whatsapp-templates.service";

export const channelRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma, config } = app.deps;
  const deps: ChannelDeps = {
    prisma,
    secretKey: channelSecretKey(config.CHANNEL_SECRET_KEY),
    egress: createEgressPolicy(config.EGRESS_ALLOW),
  };
  const security = [{ bearer: [] }];
  const preHandler = [app.authenticate, app.requireRoles(UserType.ADMIN, UserType.SUPER_ADMIN)];
  const tags = ["channel"];

  app.post(
    "/channel/create",
    {
      preHandler,
      schema: {
        tags,
        summary: "Create a channel (smpp, whatsapp, rcs or http); credentials are sealed and never returned",
        security,
        body: channelCreateBody,
        response: { 200: channelItem },
      },
    },
    async (req) => createChannel(deps, principalOf(req), req.body),
  );

  app.post(
    "/channel/edit",
    {
      preHandler,
      schema: {
        tags,
        summary: "Edit a channel; a credential left out keeps its stored value",
        security,
        body: channelEditBody,
        response: { 200: channelItem },
      },
    },
    async (req) => editChannel(deps, principalOf(req), req.body),
  );

  app.get(
    "/channel/list",
    {
      preHandler,
      schema: {
        tags,
        summary: "Channels of the tenant",
        security,
        querystring: channelListQuery,
        response: { 200: channelList },
      },
    },
    async (req) => listChannels(deps, principalOf(req), req.query),
  );

  app.get(
    "/channel/detail",
    {
      preHandler,
      schema: { tags, summary: "One channel", security, querystring: channelIdQuery, response: { 200: channelItem } },
    },
    async (req) => channelDetail(deps, principalOf(req), req.query.id),
  );

  app.post(
    "/channel/status",
    {
      preHandler,
      schema: {
        tags,
        summary: "Enable (1) or pause (2) a channel",
        security,
        body: channelStatusBody,
        response: { 200: channelItem },
      },
    },
    async (req) => setChannelStatus(deps, principalOf(req), req.body),
  );

  app.post(
    "/channel/default",
    {
      preHandler,
      schema: {
        tags,
        summary: "Make a channel its product's default (the channel must carry the product's code)",
        security,
        body: channelDefaultBody,
        response: { 200: channelItem },
      },
    },
    async (req) => setDefaultChannel(deps, principalOf(req), req.body),
  );

  app.post(
    "/channel/test",
    {
      preHandler,
      schema: {
        tags,
        summary: "Test connection: bind (SMPP) or authenticate (WhatsApp, RCS, HTTP) and report the outcome",
        security,
        body: channelIdBody,
        response: { 200: channelTestResult },
      },
    },
    async (req) => testChannel(deps, principalOf(req), req.body.id),
  );

  app.post(
    "/channel/whatsapp/templates/sync",
    {
      preHandler,
      schema: {
        tags,
        summary:
          "Sync a WhatsApp channel's message templates from its business account (GET /{waba-id}/message_templates): " +
          "the channel's set is replaced by what WhatsApp lists now",
        security,
        body: channelIdBody,
        response: { 200: templateSyncResult },
      },
    },
    async (req) => syncTemplates(deps, principalOf(req), req.body.id),
  );

  app.get(
    "/channel/whatsapp/templates",
    {
      preHandler,
      schema: {
        tags,
        summary: "A WhatsApp channel's synced templates, every status, with what each asks of a message",
        security,
        querystring: channelIdQuery,
        response: { 200: z.array(whatsappTemplateRow) },
      },
    },
    async (req) => channelTemplates(deps.prisma, principalOf(req), req.query.id),
  );

  app.post(
    "/channel/route",
    {
      preHandler,
      schema: {
        tags,
        summary: "Set (action 1) or clear (2) a customer's channel for a product, for all or listed countries",
        security,
        body: channelRouteBody,
        response: { 200: channelRouteResult },
      },
    },
    async (req) => setRoute(prisma, principalOf(req), req.body),
  );

  app.get(
    "/channel/route/list",
    {
      preHandler,
      schema: {
        tags,
        summary: "Customer routes, by customer, channel or product",
        security,
        querystring: channelRouteListQuery,
        response: { 200: channelRouteList },
      },
    },
    async (req) => listRoutes(prisma, principalOf(req), req.query),
  );

  app.post(
    "/channel/transfer",
    {
      preHandler,
      schema: {
        tags,
        summary: "API data transfer: move every customer route of one channel to another, in one transaction",
        security,
        body: channelTransferBody,
        response: { 200: channelTransferResult },
      },
    },
    async (req) => transferRoutes(prisma, principalOf(req), req.body),
  );

  app.get(
    "/channel/stats",
    {
      preHandler,
      schema: {
        tags,
        summary: "Per-channel and daily sent, success, failed, delivered and cost over a time range",
        security,
        querystring: channelStatsQuery,
        response: { 200: channelStats },
      },
    },
    async (req) => loadChannelStats(prisma, principalOf(req), req.query),
  );
};
