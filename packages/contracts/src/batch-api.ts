// Message batches over HTTP: submission (modes 1, 2 and 3), the pre-submit check, review, cancel, terminate,
// the batch screens' lists and the developer API. The status machine and the per-product content live in
// batches.ts; this file is what travels in requests and answers. Decisions: docs/batches.md.
import { z } from "zod";
import { BATCH_REASON_TEXT_MAX, batchContent, reviewReasons } from "./batches";
import { BatchStatus, ProductCode, ReceiveResult, SendResult, SubmitMode, TaskType } from "./codes";
import {
  acrossTenants,
  bigId,
  codeIn,
  cursorParam,
  id,
  pageOrCursor,
  paging,
  text,
  timeRange,
  withNextCursor,
} from "./common";
import { batchLinkStats } from "./links";
import { timeZoneName } from "./time-zone";
import { inboundData } from "./webhooks";

// ---------------------------------------------------------------- limits

/** Mode 2: numbers in one request. */
export const BATCH_MULTIPLE_MAX_NUMBERS = 10_000;
/** Mode 3: numbers in one file, and its size. */
export const BATCH_FILE_MAX_NUMBERS = 1_000_000;
export const BATCH_FILE_MAX_BYTES = 50 * 1024 * 1024;
/** Multipart field that carries the file (mode 3 and the file pre-submit check). */
export const BATCH_FILE_FIELD = "file";
/** A schedule may be at most this far ahead. */
export const BATCH_SCHEDULE_MAX_DAYS = 90;
/** Developer API Idempotency-Key: printable ASCII, at most this long. */
export const IDEMPOTENCY_KEY_MAX = 100;

/** Why a number of a batch was not taken (rejected_numbers.reason). */
/** 4: WhatsApp free-form text to a number without an open 24-hour customer-service window (only templates may go). */
/** 5: on the customer's opt-out list (docs/opt-outs.md): never sent, never charged. */
/**
 * 6: a personalised batch's row whose cell of a column the content uses is empty; 7: a text filled with the row's
 * values is longer than its field allows (an SMS or RCS fallback text over SMS_MAX_SEGMENTS, an RCS card title over
 * 200 characters...). Never sent, never charged.
 */
export const RejectReason = {
  INVALID: 1,
  DUPLICATE: 2,
  COUNTRY_NOT_SERVED: 3,
  WINDOW_CLOSED: 4,
  OPTED_OUT: 5,
  MISSING_VARIABLE: 6,
  FILLED_TOO_LONG: 7,
} as const;
export type RejectReason = (typeof RejectReason)[keyof typeof RejectReason];

/** Where a batch came from (message_batches.source). */
export const BatchSource = { WEB: 1, DEVELOPER_API: 2 } as const;
export type BatchSource = (typeof BatchSource)[keyof typeof BatchSource];

/**
 * Status groups of the screens: the back office's message/{filterType} (1 = review, i.e. status 11; 20, 21,
 * 22) and the RCS portal's /user/message/{type} (processing, sending, finish).
 */
export const BATCH_STAGES = {
  processing: [BatchStatus.UNDER_REVIEW, BatchStatus.REVIEW_PASSED, BatchStatus.PENDING_SEND],
  sending: [BatchStatus.SENDING],
  finish: [
    BatchStatus.REVIEW_REJECTED,
    BatchStatus.SEND_FINISHED,
    BatchStatus.SEND_TERMINATED,
    BatchStatus.SEND_FAILED,
    BatchStatus.SEND_CANCELLED,
  ],
} as const satisfies Record<string, readonly BatchStatus[]>;
export type BatchStage = keyof typeof BATCH_STAGES;

export const BATCH_FILTER_TYPES = {
  1: [BatchStatus.UNDER_REVIEW],
  20: [BatchStatus.PENDING_SEND],
  21: [BatchStatus.SENDING],
  22: [BatchStatus.SEND_FINISHED],
} as const satisfies Record<number, readonly BatchStatus[]>;

// ---------------------------------------------------------------- building blocks

/** A code given as a number or its canonical decimal text (query strings and multipart fields are strings). */
const codeOf = codeIn;

/** One number as typed; whether it is valid is the service's answer, not a validation error. */
const rawNumber = z.string().trim().min(1).max(64);

const scheduledAt = z.iso.datetime({ offset: true });

