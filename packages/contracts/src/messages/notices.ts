// Messages of platform notices.
import type { Lang } from "../codes";

export const noticeMessages = {
  "entity.notice": { zh: "公告", en: "notice" },
  "notice.already_published": {
    zh: "该公告已发布",
    en: "this notice is already published",
  },
  "notice.not_published": {
    zh: "该公告未发布，无需撤回",
    en: "this notice is not published, there is nothing to withdraw",
  },
} as const satisfies Record<string, Record<Lang, string>>;
