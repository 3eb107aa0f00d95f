import { defineMessages } from "../../lib/i18n";

const zh = {
  title: "价格表",
  search: "搜索国家（名称、代码或区号）",
  allProducts: "全部产品",
  product: "产品",
  country: "国家/地区",
  dialCode: "区号",
  unitPrice: "单价",
  unitNote: "短信按条（每段）计费，WS 与 RCS 按条计费；WS 模板消息按模板类别计价。",
  marketingPrice: "营销",
  utilityPrice: "通知",
  authenticationPrice: "验证",
  empty: "没有找到价格",
  close: "关闭",
  source: "来源",
  "source.customer": "专属价",
  "source.default": "标准价",
} as const;

const en: Record<keyof typeof zh, string> = {
  title: "Price list",
  search: "Search a country (name, code or dial code)",
  allProducts: "All products",
  product: "Product",
  country: "Country/region",
  dialCode: "Dial code",
  unitPrice: "Unit price",
  unitNote: "SMS is charged per segment, WS and RCS per message; a WS template message by its template's category.",
  marketingPrice: "Marketing",
  utilityPrice: "Utility",
  authenticationPrice: "Authentication",
  empty: "No prices found",
  close: "Close",
  source: "Price",
  "source.customer": "Your price",
  "source.default": "Standard",
};

export const messages = defineMessages(zh, en);
