// Sorts a batch's raw numbers into valid ones (E.164, distinct, with their country) and rejected ones
// (invalid, duplicate), one number at a time, so a file of a million numbers streams through it.
// Pure apart from memory: the pre-submit check, the synchronous modes and the file ingest all use it.
import { RejectReason } from "@switchboard/contracts";
import { normalizeNumber } from "@switchboard/numbers";

/** How numbers without "+" or "00" are read: as national numbers of this country, or as international. */
export interface NumberReading {
  domesticCountry: string | null;
}

/** The rejected_numbers.raw column holds at most this many characters of the input. */
export const REJECTED_RAW_MAX = 64;

export class NumberSorter {
  /** Valid distinct numbers in input order, and the country of each. */
  readonly phones: string[] = [];
  readonly countries: string[] = [];
  /** Rejected inputs (trimmed, cut to REJECTED_RAW_MAX) and why. */
  readonly rejectedRaw: string[] = [];
  readonly rejectedReason: RejectReason[] = [];
  total = 0;
  invalid = 0;
  duplicate = 0;
  /**
   * Per input, when kept (modes 1 and 2 answer per number): the index into phones, or -1 invalid, -2 duplicate
   * (with the first occurrence's index in duplicateOf).
   */
  readonly outcomes: number[] | null;
  private readonly seen = new Map<string, number>();
  private readonly options: { domesticCountry?: string };

  constructor(reading: NumberReading, keepOutcomes = false) {
    this.options = reading.domesticCountry ? { domesticCountry: reading.domesticCountry } : {};
    this.outcomes = keepOutcomes ? [] : null;
  }

  add(raw: string): void {
    this.total += 1;
    const r = normalizeNumber(raw, this.options);
    if (!r.ok) {
      this.invalid += 1;
      this.reject(raw, RejectReason.INVALID);
      this.outcomes?.push(-1);
      return;
    }
    const first = this.seen.get(r.e164);
    if (first !== undefined) {
      this.duplicate += 1;
      this.reject(raw, RejectReason.DUPLICATE);
      this.outcomes?.push(-2 - first);
      return;
    }
    this.seen.set(r.e164, this.phones.length);
    this.outcomes?.push(this.phones.length);
    this.phones.push(r.e164);
    this.countries.push(r.country);
  }

  /** Valid numbers per country. */
  countByCountry(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const c of this.countries) counts.set(c, (counts.get(c) ?? 0) + 1);
    return counts;
  }

  private reject(raw: string, reason: RejectReason) {
    this.rejectedRaw.push(raw.trim().slice(0, REJECTED_RAW_MAX));
    this.rejectedReason.push(reason);
  }
}

/** What an outcome code of NumberSorter.outcomes means: a valid number's index, invalid, or a duplicate. */
export function decodeOutcome(code: number): { kind: "valid" | "duplicate"; index: number } | { kind: "invalid" } {
  if (code >= 0) return { kind: "valid", index: code };
  if (code === -1) return { kind: "invalid" };
  return { kind: "duplicate", index: -2 - code };
}