const productRef = {
  /** The product to send with; or productCode when the tenant has one active product of that code. */
  productId: id().optional(),
  productCode: codeOf(Object.values(ProductCode)).optional(),
};

function requireProduct(v: { productId?: number | undefined; productCode?: number | undefined }, ctx: z.RefinementCtx) {
  if (v.productId === undefined && v.productCode === undefined) {
    ctx.addIssue({ code: "custom", path: ["productId"], params: { i18n: "batch.product_required" } });
  }
}

const submitCommon = {
  ...productRef,
  /** 1 screening, 2 message sending */
  taskType: codeOf(Object.values(TaskType)),
  content: batchContent,
  /** Send at this time instead of at once (ISO 8601 with offset, in the future, at most 90 days ahead). */
  scheduledAt: scheduledAt.optional(),
};

const singleSubmit = z.object({
  ...submitCommon,
  submitMode: z.literal(SubmitMode.SINGLE),
  number: rawNumber,
});
const multipleSubmit = z.object({
  ...submitCommon,
  submitMode: z.literal(SubmitMode.MULTIPLE),
  numbers: z.array(z.string().max(64)).min(1).max(BATCH_MULTIPLE_MAX_NUMBERS),
});

/**
 * POST /batch/screening/send and POST /v1/batches/{id}/send-reachable: a message batch (task type 2) to the
 * numbers a finished screening found reachable, on the screening's product, with this content.
 */
export const reachableSendFields = z.object({
  content: batchContent,
  scheduledAt: scheduledAt.optional(),
});
export const reachableSendBody = reachableSendFields.extend({ id: bigId() });
export type ReachableSendBody = z.infer<typeof reachableSendBody>;

/** POST /batch/submit and POST /v1/messages: mode 1 (one number, waits for its outcome) or mode 2. */
export const batchSubmitBody = z
  .discriminatedUnion("submitMode", [singleSubmit, multipleSubmit])
  .superRefine(requireProduct);
export type BatchSubmitBody = z.infer<typeof batchSubmitBody>;

/** Content arrives in a multipart form as a JSON text field. */
const jsonField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v, ctx) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "json", params: { i18n: "batch.field_not_json" } });
      return z.NEVER;
    }
  }, schema);

/** Text fields of POST /batch/submit/file and POST /v1/messages/file (mode 3), beside the `file` part. */
export const batchFileFields = z
  .object({
    ...productRef,
    taskType: codeOf(Object.values(TaskType)),
    /** The content as JSON text, e.g. {"product":3000,"text":"Hello"}. */
    content: jsonField(batchContent),
    scheduledAt: scheduledAt.optional(),
  })
  .superRefine(requireProduct);
export type BatchFileFields = z.infer<typeof batchFileFields>;

// ---------------------------------------------------------------- pre-submit check

/** GET /user/submit/pre (query; numbers comma-separated) and POST /user/submit/pre (JSON). */
export const submitPreQuery = z
  .object({
    ...productRef,
    taskType: codeOf(Object.values(TaskType)).default(TaskType.MESSAGE),
    /** Content as JSON text in a query string, or an object in a JSON body; absent: 1 unit per number. */
    content: jsonField(batchContent).optional(),
    /** Numbers: an array in a JSON body, or one string separated by commas, semicolons or new lines. */
    numbers: z
      .union([z.array(z.string().max(64)).max(BATCH_MULTIPLE_MAX_NUMBERS), z.string().max(200_000)])
      .transform((v) => (typeof v === "string" ? v.split(/[,;\n\r]+/).filter((s) => s.trim() !== "") : v))
      .pipe(z.array(z.string()).min(1).max(BATCH_MULTIPLE_MAX_NUMBERS)),
  })
  .superRefine(requireProduct);
export type SubmitPreQuery = z.infer<typeof submitPreQuery>;

/** POST /user/submit/pre/file: the same check for a file, read and forgotten (nothing is stored). */
export const submitPreFileFields = z
  .object({
    ...productRef,
    taskType: codeOf(Object.values(TaskType)).default(TaskType.MESSAGE),
    content: jsonField(batchContent).optional(),
  })
  .superRefine(requireProduct);
export type SubmitPreFileFields = z.infer<typeof submitPreFileFields>;

