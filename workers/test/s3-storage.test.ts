// STORAGE=s3 end to end: the API and the workers both on one bucket of an S3-compatible server (s3rver, started
// here), nothing on a shared disk. A file batch uploaded through the API is read by the workers from the bucket
// (a text file larger than the upload request reads, counted and read from one temporary copy; an XLSX, which
// the reader opens by path) and its numbers land in the batch; the file leaves the bucket once read. The
// pre-submit check reads its file in the API's worker threads from a temporary copy. An identity document, a
// remittance proof and a logo are stored in the bucket and served back. The workers' sweep removes an orphaned
// batch object and keeps a named one.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSmscSimulator } from "@switchboard/channels/simulators";
import { AuthStatus, BatchStatus, UserType } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import { createFileStorage, type FileStorage, S3FileStorage } from "@switchboard/domain/storage";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type App, buildApp } from "../../apps/api/src/app";
import { makeAccount, makeWorld, multipart, SAMPLE, type World } from "../../apps/api/test/accounts";
import { signIn, type TestContext } from "../../apps/api/test/helpers";
import { type ThrowawayDatabase, throwawayDatabase } from "../../apps/api/test/throwaway-db";
import { startTestS3, type TestS3 } from "../../packages/domain/test/s3-server";
import { sweepUploads } from "../src/jobs/upload-sweep";
import { type Harness, startHarness, testConfig, waitFor, waitSettled } from "./helpers";

let db: ThrowawayDatabase;
let prisma: PrismaClient;
let redis: Redis;
let s3: TestS3;
let uploadDir: string;
let harness: Harness;
let api: App;
let t: TestContext;
/** The bucket as a test reads it (the same settings as the API's and the workers'). */
let bucket: FileStorage;
let sim: Awaited<ReturnType<typeof startSmscSimulator>>;
let customerToken: string;

