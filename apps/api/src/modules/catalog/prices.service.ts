// Prices: the tenant's default price per product and country (admin), per-user prices that override it
// (admin: any customer, or an agent = its cost price; agent: its own customers, never below its own cost),
// and the price lists of the admin/agent price pages and the customer's price-list modal.
import {
  ActiveStatus,
  CATEGORY_PRICES,
  CountryScope,
  type CustomerPriceSetBody,
  type DefaultPriceSetBody,
  EXTRA_PRICES,
  type ExtraPrice,
  formatMoney,
  inCountryScope,
  type Lang,
  PriceAction,
  type PriceItem,
  type PriceList,
  type PriceListQuery,
  type PriceSetResult,
  ProductCode,
  type UserProductPriceItem,
  type UserProductPriceQuery,
  UserType,
} from "@switchboard/contracts";
import type { Db, PrismaClient } from "@switchboard/db";
import {
  effectivePrices,
  PRICE_COLUMN,
  type PriceKind,
  TEMPLATE_KINDS,
  type TemplatePriceKind,
} from "@switchboard/domain/price-resolution";
import { badRequest, notFound } from "../../lib/errors";
import { pageArgs } from "../../lib/listing";
import { actingTenant, priceHoldersWhere, priceTargetsWhere } from "../../lib/scope";
import type { Principal } from "../../plugins/auth";
import { allCountries, countryCodesInScope, countryName, knownCountryCodes, matchesCountry } from "./countries.service";
import { findProduct, type ProductRow } from "./products.service";

export async function tenantCurrency(db: Db, tenantId: number): Promise<string> {
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { currency: true } });
  return tenant?.currency ?? "CNY";
}

/**
 * The countries a price change touches, always inside what the product serves:
 * scope 1 every served country, 2 the listed ones (each must be served), 3 every served country but the listed.
 */
async function priceCountries(
  db: Db,
  product: ProductRow,
  countryScope: number,
  countryCodes: readonly string[],
): Promise<string[]> {
  const served = await countryCodesInScope(db, product);
  if (countryScope === CountryScope.ALL) return served;
  const chosen = await knownCountryCodes(db, countryCodes);
  const servedSet = new Set(served);
  if (countryScope === CountryScope.INCLUDE) {
    const outside = chosen.filter((c) => !servedSet.has(c));
    if (outside.length > 0)
      throw badRequest("catalog.country_not_served", { product: product.name, codes: outside.join(", ") });
    return chosen;
  }
  const excluded = new Set(chosen);
  return served.filter((c) => !excluded.has(c));
}

export async function setDefaultPrices(prisma: PrismaClient, p: Principal, body: DefaultPriceSetBody) {
  actingTenant(p);
  const product = await findProduct(prisma, p, body.productId);
  const countries = await priceCountries(prisma, product, body.countryScope, body.countryCodes);
  if (body.action === PriceAction.CLEAR) {
    const { count } = await prisma.price.deleteMany({
      where: { productId: product.id, countryCode: { in: countries } },
    });
    return { action: body.action, countries: count } satisfies PriceSetResult;
  }
  const { unitPrice } = body;
  const extras = extraPrices(product, body);
  const where = { productId: product.id, countryCode: { in: countries } };
  await prisma.$transaction(async (tx) => {
    if (unitPrice === undefined) await assertPriced(tx.price, where, countries);
    // insert the missing rows, then set every targeted row: correct whatever already existed
    else
      await tx.price.createMany({
        data: countries.map((countryCode) => ({
          productId: product.id,
          countryCode,
          unitPrice,
          updatedById: p.userId,
        })),
        skipDuplicates: true,
      });
    await tx.price.updateMany({ where, data: { unitPrice, ...extras, updatedById: p.userId } });
  });
  return { action: body.action, countries: countries.length } satisfies PriceSetResult;
}

/**
 * An agent sells at or above its own cost: its effective price for the product in each country (its cost price
 * set by the admin, else the tenant's default). No cost at all means the agent cannot sell there.
 */
async function assertNotBelowCost(
  db: Db,
  agentId: number,
  productId: number,
  countries: string[],
  unitPrice: bigint,
  kind: PriceKind = "message",
) {
  const costs = await effectivePrices(db, agentId, productId, countries, kind);
  for (const country of countries) {
    const cost = costs.get(country);
    if (!cost) throw badRequest("price.no_cost", { country });
    if (unitPrice < cost.unitPrice)
      throw badRequest("price.below_cost", {
        country,
        price: formatMoney(unitPrice),
        floor: formatMoney(cost.unitPrice),
      });
  }
}

