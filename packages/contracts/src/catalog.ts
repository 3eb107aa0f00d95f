// Countries, products and prices: the admin's "product/list" page with its "product create" and "product
// category and country edit" modals, the price pages of admins and agents, and the customer's price list.
// Money travels as decimal strings with 4 decimals ("0.0450"); prices accept at most 4 decimals.
import { z } from "zod";
import { ActiveStatus, CountryScope, PriceAction, ProductCode } from "./codes";
import { codeIn, id, moneyAmount, paging, text } from "./common";
import { formatMoney, MAX_UNIT_PRICE_UNITS } from "./money";

/** A code given in a query string ("2"): one of the listed values. */
export const codeInQuery = codeIn;

/** ISO 3166-1 alpha-2, any case in, upper case out. Whether it exists is checked against the countries table. */
export const countryCode = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/);

/** A list of ISO codes (duplicates are dropped by the service). */
export const countryCodeList = () => z.array(countryCode()).max(300);

export const countryScopeCode = () => z.literal(Object.values(CountryScope));
export const productCodeValue = () => z.literal(Object.values(ProductCode));
export const activeStatusCode = () => z.literal(Object.values(ActiveStatus));

/**
 * Whether a country is inside a country scope (1 all, 2 only the listed, 3 all but the listed).
 * The one definition, shared by products, channels, the API and the web client.
 */
export function inCountryScope(scope: number, codes: readonly string[], country: string): boolean {
  if (scope === CountryScope.INCLUDE) return codes.includes(country);
  if (scope === CountryScope.EXCLUDE) return !codes.includes(country);
  return true;
}

/** Scope 2 and 3 need at least one country; reported on countryCodes so the message names the field. */
export function requireCodesForScope(
  v: { countryScope?: number | undefined; countryCodes?: string[] | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.countryScope !== undefined && v.countryScope !== CountryScope.ALL && (v.countryCodes ?? []).length === 0) {
    ctx.addIssue({ code: "custom", path: ["countryCodes"], params: { i18n: "catalog.country_codes_required" } });
  }
}

// ---------------------------------------------------------------- countries

export const countryListQuery = z.object({
  /** Matches the ISO code, the dial code (with or without "+") and the zh and en names. */
  keyword: text(50).optional(),
});
export type CountryListQuery = z.infer<typeof countryListQuery>;

export const countryItem = z.object({
  code: z.string(),
  dialCode: z.string(),
  /** In the request's language. */
  name: z.string(),
  nameEn: z.string(),
  nameZh: z.string(),
});
export type CountryItem = z.infer<typeof countryItem>;

/** Every country at once (about 240 rows of reference data): no paging. */
export const countryList = z.object({ list: z.array(countryItem), total: z.number().int() });

// ---------------------------------------------------------------- products

