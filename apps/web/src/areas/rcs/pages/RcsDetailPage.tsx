/** /user/message/{type}/detail/{batchId}: one RCS batch (counts with read and SMS fallback, recipients, replies). */
import { ArrowLeftOutlined } from "@ant-design/icons";
import type { BatchStage } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Space } from "antd";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { SendReachableModal } from "../../../features/batch-submit/components/SendReachableModal";
import { type BatchRow, batchKeys } from "../../../features/batches/api";
import { BatchDetailView } from "../../../features/batches/components/BatchDetailView";
import { useBatchActions } from "../../../features/batches/hooks/use-batch-actions";
import { messages as batchMessages } from "../../../features/batches/messages";
import { canCancel } from "../../../features/batches/status";
import { useCurrentRoute } from "../../../routes/route-context";
import { messages } from "../messages";
import { rcsDetailPath, rcsListPath } from "../stage";

export default function RcsDetailPage() {
  const t = messages.useT();
  const tb = batchMessages.useT();
  const { batchId = "" } = useParams();
  const stage = (useCurrentRoute().node.meta?.type ?? "processing") as BatchStage;
  const actions = useBatchActions();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // A finished screening batch whose reachable numbers the customer is sending to.
  const [reachableOf, setReachableOf] = useState<BatchRow | null>(null);

  return (
    <PageContainer
      extra={
        <Link to={rcsListPath(stage)} data-testid="rcs-detail-back">
          <ArrowLeftOutlined /> {t("detail.back")}
        </Link>
      }
    >
      <BatchDetailView
        batchId={batchId}
        staff={false}
        actions={(b) => (
          <Space>
            {b.taskType === 1 && b.status === 22 && b.deliveredCount > 0 && (
              <Button type="primary" onClick={() => setReachableOf(b)} data-testid="send-reachable">
                {tb("action.sendReachable")}
              </Button>
            )}
            {canCancel(b.status) && (
              <Button danger onClick={() => actions.confirmCancel(b.id)} data-testid="detail-cancel">
                {tb("action.cancel")}
              </Button>
            )}
          </Space>
        )}
      />
      {reachableOf && (
        <SendReachableModal
          open
          screeningId={reachableOf.id}
          productCode={ProductCode.RCS}
          reachable={reachableOf.deliveredCount}
          onClose={() => setReachableOf(null)}
          onSubmitted={(id) => {
            setReachableOf(null);
            void queryClient.invalidateQueries({ queryKey: batchKeys.all });
            navigate(rcsDetailPath({ id, status: 20 }));
          }}
        />
      )}
    </PageContainer>
  );
}
