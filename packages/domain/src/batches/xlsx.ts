// XLSX batch files (Office Open XML workbooks): a zip archive of XML parts. yauzl reads the archive's directory
// and inflates one part at a time as a stream; saxes parses each part as it arrives, so neither a part nor an
// element is ever held whole, and the work is linear in the inflated size (no rescanning of what was read).
//
// Parts read, and only these (any other part, including every sheet but the first, is never inflated):
//   _rels/.rels, the workbook (xl/workbook.xml) and its relationships -> the FIRST sheet of the workbook's
//     <sheets> list, the shared strings part, the styles part, and whether dates count from 1904;
//   the styles part                                                    -> which cell styles show a date;
//   the shared strings part                                            -> the text of cells of type "s";
//   the first worksheet                                                -> rows of cells, placed by column.
//
// Cell values as the column rules (number-file.ts) see them:
//   shared and inline strings (rich text runs joined, phonetic runs left out), formula strings;
//   numbers (t="n" or no t) as their full decimal digits: 8.613812345678E+12 reads "8613812345678", expanded
//     textually, never through a float;
//   dates (a number whose style is a date format, or t="d") as "2024-01-05T13:45:00", never as a number, so a
//     date in the number column is rejected like any text; a date outside 1900..9999 reads "########";
//   booleans as TRUE / FALSE and errors as their code (#N/A): text, rejected in the number column.
//   Every value is trimmed and cut to maxCellChars characters (a phone number is never that long; the cut
//   value is still rejected as a number, and a long note in another column costs no more than that).
//
// Bounds (XLSX_LIMITS); exceeding one refuses the file with its own message (400):
//   archive entries, inflated bytes per workbook, inflate ratio of a part (a zip bomb), characters between two
//   XML events (one text node or one tag with its attributes), element nesting, cells in a row, shared strings
//   (count and characters), cell styles. Encrypted, damaged, ZIP-method-unknown or non-well-formed parts and
//   DOCTYPEs refuse it as unreadable.
import { posix } from "node:path";
import type { Readable } from "node:stream";
import { TextDecoder } from "node:util";
import { SaxesParser } from "saxes";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { AppError, badRequest } from "../errors";

export const XLSX_LIMITS = {
  /** Entries in the archive's directory (a workbook has a dozen or two; hundreds with many sheets). */
  maxEntries: 10_000,
  /** Inflated bytes read from one workbook, all parts together (a 1,000,000-row sheet is 80-300 MB). */
  maxInflatedBytes: 1024 * 1024 * 1024,
  /** Inflated / compressed size of one part, checked for parts over ratioFromBytes (XML packs 10-25 times). */
  maxRatio: 100,
  ratioFromBytes: 1024 * 1024,
  /** Inflated bytes of each of the small parts that locate the sheet (root and workbook relationships, workbook). */
  maxIndexPartBytes: 1024 * 1024,
  /** Characters between two XML events: one text node, or one tag with its attributes (Excel's cell: 32,767). */
  maxTokenChars: 64 * 1024,
  /** Element nesting depth (a worksheet needs 7). */
  maxDepth: 64,
  /** Characters kept of a cell value (the rest is cut). */
  maxCellChars: 1024,
  /** Cells in one row (Excel's columns: A..XFD). */
  maxCellsPerRow: 16_384,
  /** Shared strings (distinct texts of the workbook) and their characters after the cut. */
  maxSharedStrings: 2_000_000,
  maxSharedChars: 64 * 1024 * 1024,
  /** Cell styles (Excel allows 64,000). */
  maxStyles: 100_000,
} as const;

const MB = 1024 * 1024;

/** One refusal for every way a workbook is unreadable; `why` is for whoever reads the code, not the client. */
const invalid = (_why: string) => badRequest("batch.file_xlsx_invalid");

// ---------------------------------------------------------------- archive

interface Workbook {
  zip: ZipFile;
  sheet: Entry;
  sharedStrings: Entry | null;
  styles: Entry | null;
  date1904: boolean;
  /** Inflated bytes the rows need: the sheet, the shared strings and the styles. */
  contentBytes: number;
  budget: { left: number };
}

