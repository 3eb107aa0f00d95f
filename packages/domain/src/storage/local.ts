// The local disk: files under UPLOAD_DIR, named by their key (the path relative to it), written once
// (never over an existing file) and readable by this process's user only (0600: batch files hold phone numbers).
// Every API and worker process must see the same folder (one host, or a shared file system).
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { storedPath } from "../uploads";
import {
  type FileStorage,
  FileTooLargeError,
  isMissing,
  type LocalFile,
  limited,
  type PutOptions,
  type StoredFileInfo,
} from "./file-storage";

export class LocalFileStorage implements FileStorage {
  readonly kind = "local";
  /** The absolute UPLOAD_DIR. */
  readonly root: string;

  constructor(uploadDir: string) {
    this.root = path.resolve(uploadDir);
  }

  /** Absolute path of a stored file; refuses keys that would leave the folder. */
  pathOf(key: string): string {
    return storedPath(this.root, key);
  }

  async put(key: string, body: Buffer | Readable, opts: PutOptions = {}): Promise<{ bytes: number }> {
    const abs = this.pathOf(key);
    await mkdir(path.dirname(abs), { recursive: true });
    if (Buffer.isBuffer(body)) {
      if (opts.maxBytes !== undefined && body.length > opts.maxBytes) throw new FileTooLargeError(opts.maxBytes);
      // wx: never overwrite (a random name colliding would be a bug worth hearing about); 0600: not world-readable.
      await writeFile(abs, body, { flag: "wx", mode: 0o600 });
      return { bytes: body.length };
    }
    const count = { bytes: 0 };
    const out = createWriteStream(abs, { flags: "wx", mode: 0o600 });
    let created = false;
    out.once("open", () => {
      created = true;
    });
    try {
      await pipeline(body, (source: AsyncIterable<Buffer>) => limited(source, opts.maxBytes, count), out);
    } catch (err) {
      // Only a file this call created is removed (an existing one it refused to replace stays).
      if (created) await rm(abs, { force: true }).catch(() => {});
      throw err;
    }
    return count;
  }

  async read(key: string): Promise<Readable> {
    return createReadStream(this.pathOf(key));
  }

  async stat(key: string): Promise<StoredFileInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { key, size: info.size, modifiedAt: info.mtime } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async localFile(key: string): Promise<LocalFile> {
    return { path: this.pathOf(key), release: async () => {} };
  }

  async remove(keys: readonly string[]): Promise<unknown[]> {
    const results = await Promise.allSettled(keys.map(async (key) => rm(this.pathOf(key), { force: true })));
    return results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  }

  async list(prefix: string, opts: { modifiedBefore?: Date } = {}): Promise<StoredFileInfo[]> {
    const folder = prefix.replace(/\/+$/, "");
    const dir = folder === "" ? this.root : this.pathOf(folder);
    const before = opts.modifiedBefore?.getTime();
    const out: StoredFileInfo[] = [];
    const walk = async (at: string): Promise<void> => {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(at, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const e of entries) {
        const abs = path.join(at, e.name);
        if (e.isDirectory()) await walk(abs);
        else if (e.isFile()) {
          const info = await stat(abs).catch((err: unknown) => {
            if (isMissing(err)) return null;
            throw err;
          });
          if (!info || (before !== undefined && !(info.mtimeMs < before))) continue;
          const key = path.relative(this.root, abs).split(path.sep).join(path.posix.sep);
          out.push({ key, size: info.size, modifiedAt: info.mtime });
        }
      }
    };
    await walk(dir);
    return out;
  }
}
