/**
 * A super admin's working tenant: the tenant the back office acts in (lib/api.ts sends it as the tenant-id
 * header). Kept in lib/storage.ts; this module makes it reactive and switches it.
 */
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { storage } from "../../lib/storage";
import { authKeys } from "../auth/api/get-user-info";
import { websiteKeys } from "../website/api/get-website-config";

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab switched (or logged out): follow it.
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === "switchboard.workingTenantId") listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function parse(raw: string | null): number | undefined {
  const id = Number(raw);
  return raw !== null && Number.isInteger(id) && id > 0 ? id : undefined;
}

/** The stored working tenant id (undefined = all tenants). */
export function getWorkingTenant(): number | undefined {
  return parse(storage.getWorkingTenantId());
}

/** The working tenant, re-rendering when it changes. */
export function useWorkingTenant(): number | undefined {
  return useSyncExternalStore(subscribe, getWorkingTenant, getWorkingTenant);
}

export const tenantSwitcherKeys = {
  all: ["tenantSwitcher"] as const,
  tenants: ["tenantSwitcher", "tenants"] as const,
};

/** Answers that do not depend on the working tenant: who is signed in, the site, the tenant list itself. */
function keptOnSwitch(key: readonly unknown[]): boolean {
  if (key[0] === websiteKeys.all[0] || key[0] === tenantSwitcherKeys.all[0]) return true;
  return key.length === authKeys.userInfo.length && authKeys.userInfo.every((part, i) => key[i] === part);
}

/**
 * Stores the new working tenant, then drops every cached answer of the previous one: pages on screen load
 * again (for the new tenant), others load when they are opened.
 */
export async function switchWorkingTenant(queryClient: QueryClient, tenantId: number | undefined): Promise<void> {
  if (tenantId === getWorkingTenant()) return;
  storage.setWorkingTenantId(tenantId ?? null);
  for (const listener of listeners) listener();
  await queryClient.resetQueries({ predicate: (query) => !keptOnSwitch(query.queryKey) });
}

/** `switchWorkingTenant` bound to the app's query client. */
export function useSwitchWorkingTenant(): (tenantId: number | undefined) => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback((tenantId) => switchWorkingTenant(queryClient, tenantId), [queryClient]);
}
