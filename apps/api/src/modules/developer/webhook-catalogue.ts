// The OpenAPI document's `webhooks` section (OpenAPI 3.1): every event posted to a customer's notify URL, with
// its body's schema taken from the catalogue in packages/contracts/src/webhooks.ts (the same schemas the workers
// build the bodies by), how it is signed, and what the receiver answers.

import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import {
  CALLBACK_SIGNATURE_HEADER,
  WEBHOOK_EVENTS,
  WEBHOOK_SUMMARIES,
  WEBHOOK_VERSION,
  webhookBodies,
} from "@switchboard/contracts";
import { z } from "zod";

/** The `webhooks` field of the 3.1 document @fastify/swagger takes. */
type Webhooks = NonNullable<
  Extract<NonNullable<FastifyDynamicSwaggerOptions["openapi"]>, { webhooks?: unknown }>["webhooks"]
>;

const DELIVERY =
  `Posted as JSON to the notify URL set on the developer page, signed: \`${CALLBACK_SIGNATURE_HEADER}: ` +
  't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, the HMAC key being the lower-case hex SHA-256 of ' +
  "the customer's default secret key (refuse timestamps older than 5 minutes). Answer any 2xx within 5 seconds; " +
  "anything else is tried again for at least 24 hours (10 s doubling up to an hour, then hourly: 33 attempts), " +
  "each attempt listed on the developer page (GET /user/notify/attempts) and re-sendable by hand. `eventId` " +
  `is the same on every attempt of one event: drop repeats by it. Catalogue version ${WEBHOOK_VERSION}: fields ` +
  "are only ever added.";

export function webhookCatalogue(): Webhooks {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          summary: WEBHOOK_SUMMARIES[event],
          description: DELIVERY,
          operationId: `webhook_${event}`,
          tags: ["webhooks"],
          parameters: [
            {
              name: CALLBACK_SIGNATURE_HEADER,
              in: "header",
              required: true,
              schema: { type: "string" },
              description: "t=<unix seconds>,v1=<hex HMAC-SHA256>",
            },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                // JSON Schema 2020-12, which OpenAPI 3.1 takes as it is
                schema: z.toJSONSchema(webhookBodies[event], { io: "output" }) as Record<string, unknown>,
              },
            },
          },
          responses: {
            "2XX": { description: "Taken: not sent again" },
            default: { description: "Not taken: tried again later with backoff" },
          },
        },
      },
    ]),
  );
}
