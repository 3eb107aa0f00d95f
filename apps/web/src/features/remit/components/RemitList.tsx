import type { RemittanceRow } from "@switchboard/contracts";
import { RemittanceStatus } from "@switchboard/contracts/codes";
import { Select, Space, Table, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { LoadError } from "../../../components/LoadError";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney, formatNumber } from "../../../lib/format";
import { useRemitList } from "../api";
import { messages } from "../messages";

const STATUS_COLORS: Record<number, string> = { 1: "processing", 2: "success", 3: "error" };
const time = (v: string | null) => (v ? dayjs(v).format("YYYY-MM-DD HH:mm") : "-");

/** The customer's own remittances (GET /finance/remit/list), filter by status in the URL. */
export function RemitList() {
  const t = messages.useT();
  const { filters, page, pageSize, setFilters, setPage, params } = useUrlFilters<{ status?: string }>(["status"]);
  const query = useRemitList(params);
  const statusLabel = (s: number) => (s >= 1 && s <= 3 ? t(`status.${s as 1 | 2 | 3}`) : String(s));

  return (
    <section aria-labelledby="remit-list-title">
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 12 }} wrap>
        <Typography.Title id="remit-list-title" level={5} style={{ margin: 0 }}>
          {t("list.title")}
        </Typography.Title>
        <Select
          aria-label={t("list.status")}
          style={{ width: 160 }}
          value={filters.status ?? ""}
          onChange={(v: string) => setFilters({ status: v || undefined })}
          options={[
            { label: t("list.allStatuses"), value: "" },
            ...Object.values(RemittanceStatus).map((s) => ({ label: statusLabel(s), value: String(s) })),
          ]}
          data-testid="remit-status-filter"
        />
      </Space>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Table<RemittanceRow>
          data-testid="remit-list"
          size="small"
          rowKey="id"
          loading={query.isFetching}
          dataSource={query.data?.list ?? []}
          locale={{ emptyText: t("list.empty") }}
          scroll={{ x: 900 }}
          pagination={{
            current: page,
            pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            onChange: setPage,
          }}
          columns={[
            { title: t("list.createdAt"), dataIndex: "createdAt", key: "createdAt", render: time },
            {
              title: t("list.amount"),
              dataIndex: "amount",
              key: "amount",
              align: "right",
              render: (v: string) => formatMoney(v),
            },
            { title: t("list.payer"), dataIndex: "payer", key: "payer" },
            { title: t("list.reference"), dataIndex: "reference", key: "reference", render: (v) => v ?? "-" },
            { title: t("list.remark"), dataIndex: "remark", key: "remark", render: (v) => v ?? "-" },
            {
              title: t("list.proof"),
              dataIndex: "hasProof",
              key: "hasProof",
              render: (v: boolean) => (v ? t("list.hasProof") : t("list.noProof")),
            },
            {
              title: t("list.status"),
              dataIndex: "status",
              key: "status",
              render: (s: number, r) => (
                <Space orientation="vertical" size={0}>
                  <Tag color={STATUS_COLORS[s]} data-testid="remit-row-status">
                    {statusLabel(s)}
                  </Tag>
                  {r.reason && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t("list.reason")}: {r.reason}
                    </Typography.Text>
                  )}
                </Space>
              ),
            },
            { title: t("list.reviewedAt"), dataIndex: "reviewedAt", key: "reviewedAt", render: time },
          ]}
          summary={() =>
            query.data && query.data.total > 0 ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>
                  {t("list.total", { count: formatNumber(query.data.total) })}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  <span data-testid="remit-total">{formatMoney(query.data.totalAmount)}</span>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} colSpan={6} />
              </Table.Summary.Row>
            ) : null
          }
        />
      )}
    </section>
  );
}
