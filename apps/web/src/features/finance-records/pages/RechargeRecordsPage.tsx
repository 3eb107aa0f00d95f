import type { BalanceLogList, BalanceLogRow } from "@switchboard/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Input, Space, Table } from "antd";
import { type ReactNode, useEffect, useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { api } from "../../../lib/api";
import { formatNumber } from "../../../lib/format";
import { useCurrentRoute } from "../../../routes/route-context";
import { baseColumns, SignedAmount } from "../components/columns";
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
  const { filters, page, pageSize, setFilters, setPage, reset } = useUrlFilters<Filters>(["from", "to", "keyword"]);
  const [keyword, setKeyword] = useState(filters.keyword ?? "");
  useEffect(() => setKeyword(filters.keyword ?? ""), [filters.keyword]);

  const params = { type, page, pageSize, keyword: filters.keyword, ...dateRangeParams(filters) };
  const query = useQuery({
    queryKey: ["finance-records", "recharge", params],
    queryFn: ({ signal }) => api.get<BalanceLogList>("/finance/recharge/list", { signal, params }),
    placeholderData: keepPreviousData,
  });

  return (
    <PageContainer extra={extra}>
      <Space wrap style={{ marginBottom: 16 }}>
        <DateRangeFilter from={filters.from} to={filters.to} onChange={(r) => setFilters(r)} />
        <Input.Search
          aria-label={t("filter.keyword")}
          placeholder={t("filter.keyword")}
          value={keyword}
          maxLength={64}
          allowClear
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilters({ keyword: v.trim() || undefined })}
          style={{ width: 240 }}
          data-testid="filter-keyword"
        />
        <Button onClick={reset}>{t("filter.reset")}</Button>
      </Space>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Table<BalanceLogRow>
          data-testid="recharge-records"
          size="small"
          rowKey="id"
          loading={query.isFetching}
          dataSource={query.data?.list ?? []}
          locale={{ emptyText: t("empty") }}
          scroll={{ x: 800 }}
          pagination={{ current: page, pageSize, total: query.data?.total ?? 0, onChange: setPage }}
          columns={[
            ...baseColumns<BalanceLogRow>(t),
            { title: t("col.operator"), dataIndex: "operator", key: "operator", render: (v) => v ?? t("system") },
            { title: t("col.remark"), dataIndex: "remark", key: "remark", render: (v) => v ?? "-" },
          ]}
          summary={() =>
            query.data && query.data.total > 0 ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={2}>
                  {t("total", { count: formatNumber(query.data.total) })}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  <span data-testid="records-total">
                    <SignedAmount value={query.data.totalAmount} />
                  </span>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} colSpan={3} />
              </Table.Summary.Row>
            ) : null
          }
        />
      )}
    </PageContainer>
  );
}
