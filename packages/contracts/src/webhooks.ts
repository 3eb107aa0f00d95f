// The webhook catalogue: every event the platform posts to a customer's notify URL, with its body. One schema per
// event serves three readers: the workers build each body as its schema says (workers/src/jobs/callback.ts), the
// OpenAPI document lists them in its `webhooks` section (apps/api/src/webhooks-doc.ts), and the tests parse what
// a receiver really got against them.
//
// Every body is { event, eventId, createdAt, data }, signed in the CALLBACK_SIGNATURE_HEADER; eventId is the same
// on every attempt of one event (a receiver drops repeats by it). Version 1: fields are only ever added.
import { z } from "zod";

export const WEBHOOK_VERSION = 1;

export const WEBHOOK_EVENTS = ["batch_finished", "delivery_report", "inbound"] as const;
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
  delivery_report: bodyOf("delivery_report", deliveryReportData),
  inbound: bodyOf("inbound", inboundData),
} as const;

/** Any body the platform posts (parse by its `event`). */
export const webhookBody = z.discriminatedUnion("event", [
  webhookBodies.batch_finished,
  webhookBodies.delivery_report,
  webhookBodies.inbound,
]);
export type WebhookBody = z.infer<typeof webhookBody>;

/** What each event is, for the catalogue. */
export const WEBHOOK_SUMMARIES: Record<WebhookEvent, string> = {
  batch_finished: "A batch reached its end (22 finished, 23 terminated, 24 failed): its counts, cost and refund",
  delivery_report: "Delivery (or read) of messages became known: up to 1,000 messages of one batch per event",
  inbound: "A user wrote back: a reply, a suggestion or button tap, matched to the batch that last reached them",
};
