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

/** Numbers a sorter has room for before its arrays first grow. */
const INITIAL_ROOM = 8;

/**
 * Distinct E.164 numbers in the order added, held as their digits in a double (at most 15 digits: exact), with an
 * open-addressing index over them: 12 bytes a number at most instead of a string, a Map entry and an array slot
 * (~110 bytes). A million-number file held ~110 MB more of the ingesting process's heap before, and the heap grew
 * to twice that between collections (docs/benchmarks.md).
 */
class DistinctNumbers {
  size = 0;
  // Small to start with, doubled as numbers come: most sorters hold one number (a single send), and 26 KB of
  // zeroed typed arrays per request was ~3 % of the API's CPU under single sends (docs/benchmarks.md).
  private digits = new Float64Array(INITIAL_ROOM);
  /** Slots of index + 1 into digits (0: empty), at most half full. */
  private slots = new Int32Array(INITIAL_ROOM * 2);

  at(i: number): number {
    return this.digits[i] as number;
  }

  /** The index of `d` (added now when new), as -1 - index when it was there already. */
  add(d: number): number {
    let mask = this.slots.length - 1;
    let h = hashDigits(d) & mask;
    for (let slot = this.slots[h] as number; slot !== 0; slot = this.slots[h] as number) {
      if (this.digits[slot - 1] === d) return -slot;
      h = (h + 1) & mask;
    }
    const index = this.size++;
    if (index === this.digits.length) {
      const grown = new Float64Array(this.digits.length * 2);
      grown.set(this.digits);
      this.digits = grown;
    }
    this.digits[index] = d;
    this.slots[h] = index + 1;
    if (this.size * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      mask = this.slots.length - 1;
      for (let i = 0; i < this.size; i++) {
        let at = hashDigits(this.digits[i] as number) & mask;
        while (this.slots[at] !== 0) at = (at + 1) & mask;
        this.slots[at] = i + 1;
      }
    }
    return index;
  }
}

/** `array` with room for index `at` (doubled as needed). */
function roomFor<T extends Int32Array | Uint16Array>(array: T, at: number, make: (n: number) => T): T {
  if (at < array.length) return array;
  const grown = make(Math.max(array.length * 2, at + 1));
  grown.set(array);
  return grown;
}

/** A spread of a number's digits (up to 2^53) over 32 bits. */
function hashDigits(d: number): number {
  const lo = d % 0x100000000;
  const hi = (d - lo) / 0x100000000;
  let h = Math.imul(lo ^ Math.imul(hi, 0x27d4eb2d), 0x9e3779b1);
  h ^= h >>> 15;
  return h >>> 0;
}

export class NumberSorter {
  /**
   * Every distinct valid number met, in order (a personalised row that could not be filled takes its number too:
   * a later row with it is a duplicate); the valid ones are `valid` (their indexes into `numbers`), and each
   * number's country is countryOf (an index into countryCodes).
   */
  private readonly numbers = new DistinctNumbers();
  private valid = new Int32Array(INITIAL_ROOM);
  private validOf = new Int32Array(INITIAL_ROOM);
  private countryOf = new Uint16Array(INITIAL_ROOM);
  private readonly countryCodes: string[] = [];
  private readonly countryIds = new Map<string, number>();
  /** Valid distinct numbers so far (phone(i), country(i) for i < size). */
  size = 0;
  /** Rejected inputs (trimmed, cut to REJECTED_RAW_MAX) and why. */
  readonly rejectedRaw: string[] = [];
  readonly rejectedReason: RejectReason[] = [];
  total = 0;
  invalid = 0;
  duplicate = 0;
  /**
   * Per input, when kept (modes 1 and 2 answer per number): the index of its valid number (phone(i)), or -1
   * invalid, -2 duplicate (with the first occurrence's index in duplicateOf).
   */
  readonly outcomes: number[] | null;
  /**
   * A personalised batch (personalise.ts), parallel to the valid numbers: each recipient's values as recipients.vars
   * JSON, its chargeable units and its fallback text's segments. null otherwise (nothing is kept per number).
   */
  readonly personal: { varsJson: string[]; units: number[]; fallbackUnits: number[] } | null;
  /** Valid distinct numbers refused by the filling: a used cell empty (reason 6) or the text too long (7). */
  unfilled = 0;
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

  /** The i-th valid number (i < size), E.164. */
  phone(i: number): string {
    return `+${this.numbers.at(this.valid[i] as number)}`;
  }

  /** The i-th valid number's country (ISO 3166 alpha-2). */
  country(i: number): string {
    return this.countryCodes[this.countryOf[this.valid[i] as number] as number] as string;
  }

  /** Valid numbers [from, to), E.164: a string each, for the callers that want a list (short ones). */
  phoneList(from = 0, to = this.size): string[] {
    const list: string[] = [];
    for (let i = from; i < to; i++) list.push(this.phone(i));
    return list;
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
    const at = this.numbers.add(Number(r.e164.slice(1)));
    if (at < 0) {
      this.duplicate += 1;
      this.reject(raw, RejectReason.DUPLICATE);
      this.outcomes?.push(-2 - (this.validOf[-1 - at] as number));
      return;
    }
    this.validOf = roomFor(this.validOf, at, (n) => new Int32Array(n));
    if (this.filling && this.personal) {
      // Its number is taken (a later row with it is a duplicate), its row is not: the first row of a number decides.
      const filled = this.filling.fill(values ?? []);
      if (!filled.ok) {
        this.unfilled += 1;
        this.reject(raw, filled.reason);
        this.outcomes?.push(-1);
        // A later row with this number is a duplicate of a number not sent: its outcome names the next valid one,
        // as before (modes 1 and 2 are never personalised).
        this.validOf[at] = this.size;
        return;
      }
      this.personal.varsJson.push(filled.varsJson);
      this.personal.units.push(filled.units);
      this.personal.fallbackUnits.push(filled.fallbackUnits);
    }
    let country = this.countryIds.get(r.country);
    if (country === undefined) {
      country = this.countryCodes.push(r.country) - 1;
      this.countryIds.set(r.country, country);
    }
    this.countryOf = roomFor(this.countryOf, at, (n) => new Uint16Array(n));
    this.countryOf[at] = country;
    this.valid = roomFor(this.valid, this.size, (n) => new Int32Array(n));
    this.valid[this.size] = at;
    this.validOf[at] = this.size;
    this.outcomes?.push(this.size);
    this.size += 1;
  }

  /** Calls fn with every valid number (E.164), its country and its index, in order. */
  forEach(fn: (phone: string, country: string, i: number) => void): void {
    for (let i = 0; i < this.size; i++) fn(this.phone(i), this.country(i), i);
  }

  /** Valid numbers per country. */
  countByCountry(): Map<string, number> {
    const counts = new Map<string, number>();
    for (let i = 0; i < this.size; i++) {
      const c = this.country(i);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
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
