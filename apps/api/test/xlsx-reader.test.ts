// The XLSX reader's bounds and cell values, on archives made here (xlsx-zip.ts) the way a hostile or odd upload
// would be: each bound refuses the file with its own message, and the shape that made the hand-made reader
// quadratic (one unclosed <row> of megabytes) is refused, at twice the size the same way.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { translate } from "@switchboard/contracts";
import { checkNumberFile, readNumberFile } from "@switchboard/domain/batches/number-file";
import {
  columnOf,
  isDateFormat,
  numberText,
  readXlsxRows,
  serialDate,
  XLSX_LIMITS,
} from "@switchboard/domain/batches/xlsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/lib/errors";
import { sheetXml, workbook, zip } from "./xlsx-zip";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sb-xlsx-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
async function stored(data: Buffer): Promise<string> {
  n += 1;
  const file = path.join(dir, `w${n}.xlsx`);
  await writeFile(file, data);
  return file;
}

async function rows(data: Buffer): Promise<string[][]> {
  const out: string[][] = [];
  await readXlsxRows(await stored(data), (cells) => out.push(cells));
  return out;
}

/** The refusal's key and params (and that it is a 400). */
async function refusal(data: Buffer): Promise<{ key: string; params: object }> {
  try {
    await rows(data);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    expect(err.status).toBe(400);
    return { key: err.key, params: err.params };
  }
  throw new Error("expected a refusal");
}

const refusalKey = async (data: Buffer) => (await refusal(data)).key;

