// The storage of uploaded files this process uses, from its configuration (STORAGE, UPLOAD_DIR, S3_*): the
// local disk by default, an S3-compatible bucket with STORAGE=s3. See file-storage.ts.
import type { Config } from "../config";
import type { FileStorage } from "./file-storage";
import { LocalFileStorage } from "./local";
import { S3FileStorage } from "./s3";

export * from "./file-storage";
export { LocalFileStorage } from "./local";
export { S3FileStorage, type S3StorageOptions } from "./s3";

export type StorageConfig = Pick<
  Config,
  | "STORAGE"
  | "UPLOAD_DIR"
  | "S3_ENDPOINT"
  | "S3_REGION"
  | "S3_BUCKET"
  | "S3_PREFIX"
  | "S3_FORCE_PATH_STYLE"
  | "S3_ACCESS_KEY_ID"
  | "S3_SECRET_ACCESS_KEY"
>;

export function createFileStorage(config: StorageConfig): FileStorage {
  if (config.STORAGE === "local") return new LocalFileStorage(config.UPLOAD_DIR);
  if (!config.S3_BUCKET) throw new Error("STORAGE=s3 needs S3_BUCKET"); // loadConfig refuses it before
  return new S3FileStorage({
    bucket: config.S3_BUCKET,
    prefix: config.S3_PREFIX,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
}
