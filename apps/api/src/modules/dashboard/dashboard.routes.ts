// The dashboards: the customer's home and the back office's. Figures and their definitions:
// packages/contracts/src/dashboard.ts; how they are computed: dashboard.service.ts.
import { backendDashboard, customerDashboard, customerDashboardQuery, UserType } from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import { backendDashboard as loadBackend, customerDashboard as loadCustomer } from "./dashboard.service";

const { SUPER_ADMIN, ADMIN, AGENT, USER } = UserType;
const security = [{ bearer: [] }];
const tags = ["dashboard"];

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;

  app.get(
    "/dashboard/customer",
    {
      preHandler: [app.authenticate, app.requireRoles(USER)],
      schema: {
        tags,
        security,
        summary:
          "The customer's home: balance, authentication, today's and this month's sends with success and " +
          "delivery rates (read rate and SMS fallback share for RCS), and the last 30 days by product (days in " +
          "UTC); productCode: one product's figures only (the RCS portal's home)",
        querystring: customerDashboardQuery,
        response: { 200: customerDashboard },
      },
    },
    async (req) => loadCustomer(prisma, principalOf(req), new Date(), req.query.productCode),
  );

  app.get(
    "/dashboard/backend",
    {
      preHandler: [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)],
      schema: {
        tags,
        security,
        summary:
          "The back office's home: volume, rates and spend of the tenant (agent: its own customers), the top 10 " +
          "customers by this month's spend, review queue and sending batches per product, 30 days by product (UTC)",
        response: { 200: backendDashboard },
      },
    },
    async (req) => loadBackend(prisma, principalOf(req), new Date()),
  );
};
