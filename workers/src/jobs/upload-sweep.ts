// Batch number files nobody will read: an API killed in the middle of an upload leaves the partial file, and one
// killed between storing the file and committing its batch leaves a whole file no batch names. Both are personal
// data (phone numbers) and would stay for ever. Stored files under batches/ (UPLOAD_DIR/batches, or the bucket's
// batches/ objects) not written to for UPLOAD_ORPHAN_MS and named by no batch's filePath are removed (a batch's
// file goes when its ingest ends, so a named one is still to be read). Run from the scheduler tick, at most every
// SWEEP_EVERY_MS per deployment. (An S3 multipart upload the API never finished is no object: the bucket's
// lifecycle rule for incomplete multipart uploads removes its parts, docs/operations.md.)
import type { WorkerDeps } from "../lib/deps";

type Deps = Pick<WorkerDeps, "prisma" | "redis" | "redisPrefix" | "logger" | "storage">;

/** Older than this without a write and named by no batch: an orphan. An upload in progress writes all along. */
export const UPLOAD_ORPHAN_MS = 3_600_000;
const SWEEP_EVERY_MS = 600_000;

/** Removes orphaned batch uploads; returns how many. `force` skips the once-per-interval gate (tests). */
export async function sweepUploads(deps: Deps, now = Date.now(), force = false): Promise<number> {
  // One process per interval does it, whichever tick gets there first.
  if (!force && !(await deps.redis.set(`${deps.redisPrefix}upload-sweep`, "1", "PX", SWEEP_EVERY_MS, "NX"))) return 0;
  const old = await deps.storage.list("batches/", { modifiedBefore: new Date(now - UPLOAD_ORPHAN_MS) });
  if (old.length === 0) return 0;
  const keys = old.map((f) => f.key);
  const named = new Set(
    (await deps.prisma.messageBatch.findMany({ where: { filePath: { in: keys } }, select: { filePath: true } })).map(
      (b) => b.filePath,
    ),
  );
  const orphans = keys.filter((key) => !named.has(key));
  const errors = await deps.storage.remove(orphans);
  for (const err of errors) deps.logger.warn({ err }, "could not remove an orphaned upload");
  const removed = orphans.length - errors.length;
  if (removed > 0) deps.logger.info({ removed }, "orphaned batch uploads removed");
  return removed;
}
