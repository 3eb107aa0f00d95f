// The batch screens' data: batch lists per product and status group, one batch's detail, its recipients with
// search and filters, and CSV exports of recipients and rejected numbers streamed page by page (by id, never
// the whole batch in memory). Who sees what: visibleBatchesWhere (lib/scope.ts).
import { Readable } from "node:stream";
import {
  BATCH_FILTER_TYPES,
  BATCH_STAGES,
  type BatchDetail,
  type BatchListQuery,
  type BatchReplyList,
  type BatchReplyQuery,
  type BatchRow,
  formatMoney,
  type InboxList,
  type InboxQuery,
  isMessageKey,
  type Lang,
  type MessageKey,
  type RecipientExportQuery,
  type RecipientListQuery,
  type ReviewReason,
  reviewReasons,
  translate,
  UserType,
  type V1BatchList,
  type V1InboundList,
  type V1InboundQuery,
  type V1Message,
  type V1MessageList,
} from "@switchboard/contracts";
import type { Db, Prisma } from "@switchboard/db";
import { batchRowSelect, productNames, storedContent, toBatchRow } from "@switchboard/domain/batches/batch-row";
import { toInboundData } from "@switchboard/domain/inbound";
import { cursorPage, type SortKey } from "../../lib/cursor";
import { badRequest, notFound } from "../../lib/errors";
import { createdBetween, type Paged, pageArgs } from "../../lib/listing";
import { findVisibleBatch, managedCustomersWhere, visibleBatchesWhere } from "../../lib/scope";
import { tenantNamesFor } from "../../lib/tenant-names";
import type { Principal } from "../../plugins/auth";
import { linkStatsOf } from "../links/links.service";

const isStaff = (p: Principal) => p.type !== UserType.USER;

function statusFilter(q: BatchListQuery): Prisma.MessageBatchWhereInput[] {
  const filters: Prisma.MessageBatchWhereInput[] = [];
  if (q.status !== undefined) filters.push({ status: q.status });
  if (q.filterType !== undefined) filters.push({ status: { in: [...BATCH_FILTER_TYPES[q.filterType]] } });
  if (q.stage !== undefined) filters.push({ status: { in: [...BATCH_STAGES[q.stage]] } });
  return filters;
}

function listWhere(p: Principal, q: BatchListQuery): Prisma.MessageBatchWhereInput {
  const keyword = q.keyword?.trim();
  const created = createdBetween(q);
  return {
    AND: [
      visibleBatchesWhere(p),
      ...statusFilter(q),
      ...(q.productCode !== undefined ? [{ productCode: q.productCode }] : []),
      ...(created ? [{ createdAt: created }] : []),
      // Customers see their own batches only; the filters narrow staff lists.
      ...(isStaff(p) && q.userId !== undefined ? [{ userId: q.userId }] : []),
      ...(isStaff(p) && q.agentId !== undefined ? [{ agentId: q.agentId }] : []),
      // A keyword that is not a batch id matches nothing rather than everything.
      ...(keyword ? [{ id: /^\d{1,19}$/.test(keyword) ? BigInt(keyword) : -1n }] : []),
    ],
  };
}

/** Newest first (ids grow with time). */
const BATCH_ORDER: readonly SortKey[] = [{ field: "id", dir: "desc", kind: "bigint" }];

export async function listBatches(db: Db, p: Principal, q: Paged<BatchListQuery>, lang: Lang): Promise<V1BatchList> {
  const where = listWhere(p, q);
  const page = cursorPage(BATCH_ORDER, q);
  const [rows, total] = await Promise.all([
    db.messageBatch.findMany({
      ...page.args(where),
      select: batchRowSelect,
    }),
    db.messageBatch.count({ where }),
  ]);
  const [names, tenantOf] = await Promise.all([
    productNames(
      db,
      rows.map((r) => r.productId),
    ),
    tenantNamesFor(
      db,
      p,
      rows.map((r) => r.tenantId),
    ),
  ]);
  return {
    list: rows.map((r) => ({ ...toBatchRow(r, names, lang), ...tenantOf(r.tenantId) })),
    total,
    nextCursor: page.next(rows),
  };
}

