/** /user/balance/{recharge,consume,remit}: the finance records and the remittance flow, inside the RCS portal. */
import { ArrowLeftOutlined, DollarOutlined } from "@ant-design/icons";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Divider } from "antd";
import { Link } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import ConsumeRecordsPage from "../../../features/finance-records/pages/ConsumeRecordsPage";
import RechargeRecordsPage from "../../../features/finance-records/pages/RechargeRecordsPage";
import { RemitForm } from "../../../features/remit/components/RemitForm";
import { RemitList } from "../../../features/remit/components/RemitList";
import { messages } from "../messages";

export function RcsRechargePage() {
  const t = messages.useT();
  return (
    <RechargeRecordsPage
      extra={
        <Link to="/user/balance/remit">
          <Button type="primary" icon={<DollarOutlined />} data-testid="rcs-remit-link">
            {t("balance.remit")}
          </Button>
        </Link>
      }
    />
  );
}

export function RcsConsumePage() {
  return <ConsumeRecordsPage productCode={ProductCode.RCS} />;
}

export function RcsRemitPage() {
  const t = messages.useT();
  return (
    <PageContainer
      extra={
        <Link to="/user/balance/recharge">
          <ArrowLeftOutlined /> {t("balance.back")}
        </Link>
      }
    >
      <RemitForm />
      <Divider />
      <RemitList />
    </PageContainer>
  );
}
