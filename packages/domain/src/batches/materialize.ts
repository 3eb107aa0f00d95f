// Materialising a batch: the ONE function that turns sorted numbers into a charged batch, used by the
// synchronous modes (1 and 2: the batch row is created here) and the file ingest (mode 3: the row exists in
// status 11 while its file is read). In one transaction:
//   recipients priced per country (unit price x chargeable units) and routed, written in bulk with COPY on the
//   transaction's connection (prisma/src/copy.ts; COPY_CHUNK rows a statement; a personalised batch's rows each
//   with their own values, segments and price: personalise.ts); rejected numbers (invalid, duplicate,
//   country not served) beside them; the counts, cost and status on the batch (11 when review is needed,
//   else 12 -> 20 at once); the whole cost taken from the balance as one consume row pointing to the batch.
// A short balance (402) rolls everything back. The caller enqueues dispatch after the commit.
//
// A file is read while it is written: the transaction opens first, and every COPY_CHUNK valid numbers sorted are
// written while the reader goes on (reading and sorting a million numbers takes about as long as writing
// them, so doing one after the other cost half the ingest speed). Countries are priced as they first appear.
import {
  BATCH_FILE_MAX_NUMBERS,
  BalanceLogType,
  type BatchContent,
  BatchStatus,
  canTransition,
  contentText,
  MAX_BALANCE_UNITS,
  type MessageKey,
  RejectReason,
} from "@switchboard/contracts";
import { copyInto, copyText, Prisma, type PrismaClient } from "@switchboard/db";
import { badRequest } from "../errors";
import { applyBalanceChange, LEDGER_TX_OPTIONS, unaffordable } from "../ledger";
import { type Customer, senderIdOf, type TenantRules } from "./context";
import type { NumberSorter } from "./number-sorter";
import { optedOutAll, optedOutAmong } from "./opt-out-usage";
import { type BatchQuote, type CountryQuote, type FallbackAsk, fallbackAsk, priceOf, quoteBatch } from "./quote";
import { reviewReasons } from "./review";
import { assertSenderIdApproved } from "./sender-id-usage";
import { assertTemplateFits, templateOf } from "./whatsapp-templates";
import { needsOpenWindow, openWindows } from "./whatsapp-window";

/** Rows per INSERT statement (rejected numbers; the API's groups of single sends take at most this many). */
export const INSERT_CHUNK = 10_000;

/**
 * Recipients per COPY: a statement's start and end cost a round trip and leave the server idle while the next
 * is sent, so larger is faster (1M numbers: 10,000 a COPY gave 0.72 of a server-side COPY's speed, 50,000 0.76,
 * 100,000 no more) and holds more in memory (50,000 rows are ~2.5 MB of text).
 */
const COPY_CHUNK = 50_000;

export interface BatchSpec {
  productId: number;
  productCode: number;
  taskType: number;
  submitMode: number;
  source: number;
  content: BatchContent;
  /** Chargeable units per number (SMS segments; 1 for WS, RCS and screening). */
  units: number;
  scheduledAt: Date | null;
  idempotencyKey: string | null;
}

export type MaterializeTarget =
  /** Modes 1 and 2: the batch row is created in the transaction. */
  | { kind: "create"; spec: BatchSpec }
  /** Mode 3: the pending row (status 11, file not yet read) receives the numbers. */
  | { kind: "ingest"; batchId: bigint; spec: BatchSpec };

export interface MaterializeInput {
  /** The balance is not read from here: the charge's conditional update decides. */
  customer: Omit<Customer, "balance">;
  rules: TenantRules;
  target: MaterializeTarget;
  sorted: NumberSorter;
  /**
   * Mode 3: reads the file into `sorted`, calling `added` after each number, while what is sorted is written.
   * Without it, `sorted` is complete.
   */
  read?: (added: () => void) => Promise<void>;
  /** Called after each chunk written, with the numbers written so far (invalid, duplicate and valid). */
  onProgress?: (written: number) => Promise<void>;
  /** A customer's opt-out list up to this size is read once; a longer one is probed per chunk (OPT_OUTS_HELD). */
  optOutsHeldMax?: number;
}

