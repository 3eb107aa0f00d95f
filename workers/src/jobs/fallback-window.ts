// The timed SMS fallback of an RCS batch (content.fallbackAfterSeconds with fallbackText): a recipient whose RCS
// message the provider accepted but did not deliver within the window gets the fallback text as SMS instead.
//
//   1. its RCS message is revoked first (RBM's revoke): only a message the provider withdrew falls back, so the
//      person never gets both; one delivered meanwhile (revoke answers 404) stays an RCS delivery;
//   2. the revoked recipient goes back to "not sent" in one conditional statement (still sent, still not
//      delivered, not fallen back) that also takes it out of the batch's sent and success counters, and then
//      moves to SMS like a non-capable number (sms-fallback.ts: SMS route, SMS price, an SMS chunk job);
//   3. the batch does not settle while any RCS message is still inside its window: finish-batch asks here and
//      runs again when the earliest window ends.
//
// A message that could not be revoked (channel unusable, provider without revoke) once its window is over is left
// as it is: the batch settles with it counted as sent over RCS.
import { ReceiveResult, rcsContent, SendResult } from "@switchboard/contracts";
import type { WorkerDeps } from "../lib/deps";
import { revokeAtProvider, type Undelivered } from "./revoke";
import { fallBackToSms } from "./sms-fallback";

type Deps = Pick<WorkerDeps, "prisma" | "adapters" | "queues" | "logger" | "tuning">;

/**
 * Falls back what is overdue; returns the milliseconds until the next window ends (the batch must wait), or null
 * when no RCS message of the batch is still inside its window.
 */
export async function runFallbackWindow(
  deps: Deps,
  batchId: bigint,
  /** The batch's stored content (its settlement has just read it). */
  stored: unknown,
): Promise<number | null> {
  const content = rcsContent.safeParse(stored);
  if (!content.success || !content.data.fallbackText || content.data.fallbackAfterSeconds === undefined) return null;
  const windowMs = Math.round(content.data.fallbackAfterSeconds * 1000 * deps.tuning.fallbackWindowScale);
  const windowStart = new Date(Date.now() - windowMs);

  const overdue = await deps.prisma.$queryRaw<Undelivered[]>`
    SELECT r.id, r.phone, r."providerMessageId", r."channelId"
    FROM recipients r JOIN channels c ON c.id = r."channelId"
    WHERE r."batchId" = ${batchId} AND r."sendResult" = ${SendResult.SUCCESS}
      AND r."receiveResult" = ${ReceiveResult.UNKNOWN} AND r."fallbackFrom" IS NULL
      AND r."fallbackPrice" IS NOT NULL AND r."providerMessageId" IS NOT NULL AND c.kind = 'rcs'
      AND r."sentAt" <= ${windowStart}`;
  if (overdue.length > 0) {
    const revoked = await revokeAtProvider(deps, batchId, overdue);
    if (revoked.length > 0) {
      const reopened = await deps.prisma.$queryRaw<Array<{ id: bigint }>>`
        WITH r AS (
          UPDATE recipients
          SET "sendResult" = ${SendResult.NOT_SENT}, "providerMessageId" = NULL, "sentAt" = NULL
          WHERE id = ANY(${revoked}::bigint[]) AND "batchId" = ${batchId} AND "sendResult" = ${SendResult.SUCCESS}
            AND "receiveResult" = ${ReceiveResult.UNKNOWN} AND "fallbackFrom" IS NULL
          RETURNING id
        ), b AS (
          UPDATE message_batches
          SET "sentCount" = "sentCount" - (SELECT count(*) FROM r)::int,
              "successCount" = "successCount" - (SELECT count(*) FROM r)::int, "updatedAt" = now()
          WHERE id = ${batchId} AND (SELECT count(*) FROM r) > 0
        )
        SELECT id FROM r`;
      await fallBackToSms(deps, batchId, reopened);
      deps.logger.info(
        { batchId: batchId.toString(), fellBack: reopened.length, overdue: overdue.length },
        "RCS messages not delivered in the fallback window revoked and sent as SMS",
      );
    }
  }

  const [next] = await deps.prisma.$queryRaw<Array<{ first: Date | null }>>`
    SELECT min(r."sentAt") AS first
    FROM recipients r JOIN channels c ON c.id = r."channelId"
    WHERE r."batchId" = ${batchId} AND r."sendResult" = ${SendResult.SUCCESS}
      AND r."receiveResult" = ${ReceiveResult.UNKNOWN} AND r."fallbackFrom" IS NULL
      AND r."fallbackPrice" IS NOT NULL AND r."providerMessageId" IS NOT NULL AND c.kind = 'rcs'
      AND r."sentAt" > ${windowStart}`;
  if (!next?.first) return null;
  // A little after the window ends, so the message is overdue when looked at again.
  return Math.max(50, next.first.getTime() + windowMs - Date.now() + 50);
}
