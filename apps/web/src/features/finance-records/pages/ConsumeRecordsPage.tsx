import type { ConsumeList } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Form, Input, Select, Space, Table } from "antd";
import { useEffect, useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { api } from "../../../lib/api";
import { formatNumber } from "../../../lib/format";
import { productLabel } from "../../dashboard/format";
import { baseColumns, SignedAmount } from "../components/columns";
import { DateRangeFilter, dateRangeParams } from "../components/DateRangeFilter";
import { messages } from "../messages";

type Row = ConsumeList["list"][number];
type Filters = { from?: string; to?: string; productCode?: string; batchId?: string };

/**
 * /app/finance/consume/customer: what the customer's batches cost and gave back, by product. The RCS portal
 * (/user/balance/consume) fixes the product to RCS.
 */
export default function ConsumeRecordsPage({ productCode: fixedProduct }: { productCode?: ProductCode } = {}) {
  const t = messages.useT();
  const { filters, page, pageSize, setFilters, setPage, reset } = useUrlFilters<Filters>([
    "from",
    "to",
    "productCode",
    "batchId",
  ]);
  const [batchId, setBatchId] = useState(filters.batchId ?? "");
  useEffect(() => setBatchId(filters.batchId ?? ""), [filters.batchId]);
  const batchIdValid = batchId.trim() === "" || /^\d{1,19}$/.test(batchId.trim());

  const params = {
    page,
    pageSize,
    productCode: fixedProduct ?? filters.productCode,
    batchId: filters.batchId && /^\d{1,19}$/.test(filters.batchId) ? filters.batchId : undefined,
    ...dateRangeParams(filters),
  };
  const query = useQuery({
    queryKey: ["finance-records", "consume", params],
    queryFn: ({ signal }) => api.get<ConsumeList>("/finance/consume/list", { signal, params }),
    placeholderData: keepPreviousData,
  });

  return (
    <PageContainer>
      <Space wrap style={{ marginBottom: 16 }} align="start">
        <DateRangeFilter from={filters.from} to={filters.to} onChange={(r) => setFilters(r)} />
        {fixedProduct === undefined && (
          <Select
            aria-label={t("filter.product")}
            style={{ width: 140 }}
            value={filters.productCode ?? ""}
            onChange={(v: string) => setFilters({ productCode: v || undefined })}
            options={[
              { label: t("filter.allProducts"), value: "" },
              ...Object.values(ProductCode).map((c) => ({ label: productLabel(c), value: String(c) })),
            ]}
            data-testid="filter-product"
          />
        )}
        <Form.Item
          style={{ marginBottom: 0 }}
          validateStatus={batchIdValid ? undefined : "error"}
          help={batchIdValid ? undefined : t("rule.batchId")}
        >
          <Input.Search
            aria-label={t("filter.batchId")}
            placeholder={t("filter.batchId")}
            value={batchId}
            maxLength={19}
            allowClear
            inputMode="numeric"
            onChange={(e) => setBatchId(e.target.value)}
            onSearch={(v) => {
              if (v.trim() === "" || /^\d{1,19}$/.test(v.trim())) setFilters({ batchId: v.trim() || undefined });
            }}
            style={{ width: 220 }}
            data-testid="filter-batch"
          />
        </Form.Item>
        <Button onClick={reset}>{t("filter.reset")}</Button>
      </Space>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Table<Row>
          data-testid="consume-records"
          size="small"
          rowKey="id"
          loading={query.isFetching}
          dataSource={query.data?.list ?? []}
          locale={{ emptyText: t("empty") }}
          scroll={{ x: 800 }}
          pagination={{ current: page, pageSize, total: query.data?.total ?? 0, onChange: setPage }}
          columns={[
            ...baseColumns<Row>(t),
            {
              title: t("col.product"),
              dataIndex: "productCode",
              key: "productCode",
              render: (v: number | null) => (v === null ? "-" : productLabel(v)),
            },
            { title: t("col.batchId"), dataIndex: "batchId", key: "batchId", render: (v) => v ?? "-" },
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
                <Table.Summary.Cell index={3} colSpan={4} />
              </Table.Summary.Row>
            ) : null
          }
        />
      )}
    </PageContainer>
  );
}
