// Which sender id an SMS batch may carry: none (the channel's default), or one the customer has approved for every
// country of its numbers (an approval for every country covers them all). Checked by the pre-submit check, at
// submission (before anything is written) and where the batch is materialised (in its transaction, once the
// countries of its numbers are known): a refusal (403) writes nothing and charges nothing.
import { type BatchContent, canonicalSenderId, ProductCode, SenderIdStatus, TaskType } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { AppError } from "../errors";

/** Countries named in a refusal; the rest are counted ("GB, US, ... +12"). */
const NAMED_COUNTRIES_MAX = 10;

export interface SenderIdUse {
  taskType: number;
  content?: BatchContent | undefined;
}

/** The sender id a batch would go out with, or null: screening delivers nothing, other products carry none. */
function requestedSenderId(use: SenderIdUse): string | null {
  if (use.taskType !== TaskType.MESSAGE || use.content?.product !== ProductCode.SMS) return null;
  const given = use.content.senderId?.trim();
  return given ? given : null;
}

/** Countries the customer's approvals of `senderId` cover: null = every country. */
async function approvedCountries(db: Db, customerId: number, senderId: string): Promise<Set<string> | null> {
  const rows = await db.senderId.findMany({
    where: { userId: customerId, senderId: canonicalSenderId(senderId), status: SenderIdStatus.APPROVED },
    select: { countryCode: true },
  });
  if (rows.some((r) => r.countryCode === null)) return null;
  return new Set(rows.map((r) => r.countryCode as string));
}

function refusal(senderId: string, countries: readonly string[] | null): AppError {
  if (countries === null)
    return new AppError(403, "sender_id.not_approved", { senderId, countries: "sender_id.any_country" });
  const named = countries.slice(0, NAMED_COUNTRIES_MAX).join(", ");
  const more = countries.length > NAMED_COUNTRIES_MAX ? ` +${countries.length - NAMED_COUNTRIES_MAX}` : "";
  return new AppError(403, "sender_id.not_approved", { senderId, countries: `${named}${more}` });
}

/**
 * Before the numbers are known (a file submission): the sender id must be approved for some country at least; the
 * countries themselves are checked when the file is read.
 */
export async function assertSenderIdUsable(db: Db, customerId: number, use: SenderIdUse): Promise<void> {
  const senderId = requestedSenderId(use);
  if (senderId === null) return;
  const approved = await approvedCountries(db, customerId, senderId);
  if (approved !== null && approved.size === 0) throw refusal(senderId, null);
}

/** The sender id must be approved for every one of `countries` (the countries the batch would send to). */
export async function assertSenderIdApproved(
  db: Db,
  customerId: number,
  use: SenderIdUse,
  countries: Iterable<string>,
): Promise<void> {
  const senderId = requestedSenderId(use);
  if (senderId === null) return;
  const approved = await approvedCountries(db, customerId, senderId);
  if (approved === null) return;
  const missing = [...new Set(countries)].filter((c) => !approved.has(c)).sort();
  if (missing.length > 0) throw refusal(senderId, missing);
}