export interface Materialized {
  batchId: bigint;
  status: BatchStatus;
  cost: bigint;
  quote: BatchQuote;
  /** The numbers refused for being on the customer's opt-out list (reason 5). */
  optedOut: ReadonlySet<string>;
}

/** The batch was cancelled or rejected while its file was read: nothing was written. */
export class BatchGoneError extends Error {
  constructor(readonly batchId: bigint) {
    super(`batch ${batchId} left status 11 during ingest`);
    this.name = "BatchGoneError";
  }
}

/** A customer's opt-out list up to this size is held for a file's ingest; a longer one is probed per chunk. */
const OPT_OUTS_HELD = 200_000;

/** One chunk's rows as COPY takes them (RecipientWriter.prepare): RECIPIENT_COLUMNS, one line a row. */
interface PreparedRows {
  count: number;
  data: string;
}

/** The columns a recipient is written with (COPY); vars only for a personalised batch's rows. */
const RECIPIENT_COLUMNS =
  'recipients ("batchId", phone, "countryCode", "channelId", segments, price, "primaryPrice", "fallbackPrice"';

/**
 * A recipient line's columns after its number: country, channel, segments and the three prices ("" for none,
 * written \N), tab-separated.
 */
function recipientTail(
  code: string,
  channelId: number,
  segments: number,
  prices: readonly [string, string, string],
): string {
  const [price, primary, fallback] = prices.map((p) => (p === "" ? "\\N" : p));
  return `\t${copyText(code)}\t${channelId}\t${segments}\t${price}\t${primary}\t${fallback}`;
}

/** Prices and routes each country once, when its first number comes up. */
class CountryPricing {
  readonly quote: BatchQuote = { countries: new Map() };

  constructor(
    private readonly db: Prisma.TransactionClient,
    readonly ask: {
      customerId: number;
      productId: number;
      units: number;
      fallback: FallbackAsk | null;
      taskType: number;
      template: { name: string; language: string } | null;
    },
  ) {}

  async cover(codes: Iterable<string>): Promise<void> {
    const missing = [...new Set(codes)].filter((code) => !this.quote.countries.has(code));
    if (missing.length === 0) return;
    const quoted = await quoteBatch(this.db, { ...this.ask, countryCodes: missing });
    for (const [code, q] of quoted.countries) this.quote.countries.set(code, q);
  }
}

/**
 * Writes a batch's valid numbers as recipients, COPY_CHUNK at a time, in the order sorted, while more are being
 * sorted: take() queues what is ready, the statements run one after another on the transaction, and finish()
 * queues the rest and waits. Numbers of countries not served become rejections (reason 3).
 */
class RecipientWriter {
  valid = 0;
  cost = 0n;
  readonly notServedRaw: string[] = [];
  /** WhatsApp free-form text to numbers without an open 24-hour customer-service window (reason 4). */
  readonly windowClosedRaw: string[] = [];
  /** Numbers on the customer's opt-out list (reason 5): never sent, never charged, whatever their country. */
  readonly optedOutRaw: string[] = [];
  /** Why the first not-served country is not served (for a single number's answer). */
  notServedReason: MessageKey | null = null;
  /** Channels that will carry the recipients written. */
  readonly channelIds = new Set<number>();
  /** A personalised batch: the most units one recipient written is charged (its message's segments). */
  maxUnits = 0;
  private readonly rowPrices = new Map<
    CountryQuote,
    Map<number, { price: bigint; texts: readonly [string, string, string] }>
  >();
  private taken = 0;
  private chain: Promise<void> = Promise.resolve();
  /** The chunks' preparations, in order, ahead of the COPYs (take()). */
  private preparing: Promise<void> = Promise.resolve();
  /** Settles when each chunk taken so far is written (or failed), in order. */
  private readonly copied: Promise<void>[] = [];
  private heldOptOuts: Promise<Set<string> | null> | undefined;
  private failure: { err: unknown } | null = null;

