// STOP-style replies (docs/opt-outs.md): a reply whose whole text (trimmed, any case) is one of the tenant's
// opt-out keywords (tenant_settings.optOutKeywords; DEFAULT_OPT_OUT_KEYWORDS without a settings row) puts its
// sender on the opt-out list of the customer whose batch the reply answers. Called where inbound messages are
// stored (workers: channel-events.ts), inside that transaction. addOptOuts is the one way onto a list (the API's
// opt-out routes and imports use it too).
import { DEFAULT_OPT_OUT_KEYWORDS, matchesOptOutKeyword, OptOutSource } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";

/** The tenant's keywords. */
export async function optOutKeywords(db: Db, tenantId: number): Promise<readonly string[]> {
  const s = await db.tenantSetting.findUnique({ where: { tenantId }, select: { optOutKeywords: true } });
  return s?.optOutKeywords ?? DEFAULT_OPT_OUT_KEYWORDS;
}

/**
 * Adds `phone` (E.164) to the customer's list when `text` is one of the tenant's keywords: "added" when it is new
 * there (what the opt_out webhook tells), "listed" when it already was, null when the text is no keyword.
 * `keywords` may be given when the caller has read them for several replies.
 */
export async function optOutByKeyword(
  db: Db,
  input: { tenantId: number; customerId: number; phone: string; text: string | null; keywords?: readonly string[] },
): Promise<"added" | "listed" | null> {
  if (!input.text?.trim()) return null;
  const keywords = input.keywords ?? (await optOutKeywords(db, input.tenantId));
  if (!matchesOptOutKeyword(input.text, keywords)) return null;
  const added = await addOptOuts(
    db,
    { id: input.customerId, tenantId: input.tenantId },
    [input.phone],
    OptOutSource.KEYWORD,
  );
  return added > 0 ? "added" : "listed";
}

/** Adds numbers (already E.164) to a customer's list; those on it keep their entry. Returns how many were new. */
export async function addOptOuts(
  db: Db,
  customer: { id: number; tenantId: number },
  phones: readonly string[],
  source: OptOutSource,
): Promise<number> {
  if (phones.length === 0) return 0;
  const r = await db.optOut.createMany({
    data: phones.map((phone) => ({ tenantId: customer.tenantId, userId: customer.id, phone, source })),
    skipDuplicates: true,
  });
  return r.count;
}
