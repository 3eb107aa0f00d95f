// Messages of tracked links (docs/batches.md, "Tracked links").
import type { Lang } from "../codes";

export const linkMessages = {
  "link.target_invalid": {
    zh: "跟踪链接 {url} 无效：只接受 http:// 或 https:// 开头的完整网址",
    en: "the tracked link {url} is not valid: only full http:// or https:// addresses are accepted",
  },
  "link.too_many": {
    zh: "跟踪链接过多：{count} 个，最多 {max} 个不同的链接",
    en: "too many tracked links: {count}, at most {max} different links",
  },
} as const satisfies Record<string, Record<Lang, string>>;
