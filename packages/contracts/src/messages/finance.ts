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
  "finance.remittance_processed": {
    zh: "该汇款已处理，不能重复操作",
    en: "this remittance has already been confirmed or rejected",
  },
  "entity.remittance": { zh: "汇款记录", en: "remittance" },
  "entity.remittance_proof": { zh: "汇款凭证", en: "remittance proof" },
} as const satisfies Record<string, Record<Lang, string>>;
