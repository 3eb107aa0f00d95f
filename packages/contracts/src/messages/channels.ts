// Messages of channels, routing, data transfer and channel statistics.
import type { Lang } from "../codes";

export const channelMessages = {
  "entity.channel": { zh: "通道", en: "channel" },
  "channel.kind_immutable": {
    zh: "通道类型不能修改（当前为 {kind}）",
    en: "a channel's kind cannot change (this one is {kind})",
  },
  "channel.service_account_key_invalid": {
    zh: "字段 {field} 应为 Google 服务账号密钥（包含 client_email 与 private_key 的 JSON）",
    en: "field {field} must be a Google service-account key (JSON with client_email and private_key)",
  },
  "channel.templates_whatsapp_only": {
    zh: "只有 WhatsApp 通道有消息模板",
    en: "only WhatsApp channels have message templates",
  },
  "channel.templates_waba_required": {
    zh: "请先在通道设置中填写 WhatsApp 商业账户 ID（WABA ID），才能同步模板",
    en: "set the channel's WhatsApp Business Account id (WABA id) before syncing its templates",
  },
  "channel.templates_sync_failed": {
    zh: "从 WhatsApp 读取模板失败（{code}），模板未更改",
    en: "reading the templates from WhatsApp failed ({code}); nothing was changed",
  },
  "channel.egress_refused": {
    zh: "出站策略不允许连接该地址（{host}）",
    en: "address not allowed by the egress policy ({host})",
  },
  "channel.product_mismatch": {
    zh: "通道「{channel}」承载产品代码 {channelCode}，与产品「{product}」（{productCode}）不符",
    en: "channel {channel} carries product code {channelCode}, but product {product} is {productCode}",
  },
  "channel.outside_scope": {
    zh: "通道「{channel}」不覆盖以下国家：{codes}",
    en: "channel {channel} does not serve: {codes}",
  },
  "channel.transfer_mismatch": {
    zh: "通道「{from}」承载产品代码 {fromCode}，通道「{to}」承载 {toCode}，不能迁移",
    en: "channel {from} carries product code {fromCode} and channel {to} carries {toCode}: routes cannot move between them",
  },
  "channel.transfer_same": { zh: "源通道与目标通道不能相同", en: "the source and target channels must differ" },
  "channel.transfer_target_paused": {
    zh: "目标通道「{channel}」已暂停，请先启用",
    en: "the target channel {channel} is paused; enable it first",
  },
  "channel.stats_range": {
    zh: "统计时间范围须在 1 到 {days} 天之间，且开始时间早于结束时间",
    en: "the statistics range must start before it ends and span at most {days} days",
  },
  // why no channel could be resolved (resolveChannel)
  "channel.customer_not_found": { zh: "客户不存在", en: "customer not found" },
  "channel.product_not_found": { zh: "产品不存在", en: "product not found" },
  "channel.product_paused": { zh: "产品已暂停", en: "the product is paused" },
  "channel.country_not_served": { zh: "产品不覆盖该国家", en: "the product does not serve this country" },
  "channel.no_channel": {
    zh: "客户未分配通道，且产品没有默认通道",
    en: "the customer has no route and the product has no default channel",
  },
  "channel.channel_paused": { zh: "分配的通道已暂停", en: "the assigned channel is paused" },
  "channel.channel_country_excluded": {
    zh: "分配的通道不覆盖该国家",
    en: "the assigned channel does not serve this country",
  },
} as const satisfies Record<string, Record<Lang, string>>;
