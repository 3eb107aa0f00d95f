// Where uploaded files live: under config.UPLOAD_DIR, each named by its path relative to that folder (what the
// rows store). The API writes them (its uploads plugin); the API and the workers both read and remove them.
import path from "node:path";

/** Absolute path of a stored file; refuses paths that would leave uploadDir. */
export function storedPath(uploadDir: string, rel: string): string {
  const root = path.resolve(uploadDir);
  const abs = path.resolve(root, rel);
  if (!abs.startsWith(root + path.sep)) throw new Error(`stored path outside the upload directory: ${rel}`);
  return abs;
}
