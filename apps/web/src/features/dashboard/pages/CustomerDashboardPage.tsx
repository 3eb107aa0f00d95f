import { DollarOutlined, TagsOutlined } from "@ant-design/icons";
import { Button, Col, Divider, Row, Space, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { formatMoney } from "../../../lib/format";
import { AuthenticationSubmitModal } from "../../authentication-submit/components/AuthenticationSubmitModal";
import { PriceListModal } from "../../price-list/components/PriceListModal";
import { useCustomerDashboard } from "../api";
import { AuthenticationCard } from "../components/AuthenticationCard";
import { DailyChart } from "../components/DailyChart";
import { DashboardState, RefreshButton } from "../components/DashboardState";
import { Figure } from "../components/Figure";
import { LatestNotices } from "../components/LatestNotices";
import { PeriodFiguresRow } from "../components/PeriodFiguresRow";
import { messages } from "../messages";

/** /app/dashboard: the customer's home. */
export default function CustomerDashboardPage() {
  const t = messages.useT();
  const query = useCustomerDashboard();
  const [priceListOpen, setPriceListOpen] = useState(false);
  const [authOpen, setAuthOpen] = useState(false);

  return (
    <PageContainer
      extra={
        <Space wrap>
          <Button icon={<TagsOutlined />} onClick={() => setPriceListOpen(true)} data-testid="open-price-list">
            {t("action.priceList")}
          </Button>
          <Link to="/app/dashboard/remit" data-testid="remit-link">
            <DollarOutlined /> {t("action.remit")}
          </Link>
          <RefreshButton query={query} label={t("action.refresh")} />
        </Space>
      }
    >
      <DashboardState query={query} loadingTestId="dashboard-loading">
        {(data) => (
          <Space orientation="vertical" size="large" style={{ width: "100%" }}>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={12}>
                <Figure
                  testId="dashboard-balance"
                  label={`${t("figure.balance")} (${data.currency})`}
                  value={formatMoney(data.balance)}
                  note={`${t("figure.monthSpend")}: ${formatMoney(data.month.spend)}`}
                />
              </Col>
              <Col xs={24} md={12}>
                <AuthenticationCard data={data} onSubmit={() => setAuthOpen(true)} />
              </Col>
            </Row>
            <LatestNotices />
            <PeriodFiguresRow period="today" figures={data.today} />
            <PeriodFiguresRow period="month" figures={data.month} />
            <Divider style={{ margin: 0 }} />
            <DailyChart series={data.series} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t("period.utc")}
            </Typography.Text>
          </Space>
        )}
      </DashboardState>
      <PriceListModal open={priceListOpen} onClose={() => setPriceListOpen(false)} />
      <AuthenticationSubmitModal open={authOpen} onClose={() => setAuthOpen(false)} />
    </PageContainer>
  );
}