  constructor(
    private readonly tx: Prisma.TransactionClient,
    private readonly batchId: bigint,
    private readonly units: number,
    private readonly sorted: NumberSorter,
    readonly pricing: CountryPricing,
    private readonly progress: (n: number) => Promise<void>,
    /** WhatsApp allows free-form text only inside a user's 24-hour window (whatsapp-window.ts). */
    private readonly needsOpenWindow: boolean,
    private readonly optOutsHeldMax: number,
  ) {}

  /**
   * A personalised row's price (priceOf), worked out once per country and units: a file has few distinct segment
   * counts, and BigInt arithmetic and its text per row were a visible share of the ingest. texts: the price, the
   * primary and the fallback price as the statement takes them ("" for NULL).
   */
  private rowPrice(q: Extract<CountryQuote, { served: true }>, units: number, fallbackUnits: number) {
    let byUnits = this.rowPrices.get(q);
    if (!byUnits) {
      byUnits = new Map();
      this.rowPrices.set(q, byUnits);
    }
    const key = units * 64 + fallbackUnits;
    let priced = byUnits.get(key);
    if (!priced) {
      const p = priceOf(q, units, fallbackUnits);
      const text = (v: bigint | null) => v?.toString() ?? "";
      priced = { price: p.price, texts: [text(p.price), text(p.primaryPrice), text(p.fallbackPrice)] };
      byUnits.set(key, priced);
    }
    return priced;
  }

  /** Queues every whole chunk sorted so far (all of it when `all`); throws once a write has failed. */
  take(all = false): void {
    if (this.failure) throw this.failure.err;
    const ready = this.sorted.size;
    while (ready - this.taken >= COPY_CHUNK || (all && this.taken < ready)) {
      const from = this.taken;
      const to = Math.min(from + COPY_CHUNK, ready);
      this.taken = to;
      // Each chunk's rows are prepared (priced, filtered, built: our CPU) in order while the previous chunk's COPY
      // runs on the server; the COPYs follow one another. Preparing inside the chain left the server idle while
      // we built the next statement, and us idle while it ran. But not further ahead: a chunk is prepared once
      // the COPY two chunks before it is done (the reader sorts faster than the server writes, and chunks
      // prepared earlier only waited in memory: a million numbers, up to 20 chunks of text, ~50 MB at the peak).
      const room = this.copied.length >= 2 ? this.copied[this.copied.length - 2] : undefined;
      const prepared = Promise.all([this.preparing, room]).then(() => this.prepare(from, to));
      this.preparing = prepared.then(
        () => undefined,
        () => undefined,
      );
      this.chain = this.chain.then(() => prepared).then((rows) => this.insert(rows));
      this.copied.push(
        this.chain.then(
          () => undefined,
          () => undefined,
        ),
      );
      // Remembered here and thrown by take() or finish(): the reader is still going when a write fails.
      this.chain.catch((err: unknown) => {
        this.failure ??= { err };
      });
    }
  }

  async finish(): Promise<void> {
    this.take(true);
    await this.chain;
  }

  /** The numbers of rows [from, to) whose user wrote to the channel that would carry them within 24 hours. */
  private async openWindows(from: number, to: number): Promise<Set<string>> {
    const sorted = this.sorted;
    const channelOf = new Map<string, number>();
    for (let i = from; i < to; i++) {
      const q = this.pricing.quote.countries.get(sorted.country(i));
      if (q?.served) channelOf.set(sorted.phone(i), q.channelId);
    }
    const open = await openWindows(this.tx, [...new Set(channelOf.values())], sorted.phoneList(from, to));
    return new Set([...open].filter(([phone, on]) => on.has(channelOf.get(phone) ?? -1)).map(([phone]) => phone));
  }

  /**
   * Those of rows [from, to) on the customer's opt-out list. A list of at most OPT_OUTS_HELD numbers is read once
   * (a query per chunk would wait behind the previous chunk's COPY on the transaction's connection, and the
   * preparation with it); a longer one is probed per chunk.
   */
  private async optedOut(from: number, to: number): Promise<ReadonlySet<string>> {
    const held = await this.loadOptOuts();
    if (held) return held;
    return optedOutAmong(this.tx, this.pricing.ask.customerId, this.sorted.phoneList(from, to));
  }

