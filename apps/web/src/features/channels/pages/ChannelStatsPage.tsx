import type { ChannelStats } from "@switchboard/contracts";
import { Card, Col, Empty, Row, Table, Typography } from "antd";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { formatNumber } from "../../../lib/format";
import { DailyStatsChart, PerChannelStatsChart } from "../components/StatsCharts";
import { everyDay, rate, StatsToolbar, useStats, useStatsFilters } from "../components/stats-shared";
import { messages } from "../messages";

type StatRow = ChannelStats["list"][number];

/** The "channel api statistics" page: per-channel sent, accepted, failed, delivered and rates over a range. */
export default function ChannelStatsPage() {
  const t = messages.useT();
  const filters = useStatsFilters();
  const stats = useStats(filters);
  const list = stats.data?.list ?? [];
  const daily = everyDay(stats.data?.daily ?? [], filters.start, filters.end);
  const anySent = list.some((r) => r.sent > 0);
  const total = list.reduce(
    (s, r) => ({
      sent: s.sent + r.sent,
      success: s.success + r.success,
      failed: s.failed + r.failed,
      delivered: s.delivered + r.delivered,
    }),
    { sent: 0, success: 0, failed: 0, delivered: 0 },
  );

  return (
    <PageContainer>
      <StatsToolbar filters={filters} />
      {stats.isError ? (
        <LoadError error={stats.error} onRetry={() => stats.refetch()} />
      ) : (
        <>
          <Table<StatRow>
            rowKey="channelId"
            loading={stats.isFetching}
            dataSource={list}
            pagination={false}
            size="middle"
            scroll={{ x: 900 }}
            data-testid="stats-table"
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
                title: t("stats.col.failed"),
                dataIndex: "failed",
                align: "right",
                render: (v: number) => formatNumber(v),
              },
              {
                title: t("stats.col.delivered"),
                dataIndex: "delivered",
                align: "right",
                render: (v: number) => formatNumber(v),
              },
              {
                title: t("stats.col.successRate"),
                key: "sr",
                align: "right",
                render: (_, r) => rate(r.success, r.sent),
              },
              {
                title: t("stats.col.deliveryRate"),
                key: "dr",
                align: "right",
                render: (_, r) => rate(r.delivered, r.success),
              },
            ]}
            summary={() =>
              list.length > 1 ? (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t("stats.total")}</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    {formatNumber(total.sent)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    {formatNumber(total.success)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {formatNumber(total.failed)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {formatNumber(total.delivered)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">
                    {rate(total.success, total.sent)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">
                    {rate(total.delivered, total.success)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              ) : null
            }
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t("stats.rateNote")}
          </Typography.Paragraph>
          {stats.data && !anySent ? (
            <Empty description={t("stats.empty")} />
          ) : (
            <Row gutter={16}>
              <Col xs={24} lg={12}>
                <Card size="small" title={t("stats.daily")}>
                  <DailyStatsChart daily={daily} />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card size="small" title={t("stats.perChannel")}>
                  <PerChannelStatsChart list={list} />
                </Card>
              </Col>
            </Row>
          )}
        </>
      )}
    </PageContainer>
  );
}
