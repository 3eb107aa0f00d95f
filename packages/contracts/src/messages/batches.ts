// Messages of message batches.
import type { Lang } from "../codes";

export const batchMessages = {
  "batch.sms_too_long": {
    zh: "短信内容过长：{segments} 条，最多 {max} 条",
    en: "the SMS is too long: {segments} parts, at most {max}",
  },
  "batch.illegal_transition": {
    zh: "任务状态为 {from}，不能执行此操作",
    en: "the batch is in status {from}; this action is not possible now",
  },
  "entity.batch": { zh: "任务", en: "batch" },
} as const satisfies Record<string, Record<Lang, string>>;
