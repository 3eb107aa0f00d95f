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
}

export function tallyOf(sorted: NumberSorter): NumberTally {
  return {
    total: sorted.total,
    invalid: sorted.invalid,
    duplicate: sorted.duplicate,
    distinct: sorted.phones.length,
    perCountry: sorted.countByCountry(),
  };
}