export const countrySummary = z.object({
  countryCode: z.string(),
  /** Valid, distinct numbers of this country. */
  count: z.number().int(),
  /** false: the product does not serve the country, has no price or no channel for it; not charged. */
  served: z.boolean(),
  /** Why it is not served (translated), null when served. */
  reason: z.string().nullable(),
  /** Per unit (SMS segment or message); null when not served. */
  unitPrice: z.string().nullable(),
  /**
   * RCS with fallback text where SMS serves the country: what the SMS fallback costs per number (all its
   * segments). Each number is charged the larger of the two; the channel that carries it sets the final price and
   * the difference is refunded at the end. null otherwise.
   */
  fallbackPrice: z.string().nullable().default(null),
  /** count x the price charged per number. */
  cost: z.string(),
});
export type CountrySummary = z.infer<typeof countrySummary>;

/** The pre-submit check names at most this many of the inputs it refused (invalid or duplicate). */
export const PRE_REJECTED_SAMPLE_MAX = 50;

/** An input the pre-submit check refused: the caller's own text, so naming it discloses nothing. */
export const rejectedSample = z.object({
  /** As sent, trimmed and cut to 64 characters. */
  raw: z.string(),
  /** RejectReason: 1 invalid, 2 duplicate (of an earlier input). */
  reason: z.number().int(),
});
export type RejectedSample = z.infer<typeof rejectedSample>;

export const submitPreResult = z.object({
  total: z.number().int(),
  /** Numbers that will be sent and charged. */
  valid: z.number().int(),
  invalid: z.number().int(),
  duplicate: z.number().int(),
  /** The first PRE_REJECTED_SAMPLE_MAX invalid or duplicate inputs in the order sent, and why. */
  rejected: z.array(rejectedSample).max(PRE_REJECTED_SAMPLE_MAX),
  /** Valid numbers of countries the product does not serve (not charged). */
  notServed: z.number().int(),
  /**
   * WhatsApp free-form content: valid numbers whose user has no open 24-hour window on the channel that would
   * carry them (refused per number, not charged; a template reaches them). 0 for other content.
   */
  windowClosed: z.number().int(),
  /**
   * Valid numbers on the customer's opt-out list (refused per number, never sent, never charged). Always sent by
   * this API; optional only so older clients' fixtures still read.
   */
  optOut: z.number().int().optional(),
  countries: z.array(countrySummary),
  /** SMS segments per message (1 for WS, RCS and screening); chargeable units per number. */
  segments: z.number().int(),
  /**
   * Personalised campaigns: the file's columns other than the number column (as its header names them; empty
   * without a header, and for numbers sent in the request).
   */
  variables: z.array(z.string()).optional(),
  /**
   * Chargeable units after each recipient's text is filled: the largest of one recipient, and the sum over the
   * recipients charged (equal to segments and segments x valid when the content has no variable). These four
   * are always sent by this API; optional only so older clients' fixtures still read.
   */
  segmentsMax: z.number().int().optional(),
  segmentsTotal: z.number().int().optional(),
  /** Rows refused because a used column's cell is empty (reason 6) or the filled text is too long (reason 7). */
  unfilled: z.number().int().optional(),
  encoding: z.enum(["gsm7", "ucs2"]).nullable(),
  totalCost: z.string(),
  balance: z.string(),
  sufficient: z.boolean(),
  /** Whether identity authentication allows this customer to send now, and if not why (translated). */
  authenticationAllowed: z.boolean(),
  authenticationReason: z.string().nullable(),
  /** Whether the batch would wait for review under the tenant's rules. */
  reviewRequired: z.boolean(),
});
export type SubmitPreResult = z.infer<typeof submitPreResult>;

// ---------------------------------------------------------------- batch rows

