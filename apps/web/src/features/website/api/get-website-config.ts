import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { setTenantInternational } from "../../../lib/international";

/** GET /website/config: branding of the host's tenant or agent. Logo URLs are absolute. */
export interface WebsiteConfig {
  title: string | null;
  logo: string | null;
  logoSmall: string | null;
  description: string | null;
  agentId: number | string | null;
  tenantId: number | string | null;
  /** The tenant's mode (true international, false domestic); absent when the server knows no tenant. */
  international?: boolean;
  /** Tracked links: the characters each `{{link:...}}` takes in an SMS as sent (the composer's counter). */
  shortLinkLength?: number;
}

/** Also records the tenant's mode, which drives the international flag and the notice menu (lib/international). */
export async function getWebsiteConfig(signal?: AbortSignal): Promise<WebsiteConfig | null> {
  const cfg = await api.get<WebsiteConfig | null>("/website/config", { signal });
  setTenantInternational(cfg?.international);
  return cfg;
}

/** The site's own answers: kept across login, logout and a tenant switch. */
export const websiteKeys = {
  all: ["website"] as const,
  config: ["website", "config"] as const,
};

export function websiteConfigQueryOptions() {
  return queryOptions({
    queryKey: websiteKeys.config,
    queryFn: ({ signal }) => getWebsiteConfig(signal),
    staleTime: 10 * 60_000,
  });
}

export function useWebsiteConfig() {
  return useQuery(websiteConfigQueryOptions());
}
