// Developer API (/v1) resources beside batches and messages: a batch's send time, the customer's products with
// whether each can send, and sender id requests. Same shapes as the customer app's answers where one exists.
import { z } from "zod";
import { batchScheduleBody } from "./batches";
import { productItem } from "./catalog";
import { id } from "./common";
import { senderIdRequestBody } from "./sender-ids";

/**
 * POST /v1/batches/{id}/schedule: a new send time for a batch pending send (20), or null to send it at once; the
 * customer app's rules (in the future, at most 90 days ahead; a batch that started sending answers 409).
 */
export const v1ScheduleBody = batchScheduleBody.pick({ scheduledAt: true });
export type V1ScheduleBody = z.infer<typeof v1ScheduleBody>;

/** GET /v1/products: the active products of the customer's tenant, each with whether it can send for them now. */
export const v1Product = productItem
  .pick({ id: true, code: true, name: true, category: true, countryScope: true, countryCodes: true })
  .extend({
    sendable: z.boolean().meta({ description: "an active channel carries it for this customer" }),
    unavailableReason: z.string().nullable().meta({ description: "why not, in the request's language" }),
  });
export type V1Product = z.infer<typeof v1Product>;
export const v1ProductList = z.object({ list: z.array(v1Product), total: z.number().int() });
export type V1ProductList = z.infer<typeof v1ProductList>;

/** POST /v1/sender-ids: as the customer app's request (POST /sender-id/request). */
export const v1SenderIdRequestBody = senderIdRequestBody;
export type V1SenderIdRequestBody = z.infer<typeof v1SenderIdRequestBody>;
export const v1SenderIdParams = z.object({ id: id() });
export type V1SenderIdParams = z.infer<typeof v1SenderIdParams>;
