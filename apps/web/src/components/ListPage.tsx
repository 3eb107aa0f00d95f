// The parts of a server-paged list page (docs/web-client.md, "Lists"): a toolbar with the filters, the keyword
// search box and the reset button, and the table with its loading, empty and error states and its pagination.
// The filters and page live in the URL (`hooks/use-list-filters.ts`).
import { Button, Empty, Flex, Input, Select, Table, type TableProps } from "antd";
import type { CSSProperties, ReactNode } from "react";
import type { SearchBoxState } from "../hooks/use-list-filters";
import type { FilterValues, UrlFilters } from "../hooks/use-url-filters";
import { useT } from "../lib/i18n";
import { LoadError } from "./LoadError";

/**
 * A list's filter row: the filters, search box and reset button (`children`) on the left, the page's actions
 * (create, export...) on the right; both wrap on a narrow screen.
 */
export function ListToolbar({
  children,
  actions,
  marginBottom = 16,
  align = "center",
}: {
  children: ReactNode;
  actions?: ReactNode;
  marginBottom?: number;
  align?: "center" | "start";
}) {
  return (
    <Flex wrap gap={8} justify="space-between" align={align} style={{ marginBottom }}>
      <Flex wrap gap={8} align={align}>
        {children}
      </Flex>
      {actions !== undefined && (
        <Flex wrap gap={8} align={align}>
          {actions}
        </Flex>
      )}
    </Flex>
  );
}

/** The keyword search box of a list (`useListFilters(...).search`): Enter or the button searches, clear resets it. */
export function SearchBox({
  search,
  placeholder,
  label = placeholder,
  width,
  maxLength,
  inputMode,
  style,
  testId,
}: {
  search: SearchBoxState;
  placeholder: string;
  /** The box's accessible name (default: the placeholder). */
  label?: string;
  width?: number;
  maxLength?: number;
  inputMode?: "numeric" | "text";
  style?: CSSProperties;
  testId?: string;
}) {
  return (
    <Input.Search
      allowClear
      value={search.value}
      onChange={search.onChange}
      onSearch={search.onSearch}
      placeholder={placeholder}
      aria-label={label}
      maxLength={maxLength}
      inputMode={inputMode}
      style={{ width, ...style }}
      data-testid={testId}
    />
  );
}

/** A list's filter with a choice of values, bound to the URL filter `name` (cleared: the filter is removed). */
export function FilterSelect<F extends FilterValues>({
  list,
  name,
  placeholder,
  label = placeholder,
  width,
  options,
  testId,
}: {
  list: Pick<UrlFilters<F>, "filters" | "setFilters">;
  name: keyof F & string;
  placeholder: string;
  /** The select's accessible name (default: the placeholder). */
  label?: string;
  width: number;
  options: { value: string; label: ReactNode }[];
  testId?: string;
}) {
  return (
    <Select<string>
      allowClear
      placeholder={placeholder}
      aria-label={label}
      value={list.filters[name]}
      onChange={(value?: string) => list.setFilters({ [name]: value } as Partial<F>)}
      style={{ width }}
      options={options}
      data-testid={testId}
    />
  );
}

/** Clears a list's filters (`useListFilters(...).reset`). */
export function ResetButton({ onReset }: { onReset: () => void }) {
  const t = useT();
  return <Button onClick={onReset}>{t("common.reset")}</Button>;
}

/** What a paged table reads of its react-query list query. */
export interface ListQuery<T> {
  data?: { list: T[]; total: number } | undefined;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface PagedTableProps<T> extends Omit<TableProps<T>, "dataSource" | "loading" | "pagination"> {
  query: ListQuery<T>;
  /** The URL's page (`useUrlFilters` / `useListFilters`). */
  paging: Pick<UrlFilters<Record<string, string | undefined>>, "page" | "pageSize" | "setPage">;
  /** The empty state's text (default: antd's "no data"); `emptyTestId` marks it. */
  empty?: ReactNode;
  emptyTestId?: string;
  /** The small empty picture (lists inside a tab or a card). */
  simpleEmpty?: boolean;
  /** data-testid of the retry button shown when the list could not load. */
  retryTestId?: string;
  showSizeChanger?: boolean;
  showTotal?: (total: number) => ReactNode;
}

/**
 * A server-paged table: the rows of the query, its spinner while loading, an empty state, the page from the URL,
 * and in place of the table the load error with a retry.
 */
export function PagedTable<T extends object>({
  query,
  paging,
  empty,
  emptyTestId,
  simpleEmpty,
  retryTestId,
  showSizeChanger,
  showTotal,
  rowKey = "id",
  locale,
  ...table
}: PagedTableProps<T>) {
  if (query.isError) {
    return (
      <LoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
        testId={retryTestId}
      />
    );
  }
  const emptyText =
    empty === undefined && !simpleEmpty && !emptyTestId ? undefined : (
      <Empty
        image={simpleEmpty ? Empty.PRESENTED_IMAGE_SIMPLE : undefined}
        description={empty}
        data-testid={emptyTestId}
      />
    );
  return (
    <Table<T>
      rowKey={rowKey}
      dataSource={query.data?.list ?? []}
      loading={query.isFetching}
      locale={emptyText === undefined ? locale : { ...locale, emptyText }}
      pagination={{
        current: paging.page,
        pageSize: paging.pageSize,
        total: query.data?.total ?? 0,
        showSizeChanger,
        showTotal,
        onChange: (page, pageSize) => paging.setPage(page, pageSize),
      }}
      {...table}
    />
  );
}
