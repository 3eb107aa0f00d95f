// What a batch costs and where each country's numbers go: the effective unit price (price-resolution.ts)
// times the chargeable units, and the channel (channel-resolution.ts), per country, in a constant number of
// queries. A country that cannot be priced or has no usable channel is "not served": its numbers are
// rejected (reason 3) and never charged. A paused channel is a pause, not a refusal: its numbers stay routed
// to it; the dispatch retries it and fails (and refunds) the batch if it stays paused (docs/dispatch.md).
import type { MessageKey } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { AppError } from "../../lib/errors";
import { PRICE_FAILURE_MESSAGE, type PriceResolution, resolveUnitPrices } from "../catalog/price-resolution";
import { CHANNEL_FAILURE_MESSAGE, type ChannelResolution, resolveChannels } from "../channels/channel-resolution";

export type CountryQuote =
  | { served: true; unitPrice: bigint; price: bigint; channelId: number }
  | { served: false; reason: MessageKey };

export interface BatchQuote {
  /** Per country of the batch's valid numbers. */
  countries: Map<string, CountryQuote>;
}

function countryQuote(price: PriceResolution, channel: ChannelResolution, units: number): CountryQuote {
  if (!price.ok) return { served: false, reason: PRICE_FAILURE_MESSAGE[price.reason] };
  if (channel.ok)
    return {
      served: true,
      unitPrice: price.unitPrice,
      price: price.unitPrice * BigInt(units),
      channelId: channel.channelId,
    };
  if (channel.reason === "channel_paused" && channel.channelId !== undefined)
    return {
      served: true,
      unitPrice: price.unitPrice,
      price: price.unitPrice * BigInt(units),
      channelId: channel.channelId,
    };
  return { served: false, reason: CHANNEL_FAILURE_MESSAGE[channel.reason] };
}

/**
 * Prices and routes every country of a batch. A failure of the product itself (missing, paused) refuses the
 * whole batch with its message; per-country failures are answered per country.
 */
export async function quoteBatch(
  db: Db,
  input: { customerId: number; productId: number; units: number; countryCodes: readonly string[] },
): Promise<BatchQuote> {
  const ask = { customerId: input.customerId, productId: input.productId, countryCodes: input.countryCodes };
  const [prices, channels] = await Promise.all([resolveUnitPrices(db, ask), resolveChannels(db, ask)]);
  const countries = new Map<string, CountryQuote>();
  for (const code of new Set(input.countryCodes)) {
    const price = prices.get(code)!;
    if (!price.ok && (price.reason === "product_paused" || price.reason === "product_not_found"))
      throw new AppError(409, PRICE_FAILURE_MESSAGE[price.reason]);
    countries.set(code, countryQuote(price, channels.get(code)!, input.units));
  }
  return { countries };
}
