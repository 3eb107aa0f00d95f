import { useQuery } from "@tanstack/react-query";
import { Empty, Select, Space, Typography } from "antd";
import { useCallback } from "react";
import { useSearchParams } from "react-router-dom";
import { UserType } from "../../../lib/user-type";
import { useSession } from "../../auth/context/session-context";
import { listTenants, settingsKeys, type TenantParam } from "../api";
import { messages } from "../messages";

export interface TenantScope {
  /** The signed-in user is a super admin (who must choose the tenant). */
  isSuper: boolean;
  /** The tenant the calls name: undefined for admins (their own) and for a super admin who chose none yet. */
  tenantId: TenantParam;
  /** A super admin has not chosen a tenant yet: show `picker` and nothing else. */
  missing: boolean;
  picker: React.ReactNode;
}

/** Settings pages act in the admin's own tenant; a super admin picks one (kept in the URL as ?tenantId=). */
export function useTenantScope(): TenantScope {
  const { user } = useSession();
  const isSuper = user.type === UserType.SUPER_ADMIN;
  const [search, setSearch] = useSearchParams();
  const raw = Number(search.get("tenantId"));
  const tenantId = isSuper && Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const choose = useCallback(
    (id: number | undefined) =>
      setSearch((prev) => {
        const out = new URLSearchParams(prev);
        if (id === undefined) out.delete("tenantId");
        else out.set("tenantId", String(id));
        out.delete("page");
        return out;
      }),
    [setSearch],
  );
  return {
    isSuper,
    tenantId,
    missing: isSuper && tenantId === undefined,
    picker: isSuper ? <TenantPicker value={tenantId} onChange={choose} /> : null,
  };
}

function TenantPicker({ value, onChange }: { value: TenantParam; onChange: (id: number | undefined) => void }) {
  const t = messages.useT();
  const tenants = useQuery({ queryKey: settingsKeys.tenants, queryFn: ({ signal }) => listTenants(signal) });
  return (
    <Space>
      <Typography.Text>{t("tenant.label")}</Typography.Text>
      <Select
        data-testid="tenant-picker"
        aria-label={t("tenant.label")}
        style={{ minWidth: 220 }}
        placeholder={t("tenant.choose")}
        loading={tenants.isLoading}
        value={value}
        allowClear
        onChange={(v) => onChange(v ?? undefined)}
        options={(tenants.data?.list ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.code})` }))}
      />
    </Space>
  );
}

export function ChooseTenant() {
  const t = messages.useT();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("tenant.choose")} />;
}