type Entries = Map<string, Entry>;

/** Part names are case-insensitive in an OPC package. */
const find = (entries: Entries, name: string) => entries.get(name.toLowerCase());

async function openArchive(absPath: string): Promise<{ zip: ZipFile; entries: Entries }> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(absPath, { autoClose: false, validateEntrySizes: true, strictFileNames: false });
  } catch {
    throw invalid("not a zip archive, or its directory is damaged");
  }
  try {
    if (zip.entryCount > XLSX_LIMITS.maxEntries)
      throw badRequest("upload.xlsx_too_many_entries", { max: XLSX_LIMITS.maxEntries });
    const entries: Entries = new Map();
    try {
      for await (const entry of zip.eachEntry()) entries.set(entry.fileName.toLowerCase(), entry);
    } catch {
      throw invalid("a directory entry is damaged or names a path outside the archive");
    }
    return { zip, entries };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Refuses a part before inflating it: encrypted, unknown method, too large for what is left, a zip bomb. */
function admit(entry: Entry, budget: { left: number }, maxBytes = Number.POSITIVE_INFINITY): void {
  if (entry.isEncrypted()) throw invalid("the workbook is encrypted");
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
    throw invalid(`compression method ${entry.compressionMethod}`);
  const size = entry.uncompressedSize;
  if (size > maxBytes) throw invalid("an index part larger than any workbook has");
  if (size > budget.left) throw badRequest("upload.xlsx_too_large", { max: XLSX_LIMITS.maxInflatedBytes / MB });
  if (size > XLSX_LIMITS.ratioFromBytes && size / Math.max(1, entry.compressedSize) > XLSX_LIMITS.maxRatio)
    throw badRequest("upload.xlsx_ratio", { ratio: XLSX_LIMITS.maxRatio });
  // validateEntrySizes makes yauzl fail a part that inflates to more than its declared size.
  budget.left -= size;
}

/** A part's text, chunk by chunk (UTF-8, or UTF-16 with its byte order mark). */
async function* partText(zip: ZipFile, entry: Entry): AsyncGenerator<string> {
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch {
    throw invalid("a part cannot be opened");
  }
  let decoder: TextDecoder | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (decoder === null) {
        const encoding =
          chunk[0] === 0xff && chunk[1] === 0xfe
            ? "utf-16le"
            : chunk[0] === 0xfe && chunk[1] === 0xff
              ? "utf-16be"
              : "utf-8";
        decoder = new TextDecoder(encoding);
      }
      yield decoder.decode(chunk, { stream: true });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid("a part cannot be inflated, or is longer than its directory entry says");
  } finally {
    stream.destroy();
  }
  if (decoder) yield decoder.decode();
}

// ---------------------------------------------------------------- XML

type Attributes = Record<string, string>;

interface XmlHandlers {
  open(name: string, attrs: Attributes): void;
  close(name: string): void;
  text?(text: string): void;
}

/** The local name of an element or attribute (x:row -> row): some writers prefix SpreadsheetML names. */
const local = (name: string) => name.slice(name.indexOf(":") + 1);

/** An attribute by local name (r:id and id alike). */
function attr(attrs: Attributes, name: string): string | undefined {
  const direct = attrs[name];
  if (direct !== undefined) return direct;
  for (const key in attrs) if (local(key) === name) return attrs[key];
  return undefined;
}

/**
 * Parses a streamed part, calling the handlers with local element names. Between two events (one text node,
 * one tag with its attributes) at most maxTokenChars characters may pass, and elements nest at most maxDepth
 * deep: the parser's own buffers stay small whatever the part holds.
 */
