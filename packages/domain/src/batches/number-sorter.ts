// Sorts a batch's raw numbers into valid ones (E.164, distinct, with their country) and rejected ones
// (invalid, duplicate), one number at a time, so a file of a million numbers streams through it.
// Pure apart from memory: the pre-submit check, the synchronous modes and the file ingest all use it.
import { RejectReason } from "@switchboard/contracts";
import { normalizeNumber } from "@switchboard/numbers";
import type { RowFilling } from "./personalise";

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
  /**
   * A personalised batch (personalise.ts), parallel to phones: each recipient's values as recipients.vars JSON,
   * its chargeable units and its fallback text's segments. null otherwise (nothing is kept per number).
   */
  readonly personal: { varsJson: string[]; units: number[]; fallbackUnits: number[] } | null;
  /** Valid distinct numbers refused by the filling: a used cell empty (reason 6) or the text too long (7). */
  unfilled = 0;
  private readonly seen = new Map<string, number>();
  private readonly options: { domesticCountry?: string };

  constructor(
    reading: NumberReading,
    keepOutcomes = false,
    private readonly filling: RowFilling | null = null,
  ) {
    this.options = reading.domesticCountry ? { domesticCountry: reading.domesticCountry } : {};
    this.outcomes = keepOutcomes ? [] : null;
    this.personal = filling ? { varsJson: [], units: [], fallbackUnits: [] } : null;
  }

  /** `values`: a personalised batch's row cells of the used variables (number-file.ts). */
  add(raw: string, values?: readonly string[]): void {
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
    if (this.filling && this.personal) {
      // Its number is taken (a later row with it is a duplicate), its row is not: the first row of a number decides.
      const filled = this.filling.fill(values ?? []);
      if (!filled.ok) {
        this.unfilled += 1;
        this.reject(raw, filled.reason);
        this.outcomes?.push(-1);
        return;
      }
      this.personal.varsJson.push(filled.varsJson);
      this.personal.units.push(filled.units);
      this.personal.fallbackUnits.push(filled.fallbackUnits);
    }
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
