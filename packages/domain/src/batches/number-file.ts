// Reading the numbers of a batch file (mode 3), streaming: the upload checks the start of a file with it, the
// file pre-submit check (in the API's worker threads, file-summary.ts) and the ingest job read numbers with it.
// One reader, so what the upload accepted is exactly what the ingest reads.
//
// Accepted: text files (CSV, TXT) in UTF-8 (a BOM is skipped) or UTF-16 with a BOM (Excel's "Unicode text"),
// and XLSX workbooks (their first worksheet, read by xlsx.ts; the same column rules apply to its rows).
//   - one number per line, or
//   - cells separated by tab, comma or semicolon (the first line decides), with the numbers in the column
//     named phone / mobile / number (or msisdn, tel, 手机号, 号码...) of the first line, or in the first column
//     when the first line holds no header (its first cell contains a digit);
//   - cells may be quoted ("..." with "" for a quote); a quoted cell does not span lines;
//   - blank lines and rows whose number cell is empty are skipped;
//   - personalised campaigns: the header's other columns are the variables; the cells of those the content uses
//     come with each number (ColumnRequest).
// Refused (400 unless said): an empty file, a binary file (control characters), XLS, a first line that looks
// like a header without a number column, a line over 4,096 characters, no number at all, more than
// BATCH_FILE_MAX_NUMBERS numbers (413), an XLSX file that is damaged or encrypted or exceeds one of the
// reader's bounds (xlsx.ts).
//
// The upload request reads at most REQUEST_READ_BYTES of a file (checkNumberFile): a smaller file is read whole
// there (its refusals and its count answer at once); of a larger one only what its start shows is refused, and
// the ingest job refuses the rest (the batch ends in 13 with the reason).
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { TextDecoder } from "node:util";
import { BATCH_FILE_MAX_NUMBERS } from "@switchboard/contracts";
import { AppError, badRequest } from "../errors";
import { variableName } from "./personalise";
import { checkXlsx, readXlsxRows } from "./xlsx";

export const MAX_LINE_CHARS = 4096;

/**
 * What the upload request reads of a file at most: a text file's first bytes, or an XLSX file's parts (inflated)
 * when they are this small. A few milliseconds of work whatever the upload holds.
 */
export const REQUEST_READ_BYTES = 256 * 1024;

/** Header names of the number column, compared without case, spaces, dashes and underscores. */
const NUMBER_COLUMNS = new Set([
  "phone",
  "mobile",
  "number",
  "phonenumber",
  "mobilenumber",
  "msisdn",
  "tel",
  "telephone",
  "手机",
  "手机号",
  "手机号码",
  "电话",
  "电话号码",
  "号码",
]);

/** Control characters other than tab, line feed, form feed and carriage return: the mark of a binary file. */
function hasBinaryChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

