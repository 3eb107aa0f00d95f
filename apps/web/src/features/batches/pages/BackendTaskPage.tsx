/**
 * Back office {product}/message/task (every batch the caller may see, with a customer filter) and
 * {product}/message/{filterType} (1 review, 20 pending, 21 sending, 22 finished): live progress, review and
 * update, terminate.
 */
import { Button, Space } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { useCurrentRoute } from "../../../routes/route-context";
import type { BatchRow, ListParams } from "../api";
import {
  BATCH_FILTER_KEYS,
  BatchFilters,
  BatchTable,
  LiveNote,
  listParams,
  useBatchList,
  useBatchListFilters,
} from "../components/BatchListParts";
import { ReviewModal } from "../components/ReviewModal";
import { useBatchActions } from "../hooks/use-batch-actions";
import { messages } from "../messages";
import { canReschedule, canReview, canTerminate } from "../status";

export function useStaffRowActions() {
  const t = messages.useT();
  const actions = useBatchActions();
  const [reviewing, setReviewing] = useState<string | null>(null);
  const buttons = (row: Pick<BatchRow, "id" | "status" | "ingesting">) => (
    <Space size={0} wrap>
      {canReview(row) && (
        <Button type="link" size="small" onClick={() => setReviewing(row.id)} data-testid="batch-review">
          {t("action.review")}
        </Button>
      )}
      {canReschedule(row.status) && (
        <Button type="link" size="small" onClick={() => setReviewing(row.id)} data-testid="batch-schedule-change">
          {t("action.schedule")}
        </Button>
      )}
      {canTerminate(row.status) && (
        <Button
          type="link"
          size="small"
          danger
          loading={actions.terminating === row.id}
          onClick={() => actions.confirmTerminate(row.id)}
          data-testid="batch-terminate"
        >
          {t("action.terminate")}
        </Button>
      )}
    </Space>
  );
  const modal = <ReviewModal batchId={reviewing} onClose={() => setReviewing(null)} />;
  return { buttons, modal };
}

export default function BackendTaskPage() {
  const t = messages.useT();
  const navigate = useNavigate();
  const meta = useCurrentRoute().node.meta ?? {};
  const product = String(meta.product);
  const fixed: ListParams = { productCode: Number(meta.productCode) };
  if (meta.filterType !== undefined) fixed.filterType = Number(meta.filterType);
  const url = useBatchListFilters(BATCH_FILTER_KEYS);
  const query = useBatchList(listParams(url, fixed));
  const staff = useStaffRowActions();
  const open = (row: Pick<BatchRow, "id">) => navigate(`/backend/${product}/message/detail/${row.id}`);

  return (
    <PageContainer>
      <BatchFilters url={url} showStatus={meta.filterType === undefined} showCustomer />
      <LiveNote rows={query.data?.list} />
      <BatchTable
        query={query}
        url={url}
        staff
        onOpen={open}
        actions={(row) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => open(row)}>
              {t("action.detail")}
            </Button>
            {staff.buttons(row)}
          </Space>
        )}
      />
      {staff.modal}
    </PageContainer>
  );
}
