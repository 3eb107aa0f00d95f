// SMS fallback per recipient (RCS content with fallback text): a number that cannot receive RCS is sent the
// fallback text as SMS over the customer's SMS route, in the same batch.
//
//   - the recipient moves to the SMS channel that routing picks for its country (the customer's SMS product: the
//     same rules as an SMS batch), with the RCS channel kept in fallbackFrom, the fallback's segments, and the SMS
//     price reserved for it at creation (docs/finance.md: the charge took the larger of the two prices, the
//     settlement refunds the difference);
//   - a country SMS does not serve now (route removed, product paused since) leaves the recipient failed with
//     NO_FALLBACK_ROUTE, refunded like any failure;
//   - one conditional update (still unsent, still on the RCS channel) moves them, counted on the batch; then an
//     SMS chunk job sends them, like any chunk.

import {
  ActiveStatus,
  countSegmentsWithLinks,
  linkLengthOf,
  ProductCode,
  rcsContent,
  SendResult,
} from "@switchboard/contracts";
import { fillText, type RecipientVars } from "@switchboard/domain/batches/personalise";
import { resolveChannels } from "@switchboard/domain/routing";
import type { WorkerDeps } from "../lib/deps";
import { enqueueReportCallbacks } from "./delivery-report";

type Deps = Pick<WorkerDeps, "prisma" | "queues" | "logger">;

interface Candidate {
  id: bigint;
}

export async function fallBackToSms(deps: Deps, batchId: bigint, recipients: readonly Candidate[]): Promise<void> {
  if (recipients.length === 0) return;
  const batch = await deps.prisma.messageBatch.findUnique({
    where: { id: batchId },
    select: { userId: true, tenantId: true, content: true },
  });
  const content = rcsContent.safeParse(batch?.content);
  if (!batch || !content.success || !content.data.fallbackText) return;
  // Its tracked links counted as the short links they are sent as (at the length the batch was priced with).
  const segments = countSegmentsWithLinks(content.data.fallbackText, linkLengthOf(content.data)).segments;
  const sms = await deps.prisma.product.findFirst({
    where: { tenantId: batch.tenantId, code: ProductCode.SMS, status: ActiveStatus.NORMAL },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  const ids = recipients.map((r) => r.id);
  const rows = await deps.prisma.recipient.findMany({
    where: { id: { in: ids }, batchId, sendResult: SendResult.NOT_SENT },
    select: { id: true, countryCode: true, vars: true },
  });
  // A personalised batch: each recipient's fallback text is filled with its own values, so are its segments (the
  // fallback price taken at creation was priced the same way).
  const segmentsOf = (vars: unknown) =>
    vars === null
      ? segments
      : countSegmentsWithLinks(
          fillText(content.data.fallbackText as string, vars as RecipientVars),
          linkLengthOf(content.data),
        ).segments;
  const routes = sms
    ? await resolveChannels(deps.prisma, {
        customerId: batch.userId,
        productId: sms.id,
        countryCodes: [...new Set(rows.map((r) => r.countryCode))],
      })
    : new Map();
  const byChannel = new Map<number, string[]>();
  const segmentsById = new Map(rows.map((r) => [r.id.toString(), segmentsOf(r.vars)]));
  const unrouted: string[] = [];
  for (const r of rows) {
    const route = routes.get(r.countryCode);
    const channelId = route?.ok ? route.channelId : route?.reason === "channel_paused" ? route.channelId : undefined;
    if (channelId === undefined) unrouted.push(r.id.toString());
    else byChannel.set(channelId, [...(byChannel.get(channelId) ?? []), r.id.toString()]);
  }

  const chunks: Array<{ batchId: string; channelId: number; fromId: string; toId: string; ids: string[] }> = [];
  await deps.prisma.$transaction(async (tx) => {
    let moved = 0;
    for (const [channelId, list] of byChannel) {
      const changed = await tx.$queryRaw<Array<{ id: bigint }>>`
        UPDATE recipients AS r
        SET "fallbackFrom" = r."channelId", "channelId" = ${channelId}, segments = u.s, price = r."fallbackPrice"
        FROM unnest(${list}::bigint[], ${list.map((id) => segmentsById.get(id) ?? segments)}::smallint[]) AS u(id, s)
        WHERE r.id = u.id AND r."batchId" = ${batchId} AND r."sendResult" = ${SendResult.NOT_SENT}
          AND r."fallbackFrom" IS NULL AND r."fallbackPrice" IS NOT NULL
        RETURNING r.id`;
      moved += changed.length;
      if (changed.length === 0) continue;
      const sorted = changed.map((c) => c.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      chunks.push({
        batchId: batchId.toString(),
        channelId,
        fromId: (sorted[0] as bigint).toString(),
        toId: (sorted[sorted.length - 1] as bigint).toString(),
        ids: sorted.map((id) => id.toString()),
      });
    }
    if (unrouted.length > 0) {
      await tx.$executeRaw`
        UPDATE recipients SET "sendResult" = ${SendResult.FAILURE}, "errorCode" = 'NO_FALLBACK_ROUTE'
        WHERE id = ANY(${unrouted}::bigint[]) AND "sendResult" = ${SendResult.NOT_SENT}`;
    }
    if (moved > 0) {
      await tx.$executeRaw`
        UPDATE message_batches SET "fallbackCount" = "fallbackCount" + ${moved} WHERE id = ${batchId}`;
    }
  });
  if (unrouted.length > 0) {
    deps.logger.warn({ batchId: batchId.toString(), count: unrouted.length }, "SMS fallback has no route: failed");
  }
  if (chunks.length > 0) await deps.queues.dispatchChunks(chunks);
  // Told after the move committed and the SMS is on its way; its outcome follows as a delivery report.
  await enqueueReportCallbacks(
    deps,
    chunks.flatMap((c) => c.ids.map((recipientId) => ({ recipientId: BigInt(recipientId), batchId }))),
    "message_fallback",
  );
}
