// Messages of sender IDs: requests, review, and a batch refused for a sender id not approved.
import type { Lang } from "../codes";

export const senderIdMessages = {
  "entity.sender_id": { zh: "发送方 ID", en: "sender ID" },
  "sender_id.all_countries": { zh: "所有国家", en: "all countries" },
  "sender_id.any_country": { zh: "任何国家", en: "any country" },
  "sender_id.number_form": {
    zh: "数字发送方 ID 须为带国家代码的完整号码（如 +447700900123，不以 0 开头），或 {min} 至 {max} 位的短号码",
    en: "a numeric sender ID must be a full number with its country code (like +447700900123, no leading 0) or a short code of {min} to {max} digits",
  },
  "sender_id.country_unknown": { zh: "未知的国家代码 {country}", en: "unknown country code {country}" },
  "sender_id.already_requested": {
    zh: "发送方 ID {senderId}（{country}）已申请，正在等待审核",
    en: "sender ID {senderId} ({country}) is already requested and waits for review",
  },
  "sender_id.already_approved": {
    zh: "发送方 ID {senderId}（{country}）已获批准，无需再次申请",
    en: "sender ID {senderId} ({country}) is already approved",
  },
  "sender_id.not_waiting": {
    zh: "该申请已审核或已撤回，不能再审核",
    en: "this request was already reviewed or withdrawn",
  },
  "sender_id.not_approved_to_revoke": {
    zh: "只有已批准的发送方 ID 可以吊销",
    en: "only an approved sender ID can be revoked",
  },
  // a batch whose sender id is not approved for the countries of its numbers (submission, pre-submit check)
  "sender_id.not_approved": {
    zh: "发送方 ID {senderId} 未获准用于 {countries}：请在“发送方 ID”页面申请并等待批准，或不填发送方 ID（使用通道默认）",
    en: "sender ID {senderId} is not approved for {countries}: request it on the Sender IDs page and wait for approval, or send without a sender ID (the channel's default)",
  },
} as const satisfies Record<string, Record<Lang, string>>;
