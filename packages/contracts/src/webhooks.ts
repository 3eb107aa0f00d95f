// The webhook catalogue: every event the platform posts to a customer's notify URL, with its body. One schema per
// event serves three readers: the workers build each body as its schema says (workers/src/jobs/callback.ts), the
// OpenAPI document lists them in its `webhooks` section (apps/api/src/webhooks-doc.ts), and the tests parse what
// a receiver really got against them.
//
// Every body is { event, eventId, createdAt, data }, signed in the CALLBACK_SIGNATURE_HEADER; eventId is the same
// on every attempt of one event (a receiver drops repeats by it). Version 1: events and fields are only ever added.
import { z } from "zod";

export const WEBHOOK_VERSION = 1;

export const WEBHOOK_EVENTS = [
  "batch_finished",
  "batch_status",
  "delivery_report",
  "message_fallback",
  "inbound",
  "opt_out",
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const isoTime = z.string().meta({ description: "ISO 8601 time, UTC" });
const nullableTime = isoTime.nullable();

/** A batch reached its end: 22 finished, 23 terminated or 24 failed (with why). */
export const batchFinishedData = z.object({
  batchId: z.string(),
  status: z.number().int().meta({ description: "22 finished, 23 terminated, 24 failed" }),
  productCode: z.number().int(),
  totalCount: z.number().int(),
  validCount: z.number().int(),
  sentCount: z.number().int(),
  successCount: z.number().int(),
  failedCount: z.number().int(),
  deliveredCount: z.number().int(),
  undeliveredCount: z.number().int(),
  cost: z.string().meta({ description: "money, 4 decimals" }),
  refunded: z.string(),
  reason: z.string().nullable().meta({ description: "why it failed or was stopped, in the customer's language" }),
  finishedAt: nullableTime,
});
export type BatchFinishedData = z.infer<typeof batchFinishedData>;

/**
 * What a batch status change was, named from its old and new status (batchStatusChange): the review passed
 * (11 -> 20: the pass moves through 12 in the same transaction), rejected (11 -> 13), a new send time (20 -> 20),
 * sending (20 -> 21), finished (21 -> 22), terminated (21 -> 23), failed (-> 24), cancelled (-> 29).
 */
export const BATCH_STATUS_CHANGES = [
  "review_passed",
  "review_rejected",
  "scheduled",
  "sending",
  "finished",
  "terminated",
  "failed",
  "cancelled",
] as const;
export type BatchStatusChange = (typeof BATCH_STATUS_CHANGES)[number];

/** The change a move from one batch status to another is (null: not one the catalogue reports). */
export function batchStatusChange(from: number, to: number): BatchStatusChange | null {
  if (to === 29) return "cancelled";
  if (to === 24) return "failed";
  if (from === 11) return to === 20 || to === 12 ? "review_passed" : to === 13 ? "review_rejected" : null;
  if (from === 20) return to === 20 ? "scheduled" : to === 21 ? "sending" : null;
  if (from === 21) return to === 22 ? "finished" : to === 23 ? "terminated" : null;
  return null;
}

/**
 * One status change of a batch, as it happened (the batch may have moved on by the time it is posted: status is
 * the change's new status, not the batch's current one). Sent for every change BATCH_STATUS_CHANGES names, beside
 * batch_finished (which still comes once at 22, 23 or 24, with the counts).
 */
export const batchStatusData = z.object({
  batchId: z.string(),
  change: z.enum(BATCH_STATUS_CHANGES),
  previousStatus: z.number().int().meta({ description: "the status before the change (11, 20 or 21)" }),
  status: z.number().int().meta({
    description:
      "the status after it: 20 pending send, 21 sending, 22 finished, 13 rejected, 23 terminated, 24 failed, 29 cancelled",
  }),
  productCode: z.number().int(),
  scheduledAt: nullableTime.meta({ description: "the batch's send time (null: at once), as it is now" }),
  reason: z.string().nullable().meta({
    description: "why (rejected, terminated, failed), in the customer's language; null for the other changes",
  }),
  changedAt: isoTime,
});
export type BatchStatusData = z.infer<typeof batchStatusData>;

/**
 * RCS messages that could not be delivered as RCS and were handed to SMS with the batch's fallback text (up to
 * 1,000 of one batch per event); each one's SMS outcome follows as a delivery_report with fellBackToSms.
 */
export const messageFallbackData = z.object({
  batchId: z.string(),
  messages: z.array(
    z.object({
      recipientId: z.string().meta({ description: "the message id of GET /v1/messages/{id}" }),
      phone: z.string(),
      fromChannel: z.literal("rcs"),
      toChannel: z.literal("sms"),
    }),
  ),
});
export type MessageFallbackData = z.infer<typeof messageFallbackData>;

/**
 * A user's reply that was one of the opt-out keywords (STOP, 退订...) put its number on the customer's opt-out
 * list: later batches skip it. Not sent for numbers the customer adds itself (screens, imports, POST /v1/opt-outs),
 * nor for a keyword from a number already on the list.
 */
export const optOutData = z.object({
  optOutId: z.number().int(),
  phone: z.string().meta({ description: "E.164" }),
  source: z.literal("keyword_reply"),
  channel: z.string().meta({ description: "the channel kind the reply came in on: smpp (SMS), rcs, whatsapp, http" }),
  inboundId: z.string().meta({ description: "the reply (as the inbound webhook and GET /v1/inbound name it)" }),
  batchId: z.string().nullable().meta({ description: "the batch the reply answered" }),
  createdAt: isoTime,
});
export type OptOutData = z.infer<typeof optOutData>;

/** Messages of a batch whose delivery (or read) became known, up to 1,000 per event. */
export const deliveryReportData = z.object({
  batchId: z.string(),
  reports: z.array(
    z.object({
      recipientId: z.string().meta({ description: "the message id of GET /v1/messages/{id}" }),
      phone: z.string(),
      sendResult: z.number().int().meta({ description: "1 sent, 2 failed, 3 terminated" }),
      receiveResult: z.number().int().meta({ description: "0 unknown, 1 delivered, 2 not delivered" }),
      errorCode: z.string().nullable(),
      sentAt: nullableTime,
      receivedAt: nullableTime,
      readAt: nullableTime,
      fellBackToSms: z.boolean().meta({ description: "an RCS message sent as its SMS fallback text" }),
    }),
  ),
});
export type DeliveryReportData = z.infer<typeof deliveryReportData>;

/** A user wrote back (a reply, a suggestion or button tap), matched to the batch that last reached the number. */
export const inboundData = z.object({
  inboundId: z.string(),
  batchId: z.string().nullable(),
  recipientId: z.string().nullable(),
  from: z.string().meta({ description: "E.164" }),
  text: z.string().nullable(),
  postbackData: z.string().nullable(),
  inReplyTo: z.string().nullable(),
  receivedAt: isoTime,
});
export type InboundData = z.infer<typeof inboundData>;

function bodyOf<E extends WebhookEvent, D extends z.ZodType>(event: E, data: D) {
  return z.object({
    event: z.literal(event),
    eventId: z.string().meta({ description: "the same on every attempt of this event" }),
    createdAt: isoTime,
    data,
  });
}

export const webhookBodies = {
  batch_finished: bodyOf("batch_finished", batchFinishedData),
  batch_status: bodyOf("batch_status", batchStatusData),
  delivery_report: bodyOf("delivery_report", deliveryReportData),
  message_fallback: bodyOf("message_fallback", messageFallbackData),
  inbound: bodyOf("inbound", inboundData),
  opt_out: bodyOf("opt_out", optOutData),
} as const;

/** Any body the platform posts (parse by its `event`). */
export const webhookBody = z.discriminatedUnion("event", [
  webhookBodies.batch_finished,
  webhookBodies.batch_status,
  webhookBodies.delivery_report,
  webhookBodies.message_fallback,
  webhookBodies.inbound,
  webhookBodies.opt_out,
]);
export type WebhookBody = z.infer<typeof webhookBody>;

/** What each event is, for the catalogue. */
export const WEBHOOK_SUMMARIES: Record<WebhookEvent, string> = {
  batch_finished: "A batch reached its end (22 finished, 23 terminated, 24 failed): its counts, cost and refund",
  batch_status:
    "A batch's status changed: review passed or rejected, a new send time, sending, finished, terminated, failed, cancelled",
  delivery_report: "Delivery (or read) of messages became known: up to 1,000 messages of one batch per event",
  message_fallback:
    "RCS messages were handed to SMS (the batch's fallback text): up to 1,000 of one batch; their outcome follows as delivery_report",
  inbound: "A user wrote back: a reply, a suggestion or button tap, matched to the batch that last reached them",
  opt_out: "A user's opt-out keyword reply (STOP...) put their number on the customer's opt-out list",
};
