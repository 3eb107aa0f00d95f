/**
 * Build-time (Vite env) and run-time (window.__SWITCHBOARD_CONFIG__, injected by the server)
 * configuration. The run-time value wins so one build can be deployed behind different APIs.
 */
export type Variant = "full" | "rcs";

export interface AppConfig {
  /** API base address without a trailing slash. */
  apiBase: string;
  /** "rcs" hides the WS and SMS groups and uses /backend/login as the staff login. */
  variant: Variant;
  /**
   * The deployment runs in international mode: requests then carry the international flag (1 or 0,
   * kept in local storage, 1 until the user chooses otherwise). Off means domestic mode.
   */
  internationalMode: boolean;
  /** Whether the agreement modal opens by itself on the register pages (agree-show flag). */
  agreeShow: boolean;
}

export const DEFAULT_API_BASE = "http://127.0.0.1:3000";

function flag(value: string | boolean | undefined, fallback: boolean): boolean {
  if (typeof value === "boolean") return value;
  if (value === undefined || value.trim() === "") return fallback;
  return value === "1" || value.toLowerCase() === "true";
}

export function readConfig(env: ImportMetaEnv, runtime: SwitchboardRuntimeConfig | undefined): AppConfig {
  const apiBase = (runtime?.apiBase ?? env.VITE_API_BASE ?? DEFAULT_API_BASE).trim() || DEFAULT_API_BASE;
  const variant = (runtime?.variant ?? env.VITE_VARIANT) === "rcs" ? "rcs" : "full";
  return {
    apiBase: apiBase.replace(/\/+$/, ""),
    variant,
    internationalMode: flag(runtime?.international ?? env.VITE_INTERNATIONAL, false),
    agreeShow: flag(runtime?.agreeShow ?? env.VITE_AGREE_SHOW, true),
  };
}

export const config: AppConfig = readConfig(
  import.meta.env,
  typeof window === "undefined" ? undefined : window.__SWITCHBOARD_CONFIG__,
);
