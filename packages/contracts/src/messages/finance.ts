// Messages of finance: balance ledger, recharge and deduct, gifts, remittances.
import type { Lang } from "../codes";

export const financeMessages = {
  "validation.money_max": {
    zh: "字段 {field} 不能超过 {max}",
    en: "field {field} must be at most {max}",
  },
  "finance.insufficient_balance": {
    zh: "余额不足，当前余额 {balance}",
    en: "insufficient balance (current balance {balance})",
  },
  "finance.agent_insufficient_balance": {
    zh: "代理商余额不足，当前余额 {balance}，请先充值",
    en: "insufficient agent balance (your balance is {balance}); recharge your own account first",
  },
  "finance.agent_funded_short": {
    zh: "最多可扣回 {available}：即您为该客户充入且尚未消费的金额；平台充值或赠送的余额不能由代理商扣回",
    en: "you can take back at most {available}: what you paid into this customer's balance and it has not spent; balance the platform gave stays with the customer",
  },
  "finance.balance_limit": {
    zh: "余额不能超过 {max}，当前余额 {balance}",
    en: "the balance may not exceed {max} (current balance {balance})",
  },
  "finance.agent_balance_limit": {
    zh: "代理商余额不能超过 {max}，当前余额 {balance}",
    en: "your own balance may not exceed {max} (your balance is {balance})",
  },
  "finance.remittance_processed": {
    zh: "该汇款已处理，不能重复操作",
    en: "this remittance has already been confirmed or rejected",
  },
  "entity.remittance": { zh: "汇款记录", en: "remittance" },
  "entity.remittance_proof": { zh: "汇款凭证", en: "remittance proof" },
} as const satisfies Record<string, Record<Lang, string>>;
