// Messages of account management (/user list, create, edit, delete, tenants).
import type { Lang } from "../codes";

export const usersMessages = {
  "user.type_not_allowed": {
    zh: "无权创建该类型的账号",
    en: "you may not create accounts of this type",
  },
  "user.agent_only_for_customers": {
    zh: "只有客户可以归属代理商",
    en: "only customers belong to an agent",
  },
  "user.requirement_only_for_customers": {
    zh: "只有客户有认证要求",
    en: "only customers have an authentication requirement",
  },
  "user.agent_change_admins_only": {
    zh: "只有管理员可以变更客户的所属代理商",
    en: "only admins may move a customer to another agent",
  },
  "user.status_self": { zh: "不能冻结或解冻自己的账号", en: "you cannot freeze or unfreeze your own account" },
  "user.tenant_code_taken": { zh: "平台编码已被使用", en: "this tenant code is already taken" },
  "user.delete_self": { zh: "不能删除自己的账号", en: "you cannot delete your own account" },
  "user.delete_has_balance": {
    zh: "该账号仍有余额 {balance}，请先扣除后再删除",
    en: "the account still has a balance of {balance}; deduct it before deleting",
  },
  "user.delete_has_batches": {
    zh: "该账号有 {count} 个进行中的发送任务，请等待完成或取消后再删除",
    en: "the account has {count} batches in progress; wait for them to end or cancel them before deleting",
  },
  "user.delete_has_customers": {
    zh: "该代理商名下还有 {count} 个客户，请先转移或删除这些客户",
    en: "the agent still owns {count} customers; move or delete them first",
  },
  "user.delete_has_websites": {
    zh: "该代理商还有 {count} 个站点配置，请先移除",
    en: "the agent still has {count} website configs; remove them first",
  },
  "entity.agent": { zh: "代理商", en: "agent" },
  // password policy (docs/decisions.md): every password set through the API
  "password.too_common": {
    zh: "这个密码太常见了，常用密码列表里就有它或它的变体，请换一个",
    en: "this password is too common (it or a variant of it is on lists of popular passwords); choose another",
  },
  "password.contains_username": {
    zh: "密码不能包含用户名",
    en: "the password must not contain the username",
  },
  "password.too_guessable": {
    zh: "这个密码太容易被猜到，请换一个更长的，例如几个不相关的词组合",
    en: "this password is too easy to guess; make it longer, for example a few unrelated words",
  },
} as const satisfies Record<string, Record<Lang, string>>;