describe("cell values", () => {
  it("numbers come out as their full digits, shifted by the exponent in the text (no float noise)", () => {
    expect(numberText("8613812345678")).toBe("8613812345678");
    expect(numberText("8.613812345678E+12")).toBe("8613812345678");
    expect(numberText("8.61381234567800E+012")).toBe("8613812345678");
    expect(numberText("8.6138E+12")).toBe("8613800000000");
    expect(numberText("447400123456.0")).toBe("447400123456");
    expect(numberText("1.5E-3")).toBe("0.0015");
    expect(numberText("-4.2E1")).toBe("-42");
    expect(numberText("-5")).toBe("-5");
    expect(numberText("+12")).toBe("12");
    expect(numberText("0.30000000000000004")).toBe("0.30000000000000004");
    // 2^53 + 1 cannot be a float: the text is kept exactly.
    expect(numberText("9.007199254740993E+15")).toBe("9007199254740993");
    expect(numberText("abc")).toBe("abc");
  });

  it("date serials read as dates (1900 and 1904 systems), never as digits", () => {
    expect(serialDate("45296", false)).toBe("2024-01-05T00:00:00");
    expect(serialDate("45352.57291666667", false)).toBe("2024-03-01T13:45:00");
    expect(serialDate("1", false)).toBe("1900-01-01T00:00:00");
    expect(serialDate("61", false)).toBe("1900-03-01T00:00:00");
    expect(serialDate("43834", true)).toBe("2024-01-05T00:00:00");
    // A phone number formatted as a date by mistake is no date Excel can show.
    expect(serialDate("8613812345678", false)).toBe("########");
  });

  it("which number formats show dates", () => {
    for (const code of [
      "yyyy-mm-dd",
      "yyyy\\-mm\\-dd",
      "m/d/yy h:mm",
      "[h]:mm:ss",
      'yyyy"年"m"月"d"日"',
      "[$-409]mmm d",
    ])
      expect(isDateFormat(code)).toBe(true);
    for (const code of ["General", "0", "0.00E+00", "#,##0", '0" days"', "[Red]0.00", "@", "0.0\\ \\h"])
      expect(isDateFormat(code)).toBe(false);
  });

  it("column references", () => {
    expect([columnOf("A1"), columnOf("c5"), columnOf("AA10"), columnOf("XFD1"), columnOf("1A")]).toEqual([
      0, 2, 26, 16_383, -1,
    ]);
  });

  it("every kind of cell, placed by reference or in order, prefixed names, styles, the 1904 system", async () => {
    const styles =
      '<styleSheet><numFmts><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>' +
      '<cellStyleXfs><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="14"/><xf numFmtId="11"/></cellXfs></styleSheet>';
    const shared =
      '<sst><si><t>A &amp; B</t></si><si><r><t>+44 7400</t></r><r><t xml:space="preserve"> 123456</t></r>' +
      "<rPh><t>x</t></rPh></si><si><t><![CDATA[<cdata>]]></t></si></sst>";
    const sheet =
      "<x:worksheet><x:sheetData>" +
      '<x:row r="1"><x:c r="B1" t="s"><x:v>0</x:v></x:c><x:c r="D1" t="s"><x:v>1</x:v></x:c></x:row>' +
      '<x:row r="3"><x:c t="inlineStr"><x:is><x:r><x:t>in</x:t></x:r><x:r><x:t>line</x:t></x:r></x:is></x:c>' +
      '<x:c s="3"><x:v>8.613812345678E+12</x:v></x:c><x:c s="1"><x:v>43834</x:v></x:c><x:c s="2"><x:v>0.5</x:v></x:c>' +
      '<x:c t="d"><x:v>2024-01-05</x:v></x:c><x:c t="b"><x:v>0</x:v></x:c><x:c t="e"><x:v>#DIV/0!</x:v></x:c>' +
      '<x:c t="str"><x:f>A1</x:f><x:v>formula text</x:v></x:c><x:c t="s"><x:v>2</x:v></x:c><x:c/></x:row>' +
      "<x:row/></x:sheetData></x:worksheet>";
    const book = workbook({
      sheet,
      parts: {
        "xl/workbook.xml":
          '<workbook><workbookPr date1904="1"/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/sharedStrings.xml": shared,
        "xl/styles.xml": styles,
      },
    });
    expect(await rows(book)).toEqual([
      ["", "A & B", "", "+44 7400 123456"],
      [
        "inline",
        "8613812345678",
        "2024-01-05T00:00:00",
        "1904-01-01T12:00:00",
        "2024-01-05T00:00:00",
        "FALSE",
        "#DIV/0!",
        "formula text",
        "<cdata>",
        "",
      ],
      [],
    ]);
  });

  it("a date in the number column is rejected like text, not read as a phone number", async () => {
    const styles = '<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>';
    const book = workbook({
      sheet: sheetXml(
        '<row><c t="inlineStr"><is><t>phone</t></is></c></row>' +
          '<row><c s="1"><v>45296</v></c></row><row><c><v>8613812345678</v></c></row>',
      ),
      parts: { "xl/styles.xml": styles },
    });
    const numbers: string[] = [];
    await readNumberFile(await stored(book), (raw) => numbers.push(raw));
    expect(numbers).toEqual(["2024-01-05T00:00:00", "8613812345678"]);
  });

  it("personalised campaigns: a sheet's header names the variables, each number comes with its row's cells", async () => {
    // Cells placed by reference: a gap (no C2) is an empty cell, as in a CSV.
    const book = workbook({
      sheet: sheetXml(
        '<row><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>手机号</t></is></c>' +
          '<c r="C1" t="inlineStr"><is><t>Code</t></is></c></row>' +
          '<row><c r="A2" t="inlineStr"><is><t>Li</t></is></c><c r="B2"><v>8613812345678</v></c></row>' +
          '<row><c r="A3" t="inlineStr"><is><t>Wu</t></is></c><c r="B3"><v>8613812345679</v></c>' +
          '<c r="C3"><v>7</v></c></row>',
      ),
    });
    const got: Array<[string, string[] | undefined]> = [];
    let columns: string[] = [];
    await readNumberFile(await stored(book), (raw, values) => got.push([raw, values]), undefined, {
      variables: ["code", "name"],
      columns: (names) => {
        columns = names;
      },
    });
    expect(columns).toEqual(["Name", "Code"]);
    expect(got).toEqual([
      ["8613812345678", ["", "Li"]],
      ["8613812345679", ["7", "Wu"]],
    ]);
  });

  it("a cell over maxCellChars characters is cut, a shared one too", async () => {
    const long = "7".repeat(5000);
    const book = workbook({
      sheet: sheetXml(
        `<row><c t="inlineStr"><is><t>${long}</t></is></c><c><v>${long}</v></c><c t="s"><v>0</v></c></row>`,
      ),
      parts: { "xl/sharedStrings.xml": `<sst><si><t>${long}</t></si></sst>` },
    });
    const [row] = await rows(book);
    expect(row!.map((c) => c.length)).toEqual([1024, 1024, 1024]);
  });
});

