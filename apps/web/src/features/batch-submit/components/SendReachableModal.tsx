/**
 * From a finished screening batch to a message batch: the numbers it found reachable get this content
 * (POST /batch/screening/send), priced, charged and reviewed like any other batch.
 */
import type { BatchSubmitResult } from "@switchboard/contracts";
import type { ProductCode } from "@switchboard/contracts/codes";
import { useMutation } from "@tanstack/react-query";
import { Alert, App, Modal, Typography } from "antd";
import { useMemo, useState } from "react";
import { api, isApiError } from "../../../lib/api";
import { errorText } from "../../../lib/error-text";
import { formatNumber } from "../../../lib/format";
import { messages } from "../messages";
import { buildContent, type ContentDraft, emptyDraft } from "../model";
import { ContentEditor } from "./ContentEditor";

export function SendReachableModal(props: {
  open: boolean;
  screeningId: string;
  productCode: ProductCode;
  reachable: number;
  onClose: () => void;
  onSubmitted: (batchId: string) => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [draft, setDraft] = useState<ContentDraft>(emptyDraft);
  const [showProblems, setShowProblems] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const built = useMemo(() => buildContent(props.productCode, draft), [props.productCode, draft]);
  const send = useMutation({
    mutationFn: (content: NonNullable<typeof built.content>) =>
      api.post<BatchSubmitResult>("/batch/screening/send", { id: props.screeningId, content }),
    onMutate: () => setFailure(null),
    onSuccess: (result) => {
      message.success(t("reachable.sent", { id: result.batch.id }));
      props.onSubmitted(result.batch.id);
    },
    onError: (error) => {
      if (isApiError(error) && error.kind === "unauthorized") return;
      setFailure(errorText(error, t.shell));
    },
  });
  return (
    <Modal
      open={props.open}
      title={t("reachable.title", { count: formatNumber(props.reachable) })}
      okText={t("reachable.submit")}
      onOk={() => {
        setShowProblems(true);
        if (built.content) send.mutate(built.content);
      }}
      confirmLoading={send.isPending}
      onCancel={props.onClose}
      destroyOnHidden
      width={720}
      modalRender={(node) => <div data-testid="send-reachable-modal">{node}</div>}
    >
      <Typography.Paragraph type="secondary">{t("reachable.note")}</Typography.Paragraph>
      <ContentEditor
        product={props.productCode}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        problems={showProblems ? (built.problems ?? {}) : {}}
      />
      {failure && <Alert type="error" showIcon title={failure} data-testid="send-reachable-error" />}
    </Modal>
  );
}
