// STOP-style replies (docs/opt-outs.md): a reply whose whole text (trimmed, any case) is one of the tenant's
// opt-out keywords (tenant_settings.optOutKeywords; DEFAULT_OPT_OUT_KEYWORDS without a settings row) puts its
// sender on the opt-out list of the customer whose batch the reply answers. Called where inbound messages are
// stored (workers: channel-events.ts), inside that transaction.
import { DEFAULT_OPT_OUT_KEYWORDS, matchesOptOutKeyword, OptOutSource } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { addOptOuts } from "./opt-outs.service";

/** The tenant's keywords. */
export async function optOutKeywords(db: Db, tenantId: number): Promise<readonly string[]> {
  const s = await db.tenantSetting.findUnique({ where: { tenantId }, select: { optOutKeywords: true } });
  return s?.optOutKeywords ?? DEFAULT_OPT_OUT_KEYWORDS;
}

/**
 * Adds `phone` (E.164) to the customer's list when `text` is one of the tenant's keywords; true when it matched
 * (already on the list or not). `keywords` may be given when the caller has read them for several replies.
 */
export async function optOutByKeyword(
  db: Db,
  input: { tenantId: number; customerId: number; phone: string; text: string | null; keywords?: readonly string[] },
): Promise<boolean> {
  if (!input.text?.trim()) return false;
  const keywords = input.keywords ?? (await optOutKeywords(db, input.tenantId));
  if (!matchesOptOutKeyword(input.text, keywords)) return false;
  await addOptOuts(db, { id: input.customerId, tenantId: input.tenantId }, [input.phone], OptOutSource.KEYWORD);
  return true;
}
