/** /user/message/{processing|sending|finish}: the customer's RCS batches of one stage, live while they move. */
import { PlusOutlined } from "@ant-design/icons";
import type { BatchStage } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { Button, Typography } from "antd";
import { Link, useNavigate } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import type { BatchRow } from "../../../features/batches/api";
import {
  BATCH_FILTER_KEYS,
  BatchFilters,
  BatchTable,
  CustomerRowActions,
  LiveNote,
  listParams,
  useBatchList,
  useBatchListFilters,
} from "../../../features/batches/components/BatchListParts";
import { ProductUnavailable } from "../../../features/batches/components/ProductUnavailable";
import { useBatchActions } from "../../../features/batches/hooks/use-batch-actions";
import { useProductAvailability } from "../../../features/batches/hooks/use-product-availability";
import { useCurrentRoute } from "../../../routes/route-context";
import { messages, type RcsMessageKey } from "../messages";
import { rcsCreatePath, rcsDetailPath } from "../stage";

// The stage fixes the statuses; the customer filters by dates and batch id.
const FILTER_KEYS = BATCH_FILTER_KEYS.filter((k) => k !== "userId" && k !== "status");

export default function RcsMessageListPage() {
  const t = messages.useT();
  const stage = (useCurrentRoute().node.meta?.type ?? "processing") as BatchStage;
  const url = useBatchListFilters(FILTER_KEYS);
  const query = useBatchList(listParams(url, { productCode: ProductCode.RCS, stage }));
  const actions = useBatchActions();
  const navigate = useNavigate();
  // RCS that no channel carries for this customer says so before anything is paid.
  const availability = useProductAvailability(ProductCode.RCS);

  const rowActions = (row: BatchRow) => (
    <CustomerRowActions row={row} actions={actions} detailTo={rcsDetailPath(row)} />
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
      <LiveNote rows={query.data?.list} text={t("list.live")} />
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
