// What a batch costs and where each country's numbers go: the effective unit price (price-resolution.ts)
// times the chargeable units, and the channel (channel-resolution.ts), per country, in a constant number of
// queries. A country that cannot be priced or has no usable channel is "not served": its numbers are
// rejected (reason 3) and never charged. A paused channel is a pause, not a refusal: its numbers stay routed
// to it; the dispatch retries it and fails (and refunds) the batch if it stays paused (docs/dispatch.md).
import {
  ActiveStatus,
  type BatchContent,
  channelCanScreen,
  countSegmentsWithLinks,
  linkLengthOf,
  type MessageKey,
  ProductCode,
  TaskType,
} from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { CHANNEL_FAILURE_MESSAGE, type ChannelResolution, resolveChannels } from "../channel-resolution";
import { activeProductOfCustomer, type KnownCustomerProduct } from "../customer-product";
import { AppError } from "../errors";
import {
  PRICE_FAILURE_MESSAGE,
  type PriceFailure,
  type PriceResolution,
  resolveUnitPrices,
  TEMPLATE_KINDS,
  type TemplatePriceKind,
} from "../price-resolution";
import { templateCategories } from "./whatsapp-templates";

export type CountryQuote =
  | {
      served: true;
      unitPrice: bigint;
      /**
       * What is taken per number: the product's price, or for RCS with fallback text the larger of the RCS price
       * and the SMS fallback's, so that whichever channel carries it is paid for (docs/finance.md).
       */
      price: bigint;
      /** RCS with fallback text, where SMS serves the country: the RCS price and the SMS fallback's price. */
      primaryPrice: bigint | null;
      fallbackPrice: bigint | null;
      /** The SMS fallback's price per segment, when fallbackPrice is set (a personalised batch prices each row). */
      fallbackUnitPrice: bigint | null;
      channelId: number;
    }
  | { served: false; reason: MessageKey };

/** RCS content with fallback text: the tenant's SMS product and the fallback's segments (what it is priced as). */
export interface FallbackAsk {
  productId: number;
  units: number;
}

