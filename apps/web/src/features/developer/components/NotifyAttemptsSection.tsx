// The customer's callback attempts (issue 18, docs/api-keys.md): every post to its notify URL with the answer,
// newest first, filtered by event and batch id (in the URL, with the list building block), and a Resend action
// that queues the attempt's event again with the same event id.
import { NOTIFY_ATTEMPT_EVENTS, type NotifyAttemptRow, reasonOfCallbackError } from "@switchboard/contracts";
import { App, Button, Flex, type TableColumnsType, Tag, Typography } from "antd";
import { FilterSelect, ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { formatNumber } from "../../../lib/format";
import { formatTime } from "../../batches/components/time";
import { useReasonText } from "../../connection-test/reason";
import { useNotifyAttempts, useResendNotifyAttempt } from "../api/developer-api";
import { messages } from "../messages";

type Filters = { event?: string; batchId?: string };

const digitsOnly = (text: string) => text.replace(/\D/g, "").slice(0, 19);

/**
 * The attempts list. A customer sees its own and may resend; staff pass the customer they chose (`customerId`)
 * and read that customer's attempts only (the API lets only the customer resend, so the action is not offered).
 */
export function NotifyAttemptsSection({ customerId }: { customerId?: number } = {}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const list = useListFilters<Filters>(["event", "batchId"], { searchKey: "batchId", clean: digitsOnly });
  const staffView = customerId !== undefined;
  const query = useNotifyAttempts(staffView ? { ...list.params, userId: customerId } : list.params);
  const resend = useResendNotifyAttempt();
  const reasonText = useReasonText();
  // The stored error is our own code (http_500, timeout, ECONNREFUSED...): shown as a sentence in the user's
  // language, the code itself on hover for whoever compares it with the receiver's logs.
  const errorText = (error: string, httpStatus: number | null) =>
    error === "no_secret_key" ? t("attempts.noSecretKey") : reasonText(reasonOfCallbackError(error), httpStatus);
  const eventLabel = (event: string) =>
    (NOTIFY_ATTEMPT_EVENTS as readonly string[]).includes(event)
      ? t(`attempts.event.${event as (typeof NOTIFY_ATTEMPT_EVENTS)[number]}`)
      : event;

  const columns: TableColumnsType<NotifyAttemptRow> = [
    { title: t("attempts.time"), dataIndex: "createdAt", key: "createdAt", render: formatTime },
    { title: t("attempts.event"), dataIndex: "event", key: "event", render: eventLabel },
    {
      title: t("attempts.eventId"),
      dataIndex: "eventId",
      key: "eventId",
      render: (v: string | null) =>
        v ? (
          <Typography.Text copyable={{ text: v }} ellipsis style={{ maxWidth: 180 }} title={v}>
            {v}
          </Typography.Text>
        ) : (
          "-"
        ),
    },
    { title: t("attempts.batchId"), dataIndex: "batchId", key: "batchId", render: (v: string | null) => v ?? "-" },
    {
      title: t("attempts.attempt"),
      dataIndex: "attempt",
      key: "attempt",
      render: (v: number, row) => (
        <Flex gap={4} align="center">
          {formatNumber(v)}
          {row.manual && <Tag>{t("attempts.manual")}</Tag>}
        </Flex>
      ),
    },
    {
      title: t("attempts.httpStatus"),
      dataIndex: "httpStatus",
      key: "httpStatus",
      render: (v: number | null) =>
        v === null ? "-" : <Tag color={v >= 200 && v < 300 ? "success" : "error"}>{v}</Tag>,
    },
    {
      title: t("attempts.error"),
      dataIndex: "error",
      key: "error",
      render: (v: string | null, row) =>
        v ? (
          <Typography.Text type="danger" title={v}>
            {errorText(v, row.httpStatus)}
          </Typography.Text>
        ) : (
          "-"
        ),
    },
    {
      title: t("attempts.duration"),
      dataIndex: "durationMs",
      key: "durationMs",
      align: "right",
      render: (v: number | null) => (v === null ? "-" : t("attempts.ms", { ms: formatNumber(v) })),
    },
  ];
  if (!staffView)
    columns.push({
      title: t("attempts.actions"),
      key: "actions",
      fixed: "right",
      render: (_, row) =>
        row.resendable ? (
          <Button
            type="link"
            size="small"
            loading={resend.isPending && resend.variables === row.id}
            data-testid={`notify-attempt-resend-${row.id}`}
            onClick={() =>
              resend.mutate(row.id, {
                onSuccess: () => void message.success(t("attempts.resent")),
                onError: showError,
              })
            }
          >
            {t("attempts.resend")}
          </Button>
        ) : null,
    });

  return (
    <Flex vertical gap={8} data-testid="notify-attempts-section">
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t("attempts.title")}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t("attempts.help")}
      </Typography.Paragraph>
      <ListToolbar
        actions={
          <Button onClick={() => void query.refetch()} loading={query.isFetching} data-testid="notify-attempts-refresh">
            {t("attempts.refresh")}
          </Button>
        }
      >
        <FilterSelect<Filters>
          list={list}
          name="event"
          placeholder={t("attempts.eventFilter")}
          label={t("attempts.event")}
          width={180}
          options={NOTIFY_ATTEMPT_EVENTS.map((e) => ({ value: e, label: t(`attempts.event.${e}`) }))}
          testId="notify-attempts-event"
        />
        <SearchBox
          search={list.search}
          placeholder={t("attempts.batchSearch")}
          width={220}
          maxLength={19}
          inputMode="numeric"
          testId="notify-attempts-batch"
        />
        <ResetButton onReset={list.reset} />
      </ListToolbar>
      <PagedTable<NotifyAttemptRow>
        query={query}
        paging={list}
        columns={columns}
        empty={t("attempts.empty")}
        emptyTestId="notify-attempts-empty"
        retryTestId="notify-attempts-retry"
        scroll={{ x: "max-content" }}
        size="small"
        data-testid="notify-attempts"
      />
    </Flex>
  );
}
