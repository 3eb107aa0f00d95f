import type { BalanceLogRow } from "@switchboard/contracts";
import type { TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { ListToolbar, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useCurrentRoute } from "../../../routes/route-context";
import { useRechargeRecords } from "../api";
import { baseColumns, RecordsTable } from "../components/columns";
import { DateRangeFilter, dateRangeParams } from "../components/DateRangeFilter";
import { messages } from "../messages";

type Filters = { from?: string; to?: string; keyword?: string };

/**
 * /app/finance/recharge/{add|deduct} and /user/balance/recharge: the customer's credits by staff, or its deducts
 * (route meta `type`); `extra` is the page's own action (the portal's way to recharge).
 */
export default function RechargeRecordsPage({ extra }: { extra?: ReactNode } = {}) {
  const t = messages.useT();
  const type = useCurrentRoute().node.meta?.type === "deduct" ? "deduct" : "add";
  const list = useListFilters<Filters>(["from", "to", "keyword"]);
  const { filters, page, pageSize, setFilters } = list;
  const query = useRechargeRecords({ type, page, pageSize, keyword: filters.keyword, ...dateRangeParams(filters) });
  const columns: TableColumnsType<BalanceLogRow> = [
    ...baseColumns<BalanceLogRow>(t),
    { title: t("col.operator"), dataIndex: "operator", key: "operator", render: (v) => v ?? t("system") },
    { title: t("col.remark"), dataIndex: "remark", key: "remark", render: (v) => v ?? "-" },
  ];

  return (
    <PageContainer extra={extra}>
      <ListToolbar>
        <DateRangeFilter from={filters.from} to={filters.to} onChange={(r) => setFilters(r)} />
        <SearchBox
          search={list.search}
          placeholder={t("filter.keyword")}
          maxLength={64}
          width={240}
          testId="filter-keyword"
        />
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <RecordsTable query={query} paging={list} columns={columns} testId="recharge-records" />
    </PageContainer>
  );
}
