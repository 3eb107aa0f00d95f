// An S3-compatible bucket (AWS S3, MinIO, Ceph, R2...): each stored file is the object S3_PREFIX + key. The SDK is
// loaded on first use, so a process on the local disk never loads it.
//
// - put streams a body with @aws-sdk/lib-storage's Upload (one PutObject for a small body, a multipart upload in
//   parts of PART_BYTES otherwise, aborted when the body fails: nothing is kept). Keys are random, so no
//   conditional write is asked for (not every S3-compatible server knows If-None-Match).
// - localFile downloads the object into a folder of its own under the OS's temporary directory (0600) and
//   release removes it: the XLSX reader needs random access, and the pre-submit check's worker threads a path.
// - With S3_ENDPOINT set (anything but AWS), the SDK's checksums are sent and checked only where the API requires
//   them (requestChecksumCalculation / responseChecksumValidation WHEN_REQUIRED): several S3-compatible servers
//   refuse the CRC headers the SDK sends by default since 3.729.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import {
  checkKey,
  type FileStorage,
  FileTooLargeError,
  type LocalFile,
  limited,
  type PutOptions,
  type StoredFileInfo,
  StoredFileMissingError,
} from "./file-storage";

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key ("switchboard/"); "" for none. */
  prefix: string;
  region: string;
  /** An S3-compatible server's address (http(s)://host:port); none for AWS itself. */
  endpoint?: string | undefined;
  /** Bucket in the path (http://host/bucket/key) rather than the host name: most S3-compatible servers want it. */
  forcePathStyle: boolean;
  /** Both or neither; neither: the SDK's default chain (environment, instance or task role...). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** Multipart part size: a batch file (at most 50 MB) is 7 parts; two are in flight at once. */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/** Objects removed at once. */
const REMOVE_AT_ONCE = 16;

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404;
}

export class S3FileStorage implements FileStorage {
  readonly kind = "s3";
  readonly bucket: string;
  readonly prefix: string;
  // Not a plain property: the options hold the secret, and a logged or inspected storage must not show it.
  readonly #options: S3StorageOptions;
  #client: Promise<{ client: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | null = null;

  constructor(options: S3StorageOptions) {
    this.#options = options;
    this.bucket = options.bucket;
    this.prefix = options.prefix;
  }

  private sdk() {
    this.#client ??= (async () => {
      const sdk = await import("@aws-sdk/client-s3");
      const o = this.#options;
      const client = new sdk.S3Client({
        region: o.region,
        forcePathStyle: o.forcePathStyle,
        ...(o.endpoint
          ? {
              endpoint: o.endpoint,
              requestChecksumCalculation: "WHEN_REQUIRED",
              responseChecksumValidation: "WHEN_REQUIRED",
            }
          : {}),
        ...(o.accessKeyId && o.secretAccessKey
          ? { credentials: { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } }
          : {}),
      });
      return { client, sdk };
    })();
    return this.#client;
  }

  private objectKey(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(key: string, body: Buffer | Readable, opts: PutOptions = {}): Promise<{ bytes: number }> {
    const Key = this.objectKey(key);
    const { client, sdk } = await this.sdk();
    if (Buffer.isBuffer(body)) {
      if (opts.maxBytes !== undefined && body.length > opts.maxBytes) throw new FileTooLargeError(opts.maxBytes);
      await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key, Body: body }));
      return { bytes: body.length };
    }
    const { Upload } = await import("@aws-sdk/lib-storage");
    const count = { bytes: 0 };
    // The body's own error (a parser's size limit, a client gone) is what put throws, whatever the SDK makes of it.
    let bodyError: unknown = null;
    const source = Readable.from(
      (async function* () {
        try {
          yield* limited(body as AsyncIterable<Buffer>, opts.maxBytes, count);
        } catch (err) {
          bodyError = err;
          throw err;
        }
      })(),
    );
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key, Body: source },
      partSize: PART_BYTES,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      throw bodyError ?? err;
    }
    if (bodyError) throw bodyError;
    return count;
  }

  async read(key: string): Promise<Readable> {
    const { client, sdk } = await this.sdk();
    try {
      const out = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new StoredFileMissingError(key);
      throw err;
    }
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    const { client, sdk } = await this.sdk();
    try {
      const out = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { key, size: out.ContentLength ?? 0, modifiedAt: out.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async localFile(key: string): Promise<LocalFile> {
    const body = await this.read(key);
    const dir = await mkdtemp(path.join(tmpdir(), "switchboard-s3-"));
    const release = () => rm(dir, { recursive: true, force: true });
    try {
      const file = path.join(dir, path.posix.basename(key));
      await pipeline(body, createWriteStream(file, { flags: "wx", mode: 0o600 }));
      return { path: file, release };
    } catch (err) {
      body.destroy();
      await release();
      throw err;
    }
  }

  async remove(keys: readonly string[]): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (let i = 0; i < keys.length; i += REMOVE_AT_ONCE) {
      const results = await Promise.allSettled(
        keys.slice(i, i + REMOVE_AT_ONCE).map(async (key) => {
          const { client, sdk } = await this.sdk();
          // Deleting a missing object succeeds: S3 answers 204 either way.
          await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
        }),
      );
      for (const r of results) if (r.status === "rejected") errors.push(r.reason);
    }
    return errors;
  }

  async list(prefix: string, opts: { modifiedBefore?: Date } = {}): Promise<StoredFileInfo[]> {
    if (prefix !== "") checkKey(prefix.replace(/\/+$/, ""));
    const { client, sdk } = await this.sdk();
    const before = opts.modifiedBefore?.getTime();
    const out: StoredFileInfo[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix + prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of page.Contents ?? []) {
        if (!o.Key || !o.LastModified) continue;
        if (before !== undefined && !(o.LastModified.getTime() < before)) continue;
        out.push({ key: o.Key.slice(this.prefix.length), size: o.Size ?? 0, modifiedAt: o.LastModified });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }
}