describe("the archive", () => {
  it("the first sheet is found through _rels/.rels and the workbook's relationships, wherever it lives", async () => {
    const book = zip([
      {
        name: "_rels/.rels",
        data: '<Relationships><Relationship Id="r1" Type="http://x/officeDocument" Target="/book/main.xml"/></Relationships>',
      },
      {
        name: "book/main.xml",
        data: '<workbook><sheets><sheet r:id="b"/><sheet r:id="a"/></sheets></workbook>',
      },
      {
        name: "book/_rels/main.xml.rels",
        data:
          '<Relationships><Relationship Id="a" Target="s/one.xml"/><Relationship Id="b" Target="../Sheets/Two.xml"/>' +
          '<Relationship Id="c" Type="http://x/sharedStrings" Target="text.xml"/></Relationships>',
      },
      { name: "s/one.xml", data: sheetXml("<row><c><v>1</v></c></row>") },
      { name: "sheets/two.xml", data: sheetXml('<row><c t="s"><v>0</v></c></row>') },
      { name: "book/text.xml", data: "<sst><si><t>second</t></si></sst>" },
    ]);
    expect(await rows(book)).toEqual([["second"]]);
  });

  it("damaged, foreign, encrypted or oddly packed archives are refused as unreadable", async () => {
    const good = workbook({ sheet: sheetXml('<row><c r="A1"><v>8613800138000</v></c></row>') });
    expect(await rows(good)).toEqual([["8613800138000"]]);
    expect(await refusalKey(good.subarray(0, good.length - 30))).toBe("batch.file_xlsx_invalid");
    expect(await refusalKey(Buffer.from("PK\u0003\u0004 not really a zip"))).toBe("batch.file_xlsx_invalid");
    expect(await refusalKey(zip([{ name: "hello.txt", data: "hi" }]))).toBe("batch.file_xlsx_invalid");
    const encrypted = workbook({ sheet: sheetXml(""), sheetEntry: { flags: 1 } });
    expect(await refusalKey(encrypted)).toBe("batch.file_xlsx_invalid");
    const lzma = workbook({ sheet: sheetXml(""), sheetEntry: { declaredMethod: 14 } });
    expect(await refusalKey(lzma)).toBe("batch.file_xlsx_invalid");
    // A part that inflates to more than its directory entry says stops at the declared size.
    const liar = workbook({ sheet: sheetXml("<row/>".repeat(1000)), sheetEntry: { declaredSize: 100 } });
    expect(await refusalKey(liar)).toBe("batch.file_xlsx_invalid");
    const escaping = zip([{ name: "../evil.xml", data: "<x/>" }]);
    expect(await refusalKey(escaping)).toBe("batch.file_xlsx_invalid");
    // The workbook part is one of the small index parts (read even by the upload request): bounded on its own.
    const padded = `<workbook>${" ".repeat(XLSX_LIMITS.maxIndexPartBytes)}<sheets><sheet r:id="rId1"/></sheets></workbook>`;
    expect(await refusalKey(workbook({ sheet: sheetXml(""), parts: { "xl/workbook.xml": padded } }))).toBe(
      "batch.file_xlsx_invalid",
    );
  });

  it("XML that is not well-formed, a DOCTYPE, an unknown entity, a missing shared string", async () => {
    expect(await refusalKey(workbook({ sheet: "<worksheet><sheetData><row></sheetData></worksheet>" }))).toBe(
      "batch.file_xlsx_invalid",
    );
    const doctype = '<!DOCTYPE w [<!ENTITY big "xxxxxxxxxx">]><worksheet><sheetData/></worksheet>';
    expect(await refusalKey(workbook({ sheet: doctype }))).toBe("batch.file_xlsx_invalid");
    expect(await refusalKey(workbook({ sheet: sheetXml("<row><c><v>&big;</v></c></row>") }))).toBe(
      "batch.file_xlsx_invalid",
    );
    expect(await refusalKey(workbook({ sheet: sheetXml('<row><c t="s"><v>3</v></c></row>') }))).toBe(
      "batch.file_xlsx_invalid",
    );
    expect(await refusalKey(workbook({ sheet: sheetXml('<row><c r="XFE1"><v>1</v></c></row>') }))).toBe(
      "batch.file_xlsx_invalid",
    );
  });
});

