/** /user/home: the RCS portal's home (RCS figures only, the latest batches, authentication, notices). */
import { PlusOutlined, TagsOutlined } from "@ant-design/icons";
import { ProductCode } from "@switchboard/contracts/codes";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Col, Empty, Flex, Row, Skeleton, Space, Typography, theme } from "antd";
import { type ReactNode, useState } from "react";
import { Link } from "react-router-dom";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { AuthenticationSubmitModal } from "../../../features/authentication-submit/components/AuthenticationSubmitModal";
import { batchKeys, fetchBatchList } from "../../../features/batches/api";
import { BatchProgress } from "../../../features/batches/components/BatchProgress";
import { BatchStatusTag } from "../../../features/batches/components/BatchStatusTag";
import { formatTime } from "../../../features/batches/components/time";
import { liveInterval } from "../../../features/batches/status";
import { useCustomerDashboard } from "../../../features/dashboard/api";
import { AuthenticationCard } from "../../../features/dashboard/components/AuthenticationCard";
import { DailyChart } from "../../../features/dashboard/components/DailyChart";
import { DashboardState, RefreshButton } from "../../../features/dashboard/components/DashboardState";
import { Figure } from "../../../features/dashboard/components/Figure";
import { FigureRow } from "../../../features/dashboard/components/FigureRow";
import { formatRate } from "../../../features/dashboard/format";
import { useNoticeList } from "../../../features/notice/api/notice-api";
import { PriceListModal } from "../../../features/price-list/components/PriceListModal";
import { formatMoney, formatNumber } from "../../../lib/format";
import { messages } from "../messages";
import { rcsCreatePath, rcsDetailPath, rcsListPath } from "../stage";

const LATEST = 5;

function useLatestBatches() {
  const params = { productCode: ProductCode.RCS, page: 1, pageSize: LATEST };
  return useQuery({
    queryKey: batchKeys.list(params),
    queryFn: ({ signal }) => fetchBatchList(params, signal),
    refetchInterval: (q) => liveInterval(q.state.data?.list),
  });
}

export default function RcsHomePage() {
  const t = messages.useT();
  const dashboard = useCustomerDashboard(ProductCode.RCS);
  const latest = useLatestBatches();
  const [priceListOpen, setPriceListOpen] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);

  return (
    <PageContainer
      extra={
        <Space wrap>
          <Link to={rcsCreatePath()}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="rcs-new-message">
              {t("home.newMessage")}
            </Button>
          </Link>
          <Button icon={<TagsOutlined />} onClick={() => setPriceListOpen(true)} data-testid="open-price-list">
            {t("home.priceList")}
          </Button>
          <RefreshButton
            query={dashboard}
            label={t("home.refresh")}
            onRefresh={() => {
              void dashboard.refetch();
              void latest.refetch();
            }}
          />
        </Space>
      }
    >
      <DashboardState query={dashboard} loadingTestId="rcs-home-loading">
        {(data) => (
          <Space orientation="vertical" size="large" style={{ width: "100%" }}>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={12}>
                <Figure
                  testId="rcs-balance"
                  label={t("figure.balance", { currency: data.currency })}
                  value={formatMoney(data.balance)}
                  note={t("figure.monthSpend", { spend: formatMoney(data.month.spend) })}
                  extra={
                    <div style={{ marginTop: 8 }}>
                      <Link to="/user/balance/remit">{t("home.recharge")}</Link>
                    </div>
                  }
                />
              </Col>
              <Col xs={24} md={12}>
                <AuthenticationCard data={data} onSubmit={() => setAuthOpen(true)} />
              </Col>
            </Row>
            <FigureRow
              col={{ flex: "1 1 180px" }}
              figures={[
                {
                  testId: "rcs-today-sent",
                  label: t("figure.todaySent"),
                  value: formatNumber(data.today.sent),
                  note: t("figure.batches", { count: formatNumber(data.today.batches) }),
                },
                {
                  testId: "rcs-month-sent",
                  label: t("figure.monthSent"),
                  value: formatNumber(data.month.sent),
                  note: t("figure.batches", { count: formatNumber(data.month.batches) }),
                },
                {
                  testId: "rcs-delivery-rate",
                  label: t("figure.deliveryRate"),
                  value: formatRate(data.month.deliveryRate),
                  note: t("figure.deliveredOf", {
                    delivered: formatNumber(data.month.delivered),
                    sent: formatNumber(data.month.sent),
                  }),
                },
                {
                  testId: "rcs-read-rate",
                  label: t("figure.readRate"),
                  value: formatRate(data.month.readRate),
                  note: t("figure.readOf", {
                    read: formatNumber(data.month.read),
                    delivered: formatNumber(data.month.delivered),
                  }),
                },
                {
                  testId: "rcs-fallback-share",
                  label: t("figure.fallbackShare"),
                  value: formatRate(data.month.fallbackShare),
                  note: t("figure.fallbackOf", {
                    fallback: formatNumber(data.month.fallback),
                    sent: formatNumber(data.month.sent),
                  }),
                },
              ]}
            />
            <DailyChart series={data.series} />
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={14}>
                <LatestBatches query={latest} />
              </Col>
              <Col xs={24} lg={10}>
                <LatestNotices />
              </Col>
            </Row>
          </Space>
        )}
      </DashboardState>
      <PriceListModal open={priceListOpen} onClose={() => setPriceListOpen(false)} />
      <AuthenticationSubmitModal open={authOpen} onClose={() => setAuthOpen(false)} />
    </PageContainer>
  );
}

