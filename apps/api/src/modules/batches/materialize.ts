// Materialising a batch: the ONE function that turns sorted numbers into a charged batch, used by the
// synchronous modes (1 and 2: the batch row is created here) and the file ingest (mode 3: the row exists in
// status 11 while its file is read). In one transaction:
//   recipients priced per country (unit price x chargeable units) and routed, inserted in bulk
//   (INSERT ... SELECT FROM unnest(...), 10,000 rows a statement); rejected numbers (invalid, duplicate,
//   country not served) beside them; the counts, cost and status on the batch (11 when review is needed,
//   else 12 -> 20 at once); the whole cost taken from the balance as one consume row pointing to the batch.
// A short balance (402) rolls everything back. The caller enqueues dispatch after the commit.
import {
  BalanceLogType,
  type BatchContent,
  BatchStatus,
  canTransition,
  contentText,
  type MessageKey,
  RejectReason,
} from "@switchboard/contracts";
import type { Prisma, PrismaClient } from "@switchboard/db";
import { badRequest } from "../../lib/errors";
import { applyBalanceChange, insufficientBalance, LEDGER_TX_OPTIONS } from "../finance/ledger";
import { type Customer, senderIdOf, type TenantRules } from "./context";
import type { NumberSorter } from "./number-sorter";
import { type BatchQuote, quoteBatch } from "./quote";
import { needsReview } from "./review";

/** Rows per INSERT statement. */
export const INSERT_CHUNK = 10_000;

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
  customer: Customer;
  rules: TenantRules;
  target: MaterializeTarget;
  sorted: NumberSorter;
  /** Called after each chunk written, with the numbers written so far (invalid, duplicate and valid). */
  onProgress?: (written: number) => Promise<void>;
}

export interface Materialized {
  batchId: bigint;
  status: BatchStatus;
  cost: bigint;
  quote: BatchQuote;
}

/** The batch was cancelled or rejected while its file was read: nothing was written. */
export class BatchGoneError extends Error {
  constructor(readonly batchId: bigint) {
    super(`batch ${batchId} left status 11 during ingest`);
    this.name = "BatchGoneError";
  }
}

/**
 * The rows to write. Recipients carry only their number and the index (1-based) of their country in
 * `served`; country, channel and price are per country, so they travel once per country, not once per row.
 */
interface Rows {
  phones: string[];
  country: number[];
  served: { codes: string[]; channelIds: number[]; prices: string[] };
  rejectedRaw: string[];
  rejectedReason: number[];
  notServed: number;
  /** Why the first not-served country is not served (for a single number's answer). */
  notServedReason: MessageKey | null;
  cost: bigint;
}

/** Splits the valid numbers into recipients (served countries) and rejections (reason 3), with the cost. */
function buildRows(sorted: NumberSorter, quote: BatchQuote): Rows {
  const rows: Rows = {
    phones: [],
    country: [],
    served: { codes: [], channelIds: [], prices: [] },
    rejectedRaw: [...sorted.rejectedRaw],
    rejectedReason: [...sorted.rejectedReason],
    notServed: 0,
    notServedReason: null,
    cost: 0n,
  };
  const index = new Map<string, { at: number; price: bigint }>();
  for (const [code, q] of quote.countries) {
    if (!q.served) continue;
    rows.served.codes.push(code);
    rows.served.channelIds.push(q.channelId);
    rows.served.prices.push(q.price.toString());
    index.set(code, { at: rows.served.codes.length, price: q.price });
  }
  for (let i = 0; i < sorted.phones.length; i++) {
    const phone = sorted.phones[i]!;
    const served = index.get(sorted.countries[i]!);
    if (!served) {
      // The E.164 form tells the customer which country was refused.
      rows.rejectedRaw.push(phone);
      rows.rejectedReason.push(RejectReason.COUNTRY_NOT_SERVED);
      rows.notServed += 1;
      rows.notServedReason ??= notServedReason(quote, sorted.countries[i]!);
      continue;
    }
    rows.phones.push(phone);
    rows.country.push(served.at);
    rows.cost += served.price;
  }
  return rows;
}