/** One batch's row (counts, cost, progress): what a client polls; cheap for any batch size. */
export async function batchStatus(db: Db, p: Principal, batchId: string, lang: Lang): Promise<BatchRow> {
  const b = await findVisibleBatch(db, p, BigInt(batchId), batchRowSelect);
  return toBatchRow(b, await productNames(db, [b.productId]), lang);
}

/** One batch with its content, reviewer and recipients per country (one pass over its recipients). */
export async function batchDetail(db: Db, p: Principal, batchId: string, lang: Lang): Promise<BatchDetail> {
  const id = BigInt(batchId);
  const b = await findVisibleBatch(db, p, id, { ...batchRowSelect, reviewReasons: true });
  const content = storedContent(b.content);
  const [names, reviewer, countries, links] = await Promise.all([
    productNames(db, [b.productId]),
    b.reviewerId ? db.user.findUnique({ where: { id: b.reviewerId }, select: { username: true } }) : null,
    db.recipient.groupBy({
      by: ["countryCode"],
      where: { batchId: id },
      _count: { _all: true },
      _sum: { price: true },
      orderBy: { countryCode: "asc" },
    }),
    linkStatsOf(db, { id, content, successCount: b.successCount }),
  ]);
  return {
    ...toBatchRow(b, names, lang),
    content,
    reviewer: reviewer?.username ?? null,
    // The tenant's review rules (its sensitive words) are for staff, not for the customer.
    reviewReasons: isStaff(p) ? storedReviewReasons(b.reviewReasons) : null,
    countries: countries.map((c) => ({
      countryCode: c.countryCode,
      count: c._count._all,
      cost: formatMoney(c._sum.price ?? 0n),
    })),
    links,
  };
}

/** The stored reasons read back through their contract; null for none (or a row written otherwise). */
function storedReviewReasons(json: Prisma.JsonValue): ReviewReason[] | null {
  const parsed = reviewReasons.safeParse(json);
  return parsed.success && parsed.data.length > 0 ? parsed.data : null;
}

// ---------------------------------------------------------------- recipients

const recipientSelect = {
  id: true,
  phone: true,
  countryCode: true,
  channelId: true,
  segments: true,
  price: true,
  sendResult: true,
  receiveResult: true,
  errorCode: true,
  sentAt: true,
  receivedAt: true,
  readAt: true,
  fallbackFrom: true,
} satisfies Prisma.RecipientSelect;

type RecipientRecord = Prisma.RecipientGetPayload<{ select: typeof recipientSelect }>;

/** The batch's row as the recipient queries need it: its id and the bounds of its recipients' ids. */
const RECIPIENT_BOUNDS = { id: true, recipientIdFrom: true, recipientIdTo: true } as const;

function recipientWhere(
  batch: { id: bigint; recipientIdFrom: bigint | null; recipientIdTo: bigint | null },
  q: Omit<RecipientListQuery, "page" | "pageSize">,
): Prisma.RecipientWhereInput {
  const phone = q.phone ? (q.phone.startsWith("+") ? q.phone : `+${q.phone}`) : undefined;
  return {
    batchId: batch.id,
    // The batch's id range: without it, a page ordered by id walks the primary key from id 1 to the batch
    // (about 750 ms a page with 10 million recipients); with it, a few index pages (docs/benchmarks.md).
    ...(batch.recipientIdFrom !== null && batch.recipientIdTo !== null
      ? { id: { gt: batch.recipientIdFrom, lt: batch.recipientIdTo } }
      : {}),
    ...(phone ? { phone: { startsWith: phone } } : {}),
    ...(q.sendResult !== undefined ? { sendResult: q.sendResult } : {}),
    ...(q.receiveResult !== undefined ? { receiveResult: q.receiveResult } : {}),
    ...(q.countryCode ? { countryCode: q.countryCode } : {}),
  };
}

