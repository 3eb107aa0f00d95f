import { defineMessages } from "../../lib/i18n";

/** Texts of the super admin's tenant switcher (zh default, en). */
export const messages = defineMessages(
  {
    "switcher.label": "当前平台",
    "switcher.all": "全部平台",
    "switcher.loadFailed": "平台列表加载失败",
  },
  {
    "switcher.label": "Current tenant",
    "switcher.all": "All tenants",
    "switcher.loadFailed": "Could not load the tenants",
  },
);
