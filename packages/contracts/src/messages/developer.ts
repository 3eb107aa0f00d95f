// Messages of developer settings (secret key, IP whitelist, notify URL, API switch).
import type { Lang } from "../codes";

export const developerMessages = {
  "developer.ip_invalid": {
    zh: "字段 {field}：{value} 不是有效的 IPv4/IPv6 地址或 CIDR 网段",
    en: "field {field}: {value} is not a valid IPv4/IPv6 address or CIDR range",
  },
  "developer.notify_url_invalid": {
    zh: "字段 {field} 应为 http 或 https 地址（不含用户名和密码）",
    en: "field {field} must be an http or https URL (without user name or password)",
  },
  "developer.notify_url_bad_port": {
    zh: "字段 {field} 的端口 {port} 不能接收 HTTP 回调（保留给其他协议），请使用 80、443 或 Web 服务的端口",
    en: "field {field}: port {port} cannot receive HTTP callbacks (it belongs to another protocol); use 80, 443 or your web server's port",
  },
  "developer.notify_url_not_allowed": {
    zh: "回调地址 {host} 指向内部或保留地址，平台不会向其发送回调",
    en: "the notify URL's host {host} is an internal or reserved address our servers never call",
  },
  "developer.notify_nothing_to_test": {
    zh: "请先填写回调地址再测试",
    en: "give a notify URL to test",
  },
  "developer.no_secret_key": {
    zh: "回调使用密钥签名，请先生成密钥再测试",
    en: "callbacks are signed with your secret key: create one (refresh the secret key) before testing",
  },
  "entity.api_key": { zh: "密钥", en: "API key" },
  "entity.notify_attempt": { zh: "回调记录", en: "callback attempt" },
  "developer.resend_queued": {
    zh: "该事件的重发已在队列中，请等待其结果后再试",
    en: "a resend of this event is already queued: wait for its answer before sending it again",
  },
  "developer.resend_not_an_event": {
    zh: "测试回调不能重发，请在回调地址处重新测试",
    en: "a test callback cannot be re-sent: test the notify URL again instead",
  },
  "developer.resend_no_url": {
    zh: "请先填写回调地址再重发",
    en: "set a notify URL before re-sending",
  },
  "developer.api_key_expiry_past": { zh: "过期时间必须晚于现在", en: "the expiry must be in the future" },
  "developer.api_keys_too_many": {
    zh: "最多可保留 {max} 个有效密钥，请先吊销不用的密钥",
    en: "at most {max} live keys: revoke one you no longer use first",
  },
} as const satisfies Record<string, Record<Lang, string>>;
