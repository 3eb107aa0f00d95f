// Message batches: the status machine of DOMAIN.md and the content each product carries.
// Shared by the API (submission, review, cancel, terminate), the workers (dispatch, finish) and the web client.
import { z } from "zod";
import { BatchStatus, ProductCode } from "./codes";
import { bigId, text } from "./common";
import { countSegments } from "./sms-segments";

// ---------------------------------------------------------------- status machine

/**
 *            create
 *              |
 *   review needed? --no--> 12 passed --> 20 pending send (waits for its schedule)
 *              | yes             ^                 |
 *              v                 |                 v
 *        11 under review --pass--+           21 sending --> 22 send finished
 *              |                                   |  \
 *            reject                          stop  |   all failed / channel dead
 *              v                                   v     v
 *        13 rejected                     23 terminated  24 send failed
 *
 *   11, 12, 20 --customer cancel--> 29 cancelled
 */
export const BATCH_TRANSITIONS: Readonly<Record<BatchStatus, readonly BatchStatus[]>> = {
  [BatchStatus.UNDER_REVIEW]: [BatchStatus.REVIEW_PASSED, BatchStatus.REVIEW_REJECTED, BatchStatus.SEND_CANCELLED],
  [BatchStatus.REVIEW_PASSED]: [BatchStatus.PENDING_SEND, BatchStatus.SEND_CANCELLED],
  [BatchStatus.REVIEW_REJECTED]: [],
  [BatchStatus.PENDING_SEND]: [BatchStatus.SENDING, BatchStatus.SEND_CANCELLED],
  [BatchStatus.SENDING]: [BatchStatus.SEND_FINISHED, BatchStatus.SEND_TERMINATED, BatchStatus.SEND_FAILED],
  [BatchStatus.SEND_FINISHED]: [],
  [BatchStatus.SEND_TERMINATED]: [],
  [BatchStatus.SEND_FAILED]: [],
  [BatchStatus.SEND_CANCELLED]: [],
};

export function canTransition(from: number, to: number): boolean {
  return (BATCH_TRANSITIONS[from as BatchStatus] ?? []).includes(to as BatchStatus);
}

/** Statuses from which a batch never moves again. */
export const FINAL_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.REVIEW_REJECTED,
  BatchStatus.SEND_FINISHED,
  BatchStatus.SEND_TERMINATED,
  BatchStatus.SEND_FAILED,
  BatchStatus.SEND_CANCELLED,
];

/** Statuses a customer may cancel from. */
export const CANCELLABLE_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.UNDER_REVIEW,
  BatchStatus.REVIEW_PASSED,
  BatchStatus.PENDING_SEND,
];

/** Statuses whose schedule a reviewer may still change (POST /batch/schedule). */
export const RESCHEDULABLE_BATCH_STATUSES: readonly BatchStatus[] = [BatchStatus.PENDING_SEND];

/**
 * POST /batch/schedule: a new send time for a batch pending send (ISO 8601 with offset, in the future, at most
 * 90 days ahead), or null to send it at once. One conditional update on status 20.
 */
export const batchScheduleBody = z.object({
  id: bigId(),
  scheduledAt: z.iso.datetime({ offset: true }).nullable(),
});
export type BatchScheduleBody = z.infer<typeof batchScheduleBody>;

/** Batches ending in these are refunded whole (nothing was sent). */
export const FULLY_REFUNDED_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.REVIEW_REJECTED,
  BatchStatus.SEND_CANCELLED,
];

// ---------------------------------------------------------------- content per product

/** SMS: up to 10 parts (1,530 GSM-7 characters or 670 UCS-2). */
export const SMS_MAX_SEGMENTS = 10;
export const WS_TEXT_MAX = 4096;
export const RCS_TEXT_MAX = 3072;

/** Alphanumeric sender ids are at most 11 characters (GSM 03.38); numeric ones at most 16 digits. */
const senderId = z
  .string()
  .trim()
  .regex(/^(?:[A-Za-z0-9 ._-]{1,11}|\+?\d{1,16})$/);

export const smsContent = z
  .object({
    product: z.literal(ProductCode.SMS),
    text: z.string().min(1).max(1530),
    senderId: senderId.optional(),
  })
  .superRefine((c, ctx) => {
    const { segments } = countSegments(c.text);
    if (segments > SMS_MAX_SEGMENTS) {
      ctx.addIssue({
        code: "custom",
        path: ["text"],
        message: "too many segments",
        params: { i18n: "batch.sms_too_long", max: SMS_MAX_SEGMENTS, segments },
      });
    }
  });

export const wsContent = z.object({
  product: z.literal(ProductCode.WS),
  body: z.discriminatedUnion("type", [
    z.object({ type: z.literal("text"), text: z.string().min(1).max(WS_TEXT_MAX) }),
    z.object({
      type: z.literal("template"),
      /** Approved template name (WhatsApp: lower case, digits, underscores). */
      name: z.string().regex(/^[a-z0-9_]{1,512}$/),
      /** BCP 47 language of the approved template, e.g. en_US, zh_CN. */
      language: z.string().regex(/^[a-z]{2,3}(?:_[A-Z]{2})?$/),
      parameters: z.array(text(1024)).max(20).default([]),
    }),
  ]),
});

const suggestion = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reply"), text: text(25, 1), postbackData: text(2048).optional() }),
  z.object({ type: z.literal("url"), text: text(25, 1), url: z.url({ protocol: /^https?$/ }).max(2048) }),
  z.object({ type: z.literal("dial"), text: text(25, 1), phoneNumber: z.string().regex(/^\+\d{4,15}$/) }),
]);

export const rcsContent = z.object({
  product: z.literal(ProductCode.RCS),
  body: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("text"),
      text: z.string().min(1).max(RCS_TEXT_MAX),
      suggestions: z.array(suggestion).max(11).default([]),
    }),
    z.object({
      type: z.literal("card"),
      title: text(200, 1),
      description: text(2000).optional(),
      mediaUrl: z
        .url({ protocol: /^https$/ })
        .max(2048)
        .optional(),
      suggestions: z.array(suggestion).max(4).default([]),
    }),
  ]),
  /** Sent as SMS to numbers that cannot receive RCS. */
  fallbackText: z.string().min(1).max(1530).optional(),
});

export const batchContent = z.discriminatedUnion("product", [smsContent, wsContent, rcsContent]);
export type BatchContent = z.infer<typeof batchContent>;
export type SmsContent = z.infer<typeof smsContent>;
export type WsContent = z.infer<typeof wsContent>;
export type RcsContent = z.infer<typeof rcsContent>;

/** Chargeable units per recipient: SMS segments, one for WS and RCS. */
export function chargeableUnits(content: BatchContent): number {
  return content.product === ProductCode.SMS ? countSegments(content.text).segments : 1;
}

/** The text a reviewer reads and sensitive words are searched in. */
export function contentText(content: BatchContent): string {
  switch (content.product) {
    case ProductCode.SMS:
      return content.text;
    case ProductCode.WS:
      return content.body.type === "text"
        ? content.body.text
        : [content.body.name, ...content.body.parameters].join(" ");
    case ProductCode.RCS: {
      const b = content.body;
      const main = b.type === "text" ? b.text : [b.title, b.description ?? ""].join(" ");
      return [main, ...b.suggestions.map((s) => s.text), content.fallbackText ?? ""].join(" ").trim();
    }
  }
}
