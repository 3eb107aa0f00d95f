// The file storage contract (storage/file-storage.ts), one suite run against both implementations: the local
// disk (a temporary UPLOAD_DIR) and S3 (an s3rver started here, a real S3 REST server), plus what only one of
// them has (S3_PREFIX, the temporary copy of localFile) and the settings that choose them.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import {
  createFileStorage,
  type FileStorage,
  FileTooLargeError,
  LocalFileStorage,
  type S3FileStorage,
  withLocalFile,
} from "../src/storage";
import { startTestS3, type TestS3 } from "./s3-server";

let s3: TestS3;
let uploadDir: string;

beforeAll(async () => {
  s3 = await startTestS3();
  uploadDir = await mkdtemp(path.join(tmpdir(), "sb-storage-"));
});
afterAll(async () => {
  await s3?.close();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

const REQUIRED = { DATABASE_URL: "postgresql://x@y/z", JWT_SECRET: "x".repeat(32), CHANNEL_SECRET_KEY: "0".repeat(64) };

function s3Storage(prefix = ""): S3FileStorage {
  const config = loadConfig({ ...REQUIRED, ...s3.env, S3_PREFIX: prefix });
  return createFileStorage(config) as S3FileStorage;
}

const sha = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of n bytes in chunks of 64 KiB, as a multipart parser hands a file part over. */
function chunked(data: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 64 * 1024) yield data.subarray(i, i + 64 * 1024);
    })(),
  );
}

const key = (folder = "batches/7") => `${folder}/${randomBytes(16).toString("hex")}.upload`;

