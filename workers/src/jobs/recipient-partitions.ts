// The recipients table is partitioned by id range (docs/operations.md, "The recipients table"): a partition must
// exist before the id sequence reaches it, or the ingest's inserts fail. The scheduler tick asks PostgreSQL's
// ensure_recipient_partitions() (migration 20261126204000) to keep the partition holding the next ids and the two
// after it in place, at most once a minute per deployment: 100M ids ahead is days of the largest traffic, and the
// call is three catalogue lookups when nothing is missing.
import type { WorkerDeps } from "../lib/deps";

type Deps = Pick<WorkerDeps, "prisma" | "logger" | "redis" | "redisPrefix">;

const ENSURE_EVERY_MS = 60_000;

/** Creates the recipients partitions the sequence will need next; answers how many it created. */
export async function ensureRecipientPartitions(deps: Deps, force = false): Promise<number> {
  if (!force && !(await deps.redis.set(`${deps.redisPrefix}recipient-partitions`, "1", "PX", ENSURE_EVERY_MS, "NX")))
    return 0;
  const [row] = await deps.prisma.$queryRaw<Array<{ created: number }>>`
    SELECT ensure_recipient_partitions() AS created`;
  const created = row?.created ?? 0;
  if (created > 0) deps.logger.info({ created }, "recipients partitions created ahead of the id sequence");
  return created;
}
