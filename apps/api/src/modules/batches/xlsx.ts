// XLSX batch files (Office Open XML spreadsheets), read without a spreadsheet library: an XLSX file is a zip
// archive of XML parts. This reads the zip's central directory, inflates the parts it needs with node:zlib,
// and scans the XML for what a number list needs:
//   xl/workbook.xml + xl/_rels/workbook.xml.rels  -> which part is the first worksheet
//   xl/sharedStrings.xml                          -> the text of cells of type "s" (by index)
//   the first worksheet                           -> rows of cells, placed by their column letters
// Cell values: shared strings, inline strings, formula strings and numbers (a number written with an exponent,
// 8.6138001380E+12, is expanded back to its digits). Styles, dates and everything else are ignored.
// The worksheet is streamed (a million rows never sit in memory as XML); shared strings are kept as an array.
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { TextDecoder } from "node:util";
import { createInflateRaw } from "node:zlib";
import { badRequest } from "../../lib/errors";

/** Inflated bytes read from one archive at most: far above a 1,000,000-row sheet, far below a zip bomb. */
const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;

/** One translated refusal for every way a workbook can be unreadable; `why` says which, for the code reader. */
const invalid = (_why: string) => badRequest("batch.file_xlsx_invalid");

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

// ---------------------------------------------------------------- zip

async function centralDirectory(fh: FileHandle): Promise<Map<string, ZipEntry>> {
  const { size } = await fh.stat();
  // The end-of-central-directory record is the last 22 bytes plus a comment of at most 65,535 bytes.
  const tailLength = Math.min(size, 22 + 65_535);
  const tail = Buffer.alloc(tailLength);
  await fh.read(tail, 0, tailLength, size - tailLength);
  let eocd = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw invalid("not a zip archive");
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw invalid("ZIP64 archives are not supported");
  if (cdOffset + cdSize > size) throw invalid("the archive is truncated");
  const cd = Buffer.alloc(cdSize);
  await fh.read(cd, 0, cdSize, cdOffset);
  const entries = new Map<string, ZipEntry>();
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw invalid("the archive's directory is damaged");
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const name = cd.toString("utf8", p + 46, p + 46 + nameLength);
    if (flags & 1) throw invalid("the workbook is encrypted");
    entries.set(name, {
      method: cd.readUInt16LE(p + 10),
      compressedSize: cd.readUInt32LE(p + 20),
      localOffset: cd.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
  }
  return entries;
}

/** The inflated bytes of one part, chunk by chunk. */
async function* partChunks(fh: FileHandle, entry: ZipEntry, budget: { left: number }): AsyncGenerator<Buffer> {
  const local = Buffer.alloc(30);
  await fh.read(local, 0, 30, entry.localOffset);
  if (local.readUInt32LE(0) !== 0x04034b50) throw invalid("a part of the archive is damaged");
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (entry.compressedSize === 0) return;
  const raw = fh.createReadStream({ start, end: start + entry.compressedSize - 1, autoClose: false });
  let source: AsyncIterable<Buffer>;
  if (entry.method === 0) source = raw;
  else if (entry.method === 8) {
    const inflate = createInflateRaw();
    raw.on("error", (err) => inflate.destroy(err));
    source = raw.pipe(inflate);
  } else throw invalid(`compression method ${entry.method} is not supported`);
  try {
    for await (const chunk of source) {
      budget.left -= chunk.length;
      if (budget.left < 0) throw invalid("the workbook is too large once unpacked");
      yield chunk;
    }
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("Z_")) throw invalid("a part of the archive cannot be unpacked");
    throw err;
  }
}

async function* partText(fh: FileHandle, entry: ZipEntry, budget: { left: number }): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of partChunks(fh, entry, budget)) yield decoder.decode(chunk, { stream: true });
  yield decoder.decode();
}

async function wholePart(fh: FileHandle, entry: ZipEntry, budget: { left: number }): Promise<string> {
  let text = "";
  for await (const piece of partText(fh, entry, budget)) text += piece;
  return text;
}

// ---------------------------------------------------------------- XML

/** Element names may carry a namespace prefix (x:row) in files of some writers. */
const P = "(?:[\\w.-]+:)?";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (whole, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return ENTITIES[e] ?? whole;
  });
}

