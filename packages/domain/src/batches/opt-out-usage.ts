// The opt-out list where batches are made: which of a batch's numbers the customer's list holds (materialize.ts
// refuses them, reason 5, never charged; the pre-submit check counts them the same way).
import type { Db } from "@switchboard/db";

/** Those of `phones` (E.164) on the customer's opt-out list; one indexed probe (opt_outs (userId, phone)). */
export async function optedOutAmong(db: Db, userId: number, phones: readonly string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ phone: string }>>`
    SELECT phone FROM opt_outs
    WHERE "userId" = ${userId} AND phone = ANY(string_to_array(${phones.join(",")}, ','))`;
  return new Set(rows.map((r) => r.phone));
}

/** The customer's whole list (for a file's pre-submit check, counted in its worker thread). */
export async function optedOutAll(db: Db, userId: number): Promise<string[]> {
  const rows = await db.optOut.findMany({ where: { userId }, select: { phone: true } });
  return rows.map((r) => r.phone);
}
