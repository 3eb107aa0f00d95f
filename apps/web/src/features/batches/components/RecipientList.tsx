import { DownloadOutlined } from "@ant-design/icons";
import { ProductCode } from "@switchboard/contracts/codes";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { App, Button, Input, Select, Space, Table, type TableColumnsType, Tag } from "antd";
import { useMemo, useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PAGE_SIZE } from "../../../hooks/use-url-filters";
import { errorText } from "../../../lib/error-text";
import { formatPrice } from "../../../lib/format";
import { batchKeys, browserTimeZone, downloadCsv, fetchRecipients, type RecipientRow, saveBlob } from "../api";
import { type BatchMessageKey, messages } from "../messages";
import { RECEIVE_RESULT_CODES, receiveResultColor, SEND_RESULT_CODES, sendResultColor } from "../status";
import { formatTime } from "./time";

interface Filters {
  phone?: string;
  sendResult?: number;
  receiveResult?: number;
}

/** Reads an export and hands it to the browser; errors are shown as a warning. */
export function useCsvExport() {
  const t = messages.useT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<string | null>(null);
  async function run(kind: string, path: string, params: Record<string, string | number | undefined>, name: string) {
    setBusy(kind);
    try {
      const file = await downloadCsv(path, params, name, t("export.failed"));
      saveBlob(file);
      message.success(t("done.exported", { file: file.fileName }));
    } catch (error) {
      message.warning(errorText(error, t.shell));
    } finally {
      setBusy(null);
    }
  }
  return { busy, run };
}

/**
 * A batch's recipients: search by number (prefix), filters by send result and status report, server-side
 * paging, and CSV exports of the recipients (with the same filters) and of the rejected numbers.
 */
