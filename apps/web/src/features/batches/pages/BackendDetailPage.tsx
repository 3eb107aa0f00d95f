/** Back office {product}/message/detail/:batchId: one batch with its recipients, review and terminate. */
import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useNavigate, useParams } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { useCurrentRoute } from "../../../routes/route-context";
import { BatchDetailView } from "../components/BatchDetailView";
import { messages } from "../messages";
import { useStaffRowActions } from "./BackendTaskPage";

export default function BackendDetailPage() {
  const t = messages.useT();
  const navigate = useNavigate();
  const { batchId = "" } = useParams();
  const product = String(useCurrentRoute().node.meta?.product ?? "");
  const staff = useStaffRowActions();
  return (
    <PageContainer
      extra={
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(`/backend/${product}/message/task`)}>
          {t("action.back")}
        </Button>
      }
    >
      <BatchDetailView key={batchId} batchId={batchId} staff actions={(b) => staff.buttons(b)} />
      {staff.modal}
    </PageContainer>
  );
}
