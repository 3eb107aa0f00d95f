// Messages of the opt-out list.
import type { Lang } from "../codes";

export const optOutMessages = {
  "entity.opt_out": { zh: "退订号码", en: "opt-out entry" },
  "opt_out.invalid_phone": { zh: "号码无效：{phone}", en: "invalid number: {phone}" },
  "opt_out.customer_required": { zh: "请选择客户", en: "choose the customer" },
  "batch.all_opted_out": {
    zh: "没有可发送的号码：{count} 个号码在退订名单中",
    en: "no number can be sent: {count} on the opt-out list",
  },
  "opt_out.import_too_many": {
    zh: "一次最多导入 {max} 个号码",
    en: "at most {max} numbers per import",
  },
} as const satisfies Record<string, Record<Lang, string>>;
