import { defineMessages } from "../../lib/i18n";

const zh = {
  "balance.title": "我的余额",
  "balance.refresh": "刷新",
  "recharge.hint":
    "管理员为您充值的记录为正数；您为客户充值、赠送或确认汇款时，从您的余额中扣除的记录为负数，备注中的 [用户名] 为对应客户。",
  "deduct.hint": "管理员从您的余额扣款的记录为负数；您从客户扣款时，退回您余额的记录为正数。",
  "consume.hint": "您名下客户的批次消费与退款记录。",
  "type.label": "类型",
};

const en: typeof zh = {
  "balance.title": "My balance",
  "balance.refresh": "Refresh",
  "recharge.hint":
    "Recharges by the admin are positive; when you recharge, gift or confirm a remittance for a customer, the amount taken from your balance is negative and the remark names the customer as [username].",
  "deduct.hint":
    "Deducts by the admin are negative; when you deduct from a customer, the amount returned to your balance is positive.",
  "consume.hint": "Batch consume and refund records of your customers.",
  "type.label": "Type",
};

export const messages = defineMessages(zh, en);