export const batchRow = z.object({
  /** BigInt id as a decimal string. */
  id: z.string(),
  userId: z.number().int(),
  user: z.string(),
  agentId: z.number().int().nullable(),
  productId: z.number().int(),
  productCode: z.number().int(),
  productName: z.string(),
  taskType: z.number().int(),
  submitMode: z.number().int(),
  /** 1 web, 2 developer API */
  source: z.number().int(),
  status: z.number().int(),
  /** The message text a reviewer reads (first 200 characters). */
  preview: z.string(),
  senderId: z.string().nullable(),
  segments: z.number().int(),
  scheduledAt: z.string().nullable(),
  fileName: z.string().nullable(),
  /** Mode 3: true until the file's numbers are in the batch; ingestedCount of totalCount read so far. */
  ingesting: z.boolean(),
  ingestedCount: z.number().int(),
  totalCount: z.number().int(),
  validCount: z.number().int(),
  invalidCount: z.number().int(),
  duplicateCount: z.number().int(),
  /** Valid numbers of countries the product does not serve (rejected, not charged). */
  notServedCount: z.number().int(),
  /** Valid numbers on the customer's opt-out list (rejected, never sent, never charged); always sent by this API. */
  optOutCount: z.number().int().optional(),
  /** Personalised batches: rows refused for an empty used cell or a filled text too long (never charged). */
  unfilledCount: z.number().int().optional(),
  sentCount: z.number().int(),
  successCount: z.number().int(),
  failedCount: z.number().int(),
  deliveredCount: z.number().int(),
  undeliveredCount: z.number().int(),
  /** Opened (RCS and WhatsApp read reports). */
  readCount: z.number().int(),
  /** RCS recipients sent their fallback text as SMS. */
  fallbackCount: z.number().int(),
  /** Whole percent: of the file read while ingesting, else of the valid recipients sent; 100 once final. */
  progress: z.number().int(),
  cost: z.string(),
  refunded: z.string(),
  /**
   * Why it was rejected, terminated or failed, in the reader's language (the `lang` header; callbacks: the
   * customer's language); a reviewer's own words verbatim. null when there is none.
   */
  reason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
  ...acrossTenants,
});
export type BatchRow = z.infer<typeof batchRow>;

export const batchList = z.object({ list: z.array(batchRow), total: z.number().int() });
export type BatchList = z.infer<typeof batchList>;

export const batchDetail = batchRow.extend({
  content: batchContent,
  reviewer: z.string().nullable(),
  /**
   * Staff only: why the batch was held for review (the sensitive words, review mode 1, the threshold of mode 2),
   * as judged at submission. null for customers, for a batch that was not held (or whose file is still being
   * read), and for a batch submitted before the reasons were recorded.
   */
  reviewReasons: reviewReasons.nullable(),
  /** Recipients per country with their cost (valid numbers only). */
  countries: z.array(z.object({ countryCode: z.string(), count: z.number().int(), cost: z.string() })),
  /** Its tracked links with their clicks and click-through rates (docs/batches.md); null without any. */
  links: batchLinkStats.nullable(),
});
export type BatchDetail = z.infer<typeof batchDetail>;

export const batchListQuery = paging.extend({
  productCode: codeOf(Object.values(ProductCode)).optional(),
  /** One status code. */
  status: codeOf(Object.values(BatchStatus)).optional(),
  /** Back office group: 1 review (status 11), 20, 21, 22. */
  filterType: codeIn([1, 20, 21, 22]).optional(),
  /** RCS portal group: processing (11, 12, 20), sending (21), finish (13, 22, 23, 24, 29). */
  stage: z.enum(["processing", "sending", "finish"]).optional(),
  /** Staff: one customer's batches; admins also an agent's customers' batches. */
  userId: id().optional(),
  agentId: id().optional(),
  /** A batch id. */
  keyword: text(19).optional(),
  ...timeRange.shape,
});
export type BatchListQuery = z.infer<typeof batchListQuery>;

export const batchIdQuery = z.object({ id: bigId() });

/** GET /batch/whatsapp/templates: the approved templates this WS product can send for the caller. */
export const sendableTemplatesQuery = z.object(productRef).superRefine(requireProduct);
export type BatchIdQuery = z.infer<typeof batchIdQuery>;
export const batchIdBody = batchIdQuery;
export type BatchIdBody = z.infer<typeof batchIdBody>;

export const reviewPassBody = z.object({ id: bigId(), scheduledAt: scheduledAt.optional() });
export type ReviewPassBody = z.infer<typeof reviewPassBody>;
export const reviewRejectBody = z.object({ id: bigId(), reason: text(BATCH_REASON_TEXT_MAX, 1) });
export type ReviewRejectBody = z.infer<typeof reviewRejectBody>;
export const terminateBody = z.object({ id: bigId(), reason: text(BATCH_REASON_TEXT_MAX).optional() });
export type TerminateBody = z.infer<typeof terminateBody>;

