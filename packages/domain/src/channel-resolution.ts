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
import { activeProductOfCustomer, type KnownCustomerProduct } from "./customer-product";

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

/**
 * Whether a product can carry a customer's messages at all, before any number is known: it can when one of the
 * channels it would use (the customer's routes for it, else the product's default) is active. None at all, or
 * only paused ones: nothing would be sent (a batch would wait on a paused channel, then fail and be refunded),
 * so the customer is told before submitting. Per-country reasons stay with resolveChannels.
 */
export type ProductSendability = { ok: true } | { ok: false; reason: "no_channel" | "channel_paused" };

/** The same failures' message keys, for answers. */
export const PRODUCT_UNSENDABLE_MESSAGE: Record<"no_channel" | "channel_paused", MessageKey> = {
  no_channel: "batch.product_no_channel",
  channel_paused: "batch.product_channels_paused",
};

/** For several products of the customer's tenant at once (two queries). */
export async function productSendability(
  db: Db,
  customerId: number,
  products: ReadonlyArray<{ id: number; tenantId: number; defaultChannelId: number | null }>,
): Promise<Map<number, ProductSendability>> {
  const result = new Map<number, ProductSendability>();
  if (products.length === 0) return result;
  const routes = await db.channelRoute.findMany({
    where: { userId: customerId, productId: { in: products.map((p) => p.id) } },
    select: { productId: true, channelId: true },
  });
  const candidates = new Map<number, Set<number>>(products.map((p) => [p.id, new Set<number>()]));
  for (const r of routes) candidates.get(r.productId)?.add(r.channelId);
  for (const p of products) if (p.defaultChannelId !== null) candidates.get(p.id)?.add(p.defaultChannelId);
  const ids = [...new Set([...candidates.values()].flatMap((s) => [...s]))];
  const channels =
    ids.length === 0
      ? []
      : await db.channel.findMany({ where: { id: { in: ids } }, select: { id: true, tenantId: true, status: true } });
  const channelOf = new Map(channels.map((c) => [c.id, c]));
  for (const p of products) {
    // a channel of another tenant (it should not happen) counts as none, as resolveChannels does
    const own = [...(candidates.get(p.id) ?? [])]
      .map((id) => channelOf.get(id))
      .filter((c) => c !== undefined && c.tenantId === p.tenantId);
    if (own.some((c) => c!.status === ActiveStatus.NORMAL)) result.set(p.id, { ok: true });
    else result.set(p.id, { ok: false, reason: own.length === 0 ? "no_channel" : "channel_paused" });
  }
  return result;
}
