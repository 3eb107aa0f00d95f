import type { TableColumnType } from "antd";
import { useT } from "../lib/i18n";

/** A row of a list a super admin reads across every tenant: the API names its tenant then, and only then. */
interface AcrossTenantsRow {
  tenantName?: string | null;
}

const named = (row: object) => typeof (row as AcrossTenantsRow).tenantName === "string";

/**
 * The tenant column of a back-office list, to put first: present when the rows name their tenant (a super admin
 * looking at every tenant, no tenant chosen), absent otherwise (a tenant chosen, or anybody else).
 */
export function useTenantColumn<T extends object>(rows: readonly T[] | undefined): TableColumnType<T>[] {
  const t = useT();
  if (!rows?.some(named)) return [];
  return [
    {
      key: "tenantName",
      title: t("common.tenant"),
      dataIndex: "tenantName",
      render: (name: string | null | undefined) => name ?? "-",
    },
  ];
}
