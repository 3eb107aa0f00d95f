// Zip archives and minimal workbooks for the XLSX reader's tests, written with node:zlib: each entry stored or
// deflated, and able to lie in its directory entry (sizes, flags, method) the way a hostile upload would.
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntrySpec {
  name: string;
  data: Buffer | string;
  /** 0 stored, 8 deflated (default). */
  method?: 0 | 8;
  /** Overrides what the directory says (the data written is the real one). */
  declaredSize?: number;
  declaredCompressedSize?: number;
  declaredMethod?: number;
  flags?: number;
}

export function zip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data);
    const method = e.method ?? 8;
    const packed = method === 8 ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name);
    const crc = crc32(data);
    const size = e.declaredSize ?? data.length;
    const compressed = e.declaredCompressedSize ?? packed.length;
    const declaredMethod = e.declaredMethod ?? method;
    const flags = e.flags ?? 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(declaredMethod, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(flags, 8);
    dir.writeUInt16LE(declaredMethod, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(compressed, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(dir, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface WorkbookSpec {
  /** The first worksheet's XML, whole (see sheetXml for just its rows). */
  sheet: string | Buffer;
  /** How the sheet is packed (deflated by default). */
  sheetMethod?: 0 | 8;
  /** More parts (name -> XML), or overrides of the default ones. */
  parts?: Record<string, string>;
  /** Overrides of the sheet's directory entry. */
  sheetEntry?: Partial<ZipEntrySpec>;
}

export const sheetXml = (rows: string) => `<worksheet><sheetData>${rows}</sheetData></worksheet>`;

/** A minimal workbook: workbook, its relationships, one sheet (and whatever `parts` adds). */
export function workbook(spec: WorkbookSpec): Buffer {
  const parts: Record<string, string> = {
    "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
    "xl/workbook.xml": '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ...spec.parts,
  };
  return zip([
    ...Object.entries(parts).map(([name, data]) => ({ name, data })),
    { name: "xl/worksheets/sheet1.xml", data: spec.sheet, method: spec.sheetMethod ?? 8, ...spec.sheetEntry },
  ]);
}
