import { BATCH_REASON_TEXT_MAX, type ReviewReason } from "@switchboard/contracts";
import { BatchStatus } from "@switchboard/contracts/codes";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, DatePicker, Form, Input, Modal, Radio, Skeleton, Space, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useState } from "react";
import { errorText } from "../../../lib/error-text";
import { formatMoney, formatNumber } from "../../../lib/format";
import { type BatchRow, batchKeys, changeSchedule, passReview, rejectReview } from "../api";
import { type BatchMessageKey, messages } from "../messages";
import { canReschedule, canReview } from "../status";
import { useBatchDetail } from "./BatchDetailView";
import { BatchStatusTag } from "./BatchStatusTag";
import { ContentPreview } from "./ContentPreview";

interface FormValues {
  decision: "pass" | "reject";
  scheduledAt?: Dayjs | null;
  reason?: string;
}

type Action =
  | { kind: "pass"; scheduledAt: string | null }
  | { kind: "reject"; reason: string }
  | { kind: "schedule"; scheduledAt: string | null };

function run(id: string, action: Action): Promise<BatchRow> {
  switch (action.kind) {
    case "pass":
      return passReview(id, action.scheduledAt);
    case "reject":
      return rejectReview(id, action.reason);
    case "schedule":
      return changeSchedule(id, action.scheduledAt);
  }
}

/** One reason the batch was held, in the reader's words. */
function ReasonText({ reason }: { reason: ReviewReason }) {
  const t = messages.useT();
  switch (reason.kind) {
    case "sensitive_word":
      return <>{t("review.why.sensitive_word", { words: reason.words.join(t("review.why.wordSeparator")) })}</>;
    case "above_threshold":
      return (
        <>
          {t("review.why.above_threshold", {
            recipients: formatNumber(reason.recipients),
            threshold: formatNumber(reason.threshold),
          })}
        </>
      );
    default:
      return <>{t("review.why.review_all")}</>;
  }
}

/** Why a batch under review is held: the sensitive words found, review mode 1, the threshold of mode 2. */
function ReviewReasons({ reasons }: { reasons: ReviewReason[] | null }) {
  const t = messages.useT();
  return (
    <Alert
      type="warning"
      showIcon
      title={t("review.why")}
      data-testid="review-reasons"
      description={
        reasons ? (
          <ul style={{ margin: 0, paddingInlineStart: 18 }}>
            {reasons.map((reason) => (
              <li key={reason.kind} data-testid={`review-reason-${reason.kind}`}>
                <ReasonText reason={reason} />
              </li>
            ))}
          </ul>
        ) : (
          t("review.why.unknown")
        )
      }
    />
  );
}

/**
 * The back office's review modal (the spec's "message task review and update"): why the batch is held, the
 * content as the recipient will see it, then pass (optionally scheduled) or reject with a reason for a batch under
 * review (11); for a batch pending send (20) only its send time can change, and the title says so. Errors stay in
 * the modal.
 */
export function ReviewModal({ batchId, onClose }: { batchId: string | null; onClose: () => void }) {
  return batchId ? <ReviewModalBody key={batchId} batchId={batchId} onClose={onClose} /> : null;
}

