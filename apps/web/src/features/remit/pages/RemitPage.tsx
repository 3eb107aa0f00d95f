import { ArrowLeftOutlined } from "@ant-design/icons";
import { Divider } from "antd";
import { Link } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { RemitForm } from "../components/RemitForm";
import { RemitList } from "../components/RemitList";
import { messages } from "../messages";

/** /app/dashboard/remit: declare a bank transfer and follow the declared ones. */
export default function RemitPage() {
  const t = messages.useT();
  return (
    <PageContainer
      extra={
        <Link to="/app/dashboard">
          <ArrowLeftOutlined /> {t("back")}
        </Link>
      }
    >
      <RemitForm />
      <Divider />
      <RemitList />
    </PageContainer>
  );
}
