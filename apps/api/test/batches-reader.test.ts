// The pure parts of batches: reading number files (CSV, TXT, UTF-16, XLSX) and the review rule.
// The XLSX fixtures were written by real programs (fixtures/README.md: LibreOffice, exceljs, XlsxWriter,
// openpyxl), so the reader is checked against real writers, not only against files made by the tests; its
// bounds and odd archives are xlsx-reader.test.ts's.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ReviewMode } from "@switchboard/contracts";
import {
  checkNumberFile,
  REQUEST_READ_BYTES,
  readNumberFile,
  splitCells,
} from "@switchboard/domain/batches/number-file";
import { needsReview, reviewReasons } from "@switchboard/domain/batches/review";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/lib/errors";
import { sheetXml, workbook } from "./xlsx-zip";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sb-numbers-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function read(data: Buffer | string, max?: number): Promise<string[]> {
  n += 1;
  const file = path.join(dir, `f${n}`);
  await writeFile(file, data);
  const numbers: string[] = [];
  await readNumberFile(file, (raw) => numbers.push(raw), max);
  return numbers;
}

async function refusal(data: Buffer | string, max?: number): Promise<string> {
  try {
    await read(data, max);
  } catch (err) {
    if (err instanceof AppError) return err.key;
    throw err;
  }
  throw new Error("expected a refusal");
}

const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);

describe("text files", () => {
  it("one number per line, with a BOM, CRLF, blank lines and spaces", async () => {
    expect(await read("\uFEFF+8613800138000\r\n\r\n  +1 202 555 0123  \r\n+447400123456")).toEqual([
      "+8613800138000",
      "+1 202 555 0123",
      "+447400123456",
    ]);
  });

  it("a header names the number column, whatever the separator; quoted cells are honoured", async () => {
    expect(await read('name,"Phone Number",note\n"Doe, John","+86 138 0013 8000","said ""hi"""\nAnn,,x\n')).toEqual([
      "+86 138 0013 8000",
    ]);
    expect(await read("id;mobile\n1;+12025550123\n")).toEqual(["+12025550123"]);
    expect(await read("姓名\t手机号码\n张三\t13800138000\n")).toEqual(["13800138000"]);
  });

  it("without a header the first column holds the numbers", async () => {
    expect(await read("+12025550123,Ann\n+447400123456,Bob\n")).toEqual(["+12025550123", "+447400123456"]);
  });

  it("UTF-16 with a BOM", async () => {
    const text = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("+12025550123\r\n+447400123456\r\n", "utf16le"),
    ]);
    expect(await read(text)).toEqual(["+12025550123", "+447400123456"]);
  });

  it("refusals", async () => {
    expect(await refusal("")).toBe("batch.file_empty");
    expect(await refusal("\n \n")).toBe("batch.file_no_numbers");
    expect(await refusal("name,email\nAnn,a@example.com\n")).toBe("batch.file_no_number_column");
    expect(await refusal(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]))).toBe("batch.file_binary");
    expect(await refusal("1\n2\n3\n", 2)).toBe("batch.file_too_many_numbers");
    expect(await refusal(`${"9".repeat(5000)}`)).toBe("batch.file_line_too_long");
  });

  it("splitCells", () => {
    expect(splitCells('a, "b,c" ,"d""e"', ",")).toEqual(["a", "b,c", 'd"e']);
    expect(splitCells('  "+86 138"  ', null)).toEqual(["+86 138"]);
  });
});

describe("XLSX files", () => {
  it("a workbook written by xlsxwriter: shared strings, numeric cells, gaps, the first sheet only", async () => {
    expect(await read(await readFile(fixture("numbers-xlsxwriter.xlsx")))).toEqual([
      "8613800138000",
      "+1 202 555 0123",
      "+447400123456",
      "8613800138000",
      "call me",
    ]);
  });

  it("a workbook written by openpyxl: inline strings, a Chinese header, the sheet found through its relationship", async () => {
    expect(await read(await readFile(fixture("numbers-openpyxl.xlsx")))).toEqual([
      "8613800138001",
      "+8613800138002",
      "13800138003",
    ]);
  });

  it("LibreOffice, from an OpenDocument sheet: numbers as numbers, a date in the number column, two sheets", async () => {
    // Row by row: a number (Excel shows 8.61381E+12), text, an empty row, a number, a date (as a date, so it
    // is rejected as a phone number), an empty cell (skipped), a boolean (LibreOffice writes 1), a number.
    expect(await read(await readFile(fixture("numbers-libreoffice.xlsx")))).toEqual([
      "8613812345678",
      "+1 202 555 0123",
      "447400123456",
      "2024-03-01T00:00:00",
      "1",
      "12025550199",
    ]);
  });

  it("LibreOffice, from a CSV: digits became numbers, a '+' number stayed text, the blank line an empty row", async () => {
    expect(await read(await readFile(fixture("numbers-libreoffice-csv.xlsx")))).toEqual([
      "8613812345678",
      "+1 202 555 0123",
      "447400123456",
      "12025550199",
    ]);
  });

  it.each([
    ["numbers-exceljs.xlsx", "shared strings, rich text shared, a sparse far cell"],
    ["numbers-exceljs-stream.xlsx", "no shared strings: t=str texts and rich text inline"],
  ])("exceljs: %s (%s)", async (name) => {
    expect(await read(await readFile(fixture(name)))).toEqual([
      "8613812345678",
      "+44 7400 123456",
      "+1 202 555 0123",
      "2024-03-01T13:45:00",
      "TRUE",
      "#N/A",
      "12025550199",
    ]);
  });

  it("entities, exponent numbers, prefixed element names, cells placed by their reference", async () => {
    const rows =
      '<x:row r="1"><x:c r="C1" t="inlineStr"><x:is><x:t>Phone</x:t></x:is></x:c></x:row>' +
      '<x:row r="2"><x:c r="A2" t="s"><x:v>0</x:v></x:c><x:c r="C2"><x:v>8.6138001380000E+12</x:v></x:c></x:row>' +
      '<x:row r="3"><x:c r="C3" t="s"><x:v>1</x:v></x:c></x:row>';
    const shared =
      '<sst><si><t>A &amp; B</t></si><si><r><t>+44 7400</t></r><r><t xml:space="preserve"> 123456</t></r><rPh><t>x</t></rPh></si></sst>';
    const book = workbook({ sheet: sheetXml(rows), parts: { "xl/sharedStrings.xml": shared } });
    expect(await read(book)).toEqual(["8613800138000", "+44 7400 123456"]);
  });

  it("a damaged zip is refused with one clear message; a workbook without rows has no numbers", async () => {
    const good = workbook({ sheet: sheetXml('<row r="1"><c r="A1"><v>8613800138000</v></c></row>') });
    expect(await refusal(good.subarray(0, good.length - 30))).toBe("batch.file_xlsx_invalid");
    const noSheet = workbook({
      sheet: sheetXml(""),
      parts: { "xl/workbook.xml": '<workbook><sheets><sheet r:id="rId9"/></sheets></workbook>' },
    });
    expect(await refusal(noSheet)).toBe("batch.file_no_numbers");
    // The column rules apply to a sheet's rows as to a CSV's lines.
    const noColumn = workbook({ sheet: sheetXml('<row><c t="inlineStr"><is><t>name</t></is></c></row>') });
    expect(await refusal(noColumn)).toBe("batch.file_no_number_column");
    const many = workbook({ sheet: sheetXml("<row><c><v>1</v></c></row>".repeat(3)) });
    expect(await refusal(many, 2)).toBe("batch.file_too_many_numbers");
  });
});

