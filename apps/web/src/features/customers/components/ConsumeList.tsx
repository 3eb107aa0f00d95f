import { ProductCode, UserType } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Form, Input, Select } from "antd";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney } from "../../../lib/format";
import { type ConsumeList as ConsumePage, customerKeys, listConsume } from "../api";
import { messages } from "../messages";
import { FilterForm, ListView } from "./ListView";
import { codeLabel, formatTime, PRODUCT_NAMES, SignedMoney } from "./labels";
import { UserPicker } from "./UserPicker";

type Filters = {
  productCode?: string;
  userId?: string;
  agentId?: string;
  batchId?: string;
  from?: string;
  to?: string;
};
type ConsumeRow = ConsumePage["list"][number];

/**
 * Consume and refund rows of message batches (GET /finance/consume/list) by product, with the signed amount
 * total. Admins see the tenant's (and may filter by agent), agents their customers' (customer/consume and the
 * agent's finance/consume).
 */
export function ConsumeList({ showAgentFilter }: { showAgentFilter: boolean }) {
  const t = messages.useT();
  const filters = useUrlFilters<Filters>(["productCode", "userId", "agentId", "batchId", "from", "to"]);
  const query = useQuery({
    queryKey: customerKeys.consume(filters.params),
    queryFn: ({ signal }) => listConsume(filters.params, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        withRange
        testId="consume-filters"
      >
        <Form.Item name="productCode" label={t("rec.product")}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t("common.all")}
            options={Object.values(ProductCode).map((v) => ({ value: String(v), label: PRODUCT_NAMES[v] }))}
          />
        </Form.Item>
        <Form.Item name="userId" label={t("common.customer")}>
          <UserPicker type={UserType.USER} />
        </Form.Item>
        {showAgentFilter && (
          <Form.Item name="agentId" label={t("common.agent")}>
            <UserPicker type={UserType.AGENT} />
          </Form.Item>
        )}
        <Form.Item
          name="batchId"
          label={t("rec.batch")}
          rules={[{ pattern: /^\d{1,19}$/, message: t("rec.batchInvalid") }]}
        >
          <Input allowClear style={{ width: 140 }} inputMode="numeric" />
        </Form.Item>
      </FilterForm>
      <ListView<ConsumeRow>
        query={query}
        filters={filters}
        testId="consume-table"
        rowKey={(r) => r.id}
        columns={[
          { title: t("rec.id"), dataIndex: "id" },
          { title: t("rec.user"), dataIndex: "user" },
          {
            title: t("rec.product"),
            dataIndex: "productCode",
            render: (v: number | null) => (v === null ? "-" : (PRODUCT_NAMES[v] ?? String(v))),
          },
          { title: t("rec.batch"), dataIndex: "batchId", render: (v: string | null) => v ?? "-" },
          { title: t("rec.type"), dataIndex: "type", render: (v: number) => codeLabel(t, "logType", v) },
          {
            title: t("rec.amount"),
            dataIndex: "amount",
            align: "right",
            render: (v: string) => <SignedMoney value={v} />,
          },
          {
            title: t("rec.balanceAfter"),
            dataIndex: "balanceAfter",
            align: "right",
            render: (v: string) => formatMoney(v),
          },
          { title: t("rec.remark"), dataIndex: "remark", render: (v: string | null) => v ?? "-" },
          { title: t("rec.time"), dataIndex: "createdAt", render: formatTime },
        ]}
      />
    </>
  );
}