function attribute(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${P}${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? unescapeXml(m[1] ?? m[2] ?? "") : undefined;
}

/** The concatenated <t> texts of a fragment, phonetic runs (<rPh>) left out. */
function textRuns(fragment: string): string {
  const visible = fragment.replace(new RegExp(`<${P}rPh\\b[\\s\\S]*?</${P}rPh>`, "g"), "");
  let out = "";
  for (const m of visible.matchAll(new RegExp(`<${P}t(?:\\s[^>]*)?>([\\s\\S]*?)</${P}t>`, "g"))) out += m[1];
  return unescapeXml(out);
}

/**
 * Calls onElement with the full text of every <name>...</name> element (and "" for <name/>) of a streamed
 * document, without holding more of it than one element and one chunk.
 */
async function eachElement(chunks: AsyncIterable<string>, name: string, onElement: (xml: string) => void) {
  const opening = new RegExp(`<${P}${name}(?=[\\s>/])`, "g");
  const close = new RegExp(`</${P}${name}\\s*>`, "g");
  let buffer = "";
  for await (const chunk of chunks) {
    buffer += chunk;
    let consumed = 0;
    for (;;) {
      opening.lastIndex = consumed;
      const start = opening.exec(buffer);
      if (!start) {
        // Keep a possible partial start tag at the end.
        consumed = Math.max(consumed, buffer.length - 64);
        break;
      }
      const tagEnd = buffer.indexOf(">", start.index);
      if (tagEnd === -1) {
        consumed = start.index;
        break;
      }
      if (buffer[tagEnd - 1] === "/") {
        onElement("");
        consumed = tagEnd + 1;
        continue;
      }
      close.lastIndex = tagEnd;
      const end = close.exec(buffer);
      if (!end) {
        consumed = start.index;
        break;
      }
      onElement(buffer.slice(start.index, end.index + end[0].length));
      consumed = end.index + end[0].length;
    }
    buffer = buffer.slice(consumed);
  }
}

/** "B12" -> 1 (zero-based column of a cell reference). */
function columnOf(ref: string): number {
  let col = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col - 1;
}

/** A number cell's text as digits when it is a whole number written with an exponent. */
function numberText(v: string): string {
  if (!/e/i.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? String(n) : v;
}

function cellValue(attrs: string, inner: string, shared: readonly string[]): string {
  const type = attribute(attrs, "t");
  if (type === "inlineStr") return textRuns(inner);
  const v = new RegExp(`<${P}v>([\\s\\S]*?)</${P}v>`).exec(inner)?.[1];
  if (v === undefined) return "";
  if (type === "s") return shared[Number(v)] ?? "";
  if (type === "str") return unescapeXml(v);
  if (type === "b" || type === "e") return "";
  return numberText(v.trim());
}

function rowCells(rowXml: string, shared: readonly string[]): string[] {
  const cells: string[] = [];
  const cell = new RegExp(`<${P}c(?=[\\s>/])([^>]*?)(?:/>|>([\\s\\S]*?)</${P}c>)`, "g");
  for (const m of rowXml.matchAll(cell)) {
    const attrs = m[1] ?? "";
    const ref = attribute(attrs, "r");
    const col = ref ? columnOf(ref) : cells.length;
    if (col < 0 || col > 16_383) continue;
    while (cells.length < col) cells.push("");
    cells[col] = cellValue(attrs, m[2] ?? "", shared).trim();
  }
  return cells;
}

/** The part name of the workbook's first worksheet. */
async function firstSheet(fh: FileHandle, entries: Map<string, ZipEntry>, budget: { left: number }): Promise<string> {
  const fallback = "xl/worksheets/sheet1.xml";
  const workbook = entries.get("xl/workbook.xml");
  const rels = entries.get("xl/_rels/workbook.xml.rels");
  if (!workbook || !rels) return fallback;
  const sheet = new RegExp(`<${P}sheet\\b([^>]*)>`).exec(await wholePart(fh, workbook, budget));
  const relId = sheet ? attribute(sheet[1] ?? "", "id") : undefined;
  if (!relId) return fallback;
  for (const m of (await wholePart(fh, rels, budget)).matchAll(new RegExp(`<${P}Relationship\\b([^>]*)>`, "g"))) {
    if (attribute(m[1] ?? "", "Id") !== relId) continue;
    const target = attribute(m[1] ?? "", "Target") ?? "";
    return target.startsWith("/") ? target.slice(1) : `xl/${target}`;
  }
  return fallback;
}

/** Reads the first worksheet of an XLSX file row by row (cells in column order, gaps as ""). */
export async function readXlsxRows(absPath: string, row: (cells: string[]) => void): Promise<void> {
  const fh = await open(absPath, "r");
  try {
    const entries = await centralDirectory(fh);
    const budget = { left: MAX_INFLATED_BYTES };
    const sheetName = await firstSheet(fh, entries, budget);
    const sheet = entries.get(sheetName);
    if (!sheet) throw invalid("the workbook has no worksheet");
    const shared: string[] = [];
    const strings = entries.get("xl/sharedStrings.xml");
    if (strings) await eachElement(partText(fh, strings, budget), "si", (si) => shared.push(textRuns(si)));
    await eachElement(partText(fh, sheet, budget), "row", (xml) => row(xml === "" ? [] : rowCells(xml, shared)));
  } finally {
    await fh.close();
  }
}