export async function setCustomerPrices(prisma: PrismaClient, p: Principal, body: CustomerPriceSetBody) {
  actingTenant(p);
  const target = await prisma.user.findFirst({
    where: { AND: [priceTargetsWhere(p), { id: body.userId }] },
    select: { id: true },
  });
  if (!target) throw notFound("entity.user");
  const product = await findProduct(prisma, p, body.productId);
  const countries = await priceCountries(prisma, product, body.countryScope, body.countryCodes);
  const where = { productId: product.id, userId: target.id, countryCode: { in: countries } };
  if (body.action === PriceAction.CLEAR) {
    const { count } = await prisma.customerPrice.deleteMany({ where });
    return { action: body.action, countries: count } satisfies PriceSetResult;
  }
  const { unitPrice } = body;
  const extras = extraPrices(product, body);
  if (p.type === UserType.AGENT) {
    if (unitPrice !== undefined) await assertNotBelowCost(prisma, p.userId, product.id, countries, unitPrice);
    for (const [field, price] of Object.entries(extras) as Array<[ExtraPrice, bigint]>)
      await assertNotBelowCost(prisma, p.userId, product.id, countries, price, KIND_OF[field]);
  }
  await prisma.$transaction(async (tx) => {
    if (unitPrice === undefined) await assertPriced(tx.customerPrice, where, countries);
    else
      await tx.customerPrice.createMany({
        data: countries.map((countryCode) => ({
          productId: product.id,
          userId: target.id,
          countryCode,
          unitPrice,
          updatedById: p.userId,
        })),
        skipDuplicates: true,
      });
    await tx.customerPrice.updateMany({ where, data: { unitPrice, ...extras, updatedById: p.userId } });
  });
  return { action: body.action, countries: countries.length } satisfies PriceSetResult;
}

const money = (v: bigint | undefined) => (v === undefined ? null : formatMoney(v));

/** Which price kind each extra price field sets (the inverse of PRICE_COLUMN). */
const KIND_OF = Object.fromEntries(Object.entries(PRICE_COLUMN).map(([kind, field]) => [field, kind])) as Record<
  ExtraPrice,
  Exclude<PriceKind, "message">
>;

/** The extra prices a change sets (those given); category prices only on a WS product. */
function extraPrices(
  product: ProductRow,
  body: Partial<Record<ExtraPrice, bigint | undefined>>,
): Partial<Record<ExtraPrice, bigint>> {
  const set: Partial<Record<ExtraPrice, bigint>> = {};
  for (const field of EXTRA_PRICES) {
    const price = body[field];
    if (price !== undefined) set[field] = price;
  }
  if (product.code !== ProductCode.WS && CATEGORY_PRICES.some((field) => field in set))
    throw badRequest("price.category_ws_only");
  return set;
}

/**
 * A screening price set on its own lands on rows that exist: a row needs its message price, so a country
 * without one is refused (naming it) rather than given a made-up message price.
 */
async function assertPriced(
  rows: { findMany(args: { where: object; select: { countryCode: true } }): Promise<Array<{ countryCode: string }>> },
  where: object,
  countries: string[],
) {
  const priced = new Set((await rows.findMany({ where, select: { countryCode: true } })).map((r) => r.countryCode));
  const missing = countries.find((c) => !priced.has(c));
  if (missing !== undefined) throw badRequest("price.screening_needs_price", { country: missing });
}

/**
 * A product's prices per served country. With userId: that user's effective prices (admins: any agent or
 * customer; agents: their customers, with the agent's own cost beside each). Without: admins get the tenant's
 * default prices, agents their own cost prices.
 */
