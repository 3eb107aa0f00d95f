/**
 * International versus domestic mode (DOMAIN.md "Language and modes"), decided by the TENANT's setting
 * (TenantSetting.international), which reaches the client with the website config (GET /website/config,
 * `international`). The website feature records it here with `setTenantInternational`; it then drives the
 * international flag sent with every request and the customer menu (the notice entry is domestic only).
 *
 * Until the tenant's mode is known (or when no tenant is known), the build-time switch decides as before:
 * off = domestic and no flag sent; on = the stored flag, "1" by default.
 */
import { useSyncExternalStore } from "react";
import { type AppConfig, config } from "./config";
import { type AppStorage, storage } from "./storage";

let tenantMode: boolean | null = null;
const listeners = new Set<() => void>();

/** The tenant's mode as last reported by the server: true international, false domestic, null unknown. */
export function getTenantInternational(): boolean | null {
  return tenantMode;
}

/**
 * Records the tenant's mode (undefined/null: the server knows no tenant, the build-time switch decides). A
 * known mode is also kept in local storage as the international flag (spec section 9).
 */
export function setTenantInternational(
  international: boolean | null | undefined,
  store: Pick<AppStorage, "setInternational"> = storage,
): void {
  const next = international ?? null;
  if (next !== null) store.setInternational(next);
  if (next === tenantMode) return;
  tenantMode = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The international flag sent with every request: the tenant's mode when known; otherwise null (nothing sent,
 * domestic) when the deployment has no international mode, else the stored flag ("1" by default).
 */
export function internationalFlag(
  cfg: Pick<AppConfig, "internationalMode"> = config,
  store: Pick<AppStorage, "getInternational"> = storage,
  tenant: boolean | null = tenantMode,
): "1" | "0" | null {
  if (tenant !== null) return tenant ? "1" : "0";
  if (!cfg.internationalMode) return null;
  return store.getInternational() ?? "1";
}

/** Domestic mode: the customer menu then shows the notice entry. */
export function isDomesticMode(
  cfg: Pick<AppConfig, "internationalMode"> = config,
  store: Pick<AppStorage, "getInternational"> = storage,
  tenant: boolean | null = tenantMode,
): boolean {
  return internationalFlag(cfg, store, tenant) !== "1";
}

/** isDomesticMode() that re-renders when the tenant's mode arrives or changes. */
export function useDomesticMode(): boolean {
  const tenant = useSyncExternalStore(subscribe, getTenantInternational, getTenantInternational);
  return isDomesticMode(config, storage, tenant);
}
