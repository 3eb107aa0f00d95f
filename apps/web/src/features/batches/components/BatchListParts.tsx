import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, DatePicker, Flex, Form, Input, Select, Space, Table, type TableColumnsType, Typography } from "antd";
import dayjs from "dayjs";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useColumnChoice } from "../../../components/ColumnChooser";
import { LoadError } from "../../../components/LoadError";
import { useTenantColumn } from "../../../components/tenant-column";
import type { UrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney, formatNumber } from "../../../lib/format";
import { type BatchRow, batchKeys, fetchBatchList, type ListParams, searchCustomers } from "../api";
import { type BatchMessageKey, messages } from "../messages";
import { BATCH_STATUS_CODES, liveInterval } from "../status";
import { BatchProgress } from "./BatchProgress";
import { BatchStatusTag } from "./BatchStatusTag";
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

function CustomerSelect({ value, onChange }: { value?: string; onChange: (v: string | undefined) => void }) {
  const t = messages.useT();
  const [keyword, setKeyword] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(keyword.trim()), 300);
    return () => clearTimeout(timer);
  }, [keyword]);
  const query = useQuery({
    queryKey: batchKeys.customers(debounced),
    queryFn: ({ signal }) => searchCustomers(debounced, signal),
  });
  const options = (query.data?.list ?? []).map((u) => ({
    value: String(u.id),
    label: u.nickname ? `${u.user} (${u.nickname})` : u.user,
  }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: `#${value}` });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      options={options}
      loading={query.isFetching}
      placeholder={t("filter.customerPlaceholder")}
      aria-label={t("filter.customer")}
      style={{ width: 200 }}
      data-testid="filter-customer"
    />
  );
}

/** Status (unless the route fixes it), date range, batch id and, for staff, the customer. */
export function BatchFilters({
  url,
  showStatus,
  showCustomer,
}: {
  url: UrlFilters<BatchUrlFilters>;
  showStatus: boolean;
  showCustomer: boolean;
}) {
  const t = messages.useT();
  const [keyword, setKeyword] = useState(url.filters.keyword ?? "");
  useEffect(() => setKeyword(url.filters.keyword ?? ""), [url.filters.keyword]);
  const range = useMemo(
    () =>
      [url.filters.from ? dayjs(url.filters.from) : null, url.filters.to ? dayjs(url.filters.to) : null] as [
        dayjs.Dayjs | null,
        dayjs.Dayjs | null,
      ],
    [url.filters.from, url.filters.to],
  );
  return (
    <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }} onFinish={() => url.setFilters({ keyword })}>
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
          <CustomerSelect value={url.filters.userId} onChange={(v) => url.setFilters({ userId: v })} />
        </Form.Item>
      )}
      <Form.Item label={t("filter.keyword")}>
        <Input
          allowClear
          value={keyword}
          onChange={(e) => setKeyword(e.target.value.replace(/\D/g, "").slice(0, 19))}
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
          <Button
            onClick={() => {
              setKeyword("");
              url.reset();
            }}
          >
            {t("filter.reset")}
          </Button>
        </Space>
      </Form.Item>
    </Form>
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