/** Names of channels by id (a page's few); an id without a row (a channel deleted since) has none. */
export async function channelNames(db: Db, ids: Iterable<number | null>): Promise<ReadonlyMap<number, string>> {
  const wanted = [...new Set([...ids].filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.channel.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(rows.map((c) => [c.id, c.name]));
}

/** Staff see which channel carried a recipient (by name); customers see neither its id nor its name. */
function toRecipientRow(r: RecipientRecord, channels: ReadonlyMap<number, string> | null) {
  const staff = channels !== null;
  return {
    id: r.id.toString(),
    phone: r.phone,
    countryCode: r.countryCode,
    // Which provider carries a message is the platform's business, not the customer's.
    channelId: staff ? r.channelId : null,
    channelName: staff && r.channelId !== null ? (channels.get(r.channelId) ?? null) : null,
    segments: r.segments,
    price: formatMoney(r.price),
    sendResult: r.sendResult,
    receiveResult: r.receiveResult,
    errorCode: r.errorCode,
    sentAt: r.sentAt?.toISOString() ?? null,
    receivedAt: r.receivedAt?.toISOString() ?? null,
    readAt: r.readAt?.toISOString() ?? null,
    fellBackToSms: r.fallbackFrom !== null,
  };
}

/** In the order the batch holds them (the file's or the request's order). */
const RECIPIENT_ORDER: readonly SortKey[] = [{ field: "id", dir: "asc", kind: "bigint" }];

export async function listRecipients(db: Db, p: Principal, q: Paged<RecipientListQuery>): Promise<V1MessageList> {
  const batch = await findVisibleBatch(db, p, BigInt(q.id), RECIPIENT_BOUNDS);
  const where = recipientWhere(batch, q);
  const page = cursorPage(RECIPIENT_ORDER, q);
  const [rows, total] = await Promise.all([
    db.recipient.findMany({
      ...page.args(where),
      select: recipientSelect,
    }),
    db.recipient.count({ where }),
  ]);
  const channels = isStaff(p)
    ? await channelNames(
        db,
        rows.map((r) => r.channelId),
      )
    : null;
  return { list: rows.map((r) => toRecipientRow(r, channels)), total, nextCursor: page.next(rows) };
}

/**
 * One message (a recipient) by its id, for the developer API: found only through a batch the caller may see, so
 * another customer's message answers 404 like one that does not exist.
 */
export async function messageById(db: Db, p: Principal, messageId: string): Promise<V1Message> {
  const r = await db.recipient.findUnique({
    where: { id: BigInt(messageId) },
    select: { ...recipientSelect, batchId: true },
  });
  if (!r) throw notFound("entity.message");
  try {
    await findVisibleBatch(db, p, r.batchId, { id: true });
  } catch {
    throw notFound("entity.message");
  }
  return {
    ...toRecipientRow(r, isStaff(p) ? await channelNames(db, [r.channelId]) : null),
    batchId: r.batchId.toString(),
  };
}

/**
 * What users wrote back to a customer (the developer API's GET /v1/inbound), newest first, each as the `inbound`
 * webhook posts it: its own rows only (an inbound message belongs to the owner of the batch it answers).
 */
/** Newest first by when the user wrote (the provider's time), the id breaking ties. */
const INBOUND_ORDER: readonly SortKey[] = [
  { field: "receivedAt", dir: "desc", kind: "date" },
  { field: "id", dir: "desc", kind: "bigint" },
];

export async function listInbound(db: Db, userId: number, q: V1InboundQuery): Promise<V1InboundList> {
  const phone = q.phone ? (q.phone.startsWith("+") ? q.phone : `+${q.phone}`) : undefined;
  const received = createdBetween(q);
  const where: Prisma.InboundMessageWhereInput = {
    userId,
    ...(q.batchId ? { batchId: BigInt(q.batchId) } : {}),
    ...(phone ? { phone: { startsWith: phone } } : {}),
    ...(received ? { receivedAt: received } : {}),
  };
  const page = cursorPage(INBOUND_ORDER, q);
  const [rows, total] = await Promise.all([
    db.inboundMessage.findMany({
      ...page.args(where),
    }),
    db.inboundMessage.count({ where }),
  ]);
  return { list: rows.map(toInboundData), total, nextCursor: page.next(rows) };
}

/**
 * The inbox: what users wrote back to one customer across its batches, newest first, with the answered batch's
 * product and status (for the link to its detail). A customer reads its own; staff name a customer of their scope (another
 * one answers 404 like a missing one).
 */
export async function listInbox(db: Db, p: Principal, q: InboxQuery): Promise<InboxList> {
  let userId = p.userId;
  if (p.type !== UserType.USER) {
    if (q.userId === undefined) throw badRequest("validation.required", { field: "userId" });
    const customer = await db.user.findFirst({
      where: { AND: [managedCustomersWhere(p), { id: q.userId }] },
      select: { id: true },
    });
    if (!customer) throw notFound("entity.user");
    userId = customer.id;
  }
  const { list, total } = await listInbound(db, userId, q);
  const batchIds = [...new Set(list.flatMap((r) => (r.batchId === null ? [] : [BigInt(r.batchId)])))];
  const batches = new Map(
    (
      await db.messageBatch.findMany({
        where: { id: { in: batchIds } },
        select: { id: true, productCode: true, status: true },
      })
    ).map((b) => [b.id.toString(), b]),
  );
  return {
    list: list.map((r) => {
      const batch = r.batchId === null ? undefined : batches.get(r.batchId);
      return { ...r, product: batch?.productCode ?? null, batchStatus: batch?.status ?? null };
    }),
    total,
  };
}

/** The replies stored against a batch (channel-events matched them to the batch that last reached the number). */
export async function listReplies(db: Db, p: Principal, q: BatchReplyQuery): Promise<BatchReplyList> {
  const id = BigInt(q.id);
  await findVisibleBatch(db, p, id, { id: true });
  const where = { batchId: id };
  const [rows, total] = await Promise.all([
    db.inboundMessage.findMany({
      where,
      orderBy: [{ receivedAt: "desc" }, { id: "desc" }],
      ...pageArgs(q),
      select: { id: true, phone: true, text: true, postbackData: true, receivedAt: true },
    }),
    db.inboundMessage.count({ where }),
  ]);
  return {
    list: rows.map((r) => ({ ...r, id: r.id.toString(), receivedAt: r.receivedAt.toISOString() })),
    total,
  };
}

// ---------------------------------------------------------------- CSV exports

/** Rows read per query while exporting. */
const EXPORT_PAGE = 5_000;

/** Text a spreadsheet would run as a formula; a signed number ("+8613800138000") is just a number. */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d\s().-]*$))/;