async function parseXml(chunks: AsyncIterable<string>, on: XmlHandlers): Promise<void> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const { maxTokenChars, maxDepth } = XLSX_LIMITS;
  const tooLarge = () => badRequest("upload.xlsx_element_too_large", { max: maxTokenChars });
  let mark = 0;
  let depth = 0;
  /** At every event: what passed since the previous one (a text node, a tag, a comment) is within the bound. */
  const event = () => {
    const at = parser.position;
    if (at - mark > maxTokenChars) throw tooLarge();
    mark = at;
  };
  // Few listeners on purpose: each one is a property added to the parser object, and past a handful V8 turns
  // it into a dictionary and the parser runs four times slower. Comments, processing instructions and the
  // XML declaration therefore count toward the characters before the next event.
  parser.on("opentag", (tag) => {
    event();
    depth += 1;
    if (depth > maxDepth) throw invalid("elements nest too deep");
    on.open(local(tag.name), tag.attributes as Attributes);
  });
  // saxes closes a self-closing tag (<c/>) with a closetag event too.
  parser.on("closetag", (tag) => {
    event();
    depth -= 1;
    on.close(local(tag.name));
  });
  const text = (t: string) => {
    event();
    on.text?.(t);
  };
  parser.on("text", text);
  parser.on("cdata", text);
  parser.on("doctype", () => {
    // Never in a workbook. saxes expands no declared entity anyway (an unknown entity is an error).
    throw invalid("a DOCTYPE");
  });
  try {
    // Characters written so far (parser.position is only right inside an event: after write() it counts the
    // last chunk twice).
    let written = 0;
    for await (const chunk of chunks) {
      parser.write(chunk);
      written += chunk.length;
      // ...and so is what has passed since the last one when a chunk ends.
      if (written - mark > maxTokenChars) throw tooLarge();
    }
    parser.close();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid(`not well-formed XML: ${(err as Error).message}`);
  }
}

/** Parses a whole part (after its bounds are checked). */
async function parsePart(
  zip: ZipFile,
  entry: Entry,
  budget: { left: number },
  on: XmlHandlers,
  maxBytes?: number,
): Promise<void> {
  admit(entry, budget, maxBytes);
  await parseXml(partText(zip, entry), on);
}

// ---------------------------------------------------------------- locating the first sheet

interface Relationship {
  id: string;
  type: string;
  target: string;
}

async function relationships(zip: ZipFile, entry: Entry, budget: { left: number }): Promise<Relationship[]> {
  const rels: Relationship[] = [];
  await parsePart(
    zip,
    entry,
    budget,
    {
      open(name, attrs) {
        if (name !== "Relationship" || attr(attrs, "TargetMode") === "External") return;
        rels.push({
          id: attr(attrs, "Id") ?? "",
          type: attr(attrs, "Type") ?? "",
          target: attr(attrs, "Target") ?? "",
        });
      },
      close() {},
    },
    XLSX_LIMITS.maxIndexPartBytes,
  );
  return rels;
}

/** A relationship target as a part name: relative to the source part's folder, or absolute from the root. */
function resolveTarget(sourceDir: string, target: string): string {
  const joined = target.startsWith("/") ? target.slice(1) : posix.join(sourceDir, target);
  return posix.normalize(joined).replace(/^\/+/, "");
}

const typeIs = (rel: Relationship, kind: string) => rel.type.endsWith(`/${kind}`);

/**
 * Opens the workbook and locates the parts the rows need, checking their bounds before anything is inflated
 * but the three small index parts. The caller closes `zip`.
 */
