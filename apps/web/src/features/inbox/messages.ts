import { defineMessages } from "../../lib/i18n";

export const messages = defineMessages(
  {
    intro: "用户回复您消息的内容（文字回复、建议回复和按钮点击）都在这里，按收到时间从新到旧排列，每 15 秒刷新。",
    "search.placeholder": "按号码查找（如 +8613800138000）",
    "search.batch": "任务 ID",
    "col.time": "收到时间",
    "col.from": "号码",
    "col.reply": "内容",
    "col.product": "产品",
    "col.batch": "回复的任务",
    "reply.postback": "点击：{data}",
    "batch.none": "未匹配到任务",
    "product.1000": "RCS",
    "product.2000": "WhatsApp",
    "product.3000": "短信",
    empty: "还没有收到回复。用户回复您的消息后会显示在这里。",
    "empty.filtered": "没有符合条件的回复",
  },
  {
    intro:
      "What users wrote back to your messages (text replies, suggested replies and button taps), newest first; the list refreshes every 15 s.",
    "search.placeholder": "Find by number (e.g. +447700900123)",
    "search.batch": "Batch ID",
    "col.time": "Received",
    "col.from": "Number",
    "col.reply": "Reply",
    "col.product": "Product",
    "col.batch": "Batch replied to",
    "reply.postback": "Tapped: {data}",
    "batch.none": "No batch matched",
    "product.1000": "RCS",
    "product.2000": "WhatsApp",
    "product.3000": "SMS",
    empty: "No replies yet. When users answer your messages, their replies show here.",
    "empty.filtered": "No replies match these filters",
  },
);

export type InboxMessageKey = keyof typeof messages.texts.en;
