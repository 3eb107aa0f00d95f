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
} as const satisfies Record<string, Record<Lang, string>>;
