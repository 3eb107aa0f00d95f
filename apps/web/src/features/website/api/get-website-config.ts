import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api";

/** GET /website/config: branding of the host's tenant or agent. Logo URLs are absolute. */
export interface WebsiteConfig {
  title: string | null;
  logo: string | null;
  logoSmall: string | null;
  description: string | null;
  agentId: number | string | null;
  tenantId: number | string | null;
}

export function getWebsiteConfig(signal?: AbortSignal): Promise<WebsiteConfig | null> {
  return api.get<WebsiteConfig | null>("/website/config", { signal });
}

export function websiteConfigQueryOptions() {
  return queryOptions({
    queryKey: ["website", "config"],
    queryFn: ({ signal }) => getWebsiteConfig(signal),
    staleTime: 10 * 60_000,
  });
}

export function useWebsiteConfig() {
  return useQuery(websiteConfigQueryOptions());
}
