// Messages of customer identity authentication and the seven-day exemption.
import type { Lang } from "../codes";

export const authenticationMessages = {
  "authentication.documents_required": {
    zh: "请上传 1 至 {max} 份证件文件（documents）",
    en: "upload 1 to {max} document files (documents)",
  },
  "authentication.already_submitted": {
    zh: "认证资料已提交，正在审核中",
    en: "your authentication is already waiting for review",
  },
  "authentication.already_authenticated": { zh: "账号已通过认证", en: "this account is already authenticated" },
  "authentication.already_reviewed": { zh: "该认证申请已审核", en: "this submission has already been reviewed" },
  // reasons a customer may not submit batches (canSubmitBatches)
  "authentication.submit_required": {
    zh: "请先完成实名认证后再提交发送任务",
    en: "complete identity authentication before submitting batches",
  },
  "authentication.submit_pending_review": {
    zh: "实名认证审核中，审核通过后即可提交发送任务",
    en: "your identity authentication is under review; you can submit batches once it passes",
  },
  "authentication.submit_rejected": {
    zh: "实名认证未通过，请修改资料后重新提交",
    en: "your identity authentication was rejected; correct it and submit again",
  },
  "authentication.submit_exemption_expired": {
    zh: "七天认证豁免已到期，请完成实名认证",
    en: "your seven-day authentication exemption has ended; complete identity authentication",
  },
  "entity.authentication": { zh: "认证申请", en: "authentication submission" },
  "entity.document": { zh: "证件文件", en: "document" },
} as const satisfies Record<string, Record<Lang, string>>;
