import type { TopCustomer } from "@switchboard/contracts";
import { Card, Col, Row, Space, Table, Typography } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { formatMoney, formatNumber } from "../../../lib/format";
import { QueueBoardButton } from "../../queue-board/components/QueueBoardButton";
import { useBackendDashboard } from "../api";
import { DailyChart } from "../components/DailyChart";
import { DashboardState, RefreshButton } from "../components/DashboardState";
import { FigureRow } from "../components/FigureRow";
import { PeriodFiguresRow } from "../components/PeriodFiguresRow";
import { QueueCard } from "../components/QueueCard";
import { messages } from "../messages";

/** /backend/dashboard: the tenant's figures for admins, an agent's own customers' for agents. */
export default function BackendDashboardPage() {
  const t = messages.useT();
  const query = useBackendDashboard();
  const currency = query.data?.currency;
  const money = (v: string) => (currency ? `${formatMoney(v)} ${currency}` : formatMoney(v));

  return (
    <PageContainer
      extra={
        <Space>
          <QueueBoardButton />
          <RefreshButton query={query} label={t("action.refresh")} />
        </Space>
      }
    >
      <DashboardState query={query} loadingTestId="dashboard-loading">
        {(data) => (
          <Space orientation="vertical" size="large" style={{ width: "100%" }}>
            <FigureRow
              col={{ xs: 24, sm: 12, lg: 6 }}
              figures={[
                { testId: "dashboard-today-spend", label: t("figure.todaySpend"), value: money(data.today.spend) },
                { testId: "dashboard-month-spend", label: t("figure.monthSpend"), value: money(data.month.spend) },
                { testId: "dashboard-customers", label: t("figure.customers"), value: formatNumber(data.customers) },
                data.ownBalance !== null && {
                  testId: "dashboard-own-balance",
                  label: t("figure.ownBalance"),
                  value: money(data.ownBalance),
                },
              ]}
            />
            <PeriodFiguresRow period="today" figures={data.today} />
            <PeriodFiguresRow period="month" figures={data.month} />
            <Row gutter={[16, 16]}>
              <Col xs={24} md={12}>
                <QueueCard
                  title={t("queue.title")}
                  counts={data.reviewQueue}
                  link={{ status: 1, label: t("queue.open") }}
                  testId="review-queue"
                />
              </Col>
              <Col xs={24} md={12}>
                <QueueCard
                  title={t("queue.sending")}
                  counts={data.sending}
                  link={{ status: 21, label: t("queue.openSending") }}
                  testId="sending-now"
                />
              </Col>
            </Row>
            <DailyChart series={data.series} />
            <Card size="small" title={t("top.title")}>
              <Table<TopCustomer>
                data-testid="top-customers"
                size="small"
                rowKey="userId"
                pagination={false}
                dataSource={data.topCustomers}
                locale={{ emptyText: t("top.empty") }}
                columns={[
                  { title: "#", key: "rank", width: 48, render: (_, __, i) => i + 1 },
                  { title: t("top.user"), dataIndex: "user", key: "user" },
                  {
                    title: t("top.spend"),
                    dataIndex: "spend",
                    key: "spend",
                    align: "right",
                    render: (v: string) => money(v),
                  },
                  {
                    title: t("top.sent"),
                    dataIndex: "sent",
                    key: "sent",
                    align: "right",
                    render: (v: number) => formatNumber(v),
                  },
                ]}
              />
            </Card>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("period.utc")}
            </Typography.Text>
          </Space>
        )}
      </DashboardState>
    </PageContainer>
  );
}
