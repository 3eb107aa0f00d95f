// The inbox (issue 18, inbound messages): what users wrote back to a customer across all its batches, for the
// customer app's and the RCS portal's Replies page. A customer reads its own; staff read one customer of their
// scope (userId required). The rows are the inbound webhook's data plus the answered batch's product and status.
import { z } from "zod";
import { paging, timeRange } from "./common";
import { inboundData } from "./webhooks";

export const inboxQuery = paging
  .extend({
    /** Replies matched to this batch only. */
    batchId: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
    /** Senders whose number starts with this (E.164, "+" optional). */
    phone: z
      .string()
      .trim()
      .regex(/^\+?\d{1,15}$/)
      .optional(),
    /** Staff: the customer whose inbox to read (in the caller's scope). Customers read their own. */
    userId: z.coerce.number().int().positive().optional(),
    ...timeRange.shape,
  })
  .strict();
export type InboxQuery = z.infer<typeof inboxQuery>;

export const inboxRow = inboundData.extend({
  /** The answered batch's product code (ProductCode: 1000 RCS, 2000 WS, 3000 SMS), null when the reply matched no batch. */
  product: z.number().int().nullable(),
  /** The answered batch's status now (where its detail opens in the portal), null without a batch. */
  batchStatus: z.number().int().nullable(),
});
export type InboxRow = z.infer<typeof inboxRow>;
export const inboxList = z.object({ list: z.array(inboxRow), total: z.number().int() });
export type InboxList = z.infer<typeof inboxList>;