export const productListQuery = paging.extend({
  code: codeInQuery(Object.values(ProductCode)).optional(),
  /** Admins only; agents and customers always get active products. */
  status: codeInQuery(Object.values(ActiveStatus)).optional(),
  /** Matches name and category. */
  keyword: text(100).optional(),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

export const productItem = z.object({
  id: z.number().int(),
  code: z.number().int(),
  name: z.string(),
  category: z.string(),
  status: z.number().int(),
  countryScope: z.number().int(),
  countryCodes: z.array(z.string()),
  /** Admins only: the product's default channel. */
  defaultChannelId: z.number().int().nullable().optional(),
  defaultChannelName: z.string().nullable().optional(),
  /**
   * Customers only: whether an active channel carries this product for them (a route of theirs or the default),
   * and if not why, translated (no channel, or only paused ones); the task page says so before anything is paid.
   */
  sendable: z.boolean().optional(),
  unavailableReason: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductItem = z.infer<typeof productItem>;

export const productList = z.object({ list: z.array(productItem), total: z.number().int() });

export const productCreateBody = z
  .object({
    code: productCodeValue(),
    name: text(100, 1),
    category: text(100, 1),
    countryScope: countryScopeCode().default(CountryScope.ALL),
    countryCodes: countryCodeList().default([]),
  })
  .superRefine(requireCodesForScope);
export type ProductCreateBody = z.infer<typeof productCreateBody>;

export const productEditBody = z.object({
  id: id(),
  name: text(100, 1).optional(),
  category: text(100, 1).optional(),
});
export type ProductEditBody = z.infer<typeof productEditBody>;

export const productStatusBody = z.object({ id: id(), status: activeStatusCode() });
export type ProductStatusBody = z.infer<typeof productStatusBody>;

export const productCountriesBody = z
  .object({
    id: id(),
    countryScope: countryScopeCode(),
    countryCodes: countryCodeList().default([]),
  })
  .superRefine(requireCodesForScope);
export type ProductCountriesBody = z.infer<typeof productCountriesBody>;

// ---------------------------------------------------------------- prices

/**
 * A unit price (per message; per SMS segment): positive, at most 4 decimals, at most MAX_UNIT_PRICE_UNITS, so
 * the cost of any batch stays inside the money columns (docs/finance.md).
 */
export const unitPriceAmount = () =>
  moneyAmount(4).refine((units) => units <= MAX_UNIT_PRICE_UNITS, {
    params: { i18n: "validation.money_max", max: formatMoney(MAX_UNIT_PRICE_UNITS) },
  });

/** Which countries a price change touches: scope 1 every country the product serves, 2 the listed, 3 all but. */
const priceChange = {
  productId: id(),
  action: z.literal(Object.values(PriceAction)),
  countryScope: countryScopeCode(),
  countryCodes: countryCodeList().default([]),
  /** Action 1 (set) needs this or one of the prices below; ignored for action 2 (clear, which removes them all). */
  unitPrice: unitPriceAmount().optional(),
  /** Per number screened (task type 1); set alone, it changes countries that already have a price. */
  screeningPrice: unitPriceAmount().optional(),
  /**
   * WS products only: a template message of that category (WhatsApp bills marketing, utility and authentication
   * conversations apart); unset, the message price applies. Set alone, like screeningPrice.
   */
  marketingPrice: unitPriceAmount().optional(),
  utilityPrice: unitPriceAmount().optional(),
  authenticationPrice: unitPriceAmount().optional(),
};

/** The prices a row carries beside its message price, each optional. */
export const EXTRA_PRICES = ["screeningPrice", "marketingPrice", "utilityPrice", "authenticationPrice"] as const;
/** Of those, the WS template categories' (WhatsApp's MARKETING, UTILITY, AUTHENTICATION). */
export const CATEGORY_PRICES = ["marketingPrice", "utilityPrice", "authenticationPrice"] as const;
export type ExtraPrice = (typeof EXTRA_PRICES)[number];

function requireUnitPriceToSet(
  v: { action: number; unitPrice?: bigint | undefined } & Partial<Record<ExtraPrice, bigint | undefined>>,
  ctx: z.RefinementCtx,
) {
  if (v.action === PriceAction.SET && v.unitPrice === undefined && EXTRA_PRICES.every((k) => v[k] === undefined)) {
    ctx.addIssue({ code: "custom", path: ["unitPrice"], params: { i18n: "validation.required" } });
  }
}

export const defaultPriceSetBody = z
  .object(priceChange)
  .superRefine(requireCodesForScope)
  .superRefine(requireUnitPriceToSet);
export type DefaultPriceSetBody = z.infer<typeof defaultPriceSetBody>;

export const customerPriceSetBody = z
  .object({ userId: id(), ...priceChange })
  .superRefine(requireCodesForScope)
  .superRefine(requireUnitPriceToSet);
export type CustomerPriceSetBody = z.infer<typeof customerPriceSetBody>;

export const priceSetResult = z.object({
  action: z.number().int(),
  /** Countries whose price was set or cleared. */
  countries: z.number().int(),
});
export type PriceSetResult = z.infer<typeof priceSetResult>;

export const priceListQuery = paging.extend({
  productId: id(),
  /** A customer or (admins) an agent: that user's effective prices. Absent: admins see the tenant's default
   * prices, agents their own cost prices. */
  userId: id().optional(),
  /** Matches the country's code, dial code and names. */
  keyword: text(50).optional(),
});
export type PriceListQuery = z.infer<typeof priceListQuery>;

export const priceSource = z.enum(["customer", "default"]);
export type PriceSource = z.infer<typeof priceSource>;

export const priceItem = z.object({
  countryCode: z.string(),
  countryName: z.string(),
  dialCode: z.string(),
  /** The effective unit price, null when the country has none. */
  unitPrice: z.string().nullable(),
  /** The effective screening price per number (task type 1), null when the country cannot be screened. */
  screeningPrice: z.string().nullable(),
  /** WS: the price set for a template message of each category; null: the message price applies. */
  marketingPrice: z.string().nullable(),
  utilityPrice: z.string().nullable(),
  authenticationPrice: z.string().nullable(),
  /** "customer": the user's own price; "default": the tenant's default price. */
  source: priceSource.nullable(),
  /** When an agent looks at a customer's prices: the agent's own cost (the floor of what it may set). */
  costPrice: z.string().nullable().optional(),
});
export type PriceItem = z.infer<typeof priceItem>;

export const priceList = z.object({
  list: z.array(priceItem),
  total: z.number().int(),
  productId: z.number().int(),
  userId: z.number().int().nullable(),
  /** The username of userId (the screens name whose prices these are); null with the tenant's defaults. */
  user: z.string().nullable(),
  currency: z.string(),
});
export type PriceList = z.infer<typeof priceList>;

export const userProductPriceQuery = paging.extend({
  /** Agents and admins: one of their customers (or, for admins, an agent). Customers see their own. */
  userId: id().optional(),
  productId: id().optional(),
  productCode: codeInQuery(Object.values(ProductCode)).optional(),
  keyword: text(50).optional(),
});
export type UserProductPriceQuery = z.infer<typeof userProductPriceQuery>;

/** GET /v1/prices: the key's customer's own effective prices. */
export const v1PriceQuery = userProductPriceQuery.omit({ userId: true }).strict();
export type V1PriceQuery = z.infer<typeof v1PriceQuery>;

export const userProductPriceItem = z.object({
  productId: z.number().int(),
  productCode: z.number().int(),
  productName: z.string(),
  countryCode: z.string(),
  countryName: z.string(),
  dialCode: z.string(),
  /** Per message; per segment for SMS. */
  unitPrice: z.string(),
  /** WS products: what a template message of each category costs (its own price, else the message price). */
  marketingPrice: z.string().optional(),
  utilityPrice: z.string().optional(),
  authenticationPrice: z.string().optional(),
  source: priceSource,
  currency: z.string(),
});
export type UserProductPriceItem = z.infer<typeof userProductPriceItem>;

export const userProductPriceList = z.object({
  list: z.array(userProductPriceItem),
  total: z.number().int(),
  currency: z.string(),
});
export type UserProductPriceList = z.infer<typeof userProductPriceList>;
