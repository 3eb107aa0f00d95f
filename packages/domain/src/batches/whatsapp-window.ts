// WhatsApp's customer-service window: free-form content reaches a user only within 24 hours of that user's last
// message to the business number (an inbound message on the channel); outside it only an approved template may be
// sent (WhatsApp refuses with 131047, after we would have taken the customer's money). The submission refuses
// such recipients (reason 4, never charged) and the pre-submit check counts them, with the same rule and query.
import { type BatchContent, ProductCode, TaskType } from "@switchboard/contracts";
import type { Db } from "@switchboard/db";

/** Whether this content needs an open window: WS free-form (not a template) messages; screening sends nothing. */
export function needsOpenWindow(content: BatchContent | undefined, taskType: number): boolean {
  return content?.product === ProductCode.WS && content.body.type !== "template" && taskType !== TaskType.SCREENING;
}

/**
 * Numbers with an open window, and on which of these channels: every number that wrote to one of them within 24
 * hours, or only those of `phones` (one indexed probe: inbound_messages (channelId, phone, receivedAt)).
 */
export async function openWindows(
  db: Db,
  channelIds: readonly number[],
  phones?: readonly string[],
): Promise<Map<string, Set<number>>> {
  const open = new Map<string, Set<number>>();
  if (channelIds.length === 0 || phones?.length === 0) return open;
  const rows = phones
    ? await db.$queryRaw<Array<{ phone: string; channelId: number }>>`
        SELECT DISTINCT phone, "channelId" FROM inbound_messages
        WHERE "channelId" = ANY(${[...channelIds]}::int[])
          AND phone = ANY(string_to_array(${phones.join(",")}, ','))
          AND "receivedAt" > now() - interval '24 hours'`
    : await db.$queryRaw<Array<{ phone: string; channelId: number }>>`
        SELECT DISTINCT phone, "channelId" FROM inbound_messages
        WHERE "channelId" = ANY(${[...channelIds]}::int[]) AND "receivedAt" > now() - interval '24 hours'`;
  for (const r of rows) {
    const set = open.get(r.phone);
    if (set) set.add(r.channelId);
    else open.set(r.phone, new Set([r.channelId]));
  }
  return open;
}
