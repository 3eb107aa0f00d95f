// Receiving a batch file (multipart/form-data): the text fields, and the one file part streamed into the file
// storage (app.storage: under config.UPLOAD_DIR, or an S3 bucket; never held in memory: up to 50 MB), with its
// size and sha256. What the file holds is checked afterwards by reading it back (number-file.ts); whoever calls
// this removes the file on refusal.
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { pipeline, Transform } from "node:stream";
import { BATCH_FILE_FIELD, BATCH_FILE_MAX_BYTES } from "@switchboard/contracts";
import type { FileStorage } from "@switchboard/domain/storage";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { AppError, badRequest } from "../../lib/errors";
import { removeStored } from "../../plugins/uploads";

export interface BatchUpload {
  /** Text fields by name; validate them with the route's contract. */
  fields: Record<string, unknown>;
  /** Its storage key: the path relative to the upload directory. */
  relPath: string;
  /** The client's file name, cleaned (for display only). */
  fileName: string;
  bytes: number;
  sha256: string;
}

const LIMITS = {
  fieldNameSize: 100,
  // content (JSON) is the longest field: an RCS card with suggestions stays well below this
  fieldSize: 64 * 1024,
  fields: 10,
  fileSize: BATCH_FILE_MAX_BYTES,
  files: 1,
  parts: 12,
  headerPairs: 100,
};

/** Display name: no directories, no control characters, at most 255 characters. */
function cleanFileName(name: string | undefined): string {
  const base = path.basename((name ?? "").replaceAll("\\", "/"));
  const printable = [...base].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch !== "\u007f").join("");
  return printable.slice(0, 255) || "numbers";
}

function uploadError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new AppError(413, "batch.file_too_large", { max: BATCH_FILE_MAX_BYTES / (1024 * 1024) });
    case "FST_FILES_LIMIT":
      return new AppError(413, "upload.too_many_files", { max: 1 });
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return new AppError(413, "error.payload_too_large");
    case "FST_PROTO_VIOLATION":
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
    case "FST_MP_PREMATURE_CLOSE":
      return new AppError(400, "upload.malformed");
  }
  if (err instanceof Error && /Unexpected end of (multipart )?(data|form)|Boundary not found/.test(err.message))
    return new AppError(400, "upload.malformed");
  return err;
}

/** Streams one file part into the storage, hashing it on the way. */
async function storeStream(
  source: NodeJS.ReadableStream,
  storage: FileStorage,
  key: string,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // One pipeline: the parser's error (FST_REQ_FILE_TOO_LARGE...) fails the tap, so put throws it; a storage that
  // fails destroys the tap, and with it the file part.
  const tapped = pipeline(source, tap, () => {});
  // The local disk writes it 0600 and never over an existing file: the numbers are personal data.
  await storage.put(key, tapped, { maxBytes: BATCH_FILE_MAX_BYTES });
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Reads a multipart form with exactly one file in field `file` (any order of parts) and stores the file under
 * <folder...>/<random>.upload in the storage. Nothing is kept when this throws.
 */
export async function receiveBatchUpload(
  req: FastifyRequest,
  storage: FileStorage,
  folder: string[],
): Promise<BatchUpload> {
  if (!req.isMultipart()) throw new AppError(400, "error.unsupported_media_type");
  const fields: Record<string, unknown> = {};
  let stored: Omit<BatchUpload, "fields"> | null = null;
  let relPath: string | null = null;
  try {
    for await (const part of req.parts({ limits: LIMITS })) {
      if (part.type === "field") {
        if (part.valueTruncated) throw new AppError(413, "error.payload_too_large");
        fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== BATCH_FILE_FIELD)
        throw new AppError(400, "upload.unknown_file_field", { field: part.fieldname });
      relPath = path.posix.join(...folder, `${randomBytes(16).toString("hex")}.upload`);
      const { bytes, sha256 } = await storeStream(part.file, storage, relPath);
      stored = { relPath, fileName: cleanFileName(part.filename), bytes, sha256 };
    }
    if (!stored) throw badRequest("batch.file_required", { field: BATCH_FILE_FIELD });
    return { fields, ...stored };
  } catch (err) {
    if (relPath) await discardUpload(storage, relPath, req.log);
    throw uploadError(err);
  }
}

/**
 * Removes a stored upload that will not be used. A failure to remove it must not hide the answer the caller is
 * giving (usually a refusal), so it is logged, not thrown.
 */
export async function discardUpload(storage: FileStorage, relPath: string, log: FastifyBaseLogger): Promise<void> {
  for (const err of await removeStored(storage, [relPath])) log.warn({ err }, "could not remove a batch upload");
}
