/**
 * /app/search and /backend/search: the messages sent to one number across the batches the caller may see, as a
 * CPaaS console's search by number. Customers find their own; staff also see the customer and the channel, and a
 * super admin looking at every tenant the tenant. The number and product are kept in the URL; a row opens its
 * batch (customers: the task list's drawer; staff: the batch detail).
 */
import { RECIPIENT_SEARCH_MAX } from "@switchboard/contracts";
import { PRODUCT_SLUG, ProductCode, UserType } from "@switchboard/contracts/codes";
import { Alert, Button, Empty, Input, Select, Space, Table, type TableColumnsType, Tag, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { config } from "../../../lib/config";
import { formatNumber } from "../../../lib/format";
import { useSession } from "../../auth/context/session-context";
import { BatchStatusTag } from "../../batches/components/BatchStatusTag";
import { formatTime } from "../../batches/components/time";
import { receiveResultColor, sendResultColor } from "../../batches/status";
import { type RecipientSearchRow, useMessageSearch } from "../api";
import { type MessageSearchKey, messages } from "../messages";

type Filters = { number?: string; productCode?: string };

const PRODUCT_CODES: readonly number[] =
  config.variant === "rcs" ? [ProductCode.RCS] : [ProductCode.RCS, ProductCode.WS, ProductCode.SMS];

/** Where a row's batch opens for this reader. */
export function batchPath(row: Pick<RecipientSearchRow, "batchId" | "productCode">, staff: boolean): string {
  const slug = PRODUCT_SLUG[row.productCode as ProductCode] ?? "sms";
  return staff
    ? `/backend/${slug}/message/detail/${row.batchId}`
    : `/app/${slug}/message/task?batch=${encodeURIComponent(row.batchId)}`;
}

export default function MessageSearchPage() {
  const t = messages.useT();
  const navigate = useNavigate();
  const { user } = useSession();
  const staff = user.type !== UserType.USER;
  const url = useUrlFilters<Filters>(["number", "productCode"]);
  const [input, setInput] = useState(url.filters.number ?? "");
  const query = useMessageSearch(url.params);
  const result = query.data;
  const rows = result?.list ?? [];
  // The server names the tenant only to a super admin looking at every tenant.
  const acrossTenants = rows.some((r) => r.tenantName !== null);
  const open = (row: RecipientSearchRow) => navigate(batchPath(row, staff));

  const columns: TableColumnsType<RecipientSearchRow> = [
    { title: t("col.time"), dataIndex: "createdAt", key: "createdAt", render: (v: string) => formatTime(v) },
    {
      title: t("col.batch"),
      dataIndex: "batchId",
      key: "batchId",
      render: (id: string, row) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0 }}
          onClick={() => open(row)}
          data-testid={`search-open-${row.id}`}
        >
          {id}
        </Button>
      ),
    },
    ...(acrossTenants
      ? [{ title: t("col.tenant"), dataIndex: "tenantName", key: "tenantName", render: (v: string | null) => v ?? "-" }]
      : []),
    ...(staff ? [{ title: t("col.customer"), dataIndex: "user", key: "user" }] : []),
    {
      title: t("col.product"),
      key: "product",
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          <span>{row.productName || t(`product.${row.productCode}` as MessageSearchKey)}</span>
          {row.taskType === 1 && <Tag>{t("screening")}</Tag>}
        </Space>
      ),
    },
    {
      title: t("col.batchStatus"),
      dataIndex: "batchStatus",
      key: "batchStatus",
      render: (v: number) => <BatchStatusTag status={v} />,
    },
    {
      title: t("col.sendResult"),
      dataIndex: "sendResult",
      key: "sendResult",
      render: (v: number, row) => (
        <Space size={4} wrap>
          <Tag color={sendResultColor(v)}>{t(`sendResult.${v}` as MessageSearchKey)}</Tag>
          {row.fellBackToSms && <Tag color="orange">{t("fallback")}</Tag>}
        </Space>
      ),
    },
    {
      title: t("col.receiveResult"),
      dataIndex: "receiveResult",
      key: "receiveResult",
      render: (v: number) => <Tag color={receiveResultColor(v)}>{t(`receiveResult.${v}` as MessageSearchKey)}</Tag>,
    },
    { title: t("col.sentAt"), dataIndex: "sentAt", key: "sentAt", render: (v: string | null) => formatTime(v) },
    {
      title: t("col.receivedAt"),
      dataIndex: "receivedAt",
      key: "receivedAt",
      render: (v: string | null) => formatTime(v),
    },
    { title: t("col.readAt"), dataIndex: "readAt", key: "readAt", render: (v: string | null) => formatTime(v) },
    { title: t("col.errorCode"), dataIndex: "errorCode", key: "errorCode", render: (v: string | null) => v ?? "-" },
    ...(staff
      ? [
          {
            title: t("col.channel"),
            dataIndex: "channelName",
            key: "channel",
            render: (name: string | null, row: RecipientSearchRow) =>
              name ?? (row.channelId !== null ? `#${row.channelId}` : "-"),
          },
        ]
      : []),
    {
      title: "",
      key: "actions",
      fixed: "right",
      render: (_: unknown, row) => (
        <Button type="link" size="small" onClick={() => open(row)}>
          {t("action.open")}
        </Button>
      ),
    },
  ];

  const searched = url.filters.number;
  return (
    <PageContainer>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          enterButton={t("search.submit")}
          value={input}
          onChange={(e) => setInput(e.target.value)}
          onSearch={(v) => url.setFilters({ number: v.trim() || undefined })}
          placeholder={t("search.numberPlaceholder")}
          aria-label={t("search.number")}
          maxLength={32}
          style={{ width: 340 }}
          data-testid="search-number"
        />
        <Select<string>
          allowClear
          value={url.filters.productCode}
          onChange={(v) => url.setFilters({ productCode: v ?? undefined })}
          placeholder={t("search.allProducts")}
          aria-label={t("search.product")}
          style={{ width: 160 }}
          options={PRODUCT_CODES.map((code) => ({
            value: String(code),
            label: t(`product.${code}` as MessageSearchKey),
          }))}
          data-testid="search-product"
        />
      </Space>
      {!searched ? (
        <Empty description={t("search.hint")} data-testid="search-hint" />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : (
        <>
          {result && (
            <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }}>
              {t("search.searched", { number: result.e164 })}
            </Typography.Text>
          )}
          {result?.capped && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              title={t("search.capped", { max: formatNumber(RECIPIENT_SEARCH_MAX) })}
              data-testid="search-capped"
            />
          )}
          <Table<RecipientSearchRow>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={rows}
            loading={query.isFetching}
            scroll={{ x: "max-content" }}
            data-testid="search-table"
            onRow={(row) => ({ onDoubleClick: () => open(row) })}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t("search.empty", { number: result?.e164 ?? searched })}
                />
              ),
            }}
            pagination={{
              current: url.page,
              pageSize: url.pageSize,
              total: result?.total ?? 0,
              showSizeChanger: true,
              showTotal: (total) => t("search.total", { total: formatNumber(total) }),
              onChange: (page, size) => url.setPage(size !== url.pageSize ? 1 : page, size),
            }}
          />
        </>
      )}
    </PageContainer>
  );
}
