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
// without one leaves the default's screening price in force.
import { inCountryScope, type MessageKey, type PriceSource } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { activeProductOfCustomer } from "./customer-product";

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

/** What is priced: a message (per segment for SMS) or one number screened. */
export type PriceKind = "message" | "screening";

export type PriceResolution = ({ ok: true } & EffectivePrice) | { ok: false; reason: PriceFailure };

/** Message key of each failure, for answers and batch reasons. */
export const PRICE_FAILURE_MESSAGE: Record<PriceFailure, MessageKey> = {
  customer_not_found: "price.customer_not_found",
  product_not_found: "price.product_not_found",
  product_paused: "price.product_paused",
  country_not_served: "price.country_not_served",
  no_price: "price.no_price",
};

/**
 * The user's own price, else the default, for each country that has either (countries with neither are absent).
 * userId null: defaults only. No status or scope checks: that is resolveUnitPrices' job.
 */
export async function effectivePrices(
  db: Db,
  userId: number | null,
  productId: number,
  countryCodes: readonly string[],
  kind: PriceKind = "message",
): Promise<Map<string, EffectivePrice>> {
  const codes = [...new Set(countryCodes)];
  const result = new Map<string, EffectivePrice>();
  if (codes.length === 0) return result;
  const select = { countryCode: true, unitPrice: true, screeningPrice: true } as const;
  const priceOf = (row: { unitPrice: bigint; screeningPrice: bigint | null }) =>
    kind === "message" ? row.unitPrice : row.screeningPrice;
  const defaults = await db.price.findMany({ where: { productId, countryCode: { in: codes } }, select });
  for (const d of defaults) {
    const unitPrice = priceOf(d);
    if (unitPrice !== null) result.set(d.countryCode, { unitPrice, source: "default" });
  }
  if (userId !== null) {
    const own = await db.customerPrice.findMany({ where: { productId, userId, countryCode: { in: codes } }, select });
    for (const o of own) {
      const unitPrice = priceOf(o);
      if (unitPrice !== null) result.set(o.countryCode, { unitPrice, source: "customer" });
    }
  }
  return result;
}

function everyCountry(codes: readonly string[], resolution: PriceResolution): Map<string, PriceResolution> {
  return new Map(codes.map((c) => [c, resolution]));
}

/** The effective unit price of many countries at once: four queries whatever the number of countries. */
export async function resolveUnitPrices(
  db: Db,
  input: { customerId: number; productId: number; countryCodes: readonly string[]; kind?: PriceKind },
): Promise<Map<string, PriceResolution>> {
  const codes = [...new Set(input.countryCodes)];
  const found = await activeProductOfCustomer(db, input.customerId, input.productId);
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
