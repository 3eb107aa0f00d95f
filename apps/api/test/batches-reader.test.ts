// The pure parts of batches: reading number files (CSV, TXT, UTF-16, XLSX) and the review rule.
// fixtures/numbers-xlsxwriter.xlsx and fixtures/numbers-openpyxl.xlsx were written by those two Python
// libraries (shared strings and numeric cells; inline strings, a Chinese header, an empty row), so the XLSX
// reader is checked against real writers, not only against files made by this test.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32, deflateRawSync } from "node:zlib";
import { ReviewMode } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/lib/errors";
import { readNumberFile, splitCells } from "../src/modules/batches/number-file";
import { needsReview } from "../src/modules/batches/review";

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

/** A minimal XLSX (zip with deflated parts) holding the given sheet XML rows. */
function xlsx(sheetRows: string, parts: Record<string, string> = {}): Buffer {
  const files: Record<string, string> = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
    "xl/workbook.xml": '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    "xl/worksheets/sheet1.xml": `<worksheet><sheetData>${sheetRows}</sheetData></worksheet>`,
    ...parts,
  };
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const packed = deflateRawSync(data);
    const nameBuf = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(packed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBuf.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    central.push(entry, nameBuf);
    offset += 30 + nameBuf.length + packed.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

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

  it("entities, exponent numbers, prefixed element names, cells placed by their reference", async () => {
    const rows =
      '<x:row r="1"><x:c r="C1" t="inlineStr"><x:is><x:t>Phone</x:t></x:is></x:c></x:row>' +
      '<x:row r="2"><x:c r="A2" t="s"><x:v>0</x:v></x:c><x:c r="C2"><x:v>8.6138001380000E+12</x:v></x:c></x:row>' +
      '<x:row r="3"><x:c r="C3" t="s"><x:v>1</x:v></x:c></x:row>';
    const shared =
      '<sst><si><t>A &amp; B</t></si><si><r><t>+44 7400</t></r><r><t xml:space="preserve"> 123456</t></r><rPh><t>x</t></rPh></si></sst>';
    expect(await read(xlsx(rows, { "xl/sharedStrings.xml": shared }))).toEqual(["8613800138000", "+44 7400 123456"]);
  });

  it("a damaged or foreign zip is refused with one clear message", async () => {
    const good = xlsx('<row r="1"><c r="A1"><v>8613800138000</v></c></row>');
    expect(await refusal(good.subarray(0, good.length - 30))).toBe("batch.file_xlsx_invalid");
    const noSheet = xlsx("", { "xl/workbook.xml": '<workbook><sheets><sheet r:id="rId9"/></sheets></workbook>' });
    expect(await read(noSheet).catch((e: AppError) => e.key)).toBe("batch.file_no_numbers");
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
});
