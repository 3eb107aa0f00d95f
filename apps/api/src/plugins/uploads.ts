// File uploads (multipart/form-data): the parser with conservative limits, a reader that collects a form's
// text fields and files for one route, recognition of a file's kind by its first bytes (the name and the
// declared type are the client's word, not evidence), and storage with random names in the process's file
// storage (app.storage: UPLOAD_DIR or an S3 bucket, @switchboard/domain/storage; the workers read uploads too).
// Stored files are private: they are served only by routes that check who asks (never by a static handler).
import { randomBytes } from "node:crypto";
import path from "node:path";
import multipart from "@fastify/multipart";
import type { FileStorage } from "@switchboard/domain/storage";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { AppError } from "../lib/errors";

/** Defaults for every multipart request; a route's reader narrows them further. */
const DEFAULT_LIMITS = {
  fieldNameSize: 100,
  /** Bytes of one text field: form fields are short (names, numbers); anything longer is refused. */
  fieldSize: 4096,
  fields: 20,
  fileSize: 5 * 1024 * 1024,
  files: 5,
  parts: 30,
  headerPairs: 100,
};

export type FileKind = "png" | "jpg" | "pdf";

const SIGNATURES: ReadonlyArray<{ kind: FileKind; bytes: readonly number[] }> = [
  { kind: "png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: "jpg", bytes: [0xff, 0xd8, 0xff] },
  // "%PDF-"
  { kind: "pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

export const CONTENT_TYPES: Record<FileKind, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  pdf: "application/pdf",
};

/** The kind of a file from its magic bytes, or null when it is none of the known kinds. */
export function detectFileKind(data: Uint8Array): FileKind | null {
  for (const { kind, bytes } of SIGNATURES) {
    if (data.length >= bytes.length && bytes.every((b, i) => data[i] === b)) return kind;
  }
  return null;
}

/** The kind of a stored file from the extension we gave it. */
export function storedKind(relPath: string): FileKind | null {
  const ext = path.extname(relPath).slice(1);
  return ext === "png" || ext === "jpg" || ext === "pdf" ? ext : null;
}

export interface UploadSpec {
  /** Name of the form field that carries the files (repeated once per file). */
  fileField: string;
  maxFiles: number;
  maxFileBytes: number;
  kinds: readonly FileKind[];
}

export interface UploadedFile {
  kind: FileKind;
  data: Buffer;
}

export interface UploadForm {
  /** Text fields by name (the last value wins when a name repeats); validate them with the route's contract. */
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

/** Parser errors that can only come from a malformed request body. */
const MALFORMED = /Unexpected end of multipart data|terminated early|Boundary not found|Unsupported Content-Type/;

function uploadError(err: unknown, spec: UploadSpec): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  switch (code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new AppError(413, "upload.file_too_large", { max: Math.floor(spec.maxFileBytes / (1024 * 1024)) });
    case "FST_FILES_LIMIT":
      return new AppError(413, "upload.too_many_files", { max: spec.maxFiles });
    case "FST_FIELDS_LIMIT":
    case "FST_PARTS_LIMIT":
      return new AppError(413, "error.payload_too_large");
    case "FST_PROTO_VIOLATION":
    case "FST_INVALID_JSON_FIELD_ERROR":
    case "FST_MP_PREMATURE_CLOSE":
      return new AppError(400, "upload.malformed");
  }
  if (code === undefined && err instanceof Error && MALFORMED.test(err.message))
    return new AppError(400, "upload.malformed");
  return err;
}

/**
 * Reads a whole multipart form into memory (the limits keep it small: at most maxFiles x maxFileBytes).
 * Files must arrive in spec.fileField and be of one of spec.kinds by content; nothing is written here.
 */
export async function readUpload(req: FastifyRequest, spec: UploadSpec): Promise<UploadForm> {
  if (!req.isMultipart()) throw new AppError(400, "error.unsupported_media_type");
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  try {
    // throwFileSizeLimit (set for the plugin) makes an oversized file an error instead of a silent truncation.
    const parts = req.parts({ limits: { ...DEFAULT_LIMITS, fileSize: spec.maxFileBytes, files: spec.maxFiles } });
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.valueTruncated) throw new AppError(413, "error.payload_too_large");
        fields[part.fieldname] = part.value;
        continue;
      }
      const field = `${spec.fileField}.${files.length}`;
      if (part.fieldname !== spec.fileField)
        throw new AppError(400, "upload.unknown_file_field", { field: part.fieldname });
      const data = await part.toBuffer();
      if (data.length === 0) throw new AppError(400, "upload.file_empty", { field });
      const kind = detectFileKind(data);
      if (!kind || !spec.kinds.includes(kind))
        throw new AppError(400, "upload.file_type", { field, kinds: spec.kinds.join(", ") });
      files.push({ kind, data });
    }
  } catch (err) {
    throw uploadError(err, spec);
  }
  return { fields, files };
}

/** Stores a file as <folder...>/<random>.<kind> (UPLOAD_DIR-relative, or the object key) and returns that key. */
export async function storeUpload(storage: FileStorage, folder: string[], file: UploadedFile): Promise<string> {
  const key = path.posix.join(...folder, `${randomBytes(16).toString("hex")}.${file.kind}`);
  await storage.put(key, file.data);
  return key;
}

/** Removes stored files (after a failed transaction); returns the errors of those that could not be removed. */
export function removeStored(storage: FileStorage, keys: string[]): Promise<unknown[]> {
  return storage.remove(keys);
}

export default fp(
  async (app: FastifyInstance) => {
    await app.register(multipart, { limits: DEFAULT_LIMITS, throwFileSizeLimit: true });
  },
  { name: "uploads", dependencies: ["envelope"] },
);