export async function listPrices(db: Db, p: Principal, q: PriceListQuery, lang: Lang): Promise<PriceList> {
  const product = await findProduct(db, p, q.productId);
  let subject: { id: number; username: string } | null =
    p.type === UserType.AGENT ? { id: p.userId, username: p.username } : null;
  if (q.userId !== undefined) {
    const user = await db.user.findFirst({
      where: { AND: [priceHoldersWhere(p), { id: q.userId, tenantId: product.tenantId }] },
      select: { id: true, username: true },
    });
    if (!user) throw notFound("entity.user");
    subject = user;
  }
  const subjectId = subject?.id ?? null;
  const costOf = p.type === UserType.AGENT && subjectId !== p.userId ? p.userId : null;

  const countries = (await allCountries(db, lang)).filter(
    (c) => inCountryScope(product.countryScope, product.countryCodes, c.code) && matchesCountry(c, q.keyword),
  );
  const { skip, take } = pageArgs(q);
  const page = countries.slice(skip, skip + take);
  const codes = page.map((c) => c.code);
  const prices = await effectivePrices(db, subjectId, product.id, codes);
  const screening = await effectivePrices(db, subjectId, product.id, codes, "screening");
  const categories = new Map(
    product.code === ProductCode.WS
      ? await Promise.all(
          TEMPLATE_KINDS.map(
            async (k) => [k, await effectivePrices(db, subjectId, product.id, codes, k, true)] as const,
          ),
        )
      : [],
  );
  const categoryPrice = (k: TemplatePriceKind, code: string) => money(categories.get(k)?.get(code)?.unitPrice);
  const costs = costOf === null ? null : await effectivePrices(db, costOf, product.id, codes);

  const list = page.map((c): PriceItem => {
    const price = prices.get(c.code);
    return {
      countryCode: c.code,
      countryName: countryName(c, lang),
      dialCode: c.dialCode,
      unitPrice: money(price?.unitPrice),
      screeningPrice: money(screening.get(c.code)?.unitPrice),
      marketingPrice: categoryPrice("marketing", c.code),
      utilityPrice: categoryPrice("utility", c.code),
      authenticationPrice: categoryPrice("authentication", c.code),
      source: price?.source ?? null,
      ...(costs ? { costPrice: money(costs.get(c.code)?.unitPrice) } : {}),
    };
  });
  return {
    list,
    total: countries.length,
    productId: product.id,
    userId: subjectId,
    user: subject?.username ?? null,
    currency: await tenantCurrency(db, product.tenantId),
  };
}

/**
 * GET /user/product/price: what a customer pays, per active product and served country that has a price.
 * Customers see their own; agents their customers (or, without userId, their own cost); admins name the user.
 */
export async function userProductPrices(db: Db, p: Principal, q: UserProductPriceQuery, lang: Lang) {
  const isAdmin = p.type === UserType.ADMIN || p.type === UserType.SUPER_ADMIN;
  if (isAdmin && q.userId === undefined) throw badRequest("validation.required", { field: "userId" });
  const user = await db.user.findFirst({
    where: { AND: [priceHoldersWhere(p), { id: q.userId ?? p.userId }] },
    select: { id: true, tenantId: true },
  });
  if (!user?.tenantId) throw notFound("entity.user");

  const products = await db.product.findMany({
    where: {
      tenantId: user.tenantId,
      status: ActiveStatus.NORMAL,
      ...(q.productId ? { id: q.productId } : {}),
      ...(q.productCode ? { code: q.productCode } : {}),
    },
    select: { id: true, code: true, name: true, countryScope: true, countryCodes: true },
    orderBy: [{ code: "asc" }, { id: "asc" }],
  });
  const currency = await tenantCurrency(db, user.tenantId);
  const countries = (await allCountries(db, lang)).filter((c) => matchesCountry(c, q.keyword));

  const rows: UserProductPriceItem[] = [];
  for (const product of products) {
    const served = countries.filter((c) => inCountryScope(product.countryScope, product.countryCodes, c.code));
    const codes = served.map((c) => c.code);
    const prices = await effectivePrices(db, user.id, product.id, codes);
    const categories =
      product.code === ProductCode.WS
        ? await Promise.all(TEMPLATE_KINDS.map((k) => effectivePrices(db, user.id, product.id, codes, k)))
        : null;
    for (const c of served) {
      const price = prices.get(c.code);
      if (!price) continue;
      const byCategory = categories?.map((m) => formatMoney(m.get(c.code)?.unitPrice ?? price.unitPrice));
      rows.push({
        productId: product.id,
        productCode: product.code,
        productName: product.name,
        countryCode: c.code,
        countryName: countryName(c, lang),
        dialCode: c.dialCode,
        unitPrice: formatMoney(price.unitPrice),
        ...(byCategory
          ? { marketingPrice: byCategory[0], utilityPrice: byCategory[1], authenticationPrice: byCategory[2] }
          : {}),
        source: price.source,
        currency,
      });
    }
  }
  const { skip, take } = pageArgs(q);
  return { list: rows.slice(skip, skip + take), total: rows.length, currency };
}
