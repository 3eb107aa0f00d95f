// The one place that says which channel carries a customer's message: (customer, product, country) -> channel.
//
//   1. the product must exist in the customer's tenant, be active and serve the country;
//   2. the customer's route for that country, else its all-countries route ("*"), else the product's default
//      channel (source "default"); none of them: no channel;
//   3. the chosen channel must be active and serve the country. A paused or out-of-scope channel is reported,
//      NOT silently replaced by the next candidate: a route is the admin's explicit choice (a customer may be
//      routed away from the default on purpose), so sending elsewhere would break that choice unnoticed.
//
// resolveChannels answers many countries with a constant number of queries (the batch issue's bulk form).
import { ActiveStatus, inCountryScope, type MessageKey } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { activeProductOfCustomer, type KnownCustomerProduct } from "../catalog/customer-product";

export const ALL_COUNTRIES = "*";

export type ChannelSource = "route" | "default";

export type ChannelFailure =
  | "customer_not_found"
  | "product_not_found"
  | "product_paused"
  | "country_not_served"
  | "no_channel"
  | "channel_paused"
  | "channel_country_excluded";

export type ChannelResolution =
  | { ok: true; channelId: number; source: ChannelSource }
  /** channelId: the route's or default's channel when the failure is about that channel. */
  | { ok: false; reason: ChannelFailure; channelId?: number; source?: ChannelSource };

/** Message key of each failure, for answers and batch reasons. */
export const CHANNEL_FAILURE_MESSAGE: Record<ChannelFailure, MessageKey> = {
  customer_not_found: "channel.customer_not_found",
  product_not_found: "channel.product_not_found",
  product_paused: "channel.product_paused",
  country_not_served: "channel.country_not_served",
  no_channel: "channel.no_channel",
  channel_paused: "channel.channel_paused",
  channel_country_excluded: "channel.channel_country_excluded",
};

function everyCountry(codes: readonly string[], resolution: ChannelResolution): Map<string, ChannelResolution> {
  return new Map(codes.map((c) => [c, resolution]));
}

/** The channel of many countries at once: four queries whatever the number of countries. */
export async function resolveChannels(
  db: Db,
  input: { customerId: number; productId: number; countryCodes: readonly string[] } & KnownCustomerProduct,
): Promise<Map<string, ChannelResolution>> {
  const codes = [...new Set(input.countryCodes)];
  const found = input.known ?? (await activeProductOfCustomer(db, input.customerId, input.productId));
  if (!found.ok) return everyCountry(codes, { ok: false, reason: found.reason });
  const { tenantId, product } = found.value;

  const routes = await db.channelRoute.findMany({
    where: { userId: input.customerId, productId: input.productId },
    select: { countryCode: true, channelId: true },
  });
  const routeOf = new Map(routes.map((r) => [r.countryCode, r.channelId]));
  const channelIds = [
    ...new Set([...routeOf.values(), ...(product.defaultChannelId ? [product.defaultChannelId] : [])]),
  ];
  const channels = await db.channel.findMany({
    where: { id: { in: channelIds }, tenantId },
    select: { id: true, status: true, countryScope: true, countryCodes: true },
  });
  const channelOf = new Map(channels.map((c) => [c.id, c]));

  const result = new Map<string, ChannelResolution>();
  for (const code of codes) {
    if (!inCountryScope(product.countryScope, product.countryCodes, code)) {
      result.set(code, { ok: false, reason: "country_not_served" });
      continue;
    }
    const routed = routeOf.get(code) ?? routeOf.get(ALL_COUNTRIES);
    const source: ChannelSource = routed === undefined ? "default" : "route";
    const channel = channelOf.get(routed ?? product.defaultChannelId ?? -1);
    if (!channel) result.set(code, { ok: false, reason: "no_channel" });
    else if (channel.status !== ActiveStatus.NORMAL)
      result.set(code, { ok: false, reason: "channel_paused", channelId: channel.id, source });
    else if (!inCountryScope(channel.countryScope, channel.countryCodes, code))
      result.set(code, { ok: false, reason: "channel_country_excluded", channelId: channel.id, source });
    else result.set(code, { ok: true, channelId: channel.id, source });
  }
  return result;
}

/** The channel of one (customer, product, country). */
export async function resolveChannel(
  db: Db,
  input: { customerId: number; productId: number; countryCode: string },
): Promise<ChannelResolution> {
  const all = await resolveChannels(db, { ...input, countryCodes: [input.countryCode] });
  return all.get(input.countryCode)!;
}
