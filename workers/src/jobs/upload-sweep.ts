// Batch number files nobody will read: an API killed in the middle of an upload leaves the partial file, and one
// killed between storing the file and committing its batch leaves a whole file no batch names. Both are personal
// data (phone numbers) and would stay for ever. Files under UPLOAD_DIR/batches not written to for
// UPLOAD_ORPHAN_MS and named by no batch's filePath are removed (a batch's file goes when its ingest ends, so a
// named one is still to be read). Run from the scheduler tick, at most every SWEEP_EVERY_MS per deployment.
import { readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { WorkerDeps } from "../lib/deps";

type Deps = Pick<WorkerDeps, "prisma" | "redis" | "redisPrefix" | "logger" | "uploadDir">;

/** Older than this without a write and named by no batch: an orphan. An upload in progress writes all along. */
export const UPLOAD_ORPHAN_MS = 3_600_000;
const SWEEP_EVERY_MS = 600_000;

/** Files under dir (recursively) with their last write time; a missing dir is empty. */
async function filesUnder(dir: string): Promise<Array<{ abs: string; mtimeMs: number }>> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as { code?: string }).code === "ENOENT") return [];
    throw err;
  }
  const out: Array<{ abs: string; mtimeMs: number }> = [];
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(abs)));
    else if (e.isFile()) out.push({ abs, mtimeMs: (await stat(abs)).mtimeMs });
  }
  return out;
}

/** Removes orphaned batch uploads; returns how many. `force` skips the once-per-interval gate (tests). */
export async function sweepUploads(deps: Deps, now = Date.now(), force = false): Promise<number> {
  // One process per interval does it, whichever tick gets there first.
  if (!force && !(await deps.redis.set(`${deps.redisPrefix}upload-sweep`, "1", "PX", SWEEP_EVERY_MS, "NX"))) return 0;
  const root = path.join(deps.uploadDir, "batches");
  const old = (await filesUnder(root)).filter((f) => now - f.mtimeMs > UPLOAD_ORPHAN_MS);
  if (old.length === 0) return 0;
  const rel = old.map((f) => path.relative(deps.uploadDir, f.abs).split(path.sep).join(path.posix.sep));
  const named = new Set(
    (await deps.prisma.messageBatch.findMany({ where: { filePath: { in: rel } }, select: { filePath: true } })).map(
      (b) => b.filePath,
    ),
  );
  let removed = 0;
  for (const [i, f] of old.entries()) {
    if (named.has(rel[i] as string)) continue;
    try {
      await unlink(f.abs);
      removed++;
    } catch (err) {
      if ((err as { code?: string }).code !== "ENOENT")
        deps.logger.warn({ err }, "could not remove an orphaned upload");
    }
  }
  if (removed > 0) deps.logger.info({ removed }, "orphaned batch uploads removed");
  return removed;
}