// ---------------------------------------------------------------- submission answers

/** Per number of a mode 1 or 2 request, in request order. */
export const numberOutcome = z.object({
  input: z.string(),
  /** accepted: in the batch and charged; the others are not sent and not charged (opted_out: on the opt-out list). */
  result: z.enum(["accepted", "invalid", "duplicate", "country_not_served", "opted_out"]),
  e164: z.string().nullable(),
  countryCode: z.string().nullable(),
});
export type NumberOutcome = z.infer<typeof numberOutcome>;

export const singleRecipientResult = z.object({
  phone: z.string(),
  countryCode: z.string(),
  price: z.string(),
  /** 0 not sent yet, 1 accepted by the provider, 2 refused, 3 terminated */
  sendResult: z.number().int(),
  errorCode: z.string().nullable(),
  providerMessageId: z.string().nullable(),
});

export const batchSubmitResult = z.object({
  batch: batchRow,
  numbers: z.array(numberOutcome),
  /**
   * Mode 1 only: accepted / refused (the provider's answer), sending (no answer within the wait),
   * under_review, scheduled. Null for mode 2.
   */
  outcome: z.enum(["accepted", "refused", "sending", "under_review", "scheduled"]).nullable(),
  recipient: singleRecipientResult.nullable(),
});
export type BatchSubmitResult = z.infer<typeof batchSubmitResult>;

export const batchFileSubmitResult = z.object({ batch: batchRow });
export type BatchFileSubmitResult = z.infer<typeof batchFileSubmitResult>;

// ---------------------------------------------------------------- recipients

export const recipientListQuery = paging.extend({
  id: bigId(),
  /** Numbers starting with this (E.164, "+" optional). */
  phone: z
    .string()
    .trim()
    .regex(/^\+?\d{1,15}$/)
    .optional(),
  sendResult: codeOf(Object.values(SendResult)).optional(),
  receiveResult: codeOf(Object.values(ReceiveResult)).optional(),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .optional(),
});
export type RecipientListQuery = z.infer<typeof recipientListQuery>;

/**
 * The recipients' CSV: the list's filters, and the IANA time zone its times are written in (the caller's own,
 * sent by the web client; default UTC).
 */
export const recipientExportQuery = recipientListQuery
  .omit({ page: true, pageSize: true })
  .extend({ tz: timeZoneName().default("UTC") });
export type RecipientExportQuery = z.infer<typeof recipientExportQuery>;

export const recipientRow = z.object({
  id: z.string(),
  phone: z.string(),
  countryCode: z.string(),
  /** Staff only (null for customers). */
  channelId: z.number().int().nullable(),
  /** Staff only: the name of that channel (null for customers, and before the number is routed). */
  channelName: z.string().nullable(),
  segments: z.number().int(),
  price: z.string(),
  sendResult: z.number().int(),
  receiveResult: z.number().int(),
  errorCode: z.string().nullable(),
  sentAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
  /** RCS and WhatsApp: when the user opened it. */
  readAt: z.string().nullable(),
  /** An RCS message that could not be delivered as RCS and was sent as SMS (its fallback text). */
  fellBackToSms: z.boolean(),
});
export type RecipientRow = z.infer<typeof recipientRow>;
export const recipientList = z.object({ list: z.array(recipientRow), total: z.number().int() });
export type RecipientList = z.infer<typeof recipientList>;

/** What the batch's recipients wrote back (WhatsApp and RCS replies, button taps), newest first. */
export const batchReplyQuery = paging.extend({ id: bigId() });
export type BatchReplyQuery = z.infer<typeof batchReplyQuery>;

export const batchReply = z.object({
  id: z.string(),
  phone: z.string(),
  /** The reply's text; null for a tap that carried only postback data. */
  text: z.string().nullable(),
  /** A suggested reply's or quick-reply button's postback data / payload. */
  postbackData: z.string().nullable(),
  receivedAt: z.string(),
});
export type BatchReply = z.infer<typeof batchReply>;
export const batchReplyList = z.object({ list: z.array(batchReply), total: z.number().int() });
export type BatchReplyList = z.infer<typeof batchReplyList>;

// ---------------------------------------------------------------- message search (one number across batches)

/** Only the newest this many messages to a number are found (a test number may be in every batch of a tenant). */
export const RECIPIENT_SEARCH_MAX = 1000;

