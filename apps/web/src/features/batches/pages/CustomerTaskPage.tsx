/** /app/{product}/message/task: the customer's batches of one product, live progress, new task, detail. */
import { PlusOutlined } from "@ant-design/icons";
import type { ProductCode } from "@switchboard/contracts/codes";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Drawer, Space } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { useCurrentRoute } from "../../../routes/route-context";
import { DirectTaskModal } from "../../batch-submit/components/DirectTaskModal";
import { SendReachableModal } from "../../batch-submit/components/SendReachableModal";
import { type BatchRow, batchKeys } from "../api";
import { BatchDetailView } from "../components/BatchDetailView";
import {
  BATCH_FILTER_KEYS,
  BatchFilters,
  BatchTable,
  CustomerRowActions,
  LiveNote,
  listParams,
  useBatchList,
  useBatchListFilters,
} from "../components/BatchListParts";
import { ProductUnavailable } from "../components/ProductUnavailable";
import { useBatchActions } from "../hooks/use-batch-actions";
import { useProductAvailability } from "../hooks/use-product-availability";
import { messages } from "../messages";
import { canCancel } from "../status";

const CUSTOMER_FILTERS = BATCH_FILTER_KEYS.filter((k) => k !== "userId");

export default function CustomerTaskPage() {
  const t = messages.useT();
  const meta = useCurrentRoute().node.meta ?? {};
  const productCode = Number(meta.productCode) as ProductCode;
  const url = useBatchListFilters(CUSTOMER_FILTERS);
  const query = useBatchList(listParams(url, { productCode }));
  const actions = useBatchActions();
  const queryClient = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const openId = search.get("batch");
  // A product no channel carries for the customer (or not open to them) says so before anything is paid.
  const availability = useProductAvailability(productCode);
  const unavailable = availability.state === "unavailable";
  const creating = search.get("new") === "1" && !unavailable;
  // A finished screening batch whose reachable numbers the customer is sending to.
  const [reachableOf, setReachableOf] = useState<BatchRow | null>(null);

  const setParam = (key: string, value: string | null) =>
    setSearch((prev) => {
      const out = new URLSearchParams(prev);
      if (value === null) out.delete(key);
      else out.set(key, value);
      return out;
    });

  const rowActions = (row: BatchRow) => (
    <CustomerRowActions row={row} actions={actions} onDetail={() => setParam("batch", row.id)} />
  );

  return (
    <PageContainer
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setParam("new", "1")}
          disabled={unavailable}
          data-testid="new-task"
        >
          {t("action.newTask")}
        </Button>
      }
    >
      <ProductUnavailable availability={availability} />
      <BatchFilters url={url} showStatus showCustomer={false} />
      <LiveNote rows={query.data?.list} />
      <BatchTable
        query={query}
        url={url}
        staff={false}
        onOpen={(row) => setParam("batch", row.id)}
        actions={rowActions}
      />
      <Drawer
        open={openId !== null}
        onClose={() => setParam("batch", null)}
        size={1000}
        destroyOnHidden
        title={openId ? t("detail.title", { id: openId }) : undefined}
        data-testid="batch-drawer"
      >
        {openId && (
          <BatchDetailView
            batchId={openId}
            staff={false}
            actions={(b) => (
              <Space>
                {b.taskType === 1 && b.status === 22 && b.deliveredCount > 0 && (
                  <Button type="primary" onClick={() => setReachableOf(b)} data-testid="send-reachable">
                    {t("action.sendReachable")}
                  </Button>
                )}
                {canCancel(b.status) && (
                  <Button danger onClick={() => actions.confirmCancel(b.id)} data-testid="detail-cancel">
                    {t("action.cancel")}
                  </Button>
                )}
              </Space>
            )}
          />
        )}
      </Drawer>
      {reachableOf && (
        <SendReachableModal
          open
          screeningId={reachableOf.id}
          productCode={reachableOf.productCode as ProductCode}
          reachable={reachableOf.deliveredCount}
          onClose={() => setReachableOf(null)}
          onSubmitted={(batchId) => {
            setReachableOf(null);
            setParam("batch", batchId);
            void queryClient.invalidateQueries({ queryKey: batchKeys.all });
          }}
        />
      )}
      <DirectTaskModal
        productCode={productCode}
        open={creating}
        onClose={() => setParam("new", null)}
        onSubmitted={() => {
          // One toast: the task form has said what it accepted (modes 2 and 3) or shown its outcome (mode 1).
          setParam("new", null);
          void queryClient.invalidateQueries({ queryKey: batchKeys.all });
        }}
      />
    </PageContainer>
  );
}
