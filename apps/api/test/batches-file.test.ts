// Mode 3: file batches. Bad files get clear errors and write nothing; a good file creates the batch in status
// 11 (ingesting) at once, and the ingest handler (the workers' ingest-batch job, called directly here) reads
// it: numbers normalised, invalid and duplicates rejected and not charged, the cost taken exactly once.
// The request reads at most number-file.ts's REQUEST_READ_BYTES of a file: what a larger file holds further
// down is refused by the ingest (the batch ends in 13 with the reason). The pre-submit check of a file reads it
// whole, in a worker thread (file-summary.ts).
import { EventEmitter } from "node:events";
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { BalanceLogType, BatchStatus } from "@switchboard/contracts";
import { abandonIngest, ingestBatch } from "@switchboard/domain/batches";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disconnectSignal, summariseNumberFile } from "../src/modules/batch-submit/file-summary";
import { multipart } from "./accounts";
import { type Account, BatchFixtures, type BatchWorld, get, post, smsContent } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";
import { sheetXml, workbook } from "./xlsx-zip";

interface FileBatch {
  batch: {
    id: string;
    status: number;
    ingesting: boolean;
    totalCount: number;
    ingestedCount: number;
    progress: number;
  };
}

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
const silent = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

function fields(extra: Record<string, string> = {}) {
  return { productId: String(w.productId), taskType: "2", content: JSON.stringify(smsContent()), ...extra };
}

async function upload(c: Account, data: Buffer, name = "numbers.csv", extra: Record<string, string> = {}) {
  const form = multipart(fields(extra), [{ name, data, field: "file" }]);
  const res = await t.app.inject({
    method: "POST",
    url: "/batch/submit/file",
    headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang: "en" },
    payload: form.payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; message: string; data: FileBatch } };
}

function ingestDeps(dispatched: string[] = []) {
  return {
    prisma: t.prisma,
    storage: t.app.storage,
    jobs: {
      dispatch: async (id: bigint) => {
        dispatched.push(id.toString());
      },
    },
    log: silent,
  };
}

/** Numbers that are all valid and distinct: US +1 201 555 xxxx. */
function usNumbers(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `+1201555${String(i).padStart(4, "0")}`);
}

async function filesIn(tenantId: number): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  const dir = path.resolve(t.config.UPLOAD_DIR, "batches", String(tenantId));
  return existsSync(dir) ? (await readdir(dir)).length : 0;
}

const stored = (id: string) => t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(id) } });

async function reason(c: Account, id: string, lang: "zh" | "en"): Promise<string> {
  return (await get<{ reason: string }>(t, "/batch/detail", c.token, { id }, { lang })).body.data.reason;
}

const fixture = (name: string) => readFile(path.join(import.meta.dirname, "fixtures", name));

/** An XLSX of `n` (up to 1,000,000) distinct valid US numbers under a "Mobile" header, stored as numbers. */
function xlsxNumbers(n: number): Buffer {
  const rows = Array.from(
    { length: n },
    (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>1201${2_000_000 + i}</v></c></row>`,
  );
  return workbook({
    sheet: sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>Mobile</t></is></c></row>${rows.join("")}`),
  });
}

/** The finding's file: some KB that inflate to 8 MB of one unclosed <row>. */
const zipBomb = () => workbook({ sheet: `<worksheet><sheetData><row>${'<c r="A1"><v>1</v></c>'.repeat(400_000)}` });

