// Countries, products and prices (docs/catalog-and-routing.md).
import {
  countryList,
  countryListQuery,
  customerPriceSetBody,
  defaultPriceSetBody,
  priceList,
  priceListQuery,
  priceSetResult,
  productCountriesBody,
  productCreateBody,
  productEditBody,
  productItem,
  productList,
  productListQuery,
  productStatusBody,
  UserType,
  userProductPriceList,
  userProductPriceQuery,
} from "@switchboard/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requestLang } from "../../lib/lang";
import { principalOf } from "../../plugins/auth";
import { listCountries } from "./countries.service";
import { listPrices, setCustomerPrices, setDefaultPrices, userProductPrices } from "./prices.service";
import { createProduct, editProduct, listProducts, setProductCountries, setProductStatus } from "./products.service";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { prisma } = app.deps;
  const security = [{ bearer: [] }];
  const admin = [app.authenticate, app.requireRoles(UserType.ADMIN, UserType.SUPER_ADMIN)];
  const staff = [app.authenticate, app.requireRoles(UserType.ADMIN, UserType.SUPER_ADMIN, UserType.AGENT)];

  app.get(
    "/country/list",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["catalog"],
        summary: "Every ISO 3166 country with its dial code and zh/en names (name in the request's language)",
        security,
        querystring: countryListQuery,
        response: { 200: countryList },
      },
    },
    async (req) => listCountries(prisma, requestLang(req), req.query.keyword),
  );

  app.get(
    "/product/list",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["catalog"],
        summary:
          "Products: admins all of the tenant's, agents and customers the active ones (customers: whether a channel carries each)",
        security,
        querystring: productListQuery,
        response: { 200: productList },
      },
    },
    async (req) => listProducts(prisma, principalOf(req), req.query, requestLang(req)),
  );

  app.post(
    "/product/create",
    {
      preHandler: admin,
      schema: {
        tags: ["catalog"],
        summary: "Create a product (code 1000 RCS, 2000 WS, 3000 SMS) with a category and the countries it serves",
        security,
        body: productCreateBody,
        response: { 200: productItem },
      },
    },
    async (req) => createProduct(prisma, principalOf(req), req.body),
  );

  app.post(
    "/product/edit",
    {
      preHandler: admin,
      schema: {
        tags: ["catalog"],
        summary: "Rename a product or change its category",
        security,
        body: productEditBody,
        response: { 200: productItem },
      },
    },
    async (req) => editProduct(prisma, principalOf(req), req.body),
  );

  app.post(
    "/product/status",
    {
      preHandler: admin,
      schema: {
        tags: ["catalog"],
        summary: "Enable (1) or pause (2) a product",
        security,
        body: productStatusBody,
        response: { 200: productItem },
      },
    },
    async (req) => setProductStatus(prisma, principalOf(req), req.body),
  );

  app.post(
    "/product/countries",
    {
      preHandler: admin,
      schema: {
        tags: ["catalog"],
        summary: "The countries a product serves: scope 1 all, 2 only the listed, 3 all but the listed",
        security,
        body: productCountriesBody,
        response: { 200: productItem },
      },
    },
    async (req) => setProductCountries(prisma, principalOf(req), req.body),
  );

  app.post(
    "/price/default/set",
    {
      preHandler: admin,
      schema: {
        tags: ["price"],
        summary: "Set (action 1) or clear (2) the tenant's default price of a product in a country scope",
        security,
        body: defaultPriceSetBody,
        response: { 200: priceSetResult },
      },
    },
    async (req) => setDefaultPrices(prisma, principalOf(req), req.body),
  );

  app.post(
    "/price/customer/set",
    {
      preHandler: staff,
      schema: {
        tags: ["price"],
        summary:
          "Set (1) or clear (2) a user's own price: admins for any customer or agent (its cost price), " +
          "agents for their customers, never below their own cost",
        security,
        body: customerPriceSetBody,
        response: { 200: priceSetResult },
      },
    },
    async (req) => setCustomerPrices(prisma, principalOf(req), req.body),
  );

  app.get(
    "/price/list",
    {
      preHandler: staff,
      schema: {
        tags: ["price"],
        summary: "A product's prices per country: defaults, an agent's cost, or a user's effective prices",
        security,
        querystring: priceListQuery,
        response: { 200: priceList },
      },
    },
    async (req) => listPrices(prisma, principalOf(req), req.query, requestLang(req)),
  );

  app.get(
    "/user/product/price",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["price"],
        summary: "A customer's effective price list by product and country (the price-list modal)",
        security,
        querystring: userProductPriceQuery,
        response: { 200: userProductPriceList },
      },
    },
    async (req) => userProductPrices(prisma, principalOf(req), req.query, requestLang(req)),
  );
};