describe.each([
  ["local", () => createFileStorage(loadConfig({ ...REQUIRED, UPLOAD_DIR: uploadDir }))],
  ["s3", () => s3Storage()],
])("file storage contract: %s", (kind, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
    expect(storage.kind).toBe(kind);
  });

  it("stores a buffer and gives it back: stat, read, a local path, and removes it", async () => {
    const k = key("authentication/3");
    const data = Buffer.from("%PDF-1.4 a document");
    const before = Date.now();
    expect(await storage.put(k, data)).toEqual({ bytes: data.length });
    const info = await storage.stat(k);
    expect(info).toMatchObject({ key: k, size: data.length });
    // S3 keeps whole seconds.
    expect(info!.modifiedAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(await readAll(await storage.read(k))).toEqual(data);
    expect(await withLocalFile(storage, k, (p) => readFile(p))).toEqual(data);
    expect(await storage.remove([k])).toEqual([]);
    expect(await storage.stat(k)).toBeNull();
  });

  it("streams a large body in (a multipart upload on S3) with its exact bytes", async () => {
    const k = key();
    const data = randomBytes(9 * 1024 * 1024 + 123);
    expect(await storage.put(k, chunked(data), { maxBytes: 50 * 1024 * 1024 })).toEqual({ bytes: data.length });
    expect((await storage.stat(k))?.size).toBe(data.length);
    expect(sha(await readAll(await storage.read(k)))).toBe(sha(data));
    expect(sha(await withLocalFile(storage, k, (p) => readFile(p)))).toBe(sha(data));
    await storage.remove([k]);
  });

  it("refuses a body over maxBytes and keeps nothing of it", async () => {
    const k = key();
    await expect(storage.put(k, chunked(randomBytes(300 * 1024)), { maxBytes: 200 * 1024 })).rejects.toBeInstanceOf(
      FileTooLargeError,
    );
    await expect(storage.put(k, Buffer.alloc(11), { maxBytes: 10 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(await storage.stat(k)).toBeNull();
    expect((await storage.list("batches/")).map((f) => f.key)).not.toContain(k);
  });

  it("throws the body's own error (a parser's size limit) and keeps nothing", async () => {
    const k = key();
    const limit = Object.assign(new Error("request file too large"), { code: "FST_REQ_FILE_TOO_LARGE" });
    const failing = Readable.from(
      (async function* () {
        yield Buffer.alloc(64 * 1024, 1);
        yield Buffer.alloc(64 * 1024, 2);
        throw limit;
      })(),
    );
    await expect(storage.put(k, failing)).rejects.toMatchObject({ code: "FST_REQ_FILE_TOO_LARGE" });
    expect(await storage.stat(k)).toBeNull();
  });

  it("says ENOENT for a missing file, whichever way it is read; removing one is no error", async () => {
    const k = key();
    expect(await storage.stat(k)).toBeNull();
    await expect(storage.read(k).then(readAll)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(withLocalFile(storage, k, (p) => readFile(p))).rejects.toMatchObject({ code: "ENOENT" });
    expect(await storage.remove([k, key()])).toEqual([]);
  });

  it("lists a folder at any depth, only that folder, and only files older than asked", async () => {
    const a = key("batches/41");
    const b = `batches/41/deeper/${randomBytes(8).toString("hex")}.upload`;
    const other = key("website/41");
    for (const k of [a, b, other]) await storage.put(k, Buffer.from("+12025550123\n"));
    const listed = (await storage.list("batches/")).map((f) => f.key);
    expect(listed).toEqual(expect.arrayContaining([a, b]));
    expect(listed).not.toContain(other);
    expect((await storage.list("website/41/")).map((f) => f.key)).toEqual([other]);
    const later = new Date(Date.now() + 60_000);
    expect((await storage.list("batches/41/", { modifiedBefore: later })).map((f) => f.key).sort()).toEqual(
      [a, b].sort(),
    );
    expect(await storage.list("batches/41/", { modifiedBefore: new Date(Date.now() - 60_000) })).toEqual([]);
    expect(await storage.list("batches/nothing-here/")).toEqual([]);
    expect(await storage.remove([a, b, other])).toEqual([]);
    expect(await storage.list("batches/41/")).toEqual([]);
  });

  it("refuses keys that would leave the storage", async () => {
    await expect(storage.put("../outside.upload", Buffer.from("x"))).rejects.toThrow();
    await expect(storage.stat("batches/../../etc/passwd")).rejects.toThrow();
  });
});

describe("S3 only", () => {
  it("puts every object under S3_PREFIX, and the keys it answers are without it", async () => {
    const prefixed = s3Storage("tenant-a/uploads");
    expect(prefixed.prefix).toBe("tenant-a/uploads/");
    const k = key();
    await prefixed.put(k, Buffer.from("x"));
    expect((await prefixed.list("batches/")).map((f) => f.key)).toContain(k);
    const bare = s3Storage();
    expect(await bare.stat(k)).toBeNull();
    expect(await bare.stat(`tenant-a/uploads/${k}`)).not.toBeNull();
    await prefixed.remove([k]);
  });

  it("hands readers a temporary copy, removed again at release", async () => {
    const storage = s3Storage();
    const k = key();
    await storage.put(k, Buffer.from("+12025550123\n"));
    const file = await storage.localFile(k);
    expect(file.path.startsWith(tmpdir())).toBe(true);
    expect(await readFile(file.path, "utf8")).toBe("+12025550123\n");
    await file.release();
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(path.dirname(file.path))).toBe(false);
    await storage.remove([k]);
  });

  it("fails plainly on credentials the server does not know", async () => {
    const wrong = createFileStorage(
      loadConfig({ ...REQUIRED, ...s3.env, S3_ACCESS_KEY_ID: "NOT-A-KEY", S3_SECRET_ACCESS_KEY: "not-the-secret" }),
    ) as S3FileStorage;
    const k = key();
    await expect(wrong.put(k, Buffer.from("x"))).rejects.toMatchObject({ name: "InvalidAccessKeyId" });
    expect(await s3Storage().stat(k)).toBeNull();
  });
});

describe("local only", () => {
  it("writes files readable by their owner only, never over an existing one", async () => {
    const storage = new LocalFileStorage(uploadDir);
    const k = key();
    await storage.put(k, chunked(Buffer.from("+12025550123\n")));
    expect((await stat(storage.pathOf(k))).mode & 0o777).toBe(0o600);
    await expect(storage.put(k, Buffer.from("other"))).rejects.toMatchObject({ code: "EEXIST" });
    await expect(storage.put(k, chunked(Buffer.from("other")))).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readFile(storage.pathOf(k), "utf8")).toBe("+12025550123\n");
    await storage.remove([k]);
  });
});

describe("storage settings", () => {
  it("defaults to the local disk under UPLOAD_DIR", () => {
    const config = loadConfig(REQUIRED);
    expect(config).toMatchObject({
      STORAGE: "local",
      UPLOAD_DIR: ".data/uploads",
      S3_PREFIX: "",
      S3_FORCE_PATH_STYLE: false,
    });
    expect(createFileStorage(config)).toBeInstanceOf(LocalFileStorage);
  });

  it("reads empty S3 settings (compose passes NAME:- as empty) as unset", () => {
    const config = loadConfig({
      ...REQUIRED,
      S3_ENDPOINT: "",
      S3_BUCKET: "",
      S3_ACCESS_KEY_ID: "",
      S3_SECRET_ACCESS_KEY: "",
    });
    expect(config).toMatchObject({ S3_ENDPOINT: undefined, S3_BUCKET: undefined, S3_ACCESS_KEY_ID: undefined });
  });

  it("refuses STORAGE=s3 without a bucket, half a key pair, a bad endpoint, and never prints a secret", () => {
    expect(() => loadConfig({ ...REQUIRED, STORAGE: "s3" })).toThrow(/S3_BUCKET: is required with STORAGE=s3/);
    const secret = "very-secret-value-1234567890";
    let message = "";
    try {
      loadConfig({ ...REQUIRED, STORAGE: "s3", S3_BUCKET: "bucket-one", S3_SECRET_ACCESS_KEY: secret });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/S3_ACCESS_KEY_ID: .*go together/);
    expect(message).not.toContain(secret);
    expect(() => loadConfig({ ...REQUIRED, STORAGE: "s3", S3_BUCKET: "b", S3_ENDPOINT: "ftp://x" })).toThrow(
      /S3_BUCKET|S3_ENDPOINT/,
    );
    expect(() => loadConfig({ ...REQUIRED, S3_PREFIX: "../up" })).toThrow(/S3_PREFIX/);
  });

  it("keeps the secret out of what a log line would show of the storage", () => {
    const storage = s3Storage();
    expect(JSON.stringify(storage)).not.toContain("S3RVER");
    expect(inspect(storage, { depth: 5 })).not.toContain("S3RVER");
  });
});