describe("refusals write nothing", () => {
  const cases: Array<[string, Buffer, number, RegExp, string?]> = [
    ["empty", Buffer.alloc(0), 400, /file is empty/],
    ["binary", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 400, /not a text/],
    ["only blank lines", Buffer.from("\n\n  \n"), 400, /no numbers/],
    ["wrong columns", Buffer.from("name,email\nAnn,ann@example.com\n"), 400, /no column named phone/],
    ["XLS", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 400, /XLS \(Excel 97-2003\)/],
    ["a very long line", Buffer.from(`${"1".repeat(5000)}\n`), 400, /line 1 is too long/],
  ];
  for (const [name, data, status, message] of cases) {
    it(`refuses ${name}`, async () => {
      const c = await fx.customer(w, "10.00");
      const res = await upload(c, data);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code: 1 });
      expect(res.body.message).toMatch(message);
      expect(await fx.batchCount(c.id)).toBe(0);
      expect(await fx.balance(c.id)).toBe(100_000n);
    });
  }

  it("more than 1,000,000 numbers: the request cannot count them; the ingest refuses the batch with 413's reason", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await upload(c, Buffer.from("1\n".repeat(1_000_001)));
    expect(res.status).toBe(200);
    const id = res.body.data.batch.id;
    // Too large to count in the request: 0 until the ingest has counted it.
    expect(res.body.data.batch).toMatchObject({ status: BatchStatus.UNDER_REVIEW, ingesting: true, totalCount: 0 });
    const file = path.resolve(t.config.UPLOAD_DIR, (await stored(id)).filePath!);
    expect(await ingestBatch(ingestDeps(), { batchId: id })).toBe("refused");
    expect(await stored(id)).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, filePath: null, cost: 0n });
    expect(await reason(c, id, "en")).toBe("the file must contain at most 1000000 numbers");
    expect(await reason(c, id, "zh")).toBe("文件中的号码不能超过 1000000 个");
    expect(await t.prisma.recipient.count({ where: { batchId: BigInt(id) } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(100_000n);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a file over 50 MB (413)", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await upload(c, Buffer.alloc(50 * 1024 * 1024 + 10, "1\n"));
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/at most 50 MB/);
    expect(await fx.batchCount(c.id)).toBe(0);
  });

  it("refuses a damaged XLSX and the review's zip bomb in the request, from the archive's directory alone", async () => {
    const c = await fx.customer(w, "10.00");
    const before = await filesIn(w.tenantId);
    const good = xlsxNumbers(3);
    const damaged = await upload(c, good.subarray(0, good.length - 30), "n.xlsx");
    expect({ status: damaged.status, message: damaged.body.message }).toEqual({
      status: 400,
      message: "the XLSX file cannot be read: it is damaged, encrypted or not a workbook",
    });
    const bomb = zipBomb();
    expect(bomb.length).toBeLessThan(25_000);
    const refused = await upload(c, bomb, "n.xlsx");
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "the XLSX file unpacks to more than 100 times its packed size; it is refused as a possible zip bomb",
    );
    expect(await fx.batchCount(c.id)).toBe(0);
    expect(await filesIn(w.tenantId)).toBe(before);
  });

  it("refuses bad content and a missing file; leaves no file behind", async () => {
    const c = await fx.customer(w, "10.00");
    const before = await filesIn(w.tenantId);
    const bad = await upload(c, Buffer.from("+12025550123\n"), "n.txt", { content: "{not json" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/content must be JSON/);
    const long = await upload(c, Buffer.from("+12025550123\n"), "n.txt", {
      content: JSON.stringify(smsContent("x".repeat(1600))),
    });
    expect(long.status).toBe(400);
    const form = multipart(fields(), []);
    const none = await t.app.inject({
      method: "POST",
      url: "/batch/submit/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang: "en" },
      payload: form.payload,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/upload the number file in field file/);
    expect(await fx.batchCount(c.id)).toBe(0);
    expect(await filesIn(w.tenantId)).toBe(before);
  });

  it("refuses a customer that may not send before reading the file", async () => {
    const c = await fx.customer(w, "10.00", { authStatus: 1 });
    const res = await upload(c, Buffer.from("+12025550123\n"));
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/under review/);
    expect(await fx.batchCount(c.id)).toBe(0);
  });
});

