// The key that names a batch's BullMQ jobs: its id and its creation time. Ids alone repeat across the life of a
// database (recreated, or restored from a backup while Redis keeps its queues): a new batch would then meet an old
// batch's delayed job under its own job id, BullMQ would ignore its enqueue, and it would wait for ever. No two
// batch rows share both id and creation time (to the millisecond).
import { batchJobKey } from "@switchboard/contracts";
import type { Db } from "./index";

/** batch id -> job key for the batches that exist (a missing one has nothing to run). */
export async function batchJobKeys(db: Db, batchIds: ReadonlyArray<string | bigint>): Promise<Map<string, string>> {
  const ids = [...new Set(batchIds.map(String))];
  if (ids.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ id: bigint; createdAt: Date }>>`
    SELECT id, "createdAt" FROM message_batches WHERE id = ANY(${ids}::bigint[])`;
  return new Map(rows.map((r) => [r.id.toString(), batchJobKey(r.id, r.createdAt)]));
}
