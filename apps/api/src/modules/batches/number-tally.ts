// What the pre-submit check needs of sorted numbers: counts only, so a file's numbers can be sorted in a worker
// thread and only this crosses back (a million numbers never travel between threads).
import type { NumberSorter } from "./number-sorter";

export interface NumberTally {
  total: number;
  invalid: number;
  duplicate: number;
  /** Valid distinct numbers. */
  distinct: number;
  /** Valid distinct numbers per country. */
  perCountry: Map<string, number>;
  /**
   * When the count was asked for (WhatsApp free-form content): per country, per channel, the numbers with an open
   * 24-hour window on that channel (whatsapp-window.ts).
   */
  openPerCountry?: Map<string, Map<number, number>>;
}

/** `open`: numbers with an open window and the channels it is open on, when the content needs one. */
export function tallyOf(sorted: NumberSorter, open?: ReadonlyMap<string, ReadonlySet<number>>): NumberTally {
  const tally: NumberTally = {
    total: sorted.total,
    invalid: sorted.invalid,
    duplicate: sorted.duplicate,
    distinct: sorted.phones.length,
    perCountry: sorted.countByCountry(),
  };
  if (open) {
    const perCountry = new Map<string, Map<number, number>>();
    sorted.phones.forEach((phone, i) => {
      const on = open.get(phone);
      if (!on) return;
      const country = sorted.countries[i] as string;
      const byChannel = perCountry.get(country) ?? new Map<number, number>();
      perCountry.set(country, byChannel);
      for (const channelId of on) byChannel.set(channelId, (byChannel.get(channelId) ?? 0) + 1);
    });
    tally.openPerCountry = perCountry;
  }
  return tally;
}
