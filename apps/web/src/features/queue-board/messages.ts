import { defineMessages } from "../../lib/i18n";

const zh = {
  open: "队列看板",
  "open.readOnly": "查看任务队列（只读）",
  "open.manage": "查看和处理任务队列",
  blocked: "浏览器拦截了新窗口，请允许本站打开弹出窗口后重试。",
} as const;

const en: Record<keyof typeof zh, string> = {
  open: "Queue board",
  "open.readOnly": "Look at the job queues (read-only)",
  "open.manage": "Look at and act on the job queues",
  blocked: "The browser blocked the new tab: allow pop-ups for this site and try again.",
};

export const messages = defineMessages(zh, en);
