// Messages of the system settings, website configs, SMS templates and SMS records.
import type { Lang } from "../codes";

export const settingsMessages = {
  "setting.sensitive_word_too_long": {
    zh: "敏感词“{word}”过长，每个敏感词最多 {max} 个字符",
    en: "the sensitive word “{word}” is too long (at most {max} characters each)",
  },
  "setting.sensitive_words_too_many": {
    zh: "敏感词最多 {max} 个",
    en: "at most {max} sensitive words",
  },
  "setting.country_unknown": {
    zh: "国家代码 {country} 不存在",
    en: "unknown country code {country}",
  },
  "website.host_unavailable": {
    zh: "该域名不可用，请换一个，或联系平台运营方",
    en: "this host is not available; choose another or contact the platform operator",
  },
  "website.host_held": {
    zh: "域名 {host} 已被平台 {tenant} 的网站配置 #{id} 使用，请先修改或删除该配置",
    en: "the host {host} is used by website config #{id} of tenant {tenant}; change or delete that config first",
  },
  "website.logo_missing": {
    zh: "Logo 文件不存在，请重新上传",
    en: "the logo file does not exist (any more); upload it again",
  },
  "website.logos_pending_too_many": {
    zh: "已上传但未使用的 Logo 过多（{max} 个），请先保存配置或稍后再试",
    en: "too many uploaded logos are not used by any config yet ({max}); save a config first or try later",
  },
  "website.logo_foreign": {
    zh: "Logo 必须是本平台上传的图片",
    en: "the logo must be an image uploaded for this tenant",
  },
  "sms_template.unknown_placeholder": {
    zh: "模板内容含有该场景不支持的占位符 {placeholders}，可用：{allowed}",
    en: "the content uses placeholders this scene does not offer: {placeholders} (available: {allowed})",
  },
  "sms_template.has_records": {
    zh: "该模板已有发送记录，不能删除，可将其停用",
    en: "this template has sent messages on record and cannot be deleted; pause it instead",
  },
  "entity.website_config": { zh: "网站配置", en: "website config" },
  "entity.website_logo": { zh: "Logo", en: "logo" },
  "entity.sms_template": { zh: "短信模板", en: "SMS template" },
} as const satisfies Record<string, Record<Lang, string>>;
