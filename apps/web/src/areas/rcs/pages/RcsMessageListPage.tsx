/** /user/message/{processing|sending|finish}: the customer's RCS batches of one stage, live while they move. */
import { PlusOutlined, SyncOutlined } from "@ant-design/icons";
import type { BatchStage } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Space, Typography } from "antd";
import { Link, useNavigate } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import type { BatchRow } from "../../../features/batches/api";
import {
  BATCH_FILTER_KEYS,
  BatchFilters,
  BatchTable,
  type BatchUrlFilters,
  listParams,
  useBatchList,
} from "../../../features/batches/components/BatchListParts";
import { ProductUnavailable } from "../../../features/batches/components/ProductUnavailable";
import { useBatchActions } from "../../../features/batches/hooks/use-batch-actions";
import { useProductAvailability } from "../../../features/batches/hooks/use-product-availability";
import { messages as batchMessages } from "../../../features/batches/messages";
import { canCancel, liveInterval } from "../../../features/batches/status";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { useCurrentRoute } from "../../../routes/route-context";
import { messages, type RcsMessageKey } from "../messages";
import { rcsCreatePath, rcsDetailPath } from "../stage";

// The stage fixes the statuses; the customer filters by dates and batch id.
const FILTER_KEYS = BATCH_FILTER_KEYS.filter((k) => k !== "userId" && k !== "status");

export default function RcsMessageListPage() {
  const t = messages.useT();
  const tb = batchMessages.useT();
  const stage = (useCurrentRoute().node.meta?.type ?? "processing") as BatchStage;
  const url = useUrlFilters<BatchUrlFilters>(FILTER_KEYS);
  const query = useBatchList(listParams(url, { productCode: ProductCode.RCS, stage }));
  const actions = useBatchActions();
  const navigate = useNavigate();
  const live = liveInterval(query.data?.list) !== false;
  // RCS that no channel carries for this customer says so before anything is paid.
  const availability = useProductAvailability(ProductCode.RCS);

  const rowActions = (row: BatchRow) => (
    <Space size={0}>
      <Link to={rcsDetailPath(row)}>
        <Button type="link" size="small">
          {tb("action.detail")}
        </Button>
      </Link>
      {canCancel(row.status) && (
        <Button
          type="link"
          size="small"
          danger
          loading={actions.cancelling === row.id}
          onClick={() => actions.confirmCancel(row.id)}
          data-testid="batch-cancel"
        >
          {tb("action.cancel")}
        </Button>
      )}
    </Space>
  );

  return (
    <PageContainer
      extra={
        availability.state === "unavailable" ? (
          <Button type="primary" icon={<PlusOutlined />} disabled data-testid="new-task">
            {t("list.new")}
          </Button>
        ) : (
          <Link to={rcsCreatePath(stage)}>
            <Button type="primary" icon={<PlusOutlined />} data-testid="new-task">
              {t("list.new")}
            </Button>
          </Link>
        )
      }
    >
      <ProductUnavailable availability={availability} />
      <Typography.Paragraph type="secondary">{t(`list.stageHint.${stage}` as RcsMessageKey)}</Typography.Paragraph>
      <BatchFilters url={url} showStatus={false} showCustomer={false} />
      {live && (
        <Typography.Text type="secondary" style={{ display: "block", marginBottom: 8 }} data-testid="list-live">
          <SyncOutlined spin /> {t("list.live")}
        </Typography.Text>
      )}
      <BatchTable
        query={query}
        url={url}
        staff={false}
        onOpen={(row) => navigate(rcsDetailPath(row))}
        actions={rowActions}
      />
    </PageContainer>
  );
}
