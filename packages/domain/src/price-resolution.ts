// The one place that says what a message costs: the effective unit price of (customer, product, country).
//
//   1. the product must exist in the customer's tenant, be active (status 1) and serve the country
//      (its country scope);
//   2. the customer's own price (customer_prices) for the country, else
//   3. the tenant's default price (prices) for the country, else
//   4. no price: the country cannot be sent to.
//
// The batch issue prices every recipient with resolveUnitPrices (a constant number of queries for any number
// of countries). An agent's cost price is the same lookup with the agent as the "customer".
//
// Screening (task type 1) has a price of its own per number, in the same rows (screeningPrice): a user's row
// without one leaves the default's screening price in force. A WS template message is priced by its template's
// category (marketingPrice, utilityPrice, authenticationPrice: WhatsApp bills per category and country) the
// same way, and where neither row has that category's price, by the message price.
import { inCountryScope, type MessageKey, type PriceSource } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { activeProductOfCustomer, type KnownCustomerProduct } from "./customer-product";

export interface EffectivePrice {
  unitPrice: bigint;
  source: PriceSource;
}

export type PriceFailure =
  | "customer_not_found"
  | "product_not_found"
  | "product_paused"
  | "country_not_served"
  | "no_price";

/** A WS template message's category, as WhatsApp names it in lower case: what its price is looked up by. */
export const TEMPLATE_KINDS = ["marketing", "utility", "authentication"] as const;
export type TemplatePriceKind = (typeof TEMPLATE_KINDS)[number];

/** What is priced: a message (per segment for SMS), one number screened, or a WS template message by category. */
export type PriceKind = "message" | "screening" | TemplatePriceKind;

/** The price row's column of each kind but "message" (unitPrice). */
export const PRICE_COLUMN = {
  screening: "screeningPrice",
  marketing: "marketingPrice",
  utility: "utilityPrice",
  authentication: "authenticationPrice",
} as const satisfies Record<Exclude<PriceKind, "message">, string>;

const isTemplateKind = (kind: PriceKind): kind is TemplatePriceKind =>
  (TEMPLATE_KINDS as readonly string[]).includes(kind);

export type PriceResolution = ({ ok: true } & EffectivePrice) | { ok: false; reason: PriceFailure };

/** Message key of each failure, for answers and batch reasons. */
export const PRICE_FAILURE_MESSAGE: Record<PriceFailure, MessageKey> = {
  customer_not_found: "price.customer_not_found",
  product_not_found: "price.product_not_found",
  product_paused: "price.product_paused",
  country_not_served: "price.country_not_served",
  no_price: "price.no_price",
};

const priceSelect = {
  countryCode: true,
  unitPrice: true,
  screeningPrice: true,
  marketingPrice: true,
  utilityPrice: true,
  authenticationPrice: true,
} as const;
type PriceRow = { countryCode: string; unitPrice: bigint } & Record<
  (typeof PRICE_COLUMN)[keyof typeof PRICE_COLUMN],
  bigint | null
>;

/**
 * The user's own price, else the default, for each country that has either (countries with neither are absent).
 * userId null: defaults only. No status or scope checks: that is resolveUnitPrices' job. A template category
 * without a price of its own costs the message price, unless `exact` (what the price pages show as set).
 */
export async function effectivePrices(
  db: Db,
  userId: number | null,
  productId: number,
  countryCodes: readonly string[],
  kind: PriceKind = "message",
  exact = false,
): Promise<Map<string, EffectivePrice>> {
  const codes = [...new Set(countryCodes)];
  if (codes.length === 0) return new Map();
  const rows: Array<{ row: PriceRow; source: PriceSource }> = (
    await db.price.findMany({ where: { productId, countryCode: { in: codes } }, select: priceSelect })
  ).map((row) => ({ row, source: "default" }));
  if (userId !== null) {
    const own = await db.customerPrice.findMany({
      where: { productId, userId, countryCode: { in: codes } },
      select: priceSelect,
    });
    rows.push(...own.map((row) => ({ row, source: "customer" as const })));
  }
  // defaults first, then the user's own rows: the later (more specific) price wins
  const pick = (k: PriceKind) => {
    const found = new Map<string, EffectivePrice>();
    for (const { row, source } of rows) {
      const unitPrice = k === "message" ? row.unitPrice : row[PRICE_COLUMN[k]];
      if (unitPrice !== null) found.set(row.countryCode, { unitPrice, source });
    }
    return found;
  };
  const priced = pick(kind);
  if (!isTemplateKind(kind) || exact) return priced;
  for (const [code, message] of pick("message")) if (!priced.has(code)) priced.set(code, message);
  return priced;
}

function everyCountry(codes: readonly string[], resolution: PriceResolution): Map<string, PriceResolution> {
  return new Map(codes.map((c) => [c, resolution]));
}

/** The effective unit price of many countries at once: four queries whatever the number of countries. */
export async function resolveUnitPrices(
  db: Db,
  input: {
    customerId: number;
    productId: number;
    countryCodes: readonly string[];
    kind?: PriceKind | undefined;
  } & KnownCustomerProduct,
): Promise<Map<string, PriceResolution>> {
  const codes = [...new Set(input.countryCodes)];
  const found = input.known ?? (await activeProductOfCustomer(db, input.customerId, input.productId));
  if (!found.ok) return everyCountry(codes, { ok: false, reason: found.reason });
  const { product } = found.value;

  const served = new Set(codes.filter((c) => inCountryScope(product.countryScope, product.countryCodes, c)));
  const prices = await effectivePrices(db, input.customerId, input.productId, [...served], input.kind);
  const result = new Map<string, PriceResolution>();
  for (const code of codes) {
    const price = prices.get(code);
    if (!served.has(code)) result.set(code, { ok: false, reason: "country_not_served" });
    else if (!price) result.set(code, { ok: false, reason: "no_price" });
    else result.set(code, { ok: true, ...price });
  }
  return result;
}

/** The effective unit price of one (customer, product, country). */
export async function resolveUnitPrice(
  db: Db,
  input: { customerId: number; productId: number; countryCode: string },
): Promise<PriceResolution> {
  const all = await resolveUnitPrices(db, { ...input, countryCodes: [input.countryCode] });
  return all.get(input.countryCode)!;
}
