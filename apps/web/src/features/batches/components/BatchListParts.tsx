import { SyncOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, DatePicker, Flex, Form, Input, Select, Space, Table, type TableColumnsType, Typography } from "antd";
import dayjs from "dayjs";
import { type ReactNode, useMemo } from "react";
import { Link } from "react-router-dom";
import { useColumnChoice } from "../../../components/ColumnChooser";
import { ResetButton } from "../../../components/ListPage";
import { LoadError } from "../../../components/LoadError";
import { useTenantColumn } from "../../../components/tenant-column";
import { type ListFilters, useListFilters } from "../../../hooks/use-list-filters";
import type { UrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney, formatNumber } from "../../../lib/format";
import { type BatchRow, batchKeys, fetchBatchList, type ListParams } from "../api";
import type { BatchActions } from "../hooks/use-batch-actions";
import { type BatchMessageKey, messages } from "../messages";
import { BATCH_STATUS_CODES, canCancel, liveInterval } from "../status";
import { BatchProgress } from "./BatchProgress";
import { BatchStatusTag } from "./BatchStatusTag";
import { CustomerSelect } from "./CustomerSelect";
import { formatTime } from "./time";

/** Filters a batch list keeps in its URL: dates as YYYY-MM-DD, sent to the API as the day's bounds. */
export type BatchUrlFilters = {
  status?: string;
  from?: string;
  to?: string;
  keyword?: string;
  userId?: string;
};

export const BATCH_FILTER_KEYS = ["status", "from", "to", "keyword", "userId"] as const;

/** A batch id as typed in the keyword box: digits only, at most 19. */
const batchIdText = (text: string) => text.replace(/\D/g, "").slice(0, 19);

/** A batch list's URL filters (the given keys) and its batch-id search box. */
export const useBatchListFilters = (keys: readonly (keyof BatchUrlFilters & string)[]) =>
  useListFilters<BatchUrlFilters>(keys, { clean: batchIdText });

/** The list call's params: the URL's filters and page plus the route's fixed ones (product, filterType). */
export function listParams(url: UrlFilters<BatchUrlFilters>, fixed: ListParams): ListParams {
  const out: ListParams = { ...url.params, ...fixed };
  const from = url.filters.from ? dayjs(url.filters.from) : null;
  const to = url.filters.to ? dayjs(url.filters.to) : null;
  delete out.from;
  delete out.to;
  if (from?.isValid()) out.from = from.startOf("day").toISOString();
  if (to?.isValid()) out.to = to.endOf("day").toISOString();
  return out;
}

/** A batch list that refreshes itself (every 2 s) only while one of its rows is moving. */
export function useBatchList(params: ListParams) {
  return useQuery({
    queryKey: batchKeys.list(params),
    queryFn: ({ signal }) => fetchBatchList(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => liveInterval(q.state.data?.list),
    staleTime: 0,
  });
}

/** Status (unless the route fixes it), date range, batch id and, for staff, the customer. */
export function BatchFilters({
  url,
  showStatus,
  showCustomer,
}: {
  url: ListFilters<BatchUrlFilters>;
  showStatus: boolean;
  showCustomer: boolean;
}) {
  const t = messages.useT();
  const range = useMemo(
    () =>
      [url.filters.from ? dayjs(url.filters.from) : null, url.filters.to ? dayjs(url.filters.to) : null] as [
        dayjs.Dayjs | null,
        dayjs.Dayjs | null,
      ],
    [url.filters.from, url.filters.to],
  );
  return (
    <Form
      layout="inline"
      style={{ marginBottom: 16, rowGap: 8 }}
      onFinish={() => url.search.onSearch(url.search.value)}
    >
      {showStatus && (
        <Form.Item label={t("filter.status")}>
          <Select<string>
            allowClear
            style={{ width: 140 }}
            value={url.filters.status}
            onChange={(v) => url.setFilters({ status: v ?? undefined })}
            options={BATCH_STATUS_CODES.map((c) => ({ value: String(c), label: t(`status.${c}` as BatchMessageKey) }))}
            aria-label={t("filter.status")}
            data-testid="filter-status"
          />
        </Form.Item>
      )}
      <Form.Item label={t("filter.dateRange")}>
        <DatePicker.RangePicker
          value={range}
          allowEmpty={[true, true]}
          onChange={(v) => url.setFilters({ from: v?.[0]?.format("YYYY-MM-DD"), to: v?.[1]?.format("YYYY-MM-DD") })}
          data-testid="filter-dates"
        />
      </Form.Item>
      {showCustomer && (
        <Form.Item label={t("filter.customer")}>
          <CustomerSelect
            value={url.filters.userId}
            onChange={(v) => url.setFilters({ userId: v })}
            placeholder={t("filter.customerPlaceholder")}
            label={t("filter.customer")}
            width={200}
            testId="filter-customer"
          />
        </Form.Item>
      )}
      <Form.Item label={t("filter.keyword")}>
        <Input
          allowClear
          value={url.search.value}
          onChange={url.search.onChange}
          placeholder={t("filter.keywordPlaceholder")}
          inputMode="numeric"
          style={{ width: 180 }}
          data-testid="filter-keyword"
        />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid="filter-search">
            {t("filter.search")}
          </Button>
          <ResetButton onReset={url.reset} />
        </Space>
      </Form.Item>
    </Form>
  );
}

/** Says the list refreshes itself while one of its rows is moving (`text`: the area's words for it). */
export function LiveNote({ rows, text }: { rows: BatchRow[] | undefined; text?: string }) {
  const t = messages.useT();
  if (liveInterval(rows) === false) return null;
  return (
    <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }} data-testid="list-live">
      <SyncOutlined spin /> {text ?? t("list.live")}
    </Typography.Text>
  );
}

