/** /user/message/{type}/create: the direct task for RCS as a page (content, fallback, numbers, check, submit). */
import { ArrowLeftOutlined } from "@ant-design/icons";
import type { BatchStage } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { Link, useNavigate } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { DirectTaskForm } from "../../../features/batch-submit/components/DirectTaskModal";
import { batchKeys } from "../../../features/batches/api";
import { ProductUnavailable } from "../../../features/batches/components/ProductUnavailable";
import { useProductAvailability } from "../../../features/batches/hooks/use-product-availability";
import { useCurrentRoute } from "../../../routes/route-context";
import { messages } from "../messages";
import { rcsDetailPath, rcsListPath } from "../stage";

export default function RcsCreatePage() {
  const t = messages.useT();
  const stage = (useCurrentRoute().node.meta?.type ?? "processing") as BatchStage;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const created = useRef<string | null>(null);
  // No channel carries RCS for this customer: said here, and no form to fill in vain.
  const availability = useProductAvailability(ProductCode.RCS);

  return (
    <PageContainer
      extra={
        <Link to={rcsListPath(stage)}>
          <ArrowLeftOutlined /> {t("create.back")}
        </Link>
      }
    >
      <ProductUnavailable availability={availability} />
      {availability.state !== "unavailable" && (
        <div data-testid="task-modal">
          <DirectTaskForm
            productCode={ProductCode.RCS}
            created={created}
            onCancel={() => navigate(rcsListPath(stage))}
            onSubmitted={(id) => {
              created.current = null;
              void queryClient.invalidateQueries({ queryKey: batchKeys.all });
              // The form has said it was accepted (modes 2 and 3) or shown its outcome (mode 1).
              // A new batch is processing (review or pending) or already sending: its detail says which.
              navigate(rcsDetailPath({ id, status: 20 }));
            }}
          />
        </div>
      )}
    </PageContainer>
  );
}