  /** Starts reading the customer's opt-out list when it is short enough to hold (once; null: probe per chunk). */
  loadOptOuts(): Promise<Set<string> | null> {
    const customerId = this.pricing.ask.customerId;
    this.heldOptOuts ??= (async () => {
      const n = await this.tx.optOut.count({ where: { userId: customerId } });
      return n <= this.optOutsHeldMax ? new Set(await optedOutAll(this.tx, customerId)) : null;
    })();
    // A failure is the first chunk's to report (its preparation awaits the same promise).
    this.heldOptOuts.catch(() => undefined);
    return this.heldOptOuts;
  }

  /** Rows [from, to) priced, filtered and built into the COPY's lines (counted here, in chunk order). */
  private async prepare(from: number, to: number): Promise<PreparedRows> {
    const sorted = this.sorted;
    const codes = new Set<string>();
    for (let i = from; i < to; i++) codes.add(sorted.country(i));
    await this.pricing.cover(codes);
    const optedOut = await this.optedOut(from, to);
    const open = this.needsOpenWindow ? await this.openWindows(from, to) : null;
    // A row's line is its number between two texts made once per statement: the batch's id before it, and its
    // country's (or, personalised, its price class's) columns after it. Nothing per row is formatted but the
    // number and a personalised row's values.
    const head = `${this.batchId}\t`;
    const tails = new Map<string, string>();
    const lines: string[] = [];
    const personal = this.sorted.personal;
    for (let i = from; i < to; i++) {
      const code = sorted.country(i);
      const phone = sorted.phone(i);
      const q = this.pricing.quote.countries.get(code);
      if (optedOut.has(phone)) {
        this.optedOutRaw.push(phone);
        continue;
      }
      if (!q?.served) {
        // The E.164 form tells the customer which country was refused.
        this.notServedRaw.push(phone);
        this.notServedReason ??= q?.reason ?? "price.country_not_served";
        continue;
      }
      if (open && !open.has(phone)) {
        this.windowClosedRaw.push(phone);
        continue;
      }
      this.channelIds.add(q.channelId);
      if (personal) {
        // A personalised row has its own segments and prices (personalise.ts) and its values.
        const units = personal.units[i] as number;
        const fallbackUnits = personal.fallbackUnits[i] as number;
        const priced = this.rowPrice(q, units, fallbackUnits);
        const classKey = `${code}:${units}:${fallbackUnits}`;
        let tail = tails.get(classKey);
        if (tail === undefined) {
          tail = recipientTail(code, q.channelId, units, priced.texts);
          tails.set(classKey, tail);
        }
        lines.push(`${head}${phone}${tail}\t${copyText(personal.varsJson[i] as string)}\n`);
        this.maxUnits = Math.max(this.maxUnits, units);
        this.cost += priced.price;
      } else {
        let tail = tails.get(code);
        if (tail === undefined) {
          const text = (v: bigint | null) => v?.toString() ?? "";
          tail = `${recipientTail(code, q.channelId, this.units, [text(q.price), text(q.primaryPrice), text(q.fallbackPrice)])}\n`;
          tails.set(code, tail);
        }
        lines.push(`${head}${phone}${tail}`);
        this.cost += q.price;
      }
    }
    // A cost past what any balance may hold cannot be afforded: 402 like any short balance, before a price or sum
    // beyond the BIGINT columns reaches a statement (prices set before their bound could make one).
    if (this.cost > MAX_BALANCE_UNITS) throw await unaffordable(this.tx, this.pricing.ask.customerId);
    // Joined here, off the COPYs' turn.
    return { count: lines.length, data: lines.join("") };
  }

  private async insert(prepared: PreparedRows): Promise<void> {
    if (prepared.count > 0) {
      const columns = this.sorted.personal ? `${RECIPIENT_COLUMNS}, vars)` : `${RECIPIENT_COLUMNS})`;
      await copyInto(this.tx, `COPY ${columns} FROM STDIN`, prepared.data);
      this.valid += prepared.count;
    }
    await this.progress(prepared.count);
  }
}

