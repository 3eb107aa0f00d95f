// The storage of uploaded files this process uses, from its configuration: the local disk under UPLOAD_DIR.
// See file-storage.ts.
import type { Config } from "../config";
import type { FileStorage } from "./file-storage";
import { LocalFileStorage } from "./local";

export * from "./file-storage";
export { LocalFileStorage } from "./local";

export type StorageConfig = Pick<Config, "UPLOAD_DIR">;

export function createFileStorage(config: StorageConfig): FileStorage {
  return new LocalFileStorage(config.UPLOAD_DIR);
}