/** Splits one line into cells; quotes are honoured, a quote inside a quoted cell is written twice. */
export function splitCells(line: string, delimiter: string | null): string[] {
  if (delimiter === null) return [unquote(line.trim())];
  if (!line.includes('"')) return line.split(delimiter).map((c) => c.trim());
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

function unquote(cell: string): string {
  return cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')
    ? cell.slice(1, -1).replaceAll('""', '"')
    : cell;
}

function detectDelimiter(line: string): string | null {
  if (line.includes("\t")) return "\t";
  if (line.includes(",")) return ",";
  if (line.includes(";")) return ";";
  return null;
}

const headerName = (cell: string) => cell.toLowerCase().replace(/[\s_-]/g, "");

/** Called per number in file order; `values` are the row's cells of the requested variables (personalised only). */
export type OnNumber = (raw: string, values?: string[]) => void;

export interface ColumnRequest {
  /**
   * Personalised campaigns: the variables the content uses (personalise.ts); each must name a column of the
   * header (400 naming it otherwise), and each number comes with its row's cells of them.
   */
  variables?: readonly string[];
  /** Told the header's columns other than the number column, as written (none without a header). */
  columns?: (names: string[]) => void;
  /** The variables are checked against the header, but no row's values are taken (the ingest's count). */
  headerOnly?: boolean;
}

/**
 * Turns rows of cells into numbers: the first row decides between a header (with a number column) and data
 * (numbers in the first column). Shared by the text reader and the XLSX reader.
 */
export class NumberRows {
  count = 0;
  private column: number | null = null;
  /** The header's cell of each requested variable; null when none is requested (the hot path). */
  private variableCells: number[] | null = null;

  constructor(
    private readonly onNumber: OnNumber,
    private readonly maxNumbers = BATCH_FILE_MAX_NUMBERS,
    private readonly request: ColumnRequest = {},
  ) {}

  row(cells: readonly string[]): void {
    if (this.column === null) {
      if (cells.every((c) => c === "")) return;
      const named = cells.findIndex((c) => NUMBER_COLUMNS.has(headerName(c)));
      if (named >= 0) {
        this.column = named;
        this.header(cells, named);
        return;
      }
      if (!/\d/.test(cells[0] ?? "")) throw badRequest("batch.file_no_number_column");
      this.column = 0;
      this.header(null, 0);
    }
    const raw = cells[this.column];
    if (!raw) return;
    this.count += 1;
    if (this.count > this.maxNumbers) throw new AppError(413, "batch.file_too_many_numbers", { max: this.maxNumbers });
    if (this.variableCells === null) this.onNumber(raw);
    else
      this.onNumber(
        raw,
        this.variableCells.map((i) => cells[i] ?? ""),
      );
  }

  /** The variables' columns found in the header (names compared as variableName does), or the file refused. */
  private header(cells: readonly string[] | null, numberColumn: number): void {
    const names = cells ? cells.map(variableName) : [];
    this.request.columns?.(cells ? cells.filter((c, i) => i !== numberColumn && c.trim() !== "") : []);
    const wanted = this.request.variables ?? [];
    if (wanted.length === 0) return;
    if (cells === null) throw badRequest("batch.variables_need_header", { column: wanted[0] as string });
    const variableCells = wanted.map((name) => {
      const at = names.findIndex((n, i) => i !== numberColumn && n === name);
      if (at < 0) throw badRequest("batch.variable_unknown", { column: name });
      return at;
    });
    if (!this.request.headerOnly) this.variableCells = variableCells;
  }

  end(): void {
    if (this.count === 0) throw badRequest("batch.file_no_numbers");
  }
}

type Encoding = "utf-8" | "utf-16le" | "utf-16be";

/** Reads a text file chunk by chunk into rows of cells. */
export class TextNumberReader {
  private decoder: TextDecoder | null = null;
  private rest = "";
  private lineNo = 0;
  private delimiter: string | null | undefined;
  private bytes = 0;

  constructor(private readonly rows: NumberRows) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (!this.decoder) this.decoder = new TextDecoder(this.encodingOf(chunk), { fatal: false });
    this.bytes += chunk.length;
    this.lines(this.decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    if (this.bytes === 0) throw badRequest("batch.file_empty");
    this.lines(this.decoder!.decode());
    if (this.rest !== "") this.line(this.rest);
    this.rest = "";
    this.rows.end();
  }

  private encodingOf(first: Uint8Array): Encoding {
    if (first[0] === 0xff && first[1] === 0xfe) return "utf-16le";
    if (first[0] === 0xfe && first[1] === 0xff) return "utf-16be";
    return "utf-8";
  }

  private lines(text: string): void {
    // Checked on the whole chunk before any line is used, so a binary file never reads as a bad header.
    if (hasBinaryChar(text)) throw badRequest("batch.file_binary");
    let start = 0;
    const all = this.rest + text;
    for (;;) {
      const nl = all.indexOf("\n", start);
      if (nl === -1) break;
      this.line(all.slice(start, nl));
      start = nl + 1;
    }
    this.rest = all.slice(start);
    if (this.rest.length > MAX_LINE_CHARS) throw badRequest("batch.file_line_too_long", { line: this.lineNo + 1 });
  }

  private line(raw: string): void {
    this.lineNo += 1;
    // The decoder keeps the BOM as U+FEFF at the very start.
    const text = (this.lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw).replace(/\r$/, "");
    if (text.length > MAX_LINE_CHARS) throw badRequest("batch.file_line_too_long", { line: this.lineNo });
    if (text.trim() === "") return;
    if (this.delimiter === undefined) this.delimiter = detectDelimiter(text);
    this.rows.row(splitCells(text, this.delimiter));
  }
}

export type FileKind = "text" | "xlsx";

/** What a file is from its first bytes: a zip (XLSX), an OLE2 compound file (XLS, refused), or text. */
export function fileKind(first: Uint8Array): FileKind {
  if (first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04) return "xlsx";
  if (first[0] === 0xd0 && first[1] === 0xcf && first[2] === 0x11 && first[3] === 0xe0)
    throw badRequest("batch.file_xls");
  return "text";
}

/**
 * Reads the numbers of a stored batch file, calling onNumber for each raw number in file order; returns how
 * many there were. Throws the refusals listed at the top of this file.
 */
export async function readNumberFile(
  absPath: string,
  onNumber: OnNumber,
  maxNumbers = BATCH_FILE_MAX_NUMBERS,
  columns: ColumnRequest = {},
): Promise<number> {
  const rows = new NumberRows(onNumber, maxNumbers, columns);
  const { bytes: head } = await firstBytes(absPath, 4);
  if (head.length > 0 && fileKind(head) === "xlsx") {
    await readXlsxRows(absPath, (cells) => rows.row(cells));
    rows.end();
    return rows.count;
  }
  const reader = new TextNumberReader(rows);
  // 64 KB a turn (about 2,000 lines): the ingest's queries and INSERTs wait for the reader to yield between
  // chunks, and a larger chunk held them back (the first chunk's pricing took 0.3 s behind 256 KB turns).
  for await (const chunk of createReadStream(absPath, { highWaterMark: 64 * 1024 })) reader.push(chunk as Buffer);
  reader.end();
  return rows.count;
}

/**
 * The upload request's check of a stored file, bounded by REQUEST_READ_BYTES: refuses what the file's start
 * (or the whole of a small file) shows is wrong. Returns the count of numbers when the whole file was read,
 * else null (the ingest job counts it).
 */
export async function checkNumberFile(
  absPath: string,
  maxNumbers = BATCH_FILE_MAX_NUMBERS,
  columns: ColumnRequest = {},
): Promise<number | null> {
  const { bytes: head, size } = await firstBytes(absPath, REQUEST_READ_BYTES);
  if (size === 0) throw badRequest("batch.file_empty");
  const rows = new NumberRows(() => {}, maxNumbers, columns);
  if (fileKind(head) === "xlsx") {
    if (!(await checkXlsx(absPath, REQUEST_READ_BYTES, (cells) => rows.row(cells)))) return null;
    rows.end();
    return rows.count;
  }
  const reader = new TextNumberReader(rows);
  reader.push(head);
  if (size > head.length) return null;
  reader.end();
  return rows.count;
}

async function firstBytes(absPath: string, n: number): Promise<{ bytes: Uint8Array; size: number }> {
  const fh = await open(absPath, "r");
  try {
    const { size } = await fh.stat();
    const buf = Buffer.alloc(Math.min(n, size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { bytes: buf.subarray(0, bytesRead), size };
  } finally {
    await fh.close();
  }
}
