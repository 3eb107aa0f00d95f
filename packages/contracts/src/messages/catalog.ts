// Messages of countries, products and prices.
import type { Lang } from "../codes";

export const catalogMessages = {
  "entity.product": { zh: "产品", en: "product" },
  "entity.country": { zh: "国家", en: "country" },
  "catalog.country_codes_required": {
    zh: "字段 {field} 至少需要一个国家（国家范围为 2 或 3 时）",
    en: "field {field} needs at least one country when countryScope is 2 or 3",
  },
  "catalog.country_unknown": { zh: "未知的国家代码：{codes}", en: "unknown country codes: {codes}" },
  "catalog.country_not_served": {
    zh: "产品「{product}」不覆盖以下国家：{codes}",
    en: "product {product} does not serve: {codes}",
  },
  "price.screening_needs_price": {
    zh: "{country} 还没有价格：请同时设置消息单价",
    en: "{country} has no price yet: set its message price with the screening or category price",
  },
  "price.category_ws_only": {
    zh: "模板类别价格（营销、通知、验证）只适用于 WhatsApp 产品",
    en: "template category prices (marketing, utility, authentication) apply to WhatsApp products only",
  },
  "price.below_cost": {
    zh: "{country} 的价格 {price} 低于您的成本价 {floor}",
    en: "the price {price} for {country} is below your cost price {floor}",
  },
  "price.no_cost": {
    zh: "您在 {country} 没有成本价，请联系平台管理员",
    en: "you have no cost price for {country}; ask the platform administrator",
  },
  // why no unit price could be resolved (resolveUnitPrice)
  "price.customer_not_found": { zh: "客户不存在", en: "customer not found" },
  "price.product_not_found": { zh: "产品不存在", en: "product not found" },
  "price.product_paused": { zh: "产品已暂停", en: "the product is paused" },
  "price.country_not_served": { zh: "产品不覆盖该国家", en: "the product does not serve this country" },
  "price.no_price": { zh: "该国家未设置价格", en: "no price is set for this country" },
} as const satisfies Record<string, Record<Lang, string>>;