/** The SMS fallback a batch's content asks for, when it carries fallback text and the tenant sells SMS. */
export async function fallbackAsk(db: Db, tenantId: number, content: BatchContent): Promise<FallbackAsk | null> {
  if (content.product !== ProductCode.RCS || !content.fallbackText) return null;
  const sms = await db.product.findFirst({
    where: { tenantId, code: ProductCode.SMS, status: ActiveStatus.NORMAL },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  return sms
    ? { productId: sms.id, units: countSegmentsWithLinks(content.fallbackText, linkLengthOf(content)).segments }
    : null;
}

export interface BatchQuote {
  /** Per country of the batch's valid numbers. */
  countries: Map<string, CountryQuote>;
}

/** A paused channel still takes the numbers (see the top of this file); any other failure does not. */
function usableChannel(channel: ChannelResolution): number | null {
  if (channel.ok) return channel.channelId;
  if (channel.reason === "channel_paused" && channel.channelId !== undefined) return channel.channelId;
  return null;
}

/** A screening batch's country without a screening price says so (the message price may well exist). */
function priceFailure(reason: PriceFailure, screening: boolean): MessageKey {
  return screening && reason === "no_price" ? "batch.screening_no_price" : PRICE_FAILURE_MESSAGE[reason];
}

function countryQuote(
  price: PriceResolution,
  channel: ChannelResolution,
  units: number,
  fallback: { price: PriceResolution; channel: ChannelResolution; units: number } | null,
  screening: { canScreen: ReadonlySet<number> } | null,
): CountryQuote {
  const channelId = usableChannel(channel);
  // A channel that cannot check numbers is the first thing a screening customer needs to hear about.
  if (screening && channelId !== null && !screening.canScreen.has(channelId))
    return { served: false, reason: "batch.screening_channel_unsupported" };
  if (!price.ok) return { served: false, reason: priceFailure(price.reason, screening !== null) };
  if (channelId === null && !channel.ok) return { served: false, reason: CHANNEL_FAILURE_MESSAGE[channel.reason] };
  const fallbackUnitPrice =
    fallback?.price.ok && usableChannel(fallback.channel) !== null ? fallback.price.unitPrice : null;
  return {
    served: true,
    unitPrice: price.unitPrice,
    ...priceOf({ unitPrice: price.unitPrice, fallbackUnitPrice }, units, fallback?.units ?? 0),
    fallbackUnitPrice,
    channelId: channelId as number,
  };
}

/**
 * What one number is charged for `units` (SMS segments, else 1) and, with an SMS fallback, `fallbackUnits` (its
 * segments): the larger of the two prices (docs/finance.md). A personalised batch calls it per recipient.
 */
export function priceOf(
  q: { unitPrice: bigint; fallbackUnitPrice: bigint | null },
  units: number,
  fallbackUnits: number,
): { price: bigint; primaryPrice: bigint | null; fallbackPrice: bigint | null } {
  const primary = q.unitPrice * BigInt(units);
  const fallbackPrice = q.fallbackUnitPrice === null ? null : q.fallbackUnitPrice * BigInt(fallbackUnits);
  return {
    price: fallbackPrice !== null && fallbackPrice > primary ? fallbackPrice : primary,
    primaryPrice: fallbackPrice === null ? null : primary,
    fallbackPrice,
  };
}

/**
 * Prices and routes every country of a batch. A failure of the product itself (missing, paused) refuses the
 * whole batch with its message; per-country failures are answered per country.
 */
export async function quoteBatch(
  db: Db,
  input: {
    customerId: number;
    productId: number;
    units: number;
    countryCodes: readonly string[];
    /** RCS with fallback text: the SMS product its fallback goes by (fallbackAsk). */
    fallback?: FallbackAsk | null;
    /** Screening (1) is priced by the screening price and needs channels that can check numbers. */
    taskType?: number;
    /** A WS template message: priced by the template's category on the channel that carries it. */
    template?: { name: string; language: string } | null;
  },
): Promise<BatchQuote> {
  const screening = input.taskType === TaskType.SCREENING;
  const ask = {
    customerId: input.customerId,
    productId: input.productId,
    countryCodes: input.countryCodes,
    kind: screening ? ("screening" as const) : ("message" as const),
    // looked up once for the price and the channel resolution
    known: await activeProductOfCustomer(db, input.customerId, input.productId),
  };
  // Screening delivers nothing, so nothing falls back.
  const fallbackAsk =
    !screening && input.fallback
      ? { customerId: input.customerId, productId: input.fallback.productId, countryCodes: input.countryCodes }
      : null;
  const [prices, channels, fallbackPrices, fallbackChannels] = await Promise.all([
    resolveUnitPrices(db, ask),
    resolveChannels(db, ask),
    fallbackAsk ? resolveUnitPrices(db, fallbackAsk) : null,
    fallbackAsk ? resolveChannels(db, fallbackAsk) : null,
  ]);
  const canScreen = screening ? await screeningChannels(db, channels) : null;
  if (!screening && input.template) await priceByCategory(db, ask, input.template, channels, prices);
  const countries = new Map<string, CountryQuote>();
  for (const code of new Set(input.countryCodes)) {
    const price = prices.get(code)!;
    if (!price.ok && (price.reason === "product_paused" || price.reason === "product_not_found"))
      throw new AppError(409, PRICE_FAILURE_MESSAGE[price.reason]);
    const fallback =
      fallbackPrices && fallbackChannels && input.fallback
        ? { price: fallbackPrices.get(code)!, channel: fallbackChannels.get(code)!, units: input.fallback.units }
        : null;
    countries.set(code, countryQuote(price, channels.get(code)!, input.units, fallback, canScreen));
  }
  return { countries };
}

/**
 * WhatsApp bills a template message by its category: the countries whose channel has the template synced get
 * that category's price (price-resolution.ts: its own price, else the message price), replacing the message price.
 */
async function priceByCategory(
  db: Db,
  ask: { customerId: number; productId: number } & KnownCustomerProduct,
  template: { name: string; language: string },
  channels: Map<string, ChannelResolution>,
  prices: Map<string, PriceResolution>,
): Promise<void> {
  const ids = [...new Set([...channels.values()].map(usableChannel).filter((id) => id !== null))];
  const categories = await templateCategories(db, ids, template);
  const byKind = new Map<TemplatePriceKind, string[]>();
  for (const [code, channel] of channels) {
    const id = usableChannel(channel);
    const kind = id === null ? undefined : categories.get(id);
    if (!kind || !(TEMPLATE_KINDS as readonly string[]).includes(kind)) continue;
    byKind.set(kind as TemplatePriceKind, [...(byKind.get(kind as TemplatePriceKind) ?? []), code]);
  }
  for (const [kind, countryCodes] of byKind) {
    const priced = await resolveUnitPrices(db, { ...ask, countryCodes, kind });
    for (const [code, price] of priced) prices.set(code, price);
  }
}

/** Of the channels the countries resolved to, those that can screen numbers (one query). */
async function screeningChannels(
  db: Db,
  channels: Map<string, ChannelResolution>,
): Promise<{ canScreen: ReadonlySet<number> }> {
  const ids = [...new Set([...channels.values()].map(usableChannel).filter((id) => id !== null))];
  const rows =
    ids.length === 0
      ? []
      : await db.channel.findMany({ where: { id: { in: ids } }, select: { id: true, kind: true, config: true } });
  return { canScreen: new Set(rows.filter((c) => channelCanScreen(c.kind, c.config)).map((c) => c.id)) };
}
