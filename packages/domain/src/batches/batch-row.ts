// A batch as the screens and the API answers show it: counts, money as decimal strings, progress.
import {
  type BatchContent,
  type BatchRow,
  batchContent,
  contentText,
  decodeBatchReason,
  FINAL_BATCH_STATUSES,
  formatMoney,
  type Lang,
  SubmitMode,
} from "@switchboard/contracts";
import { type Db, Prisma, querySql } from "@switchboard/db";
import { notFound } from "../errors";

export const batchRowSelect = {
  id: true,
  tenantId: true,
  userId: true,
  user: { select: { username: true } },
  agentId: true,
  productId: true,
  productCode: true,
  taskType: true,
  submitMode: true,
  source: true,
  status: true,
  content: true,
  senderId: true,
  segments: true,
  scheduledAt: true,
  filePath: true,
  fileName: true,
  ingestedCount: true,
  totalCount: true,
  validCount: true,
  invalidCount: true,
  duplicateCount: true,
  optOutCount: true,
  unfilledCount: true,
  sentCount: true,
  successCount: true,
  failedCount: true,
  deliveredCount: true,
  undeliveredCount: true,
  readCount: true,
  fallbackCount: true,
  cost: true,
  refunded: true,
  reason: true,
  reviewerId: true,
  reviewedAt: true,
  startedAt: true,
  finishedAt: true,
  createdAt: true,
} satisfies Prisma.MessageBatchSelect;

export type BatchRecord = Prisma.MessageBatchGetPayload<{ select: typeof batchRowSelect }>;

const PREVIEW_CHARS = 200;

/** The stored content, read back through its contract (rows written by this module always pass). */
export function storedContent(json: Prisma.JsonValue): BatchContent {
  return batchContent.parse(json);
}

/**
 * A list row's preview. A row whose stored content does not read (written by hand, or by an older version) shows
 * none rather than failing the whole list with a 500 (the browser walk met one: a test's batch without a product).
 */
function previewOf(json: Prisma.JsonValue): string {
  const content = batchContent.safeParse(json);
  return content.success ? contentText(content.data).slice(0, PREVIEW_CHARS) : "";
}

/** A mode 3 batch whose file is not read yet: the ingest clears filePath in the transaction that charges. */
export function isIngesting(b: { submitMode: number; filePath: string | null }): boolean {
  return b.submitMode === SubmitMode.FILE && b.filePath !== null;
}

function percent(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.min(100, Math.floor((part * 100) / whole));
}

function progressOf(b: BatchRecord, ingesting: boolean): number {
  if (ingesting) return percent(b.ingestedCount, b.totalCount);
  if ((FINAL_BATCH_STATUSES as readonly number[]).includes(b.status)) return 100;
  return percent(b.sentCount, b.validCount);
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The row in the reader's language (`lang`: the reason is stored as a message key, translated here). */
export function toBatchRow(b: BatchRecord, productNames: ReadonlyMap<number, string>, lang: Lang): BatchRow {
  const ingesting = isIngesting(b);
  return {
    id: b.id.toString(),
    userId: b.userId,
    user: b.user.username,
    agentId: b.agentId,
    productId: b.productId,
    productCode: b.productCode,
    productName: productNames.get(b.productId) ?? "",
    taskType: b.taskType,
    submitMode: b.submitMode,
    source: b.source,
    status: b.status,
    preview: previewOf(b.content),
    senderId: b.senderId,
    segments: b.segments,
    scheduledAt: iso(b.scheduledAt),
    fileName: b.fileName,
    ingesting,
    ingestedCount: b.ingestedCount,
    totalCount: b.totalCount,
    validCount: b.validCount,
    invalidCount: b.invalidCount,
    duplicateCount: b.duplicateCount,
    notServedCount: ingesting
      ? 0
      : Math.max(0, b.totalCount - b.validCount - b.invalidCount - b.duplicateCount - b.optOutCount - b.unfilledCount),
    optOutCount: b.optOutCount,
    unfilledCount: b.unfilledCount,
    sentCount: b.sentCount,
    successCount: b.successCount,
    failedCount: b.failedCount,
    deliveredCount: b.deliveredCount,
    undeliveredCount: b.undeliveredCount,
    readCount: b.readCount,
    fallbackCount: b.fallbackCount,
    progress: progressOf(b, ingesting),
    cost: formatMoney(b.cost),
    refunded: formatMoney(b.refunded),
    reason: decodeBatchReason(b.reason, lang),
    reviewedAt: iso(b.reviewedAt),
    startedAt: iso(b.startedAt),
    finishedAt: iso(b.finishedAt),
    createdAt: b.createdAt.toISOString(),
  };
}

/** Product names by id (a row shows its product's name). */
export async function productNames(db: Db, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = await db.product.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, name: true },
  });
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** batchRowSelect's columns, for the one statement below. */
const BATCH_ROW_COLUMNS = Prisma.raw(
  Object.keys(batchRowSelect)
    .filter((k) => k !== "user")
    .map((k) => `b."${k}"`)
    .join(", "),
);