/** One value of the recipients' id sequence (spent: a bound, never a row's id). */
async function drawRecipientId(tx: Prisma.TransactionClient): Promise<bigint> {
  const [row] = await tx.$queryRaw<Array<{ id: bigint }>>`
    SELECT nextval(pg_get_serial_sequence('recipients', 'id')) AS id`;
  if (!row) throw new Error("recipients id sequence: no value");
  return row.id;
}

/** A path of the status machine, checked against canTransition (a programming error if illegal). */
function passedStatus(review: boolean): BatchStatus {
  if (review) return BatchStatus.UNDER_REVIEW;
  if (!canTransition(BatchStatus.UNDER_REVIEW, BatchStatus.REVIEW_PASSED))
    throw new Error("status machine: 11 -> 12 must be legal");
  if (!canTransition(BatchStatus.REVIEW_PASSED, BatchStatus.PENDING_SEND))
    throw new Error("status machine: 12 -> 20 must be legal");
  return BatchStatus.PENDING_SEND;
}

async function insertRejected(tx: Prisma.TransactionClient, batchId: bigint, raw: string[], reason: number[]) {
  for (let i = 0; i < raw.length; i += INSERT_CHUNK) {
    await tx.$executeRaw`
      INSERT INTO rejected_numbers ("batchId", raw, reason)
      SELECT ${batchId}::bigint, r, s
      FROM unnest(${raw.slice(i, i + INSERT_CHUNK)}::text[], ${reason.slice(i, i + INSERT_CHUNK)}::smallint[]) AS t(r, s)`;
  }
}

/** 15 s, plus half a millisecond per number for big files (a million numbers: about 8 minutes at most). */
function txOptions(numbers: number) {
  return { ...LEDGER_TX_OPTIONS, timeout: Math.max(LEDGER_TX_OPTIONS.timeout, Math.ceil(numbers / 2)) };
}

