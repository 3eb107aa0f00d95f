// Messages of the platform core: envelope, validation, sign-in.
import type { Lang } from "../codes";

export const coreMessages = {
  ok: { zh: "成功", en: "OK" },
  // envelope-level
  "error.server": { zh: "服务器错误（{requestId}）", en: "server error ({requestId})" },
  "error.not_found_route": { zh: "接口不存在", en: "no such route" },
  "error.unauthorized": { zh: "未登录或登录已过期", en: "not logged in or session expired" },
  "error.forbidden": { zh: "无权执行此操作", en: "not allowed" },
  "error.rate_limited": {
    zh: "请求过于频繁，请 {retryAfter} 秒后再试",
    en: "too many requests, retry in {retryAfter} s",
  },
  "error.payload_too_large": { zh: "请求内容过大", en: "request too large" },
  "error.bad_json": { zh: "请求体不是有效的 JSON", en: "request body is not valid JSON" },
  "error.unsupported_media_type": { zh: "不支持的内容类型", en: "unsupported content type" },
  "error.tenant_unknown": { zh: "无法识别所属平台", en: "unknown platform (tenant)" },
  "error.tenant_required": { zh: "请通过 tenant-id 请求头指定平台", en: "name the tenant with the tenant-id header" },
  "error.not_found": { zh: "{entity}不存在", en: "{entity} not found" },
  "error.bad_request": { zh: "请求格式不正确", en: "malformed request" },
  "error.concurrent_change": {
    zh: "数据已被其他操作修改，请刷新后重试",
    en: "someone else changed this at the same time; reload and try again",
  },
  "error.uri_too_long": { zh: "请求地址过长", en: "request URL too long" },
  "error.headers_too_large": { zh: "请求头或地址过长", en: "request headers or URL too large" },
  "error.request_timeout": { zh: "请求超时", en: "request timed out" },
  // validation
  "validation.required": { zh: "字段 {field} 为必填项", en: "field {field} is required" },
  "validation.type": { zh: "字段 {field} 类型错误，应为 {expected}", en: "field {field} must be a {expected}" },
  "validation.too_long": { zh: "字段 {field} 长度不能超过 {max}", en: "field {field} must be at most {max} long" },
  "validation.too_short": { zh: "字段 {field} 长度不能少于 {min}", en: "field {field} must be at least {min} long" },
  "validation.too_big": { zh: "字段 {field} 不能大于 {max}", en: "field {field} must be at most {max}" },
  "validation.too_small": { zh: "字段 {field} 不能小于 {min}", en: "field {field} must be at least {min}" },
  "validation.greater_than": { zh: "字段 {field} 必须大于 {min}", en: "field {field} must be greater than {min}" },
  "validation.less_than": { zh: "字段 {field} 必须小于 {max}", en: "field {field} must be less than {max}" },
  "validation.format": { zh: "字段 {field} 格式不正确", en: "field {field} has an invalid format" },
  "validation.enum": { zh: "字段 {field} 取值无效，可选：{options}", en: "field {field} must be one of: {options}" },
  "validation.unknown_key": { zh: "不支持的字段 {field}", en: "unknown field {field}" },
  "validation.invalid": { zh: "字段 {field} 无效", en: "field {field} is invalid" },
  "validation.page_with_cursor": {
    zh: "字段 {field} 不能与 cursor 同时使用：按 cursor 翻页时只给 pageSize",
    en: "field {field} cannot be used with cursor: page by cursor with pageSize alone",
  },
  "validation.cursor": {
    zh: "cursor 无效：请使用上一页返回的 nextCursor",
    en: "cursor is invalid: use the nextCursor of the previous page",
  },
  "validation.nul": {
    zh: "字段 {field} 含有不允许的空字符（NUL）",
    en: "field {field} contains a NUL character, which is not allowed",
  },
  "validation.time_zone": {
    zh: "字段 {field} 应为 IANA 时区名称，如 Asia/Shanghai",
    en: "field {field} must be an IANA time zone name, e.g. Asia/Shanghai",
  },
  "validation.money": {
    zh: "字段 {field} 应为不超过 {decimals} 位小数的正数金额",
    en: "field {field} must be a positive amount with at most {decimals} decimals",
  },
  // auth
  "auth.bad_credentials": { zh: "用户名或密码错误", en: "wrong username or password" },
  "auth.frozen": { zh: "账号已冻结，请联系管理员", en: "this account is frozen; contact your administrator" },
  "auth.too_many_attempts": {
    zh: "登录失败次数过多，请 {minutes} 分钟后再试",
    en: "too many failed sign-ins; try again in {minutes} minutes",
  },
  "auth.registration_closed": { zh: "当前平台未开放注册", en: "registration is closed on this platform" },
  "auth.username_taken": { zh: "用户名已被使用", en: "this username is already taken" },
  "auth.old_password_wrong": { zh: "原密码错误", en: "the old password is wrong" },
  "auth.password_same": { zh: "新密码不能与原密码相同", en: "the new password must differ from the old one" },
  // entities (for error.not_found)
  "entity.user": { zh: "用户", en: "user" },
  "entity.record": { zh: "记录", en: "record" },
  "entity.tenant": { zh: "平台", en: "tenant" },
} as const satisfies Record<string, Record<Lang, string>>;