/**
 * A customer's row actions: the detail (a link to `detailTo`, else `onDetail`) and, while the batch may still be
 * cancelled, cancel (behind its confirmation).
 */
export function CustomerRowActions({
  row,
  actions,
  detailTo,
  onDetail,
}: {
  row: BatchRow;
  actions: Pick<BatchActions, "cancelling" | "confirmCancel">;
  detailTo?: string;
  onDetail?: () => void;
}) {
  const t = messages.useT();
  const detail = (
    <Button type="link" size="small" onClick={onDetail}>
      {t("action.detail")}
    </Button>
  );
  return (
    <Space size={0}>
      {detailTo ? <Link to={detailTo}>{detail}</Link> : detail}
      {canCancel(row.status) && (
        <Button
          type="link"
          size="small"
          danger
          loading={actions.cancelling === row.id}
          onClick={() => actions.confirmCancel(row.id)}
          data-testid="batch-cancel"
        >
          {t("action.cancel")}
        </Button>
      )}
    </Space>
  );
}

/** The batch table shared by the customer and back-office lists. */
export function BatchTable({
  query,
  url,
  staff,
  onOpen,
  actions,
}: {
  query: ReturnType<typeof useBatchList>;
  url: UrlFilters<BatchUrlFilters>;
  staff: boolean;
  onOpen: (batch: BatchRow) => void;
  actions: (batch: BatchRow) => ReactNode;
}) {
  const t = messages.useT();
  // A super admin reading every tenant's batches sees whose each is.
  const tenantColumn = useTenantColumn(query.data?.list);
  const columns: TableColumnsType<BatchRow> = [
    ...tenantColumn,
    {
      title: t("col.id"),
      dataIndex: "id",
      key: "id",
      render: (id: string, row) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => onOpen(row)} data-testid="batch-open">
          {id}
        </Button>
      ),
    },
    ...(staff ? [{ title: t("col.customer"), dataIndex: "user", key: "user" }] : []),
    {
      title: t("col.content"),
      dataIndex: "preview",
      key: "preview",
      width: 260,
      render: (v: string) => (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ margin: 0, maxWidth: 260 }}>
          {v}
        </Typography.Paragraph>
      ),
    },
    {
      title: t("col.status"),
      dataIndex: "status",
      key: "status",
      render: (status: number, row) => (
        <BatchStatusTag status={status} ingesting={row.ingesting} progress={row.progress} taskType={row.taskType} />
      ),
    },
    {
      title: t("col.progress"),
      key: "progress",
      render: (_: unknown, row) => <BatchProgress batch={row} compact />,
    },
    {
      title: t("col.counts"),
      key: "counts",
      render: (_: unknown, row) => `${formatNumber(row.validCount)} / ${formatNumber(row.totalCount)}`,
    },
    { title: t("col.cost"), dataIndex: "cost", key: "cost", render: (v: string) => formatMoney(v) },
    {
      title: t("col.schedule"),
      dataIndex: "scheduledAt",
      key: "scheduledAt",
      render: (v: string | null) => (v ? formatTime(v) : "-"),
    },
    { title: t("col.createdAt"), dataIndex: "createdAt", key: "createdAt", render: (v: string) => formatTime(v) },
    { title: t("col.actions"), key: "actions", fixed: "right", render: (_: unknown, row) => actions(row) },
  ];
  // the user's choice of columns, one for the customer's lists and one for the back office's
  const choice = useColumnChoice(staff ? "batches-staff" : "batches", columns);
  if (query.isError && !query.data) {
    return <LoadError error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }
  return (
    <>
      <Flex justify="flex-end" style={{ marginBottom: 8 }}>
        {choice.chooser}
      </Flex>
      <Table<BatchRow>
        rowKey="id"
        columns={choice.columns}
        dataSource={query.data?.list ?? []}
        loading={query.isLoading}
        scroll={{ x: "max-content" }}
        locale={{ emptyText: t("list.empty") }}
        data-testid="batch-table"
        pagination={{
          current: url.page,
          pageSize: url.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t("list.total", { total }),
          onChange: (page, size) => url.setPage(size !== url.pageSize ? 1 : page, size),
        }}
      />
    </>
  );
}