describe("ingest", () => {
  it("a 5,000-number CSV: batch at once in 11 (ingesting), then ingested, charged exactly, dispatched", async () => {
    const c = await fx.customer(w, "100.00");
    const numbers = usNumbers(5000);
    const rows = ["name;phone", ...numbers.map((n, i) => `Person ${i};${n}`), "dup;+12015550000", "bad;12", "blank;"];
    const res = await upload(c, Buffer.from(`\uFEFF${rows.join("\r\n")}\r\n`));
    expect(res.status).toBe(200);
    const created = res.body.data.batch;
    expect(created).toMatchObject({
      status: BatchStatus.UNDER_REVIEW,
      ingesting: true,
      totalCount: 5002,
      ingestedCount: 0,
      progress: 0,
    });
    expect(await fx.balance(c.id)).toBe(1_000_000n);
    expect(await fx.job("ingest-batch", created.id)).toBeTruthy();
    const stored = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(created.id) } });
    const file = path.resolve(t.config.UPLOAD_DIR, stored.filePath!);
    expect(existsSync(file)).toBe(true);

    // An ingesting batch cannot be passed.
    expect((await post(t, "/batch/review/pass", w.admin.token, { id: created.id })).status).toBe(409);

    const dispatched: string[] = [];
    expect(await ingestBatch(ingestDeps(dispatched), { batchId: created.id })).toBe("materialized");
    expect(dispatched).toEqual([created.id]);
    expect(existsSync(file)).toBe(false);

    const batch = await fx.expectExactCharge(created.id);
    expect(batch).toMatchObject({
      status: BatchStatus.PENDING_SEND,
      totalCount: 5002,
      ingestedCount: 5002,
      validCount: 5000,
      invalidCount: 1,
      duplicateCount: 1,
      cost: 5000n * 80n,
      filePath: null,
    });
    expect(await fx.balance(c.id)).toBe(1_000_000n - 400_000n);
    const detail = await get<{ ingesting: boolean; progress: number }>(t, "/batch/detail", c.token, { id: created.id });
    expect(detail.body.data).toMatchObject({ ingesting: false, progress: 0 });

    // A second run (a retried job) changes nothing.
    expect(await ingestBatch(ingestDeps(), { batchId: created.id })).toBe("not_pending");
    expect(await t.prisma.recipient.count({ where: { batchId: BigInt(created.id) } })).toBe(5000);
    expect(
      await t.prisma.balanceLog.count({ where: { batchId: BigInt(created.id), type: BalanceLogType.CONSUME } }),
    ).toBe(1);
  });

  it("a 25,000-number file is written while it is read: exact counts, a country not served, one charge", async () => {
    const c = await fx.customer(w, "300.00");
    // Three insert statements' worth, with rejections of every kind spread through the file.
    const numbers = Array.from({ length: 25_000 }, (_, i) => `+1201${2_000_000 + i}`);
    const lines = numbers.flatMap((n, i) => (i % 5_000 === 0 ? [n, "+33612345678", "12", n] : [n]));
    const res = await upload(c, Buffer.from(lines.join("\n")));
    expect(res.status).toBe(200);
    // Over REQUEST_READ_BYTES: not counted in the request.
    expect(res.body.data.batch.totalCount).toBe(0);
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("materialized");
    const batch = await fx.expectExactCharge(res.body.data.batch.id);
    expect(batch).toMatchObject({
      status: BatchStatus.PENDING_SEND,
      totalCount: 25_015,
      ingestedCount: 25_015,
      validCount: 25_000,
      invalidCount: 5,
      duplicateCount: 9,
      cost: 25_000n * 80n,
    });
    expect(await t.prisma.recipient.count({ where: { batchId: batch.id } })).toBe(25_000);
    const rejected = await t.prisma.rejectedNumber.groupBy({
      by: ["reason"],
      where: { batchId: batch.id },
      _count: true,
      orderBy: { reason: "asc" },
    });
    // 1 invalid, 2 duplicate (the FR number's later copies too), 3 not served (its first).
    expect(rejected.map((r) => [r.reason, r._count])).toEqual([
      [1, 5],
      [2, 9],
      [3, 1],
    ]);
  });

  it("a big file whose balance turns out short writes nothing, though rows were written while it was read", async () => {
    const c = await fx.customer(w, "10.00");
    const numbers = Array.from({ length: 25_000 }, (_, i) => `+1201${2_000_000 + i}`);
    const res = await upload(c, Buffer.from(numbers.join("\n")));
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("refused");
    const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(res.body.data.batch.id) } });
    // totalCount: the ingest counted the file before writing it (the progress's base while it was written).
    expect(batch).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, cost: 0n, validCount: 0, totalCount: 25_000 });
    expect(await t.prisma.recipient.count({ where: { batchId: batch.id } })).toBe(0);
    expect(await t.prisma.rejectedNumber.count({ where: { batchId: batch.id } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(100_000n);
  });

  it("a plain TXT file and a UTF-16 one (Excel's Unicode text)", async () => {
    const c = await fx.customer(w, "10.00");
    const txt = await upload(c, Buffer.from("+12025550123\n+447400123456\n"), "n.txt");
    expect(await ingestBatch(ingestDeps(), { batchId: txt.body.data.batch.id })).toBe("materialized");
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("phone\tname\r\n+12025550123\tA\r\n", "utf16le"),
    ]);
    const u = await upload(c, utf16, "n.txt");
    expect(u.status).toBe(200);
    expect(await ingestBatch(ingestDeps(), { batchId: u.body.data.batch.id })).toBe("materialized");
    expect(
      (await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(u.body.data.batch.id) } })).validCount,
    ).toBe(1);
  });

  it("an XLSX workbook (first sheet, the Mobile column)", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await upload(
      c,
      await readFile(path.join(import.meta.dirname, "fixtures", "numbers-xlsxwriter.xlsx")),
      "n.xlsx",
    );
    expect(res.status).toBe(200);
    expect(res.body.data.batch.totalCount).toBe(5);
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("materialized");
    const batch = await fx.expectExactCharge(res.body.data.batch.id);
    expect(batch).toMatchObject({ validCount: 3, duplicateCount: 1, invalidCount: 1, cost: 350n + 80n + 400n });
  });

  it("XLSX from exceljs and LibreOffice: a date, a boolean and an error in the number column are invalid", async () => {
    const c = await fx.customer(w, "10.00");
    const ej = await upload(c, await fixture("numbers-exceljs.xlsx"), "n.xlsx");
    expect(ej.body.data.batch.totalCount).toBe(7);
    expect(await ingestBatch(ingestDeps(), { batchId: ej.body.data.batch.id })).toBe("materialized");
    expect(await fx.expectExactCharge(ej.body.data.batch.id)).toMatchObject({
      totalCount: 7,
      validCount: 4,
      invalidCount: 3,
      cost: 350n + 400n + 80n + 80n,
    });
    const rejected = await t.prisma.rejectedNumber.findMany({
      where: { batchId: BigInt(ej.body.data.batch.id) },
      orderBy: { id: "asc" },
    });
    expect(rejected.map((r) => r.raw)).toEqual(["2024-03-01T13:45:00", "TRUE", "#N/A"]);
    const lo = await upload(c, await fixture("numbers-libreoffice.xlsx"), "n.xlsx");
    expect(await ingestBatch(ingestDeps(), { batchId: lo.body.data.batch.id })).toBe("materialized");
    expect(await fx.expectExactCharge(lo.body.data.batch.id)).toMatchObject({ validCount: 4, invalidCount: 2 });
  });

  it("a large XLSX is counted and read by the ingest, not the request", async () => {
    const c = await fx.customer(w, "200.00");
    const res = await upload(c, xlsxNumbers(20_000), "n.xlsx");
    expect(res.status).toBe(200);
    expect(res.body.data.batch.totalCount).toBe(0);
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("materialized");
    expect(await fx.expectExactCharge(res.body.data.batch.id)).toMatchObject({
      totalCount: 20_000,
      validCount: 20_000,
      cost: 20_000n * 80n,
    });
  });

  it("what a large file holds past the request's reading is refused by the ingest, with the reason", async () => {
    const c = await fx.customer(w, "10.00");
    const text = Buffer.concat([Buffer.from(usNumbers(30_000).join("\n")), Buffer.from("\n\u0000\u0001\n")]);
    const bin = await upload(c, text);
    expect(bin.status).toBe(200);
    expect(await ingestBatch(ingestDeps(), { batchId: bin.body.data.batch.id })).toBe("refused");
    expect(await reason(c, bin.body.data.batch.id, "en")).toBe("the file is not a text (CSV or TXT) or XLSX file");
    expect(await reason(c, bin.body.data.batch.id, "zh")).toBe("文件不是文本（CSV、TXT）或 XLSX 文件");
    // An XLSX whose header names no number column is only seen once its sheet is read.
    const rows = usNumbers(20_000).map((num) => `<row><c t="inlineStr"><is><t>${num}</t></is></c></row>`);
    const sheet = sheetXml(`<row><c t="inlineStr"><is><t>Name</t></is></c></row>${rows.join("")}`);
    const noColumn = await upload(c, workbook({ sheet }), "n.xlsx");
    expect(noColumn.status).toBe(200);
    expect(await ingestBatch(ingestDeps(), { batchId: noColumn.body.data.batch.id })).toBe("refused");
    expect(await reason(c, noColumn.body.data.batch.id, "en")).toBe(
      "the first row has no column named phone, mobile or number",
    );
    expect(await stored(noColumn.body.data.batch.id)).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, cost: 0n });
    expect(await fx.balance(c.id)).toBe(100_000n);
  });

  it("a file whose balance is short when read ends in 13 with the reason, nothing charged", async () => {
    const c = await fx.customer(w, "0.01");
    const res = await upload(c, Buffer.from(usNumbers(3).join("\n")));
    expect(res.status).toBe(200);
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("refused");
    const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(res.body.data.batch.id) } });
    expect(batch).toMatchObject({ status: BatchStatus.REVIEW_REJECTED, cost: 0n, filePath: null });
    // Stored as a message key with its parameters; each reader gets it in its own language.
    expect(JSON.parse(batch.reason!)).toMatchObject({ key: expect.stringMatching(/insufficient/) });
    const detail = (lang: "zh" | "en") =>
      get<{ reason: string }>(t, "/batch/detail", c.token, { id: res.body.data.batch.id }, { lang });
    expect((await detail("en")).body.data.reason).toMatch(/insufficient balance/);
    expect((await detail("zh")).body.data.reason).toMatch(/余额不足/);
    const list = await get<{ list: { id: string; reason: string }[] }>(t, "/batch/list", c.token, {}, { lang: "zh" });
    expect(list.body.data.list.find((b) => b.id === res.body.data.batch.id)?.reason).toMatch(/余额不足/);
    expect(await t.prisma.recipient.count({ where: { batchId: batch.id } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(100n);
  });

  it("a file whose ingest gave up for good ends in 13, its reason read in the reader's language", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await upload(c, Buffer.from(usNumbers(2).join("\n")));
    await abandonIngest(ingestDeps(), { batchId: res.body.data.batch.id });
    const detail = (lang: "zh" | "en") =>
      get<{ status: number; reason: string }>(t, "/batch/detail", c.token, { id: res.body.data.batch.id }, { lang });
    expect((await detail("en")).body.data).toMatchObject({
      status: BatchStatus.REVIEW_REJECTED,
      reason: "the batch's file could not be read; submit it again",
    });
    expect((await detail("zh")).body.data.reason).toBe("任务文件读取失败，请重新提交");
  });

  it("a refused file's reason (no valid number) reads in zh and en, with its counts", async () => {
    const c = await fx.customer(w, "10.00");
    // France has no price: its one number is not served, the others are invalid or a repeat.
    const res = await upload(c, Buffer.from("+33612345678\n12\n+33612345678\nabc\n"));
    expect(res.status).toBe(200);
    expect(await ingestBatch(ingestDeps(), { batchId: res.body.data.batch.id })).toBe("refused");
    const detail = (lang: "zh" | "en") =>
      get<{ status: number; reason: string }>(t, "/batch/detail", c.token, { id: res.body.data.batch.id }, { lang });
    const en = await detail("en");
    expect(en.body.data.status).toBe(BatchStatus.REVIEW_REJECTED);
    // ...and why that country is not served
    expect(en.body.data.reason).toBe(
      "no number can be sent: 2 invalid, 1 duplicate, 1 in countries not served (no price is set for this country)",
    );
    expect((await detail("zh")).body.data.reason).toBe(
      "没有可发送的号码：无效 2 个，重复 1 个，国家不支持 1 个（该国家未设置价格）",
    );
  });

  it("a batch cancelled while its file waits is not ingested, and its file is removed", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await upload(c, Buffer.from(usNumbers(3).join("\n")));
    const id = res.body.data.batch.id;
    const stored = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(id) } });
    const cancelled = await post<{ status: number; refunded: string }>(t, "/batch/cancel", c.token, { id });
    expect(cancelled.body.data).toMatchObject({ status: BatchStatus.SEND_CANCELLED, refunded: "0.0000" });
    expect(existsSync(path.resolve(t.config.UPLOAD_DIR, stored.filePath!))).toBe(false);
    expect(await ingestBatch(ingestDeps(), { batchId: id })).toBe("not_pending");
    expect(await t.prisma.recipient.count({ where: { batchId: BigInt(id) } })).toBe(0);
    expect(await fx.balance(c.id)).toBe(100_000n);
  });

  it("review applies after ingest: the batch stays in 11, charged, and can then be passed", async () => {
    const rw = await fx.world({ reviewMode: 1 });
    const c = await fx.customer(rw, "10.00");
    const form = multipart({ productId: String(rw.productId), taskType: "2", content: JSON.stringify(smsContent()) }, [
      { name: "n.csv", data: Buffer.from("+12025550123\n"), field: "file" },
    ]);
    const res = await t.app.inject({
      method: "POST",
      url: "/batch/submit/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType },
      payload: form.payload,
    });
    const id = (res.json() as { data: FileBatch }).data.batch.id;
    const dispatched: string[] = [];
    expect(await ingestBatch(ingestDeps(dispatched), { batchId: id })).toBe("materialized");
    expect(dispatched).toEqual([]);
    const batch = await fx.expectExactCharge(id);
    expect(batch.status).toBe(BatchStatus.UNDER_REVIEW);
    const passed = await post<{ status: number }>(t, "/batch/review/pass", rw.admin.token, { id });
    expect(passed.body.data.status).toBe(BatchStatus.PENDING_SEND);
  });
});