/** A CSV cell: quoted when it holds a separator, a quote or a line break; formulas are defused with a quote. */
function csvCell(v: string | number | null): string {
  if (v === null) return "";
  let s = String(v);
  if (FORMULA.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const csvLine = (cells: Array<string | number | null>) => `${cells.map(csvCell).join(",")}\r\n`;

/** Pages through rows by id (keyset), yielding CSV text page by page. */
async function* keysetCsv<R extends { id: bigint }>(
  header: string[],
  page: (after: bigint) => Promise<R[]>,
  line: (r: R) => Array<string | number | null>,
): AsyncGenerator<string> {
  // A BOM so that spreadsheet programs read the file as UTF-8.
  yield `\uFEFF${csvLine(header)}`;
  let after = 0n;
  for (;;) {
    const rows = await page(after);
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine(line(r))).join("");
    after = rows[rows.length - 1]!.id;
    if (rows.length < EXPORT_PAGE) return;
  }
}

export interface CsvExport {
  fileName: string;
  stream: Readable;
}

/** "2026-01-05 16:00:00": a time as the reader's clock in `tz` shows it (a spreadsheet reads it as a date). */
function localTimeFormat(tz: string): (iso: string | null) => string | null {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return (iso) => {
    if (iso === null) return null;
    const part = Object.fromEntries(format.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
    return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
  };
}

/**
 * The recipients as CSV for the person who asked: header and send / report results in their language, times on
 * their clock (`tz`), and the result codes again in the last columns for whoever processes the file.
 */
export async function exportRecipients(db: Db, p: Principal, q: RecipientExportQuery, lang: Lang): Promise<CsvExport> {
  const batch = await findVisibleBatch(db, p, BigInt(q.id), RECIPIENT_BOUNDS);
  const where = recipientWhere(batch, q);
  const staff = isStaff(p);
  const col = (name: string) => translate(lang, `export.col.${name}` as MessageKey, { tz: q.tz });
  const header = ["phone", "country", "segments", "price", "sendResult", "receiveResult", "errorCode"].map(col);
  header.push(col("sentAt"), col("receivedAt"));
  if (staff) header.push(col("channelId"), col("channelName"));
  header.push(col("sendResultCode"), col("receiveResultCode"));
  const label = (kind: "send_result" | "receive_result", code: number) =>
    isMessageKey(`recipient.${kind}.${code}`) ? translate(lang, `recipient.${kind}.${code}` as MessageKey) : code;
  const local = localTimeFormat(q.tz);
  // A batch is carried by a handful of channels: their names are read once, as the pages come.
  const channels = staff ? new Map<number, string>() : null;
  const stream = Readable.from(
    keysetCsv(
      header,
      async (after) => {
        const rows = await db.recipient.findMany({
          where: { AND: [where, { id: { gt: after } }] },
          orderBy: { id: "asc" },
          take: EXPORT_PAGE,
          select: recipientSelect,
        });
        if (channels) {
          const missing = rows.map((r) => r.channelId).filter((id) => id !== null && !channels.has(id));
          for (const [id, name] of await channelNames(db, missing)) channels.set(id, name);
        }
        return rows;
      },
      (r) => {
        const row = toRecipientRow(r, channels);
        const cells: Array<string | number | null> = [
          row.phone,
          row.countryCode,
          row.segments,
          row.price,
          label("send_result", row.sendResult),
          label("receive_result", row.receiveResult),
          row.errorCode,
          local(row.sentAt),
          local(row.receivedAt),
        ];
        if (staff) cells.push(row.channelId, row.channelName);
        cells.push(row.sendResult, row.receiveResult);
        return cells;
      },
    ),
  );
  return { fileName: `batch-${batch.id}-recipients.csv`, stream };
}

const REJECT_REASON_NAMES: Record<number, string> = {
  1: "invalid",
  2: "duplicate",
  3: "country_not_served",
  4: "whatsapp_window_closed",
  5: "opted_out",
  6: "missing_variable",
  7: "filled_text_too_long",
};

export async function exportRejected(db: Db, p: Principal, batchId: string): Promise<CsvExport> {
  const id = BigInt(batchId);
  await findVisibleBatch(db, p, id, { id: true });
  const stream = Readable.from(
    keysetCsv(
      ["number", "reason"],
      (after) =>
        db.rejectedNumber.findMany({
          where: { batchId: id, id: { gt: after } },
          orderBy: { id: "asc" },
          take: EXPORT_PAGE,
          select: { id: true, raw: true, reason: true },
        }),
      (r) => [r.raw, REJECT_REASON_NAMES[r.reason] ?? String(r.reason)],
    ),
  );
  return { fileName: `batch-${id}-rejected.csv`, stream };
}
