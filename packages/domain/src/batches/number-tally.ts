// What the pre-submit check needs of sorted numbers: counts and the first few rejected inputs, so a file's numbers
// can be sorted in a worker thread and only this crosses back (a million numbers never travel between threads).
import { PRE_REJECTED_SAMPLE_MAX, type RejectReason } from "@switchboard/contracts";
import type { NumberSorter } from "./number-sorter";

export interface NumberTally {
  total: number;
  invalid: number;
  duplicate: number;
  /** Valid distinct numbers. */
  distinct: number;
  /** Valid distinct numbers per country. */
  perCountry: Map<string, number>;
  /** The first PRE_REJECTED_SAMPLE_MAX invalid or duplicate inputs (as sorted: trimmed, cut) and why. */
  rejected: Array<{ raw: string; reason: RejectReason }>;
  /**
   * When the count was asked for (WhatsApp free-form content): per country, per channel, the numbers with an open
   * 24-hour window on that channel (whatsapp-window.ts).
   */
  openPerCountry?: Map<string, Map<number, number>>;
  /** When asked: per country, the numbers on the customer's opt-out list (left out of openPerCountry). */
  optOutPerCountry?: Map<string, number>;
  /** A file's columns other than the number column (personalised campaigns' variables); none without a header. */
  columns: string[];
  /** A personalised batch: valid distinct numbers whose row could not be filled (reasons 6 and 7). */
  unfilled: number;
  /**
   * A personalised batch: per country, the numbers not on the opt-out list by their units and fallback units
   * (key `${units}:${fallbackUnits}`), so that each is priced as its own filled message is (quote.ts priceOf).
   */
  unitsPerCountry?: Map<string, Map<string, number>>;
}

/**
 * `open`: numbers with an open window and the channels it is open on, when the content needs one; `optedOut`: the
 * numbers on the customer's opt-out list (refused first, whatever their country or window).
 */
export function tallyOf(
  sorted: NumberSorter,
  open?: ReadonlyMap<string, ReadonlySet<number>>,
  optedOut?: ReadonlySet<string>,
  columns: string[] = [],
): NumberTally {
  const tally: NumberTally = {
    columns,
    unfilled: sorted.unfilled,
    total: sorted.total,
    invalid: sorted.invalid,
    duplicate: sorted.duplicate,
    distinct: sorted.size,
    perCountry: sorted.countByCountry(),
    rejected: sorted.rejectedRaw
      .slice(0, PRE_REJECTED_SAMPLE_MAX)
      .map((raw, i) => ({ raw, reason: sorted.rejectedReason[i] as RejectReason })),
  };
  if (optedOut) {
    const perCountry = new Map<string, number>();
    sorted.forEach((phone, country) => {
      if (!optedOut.has(phone)) return;
      perCountry.set(country, (perCountry.get(country) ?? 0) + 1);
    });
    tally.optOutPerCountry = perCountry;
  }
  const personal = sorted.personal;
  if (personal) {
    const perCountry = new Map<string, Map<string, number>>();
    sorted.forEach((phone, country, i) => {
      if (optedOut?.has(phone)) return;
      const byUnits = perCountry.get(country) ?? new Map<string, number>();
      perCountry.set(country, byUnits);
      const key = `${personal.units[i]}:${personal.fallbackUnits[i]}`;
      byUnits.set(key, (byUnits.get(key) ?? 0) + 1);
    });
    tally.unitsPerCountry = perCountry;
  }
  if (open) {
    const perCountry = new Map<string, Map<number, number>>();
    sorted.forEach((phone, country) => {
      if (optedOut?.has(phone)) return;
      const on = open.get(phone);
      if (!on) return;
      const byChannel = perCountry.get(country) ?? new Map<number, number>();
      perCountry.set(country, byChannel);
      for (const channelId of on) byChannel.set(channelId, (byChannel.get(channelId) ?? 0) + 1);
    });
    tally.openPerCountry = perCountry;
  }
  return tally;
}