/**
 * One batch as the answers show it (every submission answers with it): the batch, its owner's name and its
 * product's name in one statement (three with the relation and productNames).
 */
export async function batchRowById(db: Db, batchId: bigint, lang: Lang): Promise<BatchRow> {
  const [row] = await db.$queryRaw<BatchRowRecord[]>`
    SELECT ${BATCH_ROW_COLUMNS}, u.username, p.name AS "productName"
    FROM message_batches b JOIN users u ON u.id = b."userId" LEFT JOIN products p ON p.id = b."productId"
    WHERE b.id = ${batchId}`;
  if (!row) throw notFound("entity.batch");
  return batchRowOf(row, lang);
}

/** A batch as its statement read it (with its owner's name and its product's name), as the answers show it. */
export type BatchRowRecord = Omit<BatchRecord, "user"> & { username: string; productName: string | null };

/** The answers' row of a batch read with its owner's and product's names (batchRowById, a single send's write). */
export function batchRowOf(row: BatchRowRecord, lang: Lang): BatchRow {
  const { username, productName, ...b } = row;
  const names = new Map(productName === null ? [] : [[b.productId, productName]]);
  return toBatchRow({ ...b, user: { username } }, names, lang);
}

/** What a single send (mode 1) answers about its one recipient. */
export interface SingleRecipient {
  phone: string;
  countryCode: string;
  price: bigint;
  sendResult: number;
  errorCode: string | null;
  providerMessageId: string | null;
}

/** A recipient as mode 1 answers it, built in SQL (its price as text: JSON has no bigint). */
const SINGLE_RECIPIENT_JSON = Prisma.raw(`json_build_object('phone', r.phone, 'countryCode', r."countryCode",
  'price', r.price::text, 'sendResult', r."sendResult", 'errorCode', r."errorCode",
  'providerMessageId', r."providerMessageId")`);

/** A single send's batch (with its owner's and product's names) and its one recipient, as read. */
export interface SingleSendRecord {
  row: BatchRowRecord;
  recipient: SingleRecipient | null;
}

/**
 * Single sends' batches as batchRowById shows them, each with its one recipient, in one statement: what mode 1
 * reads while it waits for the provider's answer, and answers with (the requests a group's outcome wakes read
 * together: submit.service.ts). By batch id; a batch that is not there is missing from the map.
 */
export async function singleSendRecords(db: Db, batchIds: readonly bigint[]): Promise<Map<string, SingleSendRecord>> {
  // Every mode 1 answer's read (a group of them at a time): on the pool, without Prisma's per-statement work.
  const rows = await querySql<
    Array<BatchRowRecord & { recipient: (Omit<SingleRecipient, "price"> & { price: string }) | null }>
  >(
    db,
    Prisma.sql`
    SELECT ${BATCH_ROW_COLUMNS}, u.username, p.name AS "productName",
           coalesce(
             -- By its id bounds: the first recipient of the range through the primary key, one partition read
             -- (an OR with the unbounded case below would probe every partition's batch index instead).
             (SELECT ${SINGLE_RECIPIENT_JSON} FROM recipients r
              WHERE b."recipientIdFrom" IS NOT NULL AND r.id > b."recipientIdFrom" AND r.id < b."recipientIdTo"
                AND r."batchId" = b.id
              ORDER BY r.id LIMIT 1),
             -- A batch without bounds (none is made so today): by its batch index.
             (SELECT ${SINGLE_RECIPIENT_JSON} FROM recipients r
              WHERE b."recipientIdFrom" IS NULL AND r."batchId" = b.id
              ORDER BY r.id LIMIT 1)
           ) AS recipient
    FROM message_batches b JOIN users u ON u.id = b."userId" LEFT JOIN products p ON p.id = b."productId"
    WHERE b.id = ANY(${batchIds.map(String)}::bigint[])`,
    // Batches by id, each one's recipient by key: planned once per connection.
    { genericPlans: true },
  );
  return new Map(
    rows.map(({ recipient, ...row }) => [
      row.id.toString(),
      { row, recipient: recipient && { ...recipient, price: BigInt(recipient.price) } },
    ]),
  );
}

/** A single send as its answer shows it, in the request's language. */
export function singleSendView(record: SingleSendRecord, lang: Lang) {
  return { batch: batchRowOf(record.row, lang), recipient: record.recipient };
}