describe("what the upload request reads (checkNumberFile)", () => {
  async function check(data: Buffer | string): Promise<number | null | string> {
    n += 1;
    const file = path.join(dir, `c${n}`);
    await writeFile(file, data);
    return checkNumberFile(file).catch((err: AppError) => err.key);
  }

  it("a small file is read whole: counted, or refused like the full reading would", async () => {
    expect(await check("+12025550123\n+447400123456\n")).toBe(2);
    expect(await check("")).toBe("batch.file_empty");
    expect(await check("\n \n")).toBe("batch.file_no_numbers");
    expect(await check(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe("batch.file_xls");
    expect(await check(await readFile(fixture("numbers-libreoffice.xlsx")))).toBe(6);
  });

  it("of a large text file only the start: what it shows is refused, the rest is left to the ingest", async () => {
    const numbers = "+12025550123\n".repeat(Math.ceil((REQUEST_READ_BYTES * 2) / 13));
    expect(await check(numbers)).toBeNull();
    expect(await check(`name,email\n${numbers}`)).toBe("batch.file_no_number_column");
    expect(await check(`${"9".repeat(5000)}\n${numbers}`)).toBe("batch.file_line_too_long");
    expect(await check(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from(numbers)]))).toBe(
      "batch.file_binary",
    );
    // Past the start, nothing is looked at here.
    expect(await check(`${numbers}\u0000binary`)).toBeNull();
  });

  it("of a large XLSX only the archive's directory and index parts", async () => {
    const big = workbook({ sheet: sheetXml("<row><c><v>12025550123</v></c></row>".repeat(10_000)) });
    expect(await check(big)).toBeNull();
    const broken = workbook({ sheet: sheetXml("<row><c><v>1</v></c></row>"), sheetEntry: { flags: 1 } });
    expect(await check(broken)).toBe("batch.file_xlsx_invalid");
  });
});

describe("review rule", () => {
  const settings = (reviewMode: number) => ({ reviewMode, reviewThreshold: 100, sensitiveWords: ["casino", "赌博"] });
  const regular = { authRequirement: 0 };
  const exempt = { authRequirement: 1 };
  it.each([
    [ReviewMode.NEVER, regular, "hello", 5000, false],
    [ReviewMode.ALL, regular, "hello", 1, true],
    [ReviewMode.ABOVE_THRESHOLD, regular, "hello", 100, false],
    [ReviewMode.ABOVE_THRESHOLD, regular, "hello", 101, true],
    [ReviewMode.ALL, exempt, "hello", 1, false],
    [ReviewMode.NEVER, exempt, "Big CASINO night", 1, true],
    [ReviewMode.NEVER, regular, "网络赌博", 1, true],
  ])("mode %i, requirement %o, %s, %i recipients -> %s", (mode, customer, text, count, expected) => {
    expect(needsReview(settings(mode), customer, text, count)).toBe(expected);
  });

  it.each([
    [ReviewMode.NEVER, regular, "hello", 5000, []],
    [ReviewMode.ALL, regular, "hello", 1, [{ kind: "review_all" }]],
    [ReviewMode.ABOVE_THRESHOLD, regular, "hello", 101, [{ kind: "above_threshold", threshold: 100, recipients: 101 }]],
    [ReviewMode.ALL, exempt, "Big CASINO night", 1, [{ kind: "sensitive_word", words: ["casino"] }]],
    [
      ReviewMode.ALL,
      regular,
      "网络赌博 casino",
      1,
      [{ kind: "sensitive_word", words: ["casino", "赌博"] }, { kind: "review_all" }],
    ],
  ])("mode %i, requirement %o, %s, %i recipients: reasons %j", (mode, customer, text, count, expected) => {
    expect(reviewReasons(settings(mode), customer, text, count)).toEqual(expected);
  });
});