/**
 * GET /batch/recipients/search: the messages sent to one number across the batches the caller may see, newest
 * first. The number is read like a submission's (E.164, or "00" and national forms as the tenant's mode allows).
 */
export const recipientSearchQuery = paging.extend({
  number: z.string().trim().min(1).max(32),
  productCode: codeOf(Object.values(ProductCode)).optional(),
});
export type RecipientSearchQuery = z.infer<typeof recipientSearchQuery>;

export const recipientSearchRow = z.object({
  /** The recipient's id (BigInt as a decimal string). */
  id: z.string(),
  batchId: z.string(),
  productCode: z.number().int(),
  productName: z.string(),
  /** 1 screening, 2 message sending */
  taskType: z.number().int(),
  batchStatus: z.number().int(),
  /** The batch's customer. */
  userId: z.number().int(),
  user: z.string(),
  phone: z.string(),
  countryCode: z.string(),
  sendResult: z.number().int(),
  receiveResult: z.number().int(),
  errorCode: z.string().nullable(),
  sentAt: z.string().nullable(),
  /** The delivery report's time. */
  receivedAt: z.string().nullable(),
  readAt: z.string().nullable(),
  fellBackToSms: z.boolean(),
  /** When the batch was submitted. */
  createdAt: z.string(),
  /** Staff only (null for customers): the channel that carried it. */
  channelId: z.number().int().nullable(),
  channelName: z.string().nullable(),
  /** A super admin looking across every tenant: the batch's tenant (null otherwise). */
  tenantName: z.string().nullable(),
});
export type RecipientSearchRow = z.infer<typeof recipientSearchRow>;

export const recipientSearchResult = z.object({
  list: z.array(recipientSearchRow),
  /** Messages found, at most RECIPIENT_SEARCH_MAX. */
  total: z.number().int(),
  /** More than RECIPIENT_SEARCH_MAX were found: only the newest are listed. */
  capped: z.boolean(),
  /** The number as searched (E.164). */
  e164: z.string(),
});
export type RecipientSearchResult = z.infer<typeof recipientSearchResult>;

// ---------------------------------------------------------------- developer API

export const v1BatchParams = z.object({ id: bigId() });
export type V1BatchParams = z.infer<typeof v1BatchParams>;

// The /v1 lists answer the key's customer about its own rows: the staff filters (a customer, an agent, the back
// office's review group) are not offered there, and an unknown query field is refused like any other.
export const v1BatchListQuery = batchListQuery
  .omit({ userId: true, agentId: true, filterType: true })
  .extend(cursorParam)
  .strict()
  .superRefine(pageOrCursor);
export type V1BatchListQuery = z.infer<typeof v1BatchListQuery>;
export const v1BatchList = withNextCursor(batchList);
export type V1BatchList = z.infer<typeof v1BatchList>;

/** A batch's messages (one per recipient): the recipient list's filters, the batch named in the path. */
export const v1MessageListQuery = recipientListQuery
  .omit({ id: true })
  .extend(cursorParam)
  .strict()
  .superRefine(pageOrCursor);
export type V1MessageListQuery = z.infer<typeof v1MessageListQuery>;
export const v1MessageList = withNextCursor(recipientList);
export type V1MessageList = z.infer<typeof v1MessageList>;

/** One message (a recipient of a batch) by its id, with the batch it belongs to. */
export const v1MessageParams = z.object({ id: bigId() });
export const v1Message = recipientRow.extend({ batchId: z.string() });
export type V1Message = z.infer<typeof v1Message>;

/** GET /v1/inbound: what users wrote back to the customer, newest first; each as the `inbound` webhook posts it. */
export const v1InboundQuery = paging
  .extend({
    batchId: bigId().optional(),
    /** Senders whose number starts with this (E.164, "+" optional). */
    phone: z
      .string()
      .trim()
      .regex(/^\+?\d{1,15}$/)
      .optional(),
    ...timeRange.shape,
    ...cursorParam,
  })
  .strict()
  .superRefine(pageOrCursor);
export type V1InboundQuery = z.infer<typeof v1InboundQuery>;
export const v1InboundList = withNextCursor(z.object({ list: z.array(inboundData), total: z.number().int() }));
export type V1InboundList = z.infer<typeof v1InboundList>;