function notServedReason(quote: BatchQuote, country: string): MessageKey {
  const q = quote.countries.get(country);
  return q && !q.served ? q.reason : "price.country_not_served";
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

async function insertRecipients(
  tx: Prisma.TransactionClient,
  batchId: bigint,
  units: number,
  rows: Rows,
  progress: (chunk: number) => Promise<void>,
) {
  const { codes, channelIds, prices } = rows.served;
  for (let i = 0; i < rows.phones.length; i += INSERT_CHUNK) {
    const end = i + INSERT_CHUNK;
    await tx.$executeRaw`
      INSERT INTO recipients ("batchId", phone, "countryCode", "channelId", segments, price)
      SELECT ${batchId}::bigint, r.p, (${codes}::text[])[r.k], (${channelIds}::int[])[r.k], ${units}::smallint,
             (${prices}::bigint[])[r.k]
      FROM unnest(${rows.phones.slice(i, end)}::text[], ${rows.country.slice(i, end)}::int[]) AS r(p, k)`;
    await progress(Math.min(end, rows.phones.length) - i);
  }
}

/** 15 s, plus half a millisecond per number for big files (a million numbers: about 8 minutes at most). */
function txOptions(numbers: number) {
  return { ...LEDGER_TX_OPTIONS, timeout: Math.max(LEDGER_TX_OPTIONS.timeout, Math.ceil(numbers / 2)) };
}

export async function materializeBatch(prisma: PrismaClient, input: MaterializeInput): Promise<Materialized> {
  const { customer, rules, target, sorted } = input;
  const spec = target.spec;
  const quote = await quoteBatch(prisma, {
    customerId: customer.id,
    productId: spec.productId,
    units: spec.units,
    countryCodes: [...new Set(sorted.countries)],
  });
  const rows = buildRows(sorted, quote);
  if (rows.phones.length === 0) {
    throw badRequest("batch.no_valid_numbers", {
      invalid: sorted.invalid,
      duplicate: sorted.duplicate,
      notServed: rows.notServed,
      ...(rows.notServedReason ? { reason: rows.notServedReason } : {}),
    });
  }
  // Fail fast before writing a million rows; the ledger checks again, atomically, inside the transaction.
  const { balance } = await prisma.user.findUniqueOrThrow({ where: { id: customer.id }, select: { balance: true } });
  if (balance < rows.cost) throw insufficientBalance(balance);

  const review = needsReview(rules, customer, contentText(spec.content), rows.phones.length);
  const status = passedStatus(review);
  // Numbers of countries not served have no column of their own: total - valid - invalid - duplicate.
  const counts = {
    totalCount: sorted.total,
    validCount: rows.phones.length,
    invalidCount: sorted.invalid,
    duplicateCount: sorted.duplicate,
    cost: rows.cost,
    status,
  };

  let written = 0;
  const progress = async (n: number) => {
    written += n;
    await input.onProgress?.(written);
  };

  const batchId = await prisma.$transaction(async (tx) => {
    let id: bigint;
    if (target.kind === "create") {
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
          ingestedCount: sorted.total,
          ...counts,
        },
        select: { id: true },
      });
      id = created.id;
    } else {
      id = target.batchId;
    }
    await insertRejected(tx, id, rows.rejectedRaw, rows.rejectedReason);
    await progress(rows.rejectedRaw.length);
    await insertRecipients(tx, id, spec.units, rows, progress);
    if (target.kind === "ingest") {
      // Last, so the row is not locked while progress is reported; a cancel or reject that came first wins.
      const claimed = await tx.messageBatch.updateMany({
        where: { id, status: BatchStatus.UNDER_REVIEW, filePath: { not: null } },
        data: { ...counts, ingestedCount: sorted.total, filePath: null },
      });
      if (claimed.count === 0) throw new BatchGoneError(id);
    }
    if (rows.cost > 0n) {
      await applyBalanceChange(tx, {
        tenantId: customer.tenantId,
        userId: customer.id,
        type: BalanceLogType.CONSUME,
        amount: -rows.cost,
        operatorId: customer.id,
        batchId: id,
      });
    }
    return id;
  }, txOptions(sorted.total));

  return { batchId, status, cost: rows.cost, quote };
}