beforeAll(async () => {
  db = await throwawayDatabase("s3");
  prisma = createPrisma(db.url, { max: 3 });
  await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
  sim = await startSmscSimulator();
  for (const c of await prisma.channel.findMany({ where: { kind: "smpp" } })) {
    await prisma.channel.update({
      where: { id: c.id },
      data: { config: { ...(c.config as Record<string, unknown>), port: sim.port } },
    });
  }
  s3 = await startTestS3();
  // An UPLOAD_DIR of their own that must stay empty: with STORAGE=s3 nothing is written to the local disk.
  uploadDir = await mkdtemp(path.join(tmpdir(), "sb-s3-e2e-"));
  const env = { ...s3.env, UPLOAD_DIR: uploadDir };
  harness = await startHarness({ databaseUrl: db.url, env });
  redis = new Redis(inject("redisUrl"));
  const config = { ...testConfig(db.url, harness.deps.redisPrefix, env), LOG_LEVEL: "silent" as const };
  api = await buildApp({ config, prisma, redis });
  t = { app: api, prisma, redis, config, close: async () => {} };
  bucket = createFileStorage(config);
  customerToken = await signIn(api, "customer", "customer", "Customer123");
});
afterAll(async () => {
  await api?.close();
  redis?.disconnect();
  await harness?.stop();
  await sim?.close();
  await prisma?.$disconnect();
  await db?.drop();
  await s3?.close();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

async function localFiles(): Promise<string[]> {
  return existsSync(uploadDir) ? readdir(uploadDir, { recursive: true }) : [];
}

async function submitFile(name: string, data: Buffer, extra: Record<string, string> = {}) {
  const form = multipart(
    {
      productCode: "3000",
      taskType: "2",
      content: JSON.stringify({ product: 3000, text: "Your order shipped" }),
      ...extra,
    },
    [{ name, data, field: "file" }],
    "file",
  );
  const res = await api.inject({
    method: "POST",
    url: "/batch/submit/file",
    headers: { authorization: `Bearer ${customerToken}`, "content-type": form.contentType, lang: "en" },
    payload: form.payload,
  });
  expect(res.json().code, res.body).toBe(0);
  return (res.json().data as { batch: { id: string } }).batch.id;
}

describe("STORAGE=s3: API and workers on one bucket", () => {
  it("uses the bucket on both sides", () => {
    expect(api.storage).toBeInstanceOf(S3FileStorage);
    expect(harness.deps.storage).toBeInstanceOf(S3FileStorage);
  });

  it("a file batch uploaded through the API is read by the workers from the bucket and sent", async () => {
    const batchId = await submitFile("n.csv", Buffer.from("+12025550181\n+12025550182\n+12025550183\n"));
    const done = await waitSettled(prisma, batchId);
    expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, validCount: 3, successCount: 3, filePath: null });
    expect(await bucket.list("batches/")).toEqual([]);
    expect(await localFiles()).toEqual([]);
  });

  it("a file larger than the upload request reads is counted and read by the ingest, its numbers in the batch", async () => {
    // 2,000 rows of ~200 bytes: over the 256 KiB the request reads, so the ingest counts it first (totalCount 0).
    const note = "x".repeat(200);
    const rows = Array.from({ length: 2_000 }, (_, i) => `+1201555${String(i).padStart(4, "0")},${note}`);
    const data = Buffer.from(`phone,note\n${rows.join("\n")}\n`);
    expect(data.length).toBeGreaterThan(256 * 1024);
    // Sent in an hour: the ingest materialises it now and dispatch waits (the numbers are what is looked at).
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const batchId = await submitFile("big.csv", data, { scheduledAt: later });
    const stored = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
    expect(stored.filePath).toMatch(/^batches\/\d+\/[0-9a-f]{32}\.upload$/);
    expect(stored.totalCount).toBe(0);
    const ingested = await waitFor(
      "the big batch ingested",
      async () => {
        const b = await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batchId) } });
        return b.filePath === null ? b : undefined;
      },
      60_000,
    );
    expect(ingested).toMatchObject({ status: BatchStatus.PENDING_SEND, totalCount: 2_000, validCount: 2_000 });
    expect(await prisma.recipient.count({ where: { batchId: BigInt(batchId) } })).toBe(2_000);
    // The upload goes right after the ingest's commit (personal data is not kept): gone within moments.
    await waitFor("the upload removed", async () =>
      (await bucket.stat(stored.filePath as string)) === null ? true : undefined,
    );
    await api.inject({
      method: "POST",
      url: "/batch/cancel",
      headers: { authorization: `Bearer ${customerToken}` },
      payload: { id: batchId },
    });
  });

  it("an XLSX batch (read by path: a temporary copy of the object) lands its numbers too", async () => {
    const xlsx = await readFile(
      path.join(import.meta.dirname, "../../apps/api/test/fixtures/numbers-exceljs-stream.xlsx"),
    );
    const batchId = await submitFile("n.xlsx", xlsx);
    const done = await waitSettled(prisma, batchId);
    expect(done).toMatchObject({ status: BatchStatus.SEND_FINISHED, totalCount: 7, validCount: 4, filePath: null });
    expect(await bucket.list("batches/")).toEqual([]);
  });

  it("the pre-submit check reads the file from the bucket in a worker thread and keeps nothing", async () => {
    const form = multipart(
      { productCode: "3000" },
      [{ name: "n.csv", data: Buffer.from("+12025550181\n+12025550182\nnot a number\n"), field: "file" }],
      "file",
    );
    const res = await api.inject({
      method: "POST",
      url: "/user/submit/pre/file",
      headers: { authorization: `Bearer ${customerToken}`, "content-type": form.contentType, lang: "en" },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ total: 3, valid: 2, invalid: 1 });
    expect(await bucket.list("batches/")).toEqual([]);
  });

  describe("documents, proofs and logos", () => {
    let w: World;
    beforeAll(async () => {
      w = await makeWorld(t);
    });

    it("an identity document is stored in the bucket and served back to its reviewer", async () => {
      const form = multipart(
        {
          subjectType: "2",
          name: "Acme Trading Co., Ltd.",
          idNumber: "91310000MA1FL8XX3K",
          contactName: "Li Lei",
          contactPhone: "+86 138 0000 0000",
        },
        [
          { name: "id.png", type: "image/png", data: SAMPLE.png },
          { name: "licence.pdf", type: "application/pdf", data: SAMPLE.pdf },
        ],
      );
      const saved = await api.inject({
        method: "POST",
        url: "/user/authentication/save",
        headers: { authorization: `Bearer ${w.customer1.token}`, "content-type": form.contentType, lang: "en" },
        payload: form.payload,
      });
      expect(saved.json().code, saved.body).toBe(0);
      const id = (saved.json().data as { id: number }).id;
      const row = await prisma.authentication.findUniqueOrThrow({ where: { id } });
      expect(row.status).toBe(AuthStatus.AUTHENTICATING);
      expect(row.documents).toHaveLength(2);
      for (const key of row.documents) expect(await bucket.stat(key)).not.toBeNull();
      for (const [index, data, type] of [
        [0, SAMPLE.png, "image/png"],
        [1, SAMPLE.pdf, "application/pdf"],
      ] as const) {
        const res = await api.inject({
          method: "GET",
          url: "/user/authentication/document",
          query: { id: String(id), index: String(index) },
          headers: { authorization: `Bearer ${w.admin.token}` },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers["content-type"]).toBe(type);
        expect(Number(res.headers["content-length"])).toBe(data.length);
        expect(res.rawPayload.equals(data)).toBe(true);
      }
      // Gone from the bucket: 404, as a missing file on disk.
      await bucket.remove([row.documents[0] as string]);
      const gone = await api.inject({
        method: "GET",
        url: "/user/authentication/document",
        query: { id: String(id), index: "0" },
        headers: { authorization: `Bearer ${w.admin.token}` },
      });
      expect(gone.statusCode).toBe(404);
    });

    it("a remittance proof is stored in the bucket and served back", async () => {
      const customer = await makeAccount(t, UserType.USER, w.tenantId);
      const form = multipart({ amount: "8", payer: "Han Meimei" }, [
        { name: "proof.png", type: "image/png", data: SAMPLE.png, field: "proof" },
      ]);
      const created = await api.inject({
        method: "POST",
        url: "/finance/remit/create",
        headers: { authorization: `Bearer ${customer.token}`, "content-type": form.contentType, lang: "en" },
        payload: form.payload,
      });
      expect(created.json().code, created.body).toBe(0);
      const id = (created.json().data as { id: number }).id;
      const row = await prisma.remittance.findUniqueOrThrow({ where: { id } });
      expect(row.proofPath).toMatch(new RegExp(`^remittances/${w.tenantId}/[0-9a-f]{32}\\.png$`));
      expect(await bucket.stat(row.proofPath as string)).toMatchObject({ size: SAMPLE.png.length });
      const res = await api.inject({
        method: "GET",
        url: "/finance/remit/proof",
        query: { id: String(id) },
        headers: { authorization: `Bearer ${w.admin.token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/png");
      expect(res.rawPayload.equals(SAMPLE.png)).toBe(true);
    });

    it("a logo is stored in the bucket, accepted by a config and served publicly", async () => {
      const form = multipart({}, [{ name: "logo.png", type: "image/png", data: SAMPLE.png }], "file");
      const up = await api.inject({
        method: "POST",
        url: "/setting/website/logo",
        headers: { authorization: `Bearer ${w.admin.token}`, "content-type": form.contentType, lang: "en" },
        payload: form.payload,
      });
      expect(up.json().code, up.body).toBe(0);
      const logo = (up.json().data as { path: string }).path;
      expect(await bucket.list(`website/${w.tenantId}/`)).toHaveLength(1);
      const saved = await api.inject({
        method: "POST",
        url: "/setting/website/save",
        headers: { authorization: `Bearer ${w.admin.token}`, lang: "en" },
        payload: { host: `s3-${w.tenantId}.example.test`, title: "Acme", description: "", logo, logoSmall: "" },
      });
      expect(saved.json().code, saved.body).toBe(0);
      const served = await api.inject({ method: "GET", url: logo });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe("image/png");
      expect(served.rawPayload.equals(SAMPLE.png)).toBe(true);
      expect(
        (await api.inject({ method: "GET", url: `/website/logo/${w.tenantId}/${"0".repeat(32)}.png` })).statusCode,
      ).toBe(404);
    });

    it("wrote nothing to the local disk", async () => {
      expect(await localFiles()).toEqual([]);
    });
  });

  it("the workers' sweep removes an orphaned batch object and keeps one a batch names", async () => {
    const orphan = "batches/999999/orphan.upload";
    const named = "batches/999999/named.upload";
    for (const key of [orphan, named]) await bucket.put(key, Buffer.from("+12025550123\n"));
    const batch = await prisma.messageBatch.findFirstOrThrow({ where: { filePath: null }, orderBy: { id: "desc" } });
    await prisma.messageBatch.update({ where: { id: batch.id }, data: { filePath: named } });
    try {
      // Two hours from now, both objects are old enough; only the orphan goes.
      expect(await sweepUploads(harness.deps, Date.now() + 2 * 3_600_000, true)).toBe(1);
      expect(await bucket.stat(orphan)).toBeNull();
      expect(await bucket.stat(named)).not.toBeNull();
      // Now, neither is old enough.
      await bucket.put(orphan, Buffer.from("+12025550123\n"));
      expect(await sweepUploads(harness.deps, Date.now(), true)).toBe(0);
    } finally {
      await prisma.messageBatch.update({ where: { id: batch.id }, data: { filePath: null } });
      await bucket.remove([orphan, named]);
    }
  });
});