/**
 * Rows with a divider between them: what antd's List drew here, which antd 6 deprecates (it logs a console error
 * on every page that renders one).
 */
function Rows({ children }: { children: ReactNode[] }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical>
      {children.map((child, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: the children carry their own keys; this is their slot
          key={i}
          style={{ padding: "8px 0", borderTop: i === 0 ? undefined : `1px solid ${token.colorSplit}` }}
        >
          {child}
        </div>
      ))}
    </Flex>
  );
}

function LatestBatches({ query }: { query: ReturnType<typeof useLatestBatches> }) {
  const t = messages.useT();
  return (
    <Card
      size="small"
      title={t("latest.title")}
      extra={<Link to={rcsListPath("finish")}>{t("latest.all")}</Link>}
      data-testid="rcs-latest"
    >
      {query.isError && !query.data ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : query.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.data.list.length === 0 ? (
        <Empty description={t("latest.empty")}>
          <Link to={rcsCreatePath()}>{t("home.newMessage")}</Link>
        </Empty>
      ) : (
        <Rows>
          {query.data.list.map((b) => (
            <Flex key={b.id} data-testid="rcs-latest-row" wrap gap={8} align="center" justify="space-between">
              <Flex vertical gap={4} style={{ minWidth: 0, flex: "1 1 240px" }}>
                <Space wrap>
                  <Link to={rcsDetailPath(b)}>{b.id}</Link>
                  <BatchStatusTag status={b.status} ingesting={b.ingesting} taskType={b.taskType} />
                </Space>
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: "100%" }}>
                  {formatTime(b.createdAt)} · {b.preview}
                </Typography.Text>
              </Flex>
              <div style={{ width: 160, maxWidth: "100%" }}>
                <BatchProgress batch={b} compact />
              </div>
            </Flex>
          ))}
        </Rows>
      )}
    </Card>
  );
}

function LatestNotices() {
  const t = messages.useT();
  const query = useNoticeList({ page: 1, pageSize: 5 });
  return (
    <Card
      size="small"
      title={t("notice.title")}
      extra={<Link to="/user/notice">{t("notice.all")}</Link>}
      data-testid="rcs-notices"
    >
      {query.isError && !query.data ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} />
      ) : query.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.data.list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("notice.empty")} />
      ) : (
        <Rows>
          {query.data.list.map((n) => (
            <Flex key={n.id} wrap gap={8} justify="space-between">
              <Link to={`/user/notice?id=${n.id}`} style={{ wordBreak: "break-word", minWidth: 0 }}>
                {n.title}
              </Link>
              <Typography.Text type="secondary">{formatTime(n.publishedAt)}</Typography.Text>
            </Flex>
          ))}
        </Rows>
      )}
    </Card>
  );
}
