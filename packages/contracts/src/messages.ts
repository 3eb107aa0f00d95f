// Every message the API returns, in zh and en. Keys are stable: tests and clients may match them,
// the text may change. `{name}` placeholders are filled by translate().
// Each feature keeps its messages in messages/<feature>.ts; this file merges them.
import type { Lang } from "./codes";
import { authenticationMessages } from "./messages/authentication";
import { batchMessages } from "./messages/batches";
import { catalogMessages } from "./messages/catalog";
import { channelMessages } from "./messages/channels";
import { coreMessages } from "./messages/core";
import { developerMessages } from "./messages/developer";
import { financeMessages } from "./messages/finance";
import { linkMessages } from "./messages/links";
import { noticeMessages } from "./messages/notices";
import { optOutMessages } from "./messages/opt-outs";
import { senderIdMessages } from "./messages/sender-ids";
import { settingsMessages } from "./messages/settings";
import { uploadsMessages } from "./messages/uploads";
import { usersMessages } from "./messages/users";

const catalogue = {
  ...coreMessages,
  ...batchMessages,
  ...catalogMessages,
  ...channelMessages,
  ...financeMessages,
  ...usersMessages,
  ...authenticationMessages,
  ...developerMessages,
  ...uploadsMessages,
  ...settingsMessages,
  ...noticeMessages,
  ...senderIdMessages,
  ...optOutMessages,
  ...linkMessages,
} as const satisfies Record<string, Record<Lang, string>>;

export type MessageKey = keyof typeof catalogue;
export type MessageParams = Record<string, string | number>;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(catalogue, key);
}

/** Text of a message in a language, with {placeholders} filled (a placeholder may itself be a message key). */
export function translate(lang: Lang, key: MessageKey, params: MessageParams = {}): string {
  const template: string = catalogue[key][lang];
  // Most messages carry no placeholder (every success envelope's): no regular expression for them.
  if (!template.includes("{")) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    if (v === undefined) return whole;
    const s = String(v);
    return isMessageKey(s) ? catalogue[s][lang] : s;
  });
}