describe("the pre-submit check of a file (read in a worker thread)", () => {
  async function preFile(c: Account, data: Buffer, name: string, lang: "zh" | "en" = "en") {
    const form = multipart({ productId: String(w.productId) }, [{ name, data, field: "file" }]);
    const res = await t.app.inject({
      method: "POST",
      url: "/user/submit/pre/file",
      headers: { authorization: `Bearer ${c.token}`, "content-type": form.contentType, lang },
      payload: form.payload,
    });
    return { status: res.statusCode, body: res.json() as { message: string; data: Record<string, unknown> } };
  }

  it("summarises an XLSX: a date, a boolean and an error count as invalid; nothing is kept", async () => {
    const c = await fx.customer(w, "10.00");
    const before = await filesIn(w.tenantId);
    const res = await preFile(c, await fixture("numbers-exceljs-stream.xlsx"), "n.xlsx");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 7, valid: 4, invalid: 3, duplicate: 0, totalCost: "0.0910" });
    expect(await fx.batchCount(c.id)).toBe(0);
    expect(await filesIn(w.tenantId)).toBe(before);
  });

  it("a refusal thrown in the thread reaches the client as the same translated 400", async () => {
    const c = await fx.customer(w, "10.00");
    const sheet = sheetXml('<row><c t="inlineStr"><is><t>Name</t></is></c></row><row><c><v>1</v></c></row>');
    const en = await preFile(c, workbook({ sheet }), "n.xlsx", "en");
    expect({ status: en.status, message: en.body.message }).toEqual({
      status: 400,
      message: "the first row has no column named phone, mobile or number",
    });
    const zh = await preFile(c, workbook({ sheet }), "n.xlsx", "zh");
    expect(zh.body.message).toBe("首行中没有名为 phone、mobile 或 number 的列");
    const bomb = await preFile(c, zipBomb(), "n.xlsx", "zh");
    expect({ status: bomb.status, message: bomb.body.message }).toEqual({
      status: 400,
      message: "XLSX 文件的压缩率异常（解压后超过原大小的 100 倍），疑似压缩炸弹",
    });
    const many = await preFile(c, Buffer.from("1\n".repeat(1_000_001)), "n.txt");
    expect({ status: many.status, message: many.body.message }).toEqual({
      status: 413,
      message: "the file must contain at most 1000000 numbers",
    });
  });

  it("a large file is read off the event loop, and the work stops when the caller aborts", async () => {
    const file = path.join(t.config.UPLOAD_DIR, `pre-${Date.now()}.csv`);
    await writeFile(
      file,
      usNumbers(9_999)
        .concat(Array.from({ length: 290_000 }, (_, i) => `+1202${2_000_000 + i}`))
        .join("\n"),
    );
    try {
      const loop = performance.eventLoopUtilization();
      const tally = await summariseNumberFile(file, { domesticCountry: null });
      // Reading and sorting 300,000 numbers took this thread's loop almost no time: the work was elsewhere.
      expect(performance.eventLoopUtilization(loop).utilization).toBeLessThan(0.5);
      expect(tally).toMatchObject({ total: 299_999, distinct: 299_999, invalid: 0 });
      expect([...tally.perCountry]).toEqual([["US", 299_999]]);

      const gone = new AbortController();
      const aborted = summariseNumberFile(file, { domesticCountry: null }, gone.signal);
      setTimeout(() => gone.abort(), 50);
      await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
      // The pool goes on with a fresh thread.
      expect((await summariseNumberFile(file, { domesticCountry: null })).total).toBe(299_999);
    } finally {
      await rm(file, { force: true });
    }
  });

  it("a client that leaves before its answer aborts the work; one that got its answer does not", () => {
    const response = (finished: boolean) =>
      Object.assign(new EventEmitter(), { writableFinished: finished }) as unknown as ServerResponse;
    const left = response(false);
    const leftSignal = disconnectSignal({ raw: left });
    const answered = response(true);
    const answeredSignal = disconnectSignal({ raw: answered });
    expect([leftSignal.aborted, answeredSignal.aborted]).toEqual([false, false]);
    left.emit("close");
    answered.emit("close");
    expect([leftSignal.aborted, answeredSignal.aborted]).toEqual([true, false]);
  });
});
