import type { BalanceLogRow } from "@switchboard/contracts";
import type { TableColumnsType } from "antd";
import { Table, Typography } from "antd";
import dayjs from "dayjs";
import { type ListQuery, PagedTable, type PagedTableProps } from "../../../components/ListPage";
import { formatMoney, formatNumber } from "../../../lib/format";
import { messages } from "../messages";

type T = ReturnType<typeof messages.useT>;

export const typeLabel = (t: T, type: number) =>
  type >= 1 && type <= 6 ? t(`type.${type as 1 | 2 | 3 | 4 | 5 | 6}`) : String(type);

/** Signed amounts: credits green with a plus, debits red. */
export function SignedAmount({ value }: { value: string }) {
  const negative = value.trim().startsWith("-");
  return (
    <Typography.Text type={negative ? "danger" : "success"} style={{ fontVariantNumeric: "tabular-nums" }}>
      {negative ? "" : "+"}
      {formatMoney(value)}
    </Typography.Text>
  );
}

/** Columns every balance-log list shows. */
export function baseColumns<R extends BalanceLogRow>(t: T): TableColumnsType<R> {
  return [
    {
      title: t("col.createdAt"),
      dataIndex: "createdAt",
      key: "createdAt",
      render: (v: string) => dayjs(v).format("YYYY-MM-DD HH:mm:ss"),
    },
    { title: t("col.type"), dataIndex: "type", key: "type", render: (v: number) => typeLabel(t, v) },
    {
      title: t("col.amount"),
      dataIndex: "amount",
      key: "amount",
      align: "right",
      render: (v: string) => <SignedAmount value={v} />,
    },
    {
      title: t("col.balanceAfter"),
      dataIndex: "balanceAfter",
      key: "balanceAfter",
      align: "right",
      render: (v: string) => formatMoney(v),
    },
  ];
}

/**
 * A record list's table: small rows, the page from the URL, and under the rows the number of records and the sum
 * of their amounts (under the amount column, the third).
 */
export function RecordsTable<R extends BalanceLogRow>({
  query,
  paging,
  columns,
  testId,
}: {
  query: ListQuery<R> & { data?: { list: R[]; total: number; totalAmount: string } | undefined };
  paging: PagedTableProps<R>["paging"];
  columns: TableColumnsType<R>;
  testId: string;
}) {
  const t = messages.useT();
  const data = query.data;
  return (
    <PagedTable<R>
      data-testid={testId}
      size="small"
      query={query}
      paging={paging}
      locale={{ emptyText: t("empty") }}
      scroll={{ x: 800 }}
      columns={columns}
      summary={() =>
        data && data.total > 0 ? (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0} colSpan={2}>
              {t("total", { count: formatNumber(data.total) })}
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">
              <span data-testid="records-total">
                <SignedAmount value={data.totalAmount} />
              </span>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={3} colSpan={columns.length - 3} />
          </Table.Summary.Row>
        ) : null
      }
    />
  );
}