export function RecipientList({
  batchId,
  productCode,
  staff,
  live,
}: {
  batchId: string;
  /** RCS shows which channel carried each message (RCS or its SMS fallback); RCS and WS when it was read. */
  productCode: number;
  staff: boolean;
  live: boolean;
}) {
  const t = messages.useT();
  const [filters, setFilters] = useState<Filters>({});
  const [phoneInput, setPhoneInput] = useState("");
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const exporter = useCsvExport();

  const params = useMemo(() => {
    const out: Record<string, string | number> = { page, pageSize };
    if (filters.phone) out.phone = filters.phone;
    if (filters.sendResult !== undefined) out.sendResult = filters.sendResult;
    if (filters.receiveResult !== undefined) out.receiveResult = filters.receiveResult;
    return out;
  }, [filters, page, pageSize]);

  const query = useQuery({
    queryKey: batchKeys.recipients(batchId, params),
    queryFn: ({ signal }) => fetchRecipients(batchId, params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 2_000 : false,
  });

  const update = (next: Filters) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };

  const columns: TableColumnsType<RecipientRow> = [
    { title: t("col.phone"), dataIndex: "phone", key: "phone" },
    { title: t("col.country"), dataIndex: "countryCode", key: "countryCode", width: 90 },
    { title: t("col.segments"), dataIndex: "segments", key: "segments", width: 80 },
    { title: t("col.price"), dataIndex: "price", key: "price", render: (v: string) => formatPrice(v) },
    {
      title: t("col.sendResult"),
      dataIndex: "sendResult",
      key: "sendResult",
      render: (v: number) => <Tag color={sendResultColor(v)}>{t(`sendResult.${v}` as BatchMessageKey)}</Tag>,
    },
    {
      title: t("col.receiveResult"),
      dataIndex: "receiveResult",
      key: "receiveResult",
      render: (v: number) => <Tag color={receiveResultColor(v)}>{t(`receiveResult.${v}` as BatchMessageKey)}</Tag>,
    },
    { title: t("col.errorCode"), dataIndex: "errorCode", key: "errorCode", render: (v: string | null) => v ?? "-" },
    { title: t("col.sentAt"), dataIndex: "sentAt", key: "sentAt", render: (v: string | null) => formatTime(v) },
    {
      title: t("col.receivedAt"),
      dataIndex: "receivedAt",
      key: "receivedAt",
      render: (v: string | null) => formatTime(v),
    },
    ...(productCode === ProductCode.RCS || productCode === ProductCode.WS
      ? [{ title: t("col.readAt"), dataIndex: "readAt", key: "readAt", render: (v: string | null) => formatTime(v) }]
      : []),
    ...(productCode === ProductCode.RCS
      ? [
          {
            title: t("col.carriedBy"),
            key: "carriedBy",
            render: (_: unknown, row: RecipientRow) =>
              row.sendResult === 0 ? (
                "-"
              ) : row.fellBackToSms ? (
                <Tag color="orange" data-testid="carried-sms">
                  {t("carriedBy.sms")}
                </Tag>
              ) : (
                <Tag color="blue" data-testid="carried-rcs">
                  {t("carriedBy.rcs")}
                </Tag>
              ),
          },
        ]
      : []),
    ...(staff
      ? [
          {
            title: t("col.channel"),
            dataIndex: "channelName",
            key: "channel",
            // The name; the id only for a channel deleted since.
            render: (name: string | null, row: RecipientRow) =>
              name ?? (row.channelId !== null ? `#${row.channelId}` : "-"),
          },
        ]
      : []),
  ];

  // Labels come in the request's language (its lang header); times on this browser's clock.
  const exportParams = {
    id: batchId,
    phone: filters.phone,
    sendResult: filters.sendResult,
    receiveResult: filters.receiveResult,
    tz: browserTimeZone(),
  };

  return (
    <div data-testid="recipient-list">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          value={phoneInput}
          onChange={(e) => setPhoneInput(e.target.value)}
          onSearch={(v) => update({ phone: v.trim().replace(/[\s-]/g, "") || undefined })}
          placeholder={t("filter.phone")}
          aria-label={t("filter.phone")}
          style={{ width: 220 }}
          data-testid="recipient-search"
        />
        <Select<number>
          allowClear
          placeholder={t("filter.sendResult")}
          aria-label={t("filter.sendResult")}
          style={{ width: 150 }}
          value={filters.sendResult}
          onChange={(v) => update({ sendResult: v })}
          options={SEND_RESULT_CODES.map((c) => ({ value: c, label: t(`sendResult.${c}` as BatchMessageKey) }))}
          data-testid="recipient-send-result"
        />
        <Select<number>
          allowClear
          placeholder={t("filter.receiveResult")}
          aria-label={t("filter.receiveResult")}
          style={{ width: 150 }}
          value={filters.receiveResult}
          onChange={(v) => update({ receiveResult: v })}
          options={RECEIVE_RESULT_CODES.map((c) => ({ value: c, label: t(`receiveResult.${c}` as BatchMessageKey) }))}
          data-testid="recipient-receive-result"
        />
        <Button
          icon={<DownloadOutlined />}
          loading={exporter.busy === "recipients"}
          onClick={() =>
            exporter.run("recipients", "/batch/recipients/export", exportParams, `batch-${batchId}-recipients.csv`)
          }
          data-testid="export-recipients"
        >
          {t("action.exportRecipients")}
        </Button>
        <Button
          icon={<DownloadOutlined />}
          loading={exporter.busy === "rejected"}
          onClick={() =>
            exporter.run("rejected", "/batch/rejected/export", { id: batchId }, `batch-${batchId}-rejected.csv`)
          }
          data-testid="export-rejected"
        >
          {t("action.exportRejected")}
        </Button>
      </Space>
      {query.isError && !query.data ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : (
        <Table<RecipientRow>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={query.data?.list ?? []}
          loading={query.isLoading}
          scroll={{ x: "max-content" }}
          locale={{ emptyText: t("list.empty") }}
          pagination={{
            current: page,
            pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t("list.total", { total }),
            onChange: (p, size) => {
              setPage(size !== pageSize ? 1 : p);
              setPageSize(size);
            },
          }}
        />
      )}
    </div>
  );
}