describe("bounds", () => {
  it("more entries than maxEntries", async () => {
    const entries = Array.from({ length: XLSX_LIMITS.maxEntries + 1 }, (_, i) => ({
      name: `x/${i}`,
      data: "",
      method: 0 as const,
    }));
    expect(await refusal(zip(entries))).toEqual({
      key: "upload.xlsx_too_many_entries",
      params: { max: XLSX_LIMITS.maxEntries },
    });
  });

  it("a part that says it inflates past the whole workbook's budget is refused before it is read", async () => {
    const huge = workbook({
      sheet: sheetXml(""),
      sheetEntry: { declaredSize: XLSX_LIMITS.maxInflatedBytes + 1, declaredCompressedSize: 50 * 1024 * 1024 },
    });
    expect(await refusal(huge)).toEqual({ key: "upload.xlsx_too_large", params: { max: 1024 } });
  });

  it("a part packed more than maxRatio times is refused as a zip bomb, before it is inflated", async () => {
    const bomb = workbook({ sheet: sheetXml("<row/>".repeat(400_000)) });
    expect(bomb.length).toBeLessThan(20_000);
    expect(await refusal(bomb)).toEqual({ key: "upload.xlsx_ratio", params: { ratio: XLSX_LIMITS.maxRatio } });
  });

  it("a text node or a tag longer than maxTokenChars", async () => {
    const text = "1".repeat(XLSX_LIMITS.maxTokenChars + 10);
    for (const sheet of [
      sheetXml(`<row><c><v>${text}</v></c></row>`),
      sheetXml(`<row><c r="A1" x="${text}"><v>1</v></c></row>`),
      `<worksheet><sheetData><row><!-- ${text} --></row></sheetData></worksheet>`,
    ]) {
      expect(await refusal(workbook({ sheet, sheetMethod: 0 }))).toEqual({
        key: "upload.xlsx_element_too_large",
        params: { max: XLSX_LIMITS.maxTokenChars },
      });
    }
  });

  it("elements nested deeper than maxDepth", async () => {
    const depth = XLSX_LIMITS.maxDepth + 1;
    const sheet = `<worksheet>${"<a>".repeat(depth)}${"</a>".repeat(depth)}</worksheet>`;
    expect(await refusalKey(workbook({ sheet }))).toBe("batch.file_xlsx_invalid");
  });

  it("more shared strings than maxSharedStrings", async () => {
    const shared = `<sst>${"<si/>".repeat(XLSX_LIMITS.maxSharedStrings + 1)}</sst>`;
    const book = zip([
      { name: "xl/worksheets/sheet1.xml", data: sheetXml("") },
      { name: "xl/sharedStrings.xml", data: shared, method: 0 },
    ]);
    expect(await refusalKey(book)).toBe("upload.xlsx_too_many_strings");
  });

  it("a row of more than maxCellsPerRow cells", async () => {
    const cells = '<c t="inlineStr"><is><t>x</t></is></c>'.repeat(XLSX_LIMITS.maxCellsPerRow + 1);
    expect(await refusal(workbook({ sheet: sheetXml(`<row r="7">${cells}</row>`), sheetMethod: 0 }))).toEqual({
      key: "upload.xlsx_row_too_wide",
      params: { row: 7, max: XLSX_LIMITS.maxCellsPerRow },
    });
  });

  it("every refusal reads in zh and en", () => {
    for (const key of [
      "upload.xlsx_too_many_entries",
      "upload.xlsx_too_large",
      "upload.xlsx_ratio",
      "upload.xlsx_element_too_large",
      "upload.xlsx_too_many_strings",
      "upload.xlsx_row_too_wide",
    ] as const) {
      const params = { max: 7, ratio: 100, chars: 9, row: 3 };
      expect(translate("en", key, params)).not.toMatch(/[{}]/);
      expect(translate("zh", key, params)).not.toMatch(/[{}]/);
    }
  });
});

describe("one unclosed <row> of megabytes (the review's finding): refused, the same at twice the size", () => {
  /** A sheet whose only row never closes, `bytes` long, of the given filler. */
  const unclosed = (filler: string, bytes: number) =>
    `<worksheet><sheetData><row r="1">${filler.repeat(Math.ceil(bytes / filler.length))}`;
  const MB = 1024 * 1024;

  it.each([4 * MB, 8 * MB])("%i bytes deflated (an upload of a few KB): refused as a zip bomb", async (bytes) => {
    const book = workbook({ sheet: unclosed('<c r="A1"><v>1</v></c>', bytes) });
    expect(book.length).toBeLessThan(bytes / 100);
    expect(await refusalKey(book)).toBe("upload.xlsx_ratio");
  });

  it.each([4 * MB, 8 * MB])("%i bytes of cells, stored: refused as a row too wide", async (bytes) => {
    const book = workbook({ sheet: unclosed("<c><v>1</v></c>", bytes), sheetMethod: 0 });
    expect(await refusalKey(book)).toBe("upload.xlsx_row_too_wide");
  });

  it.each([4 * MB, 8 * MB])("%i bytes of text, stored: refused as an element too large", async (bytes) => {
    const book = workbook({ sheet: unclosed("8", bytes), sheetMethod: 0 });
    expect(await refusalKey(book)).toBe("upload.xlsx_element_too_large");
  });

  it.each([4 * MB, 8 * MB])(
    "%i bytes of other elements, stored: read through once, refused as unclosed",
    async (bytes) => {
      const book = workbook({ sheet: unclosed("<x/>", bytes), sheetMethod: 0 });
      expect(await refusalKey(book)).toBe("batch.file_xlsx_invalid");
    },
  );

  it("the upload request's check refuses the zip bomb at once, reading only the archive's directory", async () => {
    const book = workbook({ sheet: unclosed('<c r="A1"><v>1</v></c>', 8 * MB) });
    await expect(checkNumberFile(await stored(book))).rejects.toMatchObject({ key: "upload.xlsx_ratio" });
  });
});
