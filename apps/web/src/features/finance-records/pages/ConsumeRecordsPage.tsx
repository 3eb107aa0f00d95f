import type { ConsumeList } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Form, Select, type TableColumnsType } from "antd";
import { ListToolbar, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { productLabel } from "../../dashboard/format";
import { useConsumeRecords } from "../api";
import { baseColumns, RecordsTable } from "../components/columns";
import { DateRangeFilter, dateRangeParams } from "../components/DateRangeFilter";
import { messages } from "../messages";

type Row = ConsumeList["list"][number];
type Filters = { from?: string; to?: string; productCode?: string; batchId?: string };

/** Empty (no filter) or a batch id: 1 to 19 digits. */
const isBatchId = (text: string) => text.trim() === "" || /^\d{1,19}$/.test(text.trim());

/**
 * /app/finance/consume/customer: what the customer's batches cost and gave back, by product. The RCS portal
 * (/user/balance/consume) fixes the product to RCS.
 */
export default function ConsumeRecordsPage({ productCode: fixedProduct }: { productCode?: ProductCode } = {}) {
  const t = messages.useT();
  const list = useListFilters<Filters>(["from", "to", "productCode", "batchId"], { searchKey: "batchId" });
  const { filters, page, pageSize, setFilters } = list;
  const batchIdValid = isBatchId(list.search.value);
  const query = useConsumeRecords({
    page,
    pageSize,
    productCode: fixedProduct ?? filters.productCode,
    batchId: filters.batchId && isBatchId(filters.batchId) ? filters.batchId : undefined,
    ...dateRangeParams(filters),
  });
  const columns: TableColumnsType<Row> = [
    ...baseColumns<Row>(t),
    {
      title: t("col.product"),
      dataIndex: "productCode",
      key: "productCode",
      render: (v: number | null) => (v === null ? "-" : productLabel(v)),
    },
    { title: t("col.batchId"), dataIndex: "batchId", key: "batchId", render: (v) => v ?? "-" },
    { title: t("col.remark"), dataIndex: "remark", key: "remark", render: (v) => v ?? "-" },
  ];

  return (
    <PageContainer>
      <ListToolbar align="start">
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
          <SearchBox
            search={{ ...list.search, onSearch: (v) => isBatchId(v) && list.search.onSearch(v) }}
            placeholder={t("filter.batchId")}
            maxLength={19}
            inputMode="numeric"
            width={220}
            testId="filter-batch"
          />
        </Form.Item>
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <RecordsTable query={query} paging={list} columns={columns} testId="consume-records" />
    </PageContainer>
  );
}
