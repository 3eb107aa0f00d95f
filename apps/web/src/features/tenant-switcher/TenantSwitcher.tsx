import type { TenantRow } from "@switchboard/contracts";
import { useQuery } from "@tanstack/react-query";
import { Select } from "antd";
import { useEffect } from "react";
import { api } from "../../lib/api";
import { UserType } from "../../lib/user-type";
import { useSession } from "../auth/context/session-context";
import { messages } from "./messages";
import { tenantSwitcherKeys, useSwitchWorkingTenant, useWorkingTenant } from "./working-tenant";

/** The Select's value for "all tenants" (no working tenant); tenant ids are positive. */
const ALL = 0;

const listTenants = (signal?: AbortSignal) => api.getList<TenantRow>("/user/tenant", { signal });

/**
 * Top-bar switcher of a super admin's working tenant (nothing for other users): every page of the back
 * office then acts in that tenant, "all tenants" in none.
 */
export function TenantSwitcher() {
  const { user } = useSession();
  if (user.type !== UserType.SUPER_ADMIN) return null;
  return <SuperAdminTenantSwitcher />;
}

function SuperAdminTenantSwitcher() {
  const t = messages.useT();
  const working = useWorkingTenant();
  const switchTenant = useSwitchWorkingTenant();
  const tenants = useQuery({ queryKey: tenantSwitcherKeys.tenants, queryFn: ({ signal }) => listTenants(signal) });
  const list = tenants.data?.list;

  // A working tenant that no longer exists (or came from another account): back to all tenants.
  useEffect(() => {
    if (list && working !== undefined && !list.some((x) => x.id === working)) void switchTenant(undefined);
  }, [list, working, switchTenant]);

  return (
    <Select<number>
      data-testid="tenant-switcher"
      aria-label={t("switcher.label")}
      title={tenants.isError ? t("switcher.loadFailed") : t("switcher.label")}
      status={tenants.isError ? "error" : undefined}
      style={{ minWidth: 200, marginLeft: "auto" }}
      popupMatchSelectWidth={false}
      showSearch={{ optionFilterProp: "label" }}
      loading={tenants.isFetching}
      // Until the list is here, a chosen id would show as a bare number.
      value={list ? (working ?? ALL) : undefined}
      placeholder={tenants.isError ? t("switcher.loadFailed") : t("switcher.label")}
      onOpenChange={(open) => {
        if (open && (tenants.isError || tenants.isStale)) void tenants.refetch();
      }}
      onChange={(id) => void switchTenant(id === ALL ? undefined : id)}
      options={[
        { value: ALL, label: t("switcher.all") },
        ...(list ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.code})` })),
      ]}
    />
  );
}
