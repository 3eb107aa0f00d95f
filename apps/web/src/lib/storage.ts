/**
 * The one place that reads and writes local storage (spec section 9): token, user type, tenant id,
 * agent id, language and the international flag, a super admin's working tenant (the tenant the back
 * office acts in, chosen in the top bar; the super admin's own tenant id is always empty), and the columns a
 * user hid in a list.
 */
import { toUserType, type UserType } from "./user-type";

export type Lang = "zh" | "en";
export const DEFAULT_LANG: Lang = "zh";

const KEY = {
  token: "switchboard.token",
  userType: "switchboard.userType",
  tenantId: "switchboard.tenantId",
  agentId: "switchboard.agentId",
  workingTenantId: "switchboard.workingTenantId",
  lang: "switchboard.lang",
  international: "switchboard.international",
  /** Followed by the list's name: the keys of the columns hidden there (JSON array). */
  hiddenColumns: "switchboard.hiddenColumns.",
} as const;

export interface SessionIdentity {
  userType: UserType;
  tenantId?: string | number | null;
  agentId?: string | number | null;
}

function read(key: string): string | null {
  return window.localStorage.getItem(key);
}

function write(key: string, value: string | number | null | undefined): void {
  if (value === null || value === undefined || value === "") window.localStorage.removeItem(key);
  else window.localStorage.setItem(key, String(value));
}

export const storage = {
  getToken: (): string | null => read(KEY.token),
  getUserType: (): UserType | null => toUserType(read(KEY.userType)),
  getTenantId: (): string | null => read(KEY.tenantId),
  getAgentId: (): string | null => read(KEY.agentId),
  /** A super admin's chosen tenant (null = all tenants); other users never have one. */
  getWorkingTenantId: (): string | null => read(KEY.workingTenantId),
  setWorkingTenantId(tenantId: string | number | null): void {
    write(KEY.workingTenantId, tenantId);
  },

  getLang(): Lang {
    const lang = read(KEY.lang);
    return lang === "en" || lang === "zh" ? lang : DEFAULT_LANG;
  },
  setLang(lang: Lang): void {
    write(KEY.lang, lang);
  },

  /** "1" international, "0" domestic, null when no mode was chosen. */
  getInternational(): "1" | "0" | null {
    const value = read(KEY.international);
    return value === "1" || value === "0" ? value : null;
  },
  setInternational(on: boolean): void {
    write(KEY.international, on ? "1" : "0");
  },

  /** The keys of the columns the user hid in a list (none when nothing was chosen or the value is unreadable). */
  getHiddenColumns(list: string): string[] {
    const value = read(KEY.hiddenColumns + list);
    if (!value) return [];
    try {
      const keys: unknown = JSON.parse(value);
      return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
    } catch {
      return [];
    }
  },
  setHiddenColumns(list: string, keys: readonly string[]): void {
    write(KEY.hiddenColumns + list, keys.length > 0 ? JSON.stringify(keys) : null);
  },

  /** Stores a fresh login. */
  saveSession(token: string, identity: SessionIdentity): void {
    write(KEY.token, token);
    storage.saveIdentity(identity);
  },
  /** Refreshes who the user is (from /user/info) without touching the token. */
  saveIdentity(identity: SessionIdentity): void {
    write(KEY.userType, identity.userType);
    write(KEY.tenantId, identity.tenantId);
    if (identity.agentId !== undefined) write(KEY.agentId, identity.agentId);
  },
  /** Forgets the token, the user's identity (type, tenant, agent) and the working tenant; language and mode stay. */
  clearSession(): void {
    for (const key of [KEY.token, KEY.userType, KEY.tenantId, KEY.agentId, KEY.workingTenantId]) {
      window.localStorage.removeItem(key);
    }
  },
};

export type AppStorage = typeof storage;
