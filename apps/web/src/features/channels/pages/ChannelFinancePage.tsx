import type { ChannelStats } from "@switchboard/contracts";
import { Alert, Card, Empty, Table } from "antd";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { formatMoney, formatNumber, formatPrice } from "../../../lib/format";
import { StatsToolbar, useStats, useStatsFilters } from "../components/stats-shared";
import { messages } from "../messages";

type Row = ChannelStats["list"][number];

/** Money as 1/10,000 units so sums and averages are exact ("12.3450" -> 123450n). */
function units(money: string): bigint {
  const [int = "0", frac = ""] = money.replace(/^-/, "").split(".");
  const v = BigInt(int) * 10_000n + BigInt(`${frac}0000`.slice(0, 4));
  return money.startsWith("-") ? -v : v;
}
function fromUnits(v: bigint): string {
  const sign = v < 0n ? "-" : "";
  const a = v < 0n ? -v : v;
  return `${sign}${a / 10_000n}.${(a % 10_000n).toString().padStart(4, "0")}`;
}

/**
 * The "finance api" page: per channel volume and the amount billed to customers for what it accepted
 * (/channel/stats gives `cost`, the sum of the accepted recipients' prices; no upstream provider cost exists).
 */
export default function ChannelFinancePage() {
  const t = messages.useT();
  const filters = useStatsFilters();
  const stats = useStats(filters);
  const list = stats.data?.list ?? [];
  const currency = stats.data?.currency ?? "";
  const totalCost = list.reduce((s, r) => s + units(r.cost), 0n);
  const chart = list
    .filter((r) => r.sent > 0)
    .map((r) => ({ name: r.channelName, cost: Number(units(r.cost)) / 10_000 }));

  return (
    <PageContainer>
      <StatsToolbar filters={filters} />
      <Alert type="info" showIcon title={t("finance.note")} style={{ marginBottom: 16 }} />
      {stats.isError ? (
        <LoadError error={stats.error} onRetry={() => stats.refetch()} />
      ) : (
        <>
          <Table<Row>
            rowKey="channelId"
            loading={stats.isFetching}
            dataSource={list}
            pagination={false}
            size="middle"
            data-testid="finance-table"
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("stats.empty")} /> }}
            columns={[
              {
                title: t("stats.col.channel"),
                dataIndex: "channelName",
                render: (n: string, r) => `${n} · ${t(`kind.${r.kind}` as "kind.smpp")}`,
              },
              { title: t("stats.col.sent"), dataIndex: "sent", align: "right", render: (v: number) => formatNumber(v) },
              {
                title: t("stats.col.success"),
                dataIndex: "success",
                align: "right",
                render: (v: number) => formatNumber(v),
              },
              {
                title: t("stats.col.cost", { currency }),
                dataIndex: "cost",
                align: "right",
                render: (v: string) => formatMoney(v),
              },
              {
                title: t("stats.col.unitCost"),
                key: "avg",
                align: "right",
                render: (_, r) => (r.success > 0 ? formatPrice(fromUnits(units(r.cost) / BigInt(r.success))) : "-"),
              },
            ]}
            summary={() =>
              list.length > 1 ? (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t("stats.total")}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {formatNumber(list.reduce((s, r) => s + r.sent, 0))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    {formatNumber(list.reduce((s, r) => s + r.success, 0))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {formatMoney(fromUnits(totalCost))}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} />
                </Table.Summary.Row>
              ) : null
            }
          />
          {chart.length > 0 && (
            <Card size="small" title={`${t("finance.spend")} (${currency})`} style={{ marginTop: 16 }}>
              <ResponsiveContainer width="100%" height={280}>
                <BarChart data={chart}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="name" />
                  <YAxis />
                  <Tooltip formatter={(v) => formatMoney(String(v))} />
                  <Bar dataKey="cost" name={t("finance.spend")} fill="#faad14" />
                </BarChart>
              </ResponsiveContainer>
            </Card>
          )}
        </>
      )}
    </PageContainer>
  );
}
