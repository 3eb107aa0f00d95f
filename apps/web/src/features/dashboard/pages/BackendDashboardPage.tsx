import { ReloadOutlined } from "@ant-design/icons";
import type { TopCustomer } from "@switchboard/contracts";
import { Button, Card, Col, Row, Skeleton, Space, Table, Typography } from "antd";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { formatMoney, formatNumber } from "../../../lib/format";
import { QueueBoardButton } from "../../queue-board/components/QueueBoardButton";
import { useBackendDashboard } from "../api";
import { DailyChart } from "../components/DailyChart";
import { Figure } from "../components/Figure";
import { PeriodFiguresRow } from "../components/PeriodFiguresRow";
import { QueueCard } from "../components/QueueCard";
import { messages } from "../messages";

/** /backend/dashboard: the tenant's figures for admins, an agent's own customers' for agents. */
export default function BackendDashboardPage() {
  const t = messages.useT();
  const query = useBackendDashboard();
  const data = query.data;
  const money = (v: string) => (data?.currency ? `${formatMoney(v)} ${data.currency}` : formatMoney(v));

  return (
    <PageContainer
      extra={
        <Space>
          <QueueBoardButton />
          <Button
            icon={<ReloadOutlined />}
            aria-label={t("action.refresh")}
            loading={query.isFetching && !query.isPending}
            onClick={() => query.refetch()}
          />
        </Space>
      }
    >
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid="dashboard-loading" />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        data && (
          <Space orientation="vertical" size="large" style={{ width: "100%" }}>
            <Row gutter={[16, 16]}>
              <Col xs={24} sm={12} lg={6}>
                <Figure testId="dashboard-today-spend" label={t("figure.todaySpend")} value={money(data.today.spend)} />
              </Col>
              <Col xs={24} sm={12} lg={6}>
                <Figure testId="dashboard-month-spend" label={t("figure.monthSpend")} value={money(data.month.spend)} />
              </Col>
              <Col xs={24} sm={12} lg={6}>
                <Figure
                  testId="dashboard-customers"
                  label={t("figure.customers")}
                  value={formatNumber(data.customers)}
                />
              </Col>
              {data.ownBalance !== null && (
                <Col xs={24} sm={12} lg={6}>
                  <Figure
                    testId="dashboard-own-balance"
                    label={t("figure.ownBalance")}
                    value={money(data.ownBalance)}
                  />
                </Col>
              )}
            </Row>
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
        )
      )}
    </PageContainer>
  );
}
