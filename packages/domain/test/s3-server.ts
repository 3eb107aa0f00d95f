// An S3-compatible server for tests: s3rver (the S3 REST API in Node, objects in a temporary folder), on a port
// the OS picks, with one bucket. It refuses an access key it does not know (its own: S3RVER).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The settings that point a process at it (STORAGE=s3 and S3_*), as loadConfig reads them. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials. */
const KEY = "S3RVER";

export async function startTestS3(bucket = "switchboard-test"): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), "sb-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      S3_FORCE_PATH_STYLE: "true",
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
