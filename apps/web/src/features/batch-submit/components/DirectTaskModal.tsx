import { InboxOutlined } from "@ant-design/icons";
import {
  BATCH_FILE_MAX_BYTES,
  BATCH_FILE_MAX_NUMBERS,
  BATCH_MULTIPLE_MAX_NUMBERS,
  BATCH_SCHEDULE_MAX_DAYS,
  type BatchSubmitResult,
  type SubmitPreResult,
} from "@switchboard/contracts";
import { type ProductCode, SubmitMode, TaskType } from "@switchboard/contracts/codes";
import { useMutation } from "@tanstack/react-query";
import {
  Alert,
  App,
  Button,
  DatePicker,
  Divider,
  Flex,
  Form,
  Input,
  Modal,
  Progress,
  Radio,
  Segmented,
  Typography,
  Upload,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { type RefObject, useEffect, useId, useMemo, useRef, useState } from "react";
import { isApiError } from "../../../lib/api";
import { errorText } from "../../../lib/error-text";
import { formatNumber } from "../../../lib/format";
import { checkBatch, type Recipients, type SubmitAnswer, submitBatch, type Target } from "../api/batch-submit";
import { messages } from "../messages";
import {
  blockReason,
  buildContent,
  type ContentDraft,
  checkRecipients,
  checkSchedule,
  emptyDraft,
  FILE_EXTENSIONS,
  parseNumbers,
} from "../model";
import { ContentEditor } from "./ContentEditor";
import { Field } from "./Field";
import { SubmitOutcome } from "./SubmitOutcome";
import { SubmitSummary } from "./SubmitSummary";

export interface DirectTaskModalProps {
  productCode: ProductCode;
  open: boolean;
  /** Closed without creating a batch. */
  onClose: () => void;
  /**
   * A batch was created (its id as the API gives it); the parent closes the modal. Modes 2 and 3 call it as
   * soon as the API answers; mode 1 first shows the number's outcome and calls it when that view is closed.
   */
  onSubmitted: (batchId: string) => void;
}

/** The "direct message task" modal (spec section 2): recipients, content, schedule, pre-submit check, submit. */
export function DirectTaskModal({ productCode, open, onClose, onSubmitted }: DirectTaskModalProps) {
  const t = messages.useT();
  // A mode 1 batch whose outcome is on screen: closing the modal then still reports it.
  const created = useRef<string | null>(null);
  const close = () => {
    const id = created.current;
    created.current = null;
    if (id === null) onClose();
    else onSubmitted(id);
  };
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      width={900}
      destroyOnHidden
      mask={{ closable: false }}
      title={t("modal.titleProduct", { product: t(`product.${productCode}`) })}
      modalRender={(node) => <div data-testid="task-modal">{node}</div>}
    >
      <DirectTaskForm
        productCode={productCode}
        created={created}
        onCancel={close}
        onSubmitted={(id) => {
          created.current = null;
          onSubmitted(id);
        }}
      />
    </Modal>
  );
}

type ScheduleMode = "now" | "later";

interface UploadState {
  percent: number;
  status: "active" | "success" | "exception";
}

/**
 * The direct task's form: in the modal (customer app) and as the RCS portal's create page. `created` holds a
 * mode 1 batch while its outcome is on screen; `onSubmitted` gets every created batch's id.
 */