function ReviewModalBody({ batchId, onClose }: { batchId: string; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const detail = useBatchDetail(batchId);
  const [form] = Form.useForm<FormValues>();
  const decision = Form.useWatch("decision", form) ?? "pass";
  const [error, setError] = useState<string | null>(null);
  const batch = detail.data;
  const reviewable = batch ? canReview(batch) : false;
  const reschedulable = batch ? canReschedule(batch.status) : false;

  // The customer's own schedule is where the reviewer starts from.
  useEffect(() => {
    if (batch?.scheduledAt) form.setFieldValue("scheduledAt", dayjs(batch.scheduledAt));
  }, [batch?.scheduledAt, form]);

  const mutation = useMutation({
    mutationFn: (action: Action) => run(batchId, action),
    onSuccess: async (_row, action) => {
      await queryClient.invalidateQueries({ queryKey: batchKeys.all });
      message.success(
        t(action.kind === "pass" ? "done.passed" : action.kind === "reject" ? "done.rejected" : "done.scheduled"),
      );
      onClose();
    },
    onError: (e) => setError(errorText(e, t.shell)),
  });

  const submit = (values: FormValues) => {
    setError(null);
    const at = values.scheduledAt ? values.scheduledAt.toISOString() : null;
    if (reviewable && values.decision === "reject") {
      mutation.mutate({ kind: "reject", reason: (values.reason ?? "").trim() });
    } else if (reviewable) {
      mutation.mutate({ kind: "pass", scheduledAt: at });
    } else if (reschedulable) {
      mutation.mutate({ kind: "schedule", scheduledAt: at });
    }
  };

  const futureRule = {
    validator: (_: unknown, v: Dayjs | null | undefined) =>
      !v || v.isAfter(dayjs()) ? Promise.resolve() : Promise.reject(new Error(t("review.schedulePast"))),
  };

  const actionable = reviewable || reschedulable;
  const underReview = batch?.status === BatchStatus.UNDER_REVIEW;
  // What the modal can do, not more: review a batch under review, change the send time of one pending send.
  const title = t(underReview ? "review.title" : reschedulable ? "review.titleSchedule" : "review.titleView", {
    id: batchId,
  });

  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      data-testid="review-modal"
      footer={
        <Space>
          <Button onClick={onClose}>{t("review.close")}</Button>
          {actionable && (
            <Button
              type="primary"
              danger={reviewable && decision === "reject"}
              loading={mutation.isPending}
              onClick={() => form.submit()}
              data-testid="review-submit"
            >
              {reviewable ? t("review.submit") : t("review.saveSchedule")}
            </Button>
          )}
        </Space>
      }
    >
      {detail.isLoading && <Skeleton active />}
      {detail.isError && !batch && <Alert type="error" showIcon title={errorText(detail.error, t.shell)} />}
      {batch && (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <Space wrap>
            <BatchStatusTag status={batch.status} ingesting={batch.ingesting} />
            <Typography.Text>{batch.user}</Typography.Text>
            <Typography.Text type="secondary">
              {t("review.recipients", { valid: formatNumber(batch.validCount), cost: formatMoney(batch.cost) })}
            </Typography.Text>
          </Space>
          {underReview && !batch.ingesting && <ReviewReasons reasons={batch.reviewReasons} />}
          <ContentPreview content={batch.content} senderId={batch.senderId} />
          {batch.ingesting && <Alert type="info" showIcon title={t("review.ingesting")} />}
          {!actionable && !batch.ingesting && (
            <Alert
              type="warning"
              showIcon
              title={t("review.notActionable", { status: t(`status.${batch.status}` as BatchMessageKey) })}
            />
          )}
          {actionable && (
            <Form<FormValues>
              form={form}
              layout="vertical"
              initialValues={{ decision: "pass" }}
              onFinish={submit}
              requiredMark
              data-testid="review-form"
            >
              {reviewable ? (
                <Form.Item name="decision" label={t("review.decision")}>
                  <Radio.Group
                    optionType="button"
                    buttonStyle="solid"
                    options={[
                      { value: "pass", label: <span data-testid="review-pass">{t("review.pass")}</span> },
                      { value: "reject", label: <span data-testid="review-reject">{t("review.reject")}</span> },
                    ]}
                  />
                </Form.Item>
              ) : (
                <Typography.Text strong>{t("review.pendingSchedule")}</Typography.Text>
              )}
              {(!reviewable || decision === "pass") && (
                <Form.Item
                  name="scheduledAt"
                  label={t("review.schedule")}
                  extra={t(reviewable ? "review.passScheduleHint" : "review.scheduleHint")}
                  rules={[futureRule]}
                >
                  <DatePicker
                    showTime
                    allowClear
                    format="YYYY-MM-DD HH:mm:ss"
                    disabledDate={(d) => d.isBefore(dayjs().startOf("day"))}
                    style={{ width: 240 }}
                    data-testid="review-schedule"
                  />
                </Form.Item>
              )}
              {reviewable && decision === "reject" && (
                <Form.Item
                  name="reason"
                  label={t("review.reason")}
                  rules={[{ required: true, whitespace: true, message: t("review.reasonRequired") }]}
                >
                  <Input.TextArea
                    rows={3}
                    maxLength={BATCH_REASON_TEXT_MAX}
                    showCount
                    placeholder={t("review.reasonPlaceholder", { max: formatNumber(BATCH_REASON_TEXT_MAX) })}
                    data-testid="review-reason"
                  />
                </Form.Item>
              )}
            </Form>
          )}
          {error && <Alert type="error" showIcon title={error} data-testid="review-error" role="alert" />}
        </Space>
      )}
    </Modal>
  );
}
