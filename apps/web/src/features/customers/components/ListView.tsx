import type { UseQueryResult } from "@tanstack/react-query";
import { Alert, Button, DatePicker, Flex, Form, Result, Space, Table, type TableColumnsType, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import type { ReactNode } from "react";
import { useColumnChoice } from "../../../components/ColumnChooser";
import { ResetButton } from "../../../components/ListPage";
import { useTenantColumn } from "../../../components/tenant-column";
import type { FilterValues, UrlFilters } from "../../../hooks/use-url-filters";
import { errorText } from "../../../lib/error-text";
import { formatMoney } from "../../../lib/format";
import { messages } from "../messages";

interface PageData<T> {
  list: T[];
  total: number;
  totalAmount?: string;
}

interface ListViewProps<T> {
  query: UseQueryResult<PageData<T>>;
  columns: TableColumnsType<T>;
  rowKey: (row: T) => string | number;
  filters: Pick<UrlFilters<FilterValues>, "page" | "pageSize" | "setPage">;
  testId: string;
  /** Empty-state text (default: antd's). */
  emptyText?: ReactNode;
  scrollX?: number;
  /** A wide list: the user chooses its visible columns, kept under this name (fixed columns always show). */
  columnChoice?: string;
}

/**
 * A server-paged list: loading (the table's spinner), empty (the table's empty state), a failed first load
 * (a Result with a retry), a failed refresh (an alert above the rows it still has), and the totals line. A super
 * admin reading every tenant's rows gets the tenant column first.
 */
export function ListView<T extends object>({
  query,
  columns,
  rowKey,
  filters,
  testId,
  emptyText,
  scrollX,
  columnChoice,
}: ListViewProps<T>) {
  const t = messages.useT();
  const tenantColumn = useTenantColumn(query.data?.list);
  const allColumns = tenantColumn.length > 0 ? [...tenantColumn, ...columns] : columns;
  const choice = useColumnChoice(columnChoice ?? testId, allColumns);
  if (query.isError && !query.data) {
    return (
      <Result
        status="error"
        title={t.shell("error.loadFailed")}
        subTitle={errorText(query.error, t.shell)}
        extra={
          <Button onClick={() => query.refetch()} loading={query.isFetching} data-testid={`${testId}-retry`}>
            {t.shell("common.retry")}
          </Button>
        }
        data-testid={`${testId}-error`}
      />
    );
  }
  const data = query.data;
  return (
    <Space orientation="vertical" style={{ width: "100%" }} size="middle">
      {query.isError && <Alert type="warning" showIcon title={errorText(query.error, t.shell)} />}
      {(data || columnChoice) && (
        <Flex justify="space-between" align="center" gap={8} wrap>
          {data ? (
            <Typography.Text type="secondary" data-testid={`${testId}-totals`}>
              {data.totalAmount === undefined
                ? t("common.total", { total: data.total })
                : t("common.totals", { total: data.total, amount: formatMoney(data.totalAmount) })}
            </Typography.Text>
          ) : (
            <span />
          )}
          {columnChoice && choice.chooser}
        </Flex>
      )}
      <Table<T>
        data-testid={testId}
        rowKey={rowKey}
        columns={columnChoice ? choice.columns : allColumns}
        dataSource={data?.list ?? []}
        loading={query.isFetching}
        scroll={{ x: scrollX ?? "max-content" }}
        locale={emptyText ? { emptyText } : undefined}
        pagination={{
          current: filters.page,
          pageSize: filters.pageSize,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t("common.total", { total }),
          onChange: (page, pageSize) => filters.setPage(page, pageSize),
        }}
      />
    </Space>
  );
}

export interface FilterFormProps {
  filters: FilterValues;
  onSearch: (values: FilterValues) => void;
  onReset: () => void;
  /** Adds a date range bound to the `from` / `to` filters. */
  withRange?: boolean;
  children: ReactNode;
  testId?: string;
}

type FormValues = Record<string, string | number | [Dayjs, Dayjs] | null | undefined>;

/**
 * The filter row of a list: fields are Form.Items named like the URL filters (string values); a date range,
 * when asked for, maps to `from` / `to` (ISO timestamps with the local offset, both inclusive).
 */
export function FilterForm({ filters, onSearch, onReset, withRange, children, testId }: FilterFormProps) {
  const t = messages.useT();
  const { from, to, ...rest } = filters;
  const initial: FormValues = { ...rest };
  if (withRange && from && to) initial.range = [dayjs(from), dayjs(to)];

  const submit = (values: FormValues) => {
    const out: FilterValues = {};
    for (const [key, value] of Object.entries(values)) {
      if (key === "range") continue;
      out[key] = value === null || value === undefined || value === "" ? undefined : String(value).trim() || undefined;
    }
    if (withRange) {
      const range = values.range as [Dayjs, Dayjs] | null | undefined;
      out.from = range ? range[0].startOf("day").format() : undefined;
      out.to = range ? range[1].endOf("day").format() : undefined;
    }
    onSearch(out);
  };

  return (
    <Form<FormValues>
      key={JSON.stringify(filters)}
      layout="inline"
      initialValues={initial}
      onFinish={submit}
      style={{ rowGap: 12, marginBottom: 16 }}
      data-testid={testId}
    >
      {children}
      {withRange && (
        <Form.Item name="range" label={t("common.timeRange")}>
          <DatePicker.RangePicker allowEmpty={[false, false]} />
        </Form.Item>
      )}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" data-testid={testId ? `${testId}-submit` : undefined}>
            {t("common.search")}
          </Button>
          <ResetButton onReset={onReset} />
        </Space>
      </Form.Item>
    </Form>
  );
}
