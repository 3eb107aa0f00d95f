// Where uploaded files are kept, behind one interface: the local disk (UPLOAD_DIR, the default; every API and
// worker process must see the same folder) or an S3-compatible bucket (STORAGE=s3), so that the API and the
// workers can run on several hosts without a shared file system. docs/operations.md, "Uploads: local disk or
// S3-compatible storage".
//
// A stored file is named by its key: the path relative to UPLOAD_DIR that the rows store (batches/<tenant>/...,
// authentication/<tenant>/..., remittances/<tenant>/..., website/<tenant>/...). The same key names the object in
// the bucket (after S3_PREFIX), so a local folder copied into a bucket keeps every row's file. Keys are random
// names chosen by the API, never anything a customer typed (no phone numbers in a key, nor in a log line).
import type { Readable } from "node:stream";

export interface StoredFileInfo {
  key: string;
  size: number;
  /** The last write (local: the file's mtime; S3: when the object was stored). */
  modifiedAt: Date;
}

/** A stored file as a path on this machine, for readers that need random access (yauzl reads XLSX files so). */
export interface LocalFile {
  path: string;
  /** Lets go of the path: S3 removes its temporary copy; the local disk does nothing (the path is the file). */
  release(): Promise<void>;
}

export interface PutOptions {
  /** Refuse (FileTooLargeError, nothing kept) a body that turns out longer than this. */
  maxBytes?: number;
}

export interface FileStorage {
  /** "local" (UPLOAD_DIR) or "s3". */
  readonly kind: "local" | "s3";
  /**
   * Stores a body under a new key (a stream is consumed as it arrives, never held whole). Never replaces a
   * stored file (keys are random; the local disk refuses an existing name). When this throws, nothing is kept,
   * and a stream's own error (a multipart parser's size limit) is what it throws.
   */
  put(key: string, body: Buffer | Readable, opts?: PutOptions): Promise<{ bytes: number }>;
  /** A read stream of a stored file; a missing file fails with code ENOENT (at once, or as the stream's error). */
  read(key: string): Promise<Readable>;
  /** Size and last write of a stored file, or null when there is none. */
  stat(key: string): Promise<StoredFileInfo | null>;
  /** The file as a path on this machine (a missing one fails with code ENOENT); call release when done. */
  localFile(key: string): Promise<LocalFile>;
  /** Removes stored files (a missing one is no error); answers the errors of those that could not be removed. */
  remove(keys: readonly string[]): Promise<unknown[]>;
  /** Stored files whose key starts with prefix (a folder: "batches/"), at any depth, optionally only older ones. */
  list(prefix: string, opts?: { modifiedBefore?: Date }): Promise<StoredFileInfo[]>;
}

/** A stored file that is not there: code ENOENT, like the local disk's own error, whatever the storage. */
export class StoredFileMissingError extends Error {
  readonly code = "ENOENT";
  constructor(key: string) {
    super(`stored file not found: ${key}`);
    this.name = "StoredFileMissingError";
  }
}

/** A body longer than PutOptions.maxBytes. */
export class FileTooLargeError extends Error {
  readonly code = "FILE_TOO_LARGE";
  constructor(readonly maxBytes: number) {
    super(`stored file larger than ${maxBytes} bytes`);
    this.name = "FileTooLargeError";
  }
}

/** Whether an error says the stored file is not there (any storage). */
export function isMissing(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === "ENOENT";
}

/**
 * A key as S3 sees it: relative, "/"-separated, no empty, "." or ".." segment, no backslash or control
 * character. (The local disk keeps its own rule, storedPath: any path that stays inside UPLOAD_DIR.)
 */
export function checkKey(key: string): string {
  const segments = key.split("/");
  const bad =
    key.length === 0 ||
    key.length > 900 ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    /[\\\u0000-\u001f\u007f]/.test(key) ||
    segments.some((s) => s === "" || s === "." || s === "..");
  if (bad) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Counts a stream's bytes and fails it with FileTooLargeError past maxBytes. */
export async function* limited(source: AsyncIterable<Buffer>, maxBytes: number | undefined, count: { bytes: number }) {
  for await (const chunk of source) {
    count.bytes += chunk.length;
    if (maxBytes !== undefined && count.bytes > maxBytes) throw new FileTooLargeError(maxBytes);
    yield chunk;
  }
}

/** Runs fn on the stored file as a local path, and lets go of the path afterwards (whatever fn did). */
export async function withLocalFile<T>(
  storage: FileStorage,
  key: string,
  fn: (path: string) => Promise<T>,
): Promise<T> {
  const file = await storage.localFile(key);
  try {
    return await fn(file.path);
  } finally {
    await file.release();
  }
}
