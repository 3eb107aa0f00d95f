// Messages of file uploads (multipart/form-data).
import type { Lang } from "../codes";

export const uploadsMessages = {
  "upload.malformed": { zh: "上传内容格式错误", en: "the upload is not valid multipart/form-data" },
  "upload.file_too_large": { zh: "单个文件不能超过 {max} MB", en: "each file must be at most {max} MB" },
  "upload.too_many_files": { zh: "最多上传 {max} 个文件", en: "at most {max} files may be uploaded" },
  "upload.unknown_file_field": { zh: "不支持的文件字段 {field}", en: "unexpected file field {field}" },
  "upload.file_empty": { zh: "文件 {field} 为空", en: "file {field} is empty" },
  "upload.file_type": {
    zh: "文件 {field} 的类型不支持，仅支持：{kinds}",
    en: "file {field} is not of an accepted type ({kinds})",
  },
  // XLSX workbooks (batch files): the reader's bounds, each refused with its own reason
  "upload.xlsx_too_many_entries": {
    zh: "XLSX 文件内含的文件超过 {max} 个，不像是工作簿",
    en: "the XLSX file holds more than {max} entries; it does not look like a workbook",
  },
  "upload.xlsx_too_large": {
    zh: "XLSX 文件解压后超过 {max} MB",
    en: "the XLSX file unpacks to more than {max} MB",
  },
  "upload.xlsx_ratio": {
    zh: "XLSX 文件的压缩率异常（解压后超过原大小的 {ratio} 倍），疑似压缩炸弹",
    en: "the XLSX file unpacks to more than {ratio} times its packed size; it is refused as a possible zip bomb",
  },
  "upload.xlsx_element_too_large": {
    zh: "XLSX 文件中有超过 {max} 个字符的单元格或元素",
    en: "the XLSX file holds a cell or element of more than {max} characters",
  },
  "upload.xlsx_too_many_strings": {
    zh: "XLSX 文件的共享文本超过 {max} 条或 {chars} 个字符",
    en: "the XLSX file holds more than {max} shared texts or {chars} characters of them",
  },
  "upload.xlsx_row_too_wide": {
    zh: "XLSX 文件第 {row} 行的单元格超过 {max} 个",
    en: "row {row} of the XLSX file has more than {max} cells",
  },
} as const satisfies Record<string, Record<Lang, string>>;
