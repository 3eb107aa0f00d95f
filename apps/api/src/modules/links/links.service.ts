// Tracked links (docs/batches.md, "Tracked links"): a click on a short link, and a batch's figures per link.
import { type BatchContent, type BatchLinkStats, batchContent } from "@switchboard/contracts";
import { batchLinks } from "@switchboard/contracts/links";
import type { Db } from "@switchboard/db";
import { decodeLinkCode, type LinkSettings } from "@switchboard/domain/links";

/** The user agent is kept only this long (enough to tell a browser from a link previewer); no IP at all. */
const USER_AGENT_KEPT = 120;

/**
 * Where a short link leads, its click recorded; null for a code that is not ours (malformed, forged, made with
 * another key), a recipient that does not exist, or a link index past its batch's list. The target comes only from
 * the recipient's own batch's content: nothing in the request chooses it.
 */
export async function followLink(
  db: Db,
  settings: LinkSettings,
  code: string,
  userAgent: string | undefined,
): Promise<string | null> {
  const ref = decodeLinkCode(settings.key, code);
  if (!ref) return null;
  const rows = await db.$queryRaw<{ batchId: bigint; content: unknown }[]>`
    SELECT r."batchId", b.content
    FROM recipients r JOIN message_batches b ON b.id = r."batchId"
    WHERE r.id = ${ref.recipientId}`;
  const row = rows[0];
  if (!row) return null;
  // A stored content that no longer reads (written by hand, an old shape) has no links to lead to: 404, not 500.
  const content = batchContent.safeParse(row.content);
  const target = content.success ? batchLinks(content.data)[ref.linkIndex] : undefined;
  if (target === undefined) return null;
  // Written before the redirect is answered: one indexed insert (a millisecond), and a click answered is a click
  // counted, with nothing in memory to lose on a restart.
  await db.linkClick.create({
    data: {
      batchId: row.batchId,
      recipientId: ref.recipientId,
      linkIndex: ref.linkIndex,
      userAgent: userAgent ? userAgent.slice(0, USER_AGENT_KEPT) : null,
    },
  });
  return target;
}

const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/**
 * A batch's links with their clicks, distinct recipients who clicked, and click-through rate = those recipients /
 * the batch's messages accepted by a channel (successCount: delivery receipts do not come from every route).
 * `clickers` over all links is a recipient counted once whatever it clicked.
 */
export async function linkStatsOf(
  db: Db,
  batch: { id: bigint; content: BatchContent; successCount: number },
): Promise<BatchLinkStats | null> {
  const links = batchLinks(batch.content);
  if (links.length === 0) return null;
  const [perLink, total] = await Promise.all([
    db.$queryRaw<{ linkIndex: number; clicks: bigint; clickers: bigint }[]>`
      SELECT "linkIndex"::int AS "linkIndex", count(*)::bigint AS clicks,
        count(DISTINCT "recipientId")::bigint AS clickers
      FROM link_clicks WHERE "batchId" = ${batch.id} GROUP BY 1`,
    db.$queryRaw<{ clickers: bigint }[]>`
      SELECT count(DISTINCT "recipientId")::bigint AS clickers FROM link_clicks WHERE "batchId" = ${batch.id}`,
  ]);
  const clickers = Number(total[0]?.clickers ?? 0n);
  return {
    sent: batch.successCount,
    clickers,
    clickRate: rate(clickers, batch.successCount),
    links: links.map((url, index) => {
      const r = perLink.find((p) => p.linkIndex === index);
      const linkClickers = Number(r?.clickers ?? 0n);
      return {
        index,
        url,
        clicks: Number(r?.clicks ?? 0n),
        clickers: linkClickers,
        clickRate: rate(linkClickers, batch.successCount),
      };
    }),
  };
}
