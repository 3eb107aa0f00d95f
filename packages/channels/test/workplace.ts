// The workplace's shared folder: the independent SMSC simulator and Kannel's own benchmark (shared/bench/kannel)
// that the SMPP conformance tests and the benchmarks run against. It is not the repository's: it sits beside the
// checkout (../shared). A clone made elsewhere on the same machine (CI's fresh clone in a scratch folder) finds
// it at SWITCHBOARD_SHARED_DIR or at the workplace's /work/shared; without any of them, what needs it skips and
// says so.
import { existsSync } from "node:fs";
import path from "node:path";

/** The first shared folder that holds `file` (a path inside it), else undefined. */
export function sharedDir(root: string, file: string): string | undefined {
  const candidates = [process.env.SWITCHBOARD_SHARED_DIR, path.resolve(root, "../shared"), "/work/shared"];
  return candidates.find((dir): dir is string => dir !== undefined && dir !== "" && existsSync(path.join(dir, file)));
}
