import type { BalanceLogRow } from "@switchboard/contracts";
import type { TableColumnsType } from "antd";
import { Typography } from "antd";
import dayjs from "dayjs";
import { formatMoney } from "../../../lib/format";
import type { messages } from "../messages";

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