async function openWorkbook(absPath: string): Promise<Workbook> {
  const { zip, entries } = await openArchive(absPath);
  try {
    const budget = { left: XLSX_LIMITS.maxInflatedBytes };
    let workbookName = "xl/workbook.xml";
    const rootRels = find(entries, "_rels/.rels");
    if (rootRels) {
      const office = (await relationships(zip, rootRels, budget)).find((r) => typeIs(r, "officeDocument"));
      if (office) workbookName = resolveTarget("", office.target);
    }
    const dir = posix.dirname(workbookName);
    let sheetName = posix.join(dir, "worksheets/sheet1.xml");
    let sharedName = posix.join(dir, "sharedStrings.xml");
    let stylesName = posix.join(dir, "styles.xml");
    let date1904 = false;
    const workbook = find(entries, workbookName);
    const workbookRels = find(entries, posix.join(dir, "_rels", `${posix.basename(workbookName)}.rels`));
    if (workbook && workbookRels) {
      let firstSheetRel: string | undefined;
      await parsePart(
        zip,
        workbook,
        budget,
        {
          open(name, attrs) {
            if (name === "sheet" && firstSheetRel === undefined) firstSheetRel = attr(attrs, "id") ?? "";
            else if (name === "workbookPr") {
              const v = attr(attrs, "date1904");
              date1904 = v === "1" || v === "true";
            }
          },
          close() {},
        },
        XLSX_LIMITS.maxIndexPartBytes,
      );
      const rels = await relationships(zip, workbookRels, budget);
      const sheetRel = rels.find((r) => r.id === firstSheetRel);
      if (sheetRel) sheetName = resolveTarget(dir, sheetRel.target);
      const shared = rels.find((r) => typeIs(r, "sharedStrings"));
      if (shared) sharedName = resolveTarget(dir, shared.target);
      const styles = rels.find((r) => typeIs(r, "styles"));
      if (styles) stylesName = resolveTarget(dir, styles.target);
    }
    const sheet = find(entries, sheetName);
    if (!sheet) throw invalid("the workbook has no worksheet");
    const sharedStrings = find(entries, sharedName) ?? null;
    const styles = find(entries, stylesName) ?? null;
    const parts = [sheet, sharedStrings, styles].filter((e): e is Entry => e !== null);
    // Checked together before any is read: a refusal costs no inflating.
    const probe = { left: budget.left };
    for (const part of parts) admit(part, probe);
    const contentBytes = parts.reduce((sum, e) => sum + e.uncompressedSize, 0);
    return { zip, sheet, sharedStrings, styles, date1904, contentBytes, budget };
  } catch (err) {
    zip.close();
    throw err;
  }
}

// ---------------------------------------------------------------- styles and shared strings

/** Excel's built-in number formats that show a date or time (27-36 and 50-58 in East Asian locales). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58,
]);

/**
 * Whether a number format code shows a date or time: a d, m, y, h or s outside quoted text, escaped characters
 * and bracketed colours or locales ([h], [mm], [ss] elapsed times count). Only the first section decides.
 */
export function isDateFormat(code: string): boolean {
  const first = code.split(";")[0] ?? "";
  if (/^\s*general\s*$/i.test(first)) return false;
  if (/\[(h+|m+|s+)\]/i.test(first)) return true;
  const plain = first
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/[_*]./g, "")
    .replace(/\[[^\]]*\]/g, "");
  return /[dmyhs]/i.test(plain);
}