export async function materializeBatch(prisma: PrismaClient, input: MaterializeInput): Promise<Materialized> {
  const { customer, rules, target, sorted } = input;
  const spec = target.spec;
  let written = 0;
  const progress = async (n: number) => {
    written += n;
    await input.onProgress?.(written);
  };

  return prisma.$transaction(
    async (tx) => {
      let id: bigint;
      if (target.kind === "create") {
        // Counts and status are set below, once the numbers are written (same transaction).
        const created = await tx.messageBatch.create({
          data: {
            tenantId: customer.tenantId,
            userId: customer.id,
            agentId: customer.agentId,
            productId: spec.productId,
            productCode: spec.productCode,
            taskType: spec.taskType,
            submitMode: spec.submitMode,
            source: spec.source,
            content: spec.content as Prisma.InputJsonValue,
            senderId: senderIdOf(spec.content),
            segments: spec.units,
            scheduledAt: spec.scheduledAt,
            idempotencyKey: spec.idempotencyKey,
            status: BatchStatus.UNDER_REVIEW,
          },
          select: { id: true },
        });
        id = created.id;
      } else {
        id = target.batchId;
      }
      const pricing = new CountryPricing(tx, {
        customerId: customer.id,
        productId: spec.productId,
        units: spec.units,
        fallback: await fallbackAsk(tx, customer.tenantId, spec.content),
        taskType: spec.taskType,
        template: templateOf(spec.content),
      });
      // The bounds of the ids this batch's recipients will take (schema: recipientIdFrom): the id sequence is
      // monotonic, so every id drawn between these two draws lies between them.
      const recipientIdFrom = await drawRecipientId(tx);
      const recipients = new RecipientWriter(
        tx,
        id,
        spec.units,
        sorted,
        pricing,
        progress,
        needsOpenWindow(spec.content, spec.taskType),
        input.optOutsHeldMax ?? OPT_OUTS_HELD,
      );
      // The opt-out list is read before the file, while nothing else waits on the connection.
      recipients.loadOptOuts();
      if (input.read) await input.read(() => recipients.take());
      await recipients.finish();
      const recipientIdTo = await drawRecipientId(tx);
      // A WhatsApp template must exist, be approved and take these values on every channel carrying the batch.
      await assertTemplateFits(tx, [...recipients.channelIds], spec.content);
      // An SMS sender id must be approved for every country the batch sends to (a refusal rolls everything back).
      const sentTo = [...pricing.quote.countries].filter(([, q]) => q.served).map(([code]) => code);
      await assertSenderIdApproved(tx, customer.id, spec, sentTo);

      if (recipients.valid === 0) {
        if (sorted.unfilled > 0 && sorted.invalid + sorted.duplicate + recipients.notServedRaw.length === 0) {
          throw badRequest("batch.all_unfilled", { count: sorted.unfilled });
        }
        if (
          recipients.optedOutRaw.length > 0 &&
          recipients.notServedRaw.length + recipients.windowClosedRaw.length === 0
        ) {
          throw badRequest("batch.all_opted_out", { count: recipients.optedOutRaw.length });
        }
        if (recipients.windowClosedRaw.length > 0 && recipients.notServedRaw.length === 0) {
          throw badRequest("batch.whatsapp_window_closed", { count: recipients.windowClosedRaw.length });
        }
        // Numbers refused for one reason say which (a screening channel that cannot check, no price...).
        throw badRequest(recipients.notServedReason ? "batch.no_valid_numbers_because" : "batch.no_valid_numbers", {
          invalid: sorted.invalid,
          duplicate: sorted.duplicate,
          notServed: recipients.notServedRaw.length + recipients.windowClosedRaw.length,
          ...(recipients.notServedReason ? { reason: recipients.notServedReason } : {}),
        });
      }
      const rejectedRaw = [
        ...sorted.rejectedRaw,
        ...recipients.notServedRaw,
        ...recipients.windowClosedRaw,
        ...recipients.optedOutRaw,
      ];
      const rejectedReason = [
        ...sorted.rejectedReason,
        ...recipients.notServedRaw.map(() => RejectReason.COUNTRY_NOT_SERVED),
        ...recipients.windowClosedRaw.map(() => RejectReason.WINDOW_CLOSED),
        ...recipients.optedOutRaw.map(() => RejectReason.OPTED_OUT),
      ];
      await insertRejected(tx, id, rejectedRaw, rejectedReason);
      await progress(rejectedRaw.length);

      const reasons = reviewReasons(rules, customer, contentText(spec.content), recipients.valid);
      const status = passedStatus(reasons.length > 0);
      // Numbers of countries not served have no column of their own: total - valid - invalid - duplicate - opt-out.
      const counts = {
        totalCount: sorted.total,
        validCount: recipients.valid,
        invalidCount: sorted.invalid,
        duplicateCount: sorted.duplicate,
        optOutCount: recipients.optedOutRaw.length,
        unfilledCount: sorted.unfilled,
        // A personalised batch's segments: its longest message once filled (each recipient has its own).
        ...(sorted.personal && recipients.valid > 0 ? { segments: recipients.maxUnits } : {}),
        cost: recipients.cost,
        status,
        // What the reviewer is told: which rules held the batch (none when it goes without review).
        reviewReasons: reasons.length > 0 ? (reasons as Prisma.InputJsonValue) : Prisma.DbNull,
        ingestedCount: sorted.total,
        recipientIdFrom,
        recipientIdTo,
      };
      // Last, so the row is not locked while progress is reported; for a file, a cancel or reject that came
      // first wins.
      const claimed = await tx.messageBatch.updateMany({
        where:
          target.kind === "ingest"
            ? { id, status: BatchStatus.UNDER_REVIEW, filePath: { not: null } }
            : { id, status: BatchStatus.UNDER_REVIEW },
        data: { ...counts, filePath: null },
      });
      if (claimed.count === 0) throw new BatchGoneError(id);
      if (recipients.cost > 0n) {
        await applyBalanceChange(tx, {
          tenantId: customer.tenantId,
          userId: customer.id,
          type: BalanceLogType.CONSUME,
          amount: -recipients.cost,
          operatorId: customer.id,
          batchId: id,
        });
      }
      return {
        batchId: id,
        status,
        cost: recipients.cost,
        quote: pricing.quote,
        optedOut: new Set(recipients.optedOutRaw),
      };
    },
    // A file's size is not known in numbers before it is read: its transaction may take as long as the largest.
    txOptions(input.read ? BATCH_FILE_MAX_NUMBERS : sorted.total),
  );
}
