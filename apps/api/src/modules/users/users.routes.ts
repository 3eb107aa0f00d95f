// The /user account-management calls of spec section 7 (who may call each: docs/permissions.md).
import {
  loginLogList,
  loginLogQuery,
  tenantCreateBody,
  tenantCreateResult,
  tenantList,
  UserType,
  userCreateBody,
  userEditBody,
  userIdBody,
  userList,
  userListQuery,
  userRow,
  userSearchQuery,
  userSearchResult,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { principalOf } from "../../plugins/auth";
import {
  createTenant,
  createUser,
  deleteUser,
  editUser,
  listLoginLogs,
  listTenants,
  listUsers,
  searchUsers,
} from "./users.service";

const { SUPER_ADMIN, ADMIN, AGENT } = UserType;
const security = [{ bearer: [] }];
const tags = ["user"];

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const staff = [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN, AGENT)];

  app.get(
    "/user/list",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary:
          "Accounts the caller manages (admin: its tenant; agent: its customers; super admin: all), newest first",
        querystring: userListQuery,
        response: { 200: userList },
      },
    },
    async (req) => listUsers(prisma, principalOf(req), req.query),
  );

  app.get(
    "/user/search",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Quick lookup for select boxes: at most 20 of the accounts the caller manages",
        querystring: userSearchQuery,
        response: { 200: userSearchResult },
      },
    },
    async (req) => searchUsers(prisma, principalOf(req), req.query),
  );

  app.get(
    "/user/tenant",
    {
      preHandler: app.authenticate,
      schema: {
        tags,
        security,
        summary: "Tenants: every tenant for a super admin, the caller's own for everybody else",
        response: { 200: tenantList },
      },
    },
    async (req) => listTenants(prisma, principalOf(req)),
  );

  app.post(
    "/user/tenant/create",
    {
      preHandler: [app.authenticate, app.requireRoles(SUPER_ADMIN)],
      schema: {
        tags,
        security,
        summary: "Create a tenant (with its settings and optionally its first admin); super admins only",
        body: tenantCreateBody,
        response: { 200: tenantCreateResult },
      },
    },
    async (req) => createTenant(prisma, principalOf(req), req.body),
  );

  app.post(
    "/user/create",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary:
          "Create an account: admins create admins, agents and customers of their tenant; agents create their own customers",
        body: userCreateBody,
        response: { 200: userRow },
      },
    },
    async (req) => createUser(prisma, principalOf(req), req.body),
  );

  app.post(
    "/user/edit",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Edit an account: contact fields, freeze/unfreeze, authentication requirement, owning agent",
        body: userEditBody,
        response: { 200: userRow },
      },
    },
    async (req) => {
      const row = await editUser(prisma, principalOf(req), req.body);
      app.sessions.forget(req.body.id); // a freeze ends the user's sessions here at once (elsewhere: the database tells)
      return row;
    },
  );

  app.post(
    "/user/delete",
    {
      preHandler: staff,
      schema: {
        tags,
        security,
        summary: "Soft-delete an account; refused while it has balance, running batches, customers or a website",
        body: userIdBody,
      },
    },
    async (req) => {
      await deleteUser(prisma, principalOf(req), req.body.id);
      app.sessions.forget(req.body.id);
      return null;
    },
  );

  app.get(
    "/user/login/log",
    {
      preHandler: [app.authenticate, app.requireRoles(SUPER_ADMIN, ADMIN)],
      schema: {
        tags,
        security,
        summary: "Sign-in attempts of the tenant (admins; super admins: all or the tenant-id header's tenant)",
        querystring: loginLogQuery,
        response: { 200: loginLogList },
      },
    },
    async (req) => listLoginLogs(prisma, principalOf(req), req.query),
  );
};