/** Per cell style (the s attribute of a cell), whether it shows a date. */
async function readDateStyles(zip: ZipFile, entry: Entry, budget: { left: number }): Promise<boolean[]> {
  const formats = new Map<number, string>();
  const styleFormats: number[] = [];
  let inCellXfs = false;
  await parsePart(zip, entry, budget, {
    open(name, attrs) {
      if (name === "numFmt") {
        if (formats.size >= XLSX_LIMITS.maxStyles) throw invalid("too many number formats");
        formats.set(Number(attr(attrs, "numFmtId")), attr(attrs, "formatCode") ?? "");
      } else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        if (styleFormats.length >= XLSX_LIMITS.maxStyles) throw invalid("too many cell styles");
        styleFormats.push(Number(attr(attrs, "numFmtId") ?? 0));
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return styleFormats.map((id) => {
    const code = formats.get(id);
    return code === undefined ? BUILTIN_DATE_FORMATS.has(id) : isDateFormat(code);
  });
}

/** Collects the visible text of <t> elements (rich text runs joined; phonetic runs <rPh> left out), cut. */
class TextCollector {
  private depthInT = 0;
  private depthInPhonetic = 0;
  private parts = "";

  open(name: string): void {
    if (name === "t") this.depthInT += 1;
    else if (name === "rPh") this.depthInPhonetic += 1;
  }

  close(name: string): void {
    if (name === "t") this.depthInT -= 1;
    else if (name === "rPh") this.depthInPhonetic -= 1;
  }

  text(t: string): void {
    if (this.depthInT > 0 && this.depthInPhonetic === 0 && this.parts.length < XLSX_LIMITS.maxCellChars)
      this.parts += t.slice(0, XLSX_LIMITS.maxCellChars - this.parts.length);
  }

  take(): string {
    const s = this.parts;
    this.parts = "";
    return s;
  }
}

async function readSharedStrings(zip: ZipFile, entry: Entry, budget: { left: number }): Promise<string[]> {
  const { maxSharedStrings, maxSharedChars } = XLSX_LIMITS;
  const strings: string[] = [];
  let chars = 0;
  let inItem = false;
  const runs = new TextCollector();
  await parsePart(zip, entry, budget, {
    open(name) {
      if (name === "si") {
        inItem = true;
        runs.take();
      } else if (inItem) runs.open(name);
    },
    close(name) {
      if (name !== "si") {
        if (inItem) runs.close(name);
        return;
      }
      inItem = false;
      const s = runs.take();
      chars += s.length;
      if (strings.length >= maxSharedStrings || chars > maxSharedChars)
        throw badRequest("upload.xlsx_too_many_strings", { max: maxSharedStrings, chars: maxSharedChars });
      strings.push(s);
    },
    text(t) {
      if (inItem) runs.text(t);
    },
  });
  return strings;
}

// ---------------------------------------------------------------- cell values

/** "B12" -> 1 (zero-based column of a cell reference), or -1 when it is not a reference. */
export function columnOf(ref: string): number {
  const m = /^([A-Za-z]{1,3})\d*$/.exec(ref);
  if (!m) return -1;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return col - 1;
}

/**
 * A number cell's text as plain decimal digits, shifted by its exponent in the text itself (no float
 * rounding): "8.613812345678E+12" -> "8613812345678", "1.5E-3" -> "0.0015". Anything else is returned as is.
 */
export function numberText(v: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/.exec(v);
  if (!m || (m[2] === "" && !m[3])) return v;
  const whole = m[2]!;
  const fraction = m[3] ?? "";
  const exponent = Number(m[4] ?? 0);
  if (exponent === 0 && fraction === "" && m[1] === "") return whole;
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let intPart: string;
  let fracPart: string;
  if (point <= 0) {
    intPart = "";
    fracPart = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    intPart = digits + "0".repeat(point - digits.length);
    fracPart = "";
  } else {
    intPart = digits.slice(0, point);
    fracPart = digits.slice(point);
  }
  intPart = intPart.replace(/^0+/, "") || "0";
  fracPart = fracPart.replace(/0+$/, "");
  const sign = m[1] === "-" && (intPart !== "0" || fracPart !== "") ? "-" : "";
  return `${sign}${intPart}${fracPart ? `.${fracPart}` : ""}`;
}

/** What Excel shows for a date it cannot draw. */
const NOT_A_DATE = "########";
const DAY_MS = 86_400_000;

/**
 * A date cell's serial number as "YYYY-MM-DDTHH:MM:SS". In the 1900 system Excel counts a 29 February 1900 that
 * never was (serial 60): serials before it count from 31 December 1899, later ones from 30 December.
 */
export function serialDate(v: string, date1904: boolean): string {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 2_958_466) return NOT_A_DATE;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : n < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  const seconds = Math.round((n * DAY_MS) / 1000);
  return new Date(epoch + seconds * 1000).toISOString().slice(0, 19);
}

/** A t="d" cell (an ISO 8601 text): never digits only, so never read as a number. */
function isoDate(v: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00` : v;
}

interface CellContext {
  shared: readonly string[];
  dateStyles: readonly boolean[];
  date1904: boolean;
}

function cellValue(type: string | undefined, style: number, v: string, inline: string, ctx: CellContext): string {
  switch (type) {
    case "inlineStr":
      return inline;
    case "s": {
      if (v === "") return "";
      const s = /^\d+$/.test(v) ? ctx.shared[Number(v)] : undefined;
      if (s === undefined) throw invalid("a cell names a shared string that does not exist");
      return s;
    }
    case "str":
    case "e":
      return v;
    case "b":
      return v === "1" ? "TRUE" : v === "0" ? "FALSE" : v;
    case "d":
      return isoDate(v);
    default:
      if (v === "") return "";
      return ctx.dateStyles[style] ? serialDate(v, ctx.date1904) : numberText(v);
  }
}

// ---------------------------------------------------------------- rows

/** Streams the first worksheet's rows (cells in column order, gaps as "") to `row`. */
async function readRows(wb: Workbook, row: (cells: string[]) => void): Promise<void> {
  const { zip, budget } = wb;
  const dateStyles = wb.styles ? await readDateStyles(zip, wb.styles, budget) : [];
  const shared = wb.sharedStrings ? await readSharedStrings(zip, wb.sharedStrings, budget) : [];
  const ctx: CellContext = { shared, dateStyles, date1904: wb.date1904 };
  const { maxCellChars, maxCellsPerRow } = XLSX_LIMITS;

  let cells: string[] | null = null;
  let rowNo = 0;
  let cellCount = 0;
  let nextCol = 0;
  // The cell being read.
  let inCell = false;
  let col = 0;
  let type: string | undefined;
  let style = 0;
  let inValue = false;
  let value = "";
  let inInline = false;
  const inline = new TextCollector();

  await parsePart(zip, wb.sheet, budget, {
    open(name, attrs) {
      if (name === "row") {
        cells = [];
        const r = Number(attr(attrs, "r"));
        rowNo = Number.isSafeInteger(r) && r > 0 ? r : rowNo + 1;
        cellCount = 0;
        nextCol = 0;
      } else if (name === "c" && cells) {
        cellCount += 1;
        if (cellCount > maxCellsPerRow)
          throw badRequest("upload.xlsx_row_too_wide", { row: rowNo, max: maxCellsPerRow });
        const ref = attr(attrs, "r");
        col = ref === undefined ? nextCol : columnOf(ref);
        if (col < 0) col = nextCol;
        if (col >= maxCellsPerRow) throw invalid("a cell beyond column XFD");
        type = attr(attrs, "t");
        style = Number(attr(attrs, "s") ?? 0);
        value = "";
        inline.take();
        inCell = true;
      } else if (inCell) {
        if (name === "v") inValue = true;
        else if (name === "is") inInline = true;
        else if (inInline) inline.open(name);
      }
    },
    close(name) {
      if (name === "row") {
        if (cells) row(cells);
        cells = null;
      } else if (name === "c" && inCell) {
        inCell = false;
        const text = cellValue(type, style, value.trim(), inline.take(), ctx).trim().slice(0, maxCellChars);
        const target = cells!;
        while (target.length < col) target.push("");
        target[col] = text;
        nextCol = col + 1;
      } else if (inCell) {
        if (name === "v") inValue = false;
        else if (name === "is") inInline = false;
        else if (inInline) inline.close(name);
      }
    },
    text(t) {
      if (!inCell) return;
      if (inValue) {
        if (value.length < maxCellChars) value += t.slice(0, maxCellChars - value.length);
      } else if (inInline) inline.text(t);
    },
  });
}

/**
 * Reads the first worksheet of an XLSX file row by row (cells in column order, gaps as ""). `row` may throw
 * to stop the reading (the archive is closed either way).
 */
export async function readXlsxRows(absPath: string, row: (cells: string[]) => void): Promise<void> {
  const wb = await openWorkbook(absPath);
  try {
    await readRows(wb, row);
  } finally {
    wb.zip.close();
  }
}

/**
 * The checks that need no more than the archive's directory and its small index parts (bounded work, fit for
 * a request): a damaged or encrypted archive, too many entries, a missing sheet, parts too large or packed like
 * a zip bomb. When the parts the rows need inflate to at most `readUpTo` bytes, the rows are read too (the
 * caller gets them through `row`) and true is returned.
 */
export async function checkXlsx(absPath: string, readUpTo: number, row: (cells: string[]) => void): Promise<boolean> {
  const wb = await openWorkbook(absPath);
  try {
    if (wb.contentBytes > readUpTo) return false;
    await readRows(wb, row);
    return true;
  } finally {
    wb.zip.close();
  }
}