export function DirectTaskForm(props: {
  productCode: ProductCode;
  created: RefObject<string | null>;
  onCancel: () => void;
  onSubmitted: (batchId: string) => void;
}) {
  const { productCode } = props;
  const t = messages.useT();
  const { message } = App.useApp();
  const id = useId();

  const [taskType, setTaskType] = useState<TaskType>(TaskType.MESSAGE);
  const [mode, setMode] = useState<SubmitMode>(SubmitMode.SINGLE);
  const [single, setSingle] = useState("");
  const [manyText, setManyText] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [draft, setDraft] = useState<ContentDraft>(emptyDraft);
  const [scheduleMode, setScheduleMode] = useState<ScheduleMode>("now");
  const [scheduledAt, setScheduledAt] = useState<Dayjs | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [summary, setSummary] = useState<{ key: string; result: SubmitPreResult } | null>(null);
  const [upload, setUpload] = useState<UploadState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<BatchSubmitResult | null>(null);

  // Uploads stop when the modal goes away.
  const aborter = useRef<AbortController | null>(null);
  useEffect(() => () => aborter.current?.abort(), []);
  const uploadHooks = () => {
    aborter.current?.abort();
    aborter.current = new AbortController();
    setUpload({ percent: 0, status: "active" });
    return {
      signal: aborter.current.signal,
      onProgress: (p: { percent: number | null }) => setUpload({ percent: p.percent ?? 0, status: "active" }),
    };
  };

  const numbers = useMemo(() => parseNumbers(manyText), [manyText]);
  const built = useMemo(() => buildContent(productCode, draft), [productCode, draft]);
  const recipientsProblem = checkRecipients(mode, single, numbers, file);
  const recipients = useMemo((): Recipients | null => {
    if (recipientsProblem) return null;
    if (mode === SubmitMode.SINGLE) return { mode: SubmitMode.SINGLE, number: single.trim() };
    if (mode === SubmitMode.MULTIPLE) return { mode: SubmitMode.MULTIPLE, numbers };
    return file ? { mode: SubmitMode.FILE, file } : null;
  }, [recipientsProblem, mode, single, numbers, file]);
  // What the summary was computed for: any change of numbers or content makes it stale.
  const requestKey = useMemo(() => {
    if (!recipients || !built.content) return null;
    const who =
      recipients.mode === SubmitMode.FILE
        ? [recipients.file.name, recipients.file.size, recipients.file.lastModified]
        : recipients.mode === SubmitMode.SINGLE
          ? recipients.number
          : recipients.numbers;
    return JSON.stringify([taskType, recipients.mode, who, built.content]);
  }, [taskType, recipients, built.content]);

  const fail = (error: unknown, key: "check.failed" | "submit.failed") => {
    setUpload((u) => (u ? { ...u, status: "exception" } : u));
    // 401: the client has already gone to the login page; an abort: the modal is closing.
    if (isApiError(error) && error.kind === "unauthorized") return;
    if (aborter.current?.signal.aborted) return;
    setFailure(t(key, { message: errorText(error, t.shell) }));
  };

  const check = useMutation({
    mutationFn: (v: { key: string; target: Target; recipients: Recipients }) =>
      checkBatch(
        v.target,
        v.recipients,
        v.recipients.mode === SubmitMode.FILE ? uploadHooks() : { onProgress: () => {} },
      ),
    onMutate: () => setFailure(null),
    onSuccess: (result, v) => {
      setUpload((u) => (u ? { percent: 100, status: "success" } : u));
      setSummary({ key: v.key, result });
    },
    onError: (error) => fail(error, "check.failed"),
  });

  const submit = useMutation({
    mutationFn: (v: { target: Target; recipients: Recipients; scheduledAt: string | undefined }) =>
      submitBatch(
        v.target,
        v.recipients,
        v.scheduledAt,
        v.recipients.mode === SubmitMode.FILE ? uploadHooks() : { onProgress: () => {} },
      ),
    onMutate: () => setFailure(null),
    onSuccess: (answer: SubmitAnswer) => {
      setUpload((u) => (u ? { percent: 100, status: "success" } : u));
      const batchId = answer.result.batch.id;
      if (answer.mode === SubmitMode.SINGLE) {
        props.created.current = batchId;
        setOutcome(answer.result);
        return;
      }
      if (answer.mode === SubmitMode.MULTIPLE) {
        const accepted = answer.result.numbers.filter((n) => n.result === "accepted").length;
        message.success(
          t("done.multiple", {
            accepted: formatNumber(accepted),
            rejected: formatNumber(answer.result.numbers.length - accepted),
          }),
        );
      } else {
        message.success(t("done.file"));
      }
      props.onSubmitted(batchId);
    },
    onError: (error) => fail(error, "submit.failed"),
  });

  const busy = check.isPending || submit.isPending;
  const stale = summary !== null && summary.key !== requestKey;
  const blocked = blockReason(summary?.result ?? null, stale, t);
  const scheduleProblem = scheduleMode === "later" ? checkSchedule(scheduledAt, dayjs()) : null;

  const runCheck = () => {
    setShowProblems(true);
    if (!requestKey || !recipients || !built.content || busy) return;
    check.mutate({ key: requestKey, target: { productCode, content: built.content, taskType }, recipients });
  };

  const runSubmit = () => {
    setShowProblems(true);
    if (blocked || busy || !recipients || !built.content) return;
    if (scheduleProblem) return;
    submit.mutate({
      target: { productCode, content: built.content, taskType },
      recipients,
      scheduledAt: scheduleMode === "later" && scheduledAt ? scheduledAt.toISOString() : undefined,
    });
  };

  const onFile = (chosen: File) => {
    setFile(chosen);
    setUpload(null);
  };

  if (outcome) return <SubmitOutcome result={outcome} onDone={() => props.onSubmitted(outcome.batch.id)} />;

  const contentProblems = showProblems ? (built.problems ?? {}) : {};
  // A chosen file's type and size, and too many pasted numbers, are shown at once; the rest after a check.
  const shownRecipientsProblem =
    showProblems ||
    (mode === SubmitMode.FILE && file !== null) ||
    (mode === SubmitMode.MULTIPLE && numbers.length > BATCH_MULTIPLE_MAX_NUMBERS)
      ? recipientsProblem
      : null;

  return (
    <Form layout="vertical" component={false} disabled={submit.isPending}>
      <Field>
        <Segmented<TaskType>
          value={taskType}
          onChange={(v) => setTaskType(v)}
          options={[
            { value: TaskType.MESSAGE, label: <span data-testid="task-type-message">{t("taskType.message")}</span> },
            {
              value: TaskType.SCREENING,
              label: <span data-testid="task-type-screening">{t("taskType.screening")}</span>,
            },
          ]}
        />
        {taskType === TaskType.SCREENING && (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="task-screening-note">
            {t("taskType.screeningNote")}
          </Typography.Paragraph>
        )}
      </Field>
      <Typography.Title level={5}>{t("section.recipients")}</Typography.Title>
      <Field>
        <Segmented<SubmitMode>
          value={mode}
          onChange={(v) => setMode(v)}
          options={[
            { value: SubmitMode.SINGLE, label: <span data-testid="task-mode-single">{t("mode.single")}</span> },
            { value: SubmitMode.MULTIPLE, label: <span data-testid="task-mode-multiple">{t("mode.multiple")}</span> },
            { value: SubmitMode.FILE, label: <span data-testid="task-mode-file">{t("mode.file")}</span> },
          ]}
        />
      </Field>
      {mode === SubmitMode.SINGLE && (
        <Field label={t("number.label")} htmlFor={`${id}-number`} problem={shownRecipientsProblem} required>
          <Input
            id={`${id}-number`}
            data-testid="task-number"
            value={single}
            onChange={(e) => setSingle(e.target.value)}
            onPressEnter={runCheck}
            placeholder={t("number.placeholder")}
            inputMode="tel"
            autoComplete="off"
            style={{ maxWidth: 320 }}
          />
        </Field>
      )}
      {mode === SubmitMode.MULTIPLE && (
        <Field
          label={t("numbers.label")}
          htmlFor={`${id}-numbers`}
          problem={shownRecipientsProblem}
          required
          extra={
            <Typography.Text
              data-testid="task-numbers-count"
              type={numbers.length > BATCH_MULTIPLE_MAX_NUMBERS ? "danger" : "secondary"}
              aria-live="polite"
            >
              {t(numbers.length > BATCH_MULTIPLE_MAX_NUMBERS ? "numbers.countMax" : "numbers.count", {
                count: formatNumber(numbers.length),
                max: formatNumber(BATCH_MULTIPLE_MAX_NUMBERS),
              })}
            </Typography.Text>
          }
        >
          <Input.TextArea
            id={`${id}-numbers`}
            data-testid="task-numbers"
            value={manyText}
            onChange={(e) => setManyText(e.target.value)}
            placeholder={t("numbers.placeholder")}
            autoSize={{ minRows: 4, maxRows: 10 }}
          />
        </Field>
      )}
      {mode === SubmitMode.FILE && (
        <Field
          label={t("file.label")}
          htmlFor={`${id}-file`}
          problem={shownRecipientsProblem}
          required
          extra={t("file.hint", {
            size: BATCH_FILE_MAX_BYTES / 2 ** 20,
            count: formatNumber(BATCH_FILE_MAX_NUMBERS),
          })}
        >
          {/* antd's drop zone: chosen files stay here (LIST_IGNORE); the check or the submit uploads them. */}
          <Upload.Dragger
            id={`${id}-file`}
            data-testid="task-file-input"
            accept={FILE_EXTENSIONS.map((e) => `.${e}`).join(",")}
            multiple={false}
            showUploadList={false}
            disabled={busy}
            beforeUpload={(chosen) => {
              onFile(chosen);
              return Upload.LIST_IGNORE;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t("file.drop")}</p>
          </Upload.Dragger>
          {file && (
            <div>
              <Typography.Text type="secondary">
                {t("file.chosen", { name: file.name, size: fileSize(file.size) })}
              </Typography.Text>
            </div>
          )}
          {upload && (
            <div data-testid="task-upload-progress">
              <Progress percent={upload.percent} status={upload.status} size="small" />
            </div>
          )}
        </Field>
      )}

      <Divider />
      <Typography.Title level={5}>{t("section.content")}</Typography.Title>
      <ContentEditor
        product={productCode}
        draft={draft}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
        problems={contentProblems}
      />
      {showProblems && built.problems?.form && (
        <Alert type="error" showIcon title={t(built.problems.form.key, built.problems.form.params)} />
      )}

      <Divider />
      <Typography.Title level={5}>{t("section.schedule")}</Typography.Title>
      <Field problem={showProblems ? scheduleProblem : null}>
        <Flex gap={12} wrap align="center">
          <Radio.Group
            value={scheduleMode}
            onChange={(e) => setScheduleMode(e.target.value as ScheduleMode)}
            options={[
              { value: "now", label: t("schedule.now") },
              { value: "later", label: t("schedule.later") },
            ]}
          />
          {scheduleMode === "later" && (
            <DatePicker
              aria-label={t("schedule.at")}
              data-testid="task-schedule"
              showTime={{ format: "HH:mm" }}
              format="YYYY-MM-DD HH:mm"
              value={scheduledAt}
              onChange={(v) => setScheduledAt(v)}
              disabledDate={(d) =>
                d.isBefore(dayjs(), "day") || d.isAfter(dayjs().add(BATCH_SCHEDULE_MAX_DAYS, "day"), "day")
              }
            />
          )}
        </Flex>
      </Field>

      {summary && !stale && (
        <>
          <Divider />
          <SubmitSummary result={summary.result} />
        </>
      )}
      {failure && (
        <Alert
          data-testid="task-error"
          style={{ marginTop: 16 }}
          type="error"
          showIcon
          title={failure}
          closable={{ onClose: () => setFailure(null) }}
        />
      )}

      <Divider />
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Text data-testid="task-confirm-reason" type={summary && !stale ? "danger" : "secondary"}>
          {blocked ?? ""}
        </Typography.Text>
        <Flex gap={8} style={{ marginLeft: "auto" }}>
          <Button onClick={props.onCancel} disabled={false}>
            {t("action.cancel")}
          </Button>
          <Button data-testid="task-check" onClick={runCheck} loading={check.isPending} disabled={submit.isPending}>
            {t(summary ? "action.recheck" : "action.check")}
          </Button>
          <Button
            data-testid="task-confirm"
            type="primary"
            onClick={runSubmit}
            loading={submit.isPending}
            disabled={blocked !== null || check.isPending}
            title={blocked ?? undefined}
          >
            {t("action.confirm")}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 2 ** 20) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
