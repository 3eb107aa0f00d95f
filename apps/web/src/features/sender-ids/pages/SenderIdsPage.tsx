import { App, Button, Flex, Popconfirm, type TableColumnsType, Typography } from "antd";
import { PagedTable } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatNumber } from "../../../lib/format";
import { formatTime } from "../../batches/components/time";
import { type SenderIdRow, useSenderIds, useWithdrawSenderId } from "../api";
import { countryText, SenderIdStatusFilter, SenderIdStatusTag } from "../components/labels";
import { RequestForm } from "../components/RequestForm";
import { messages, type SenderIdMessageKey } from "../messages";

type Filters = { status?: string };

/** /app/sender-ids: the customer requests sender ids and follows their review; approved ones go into SMS tasks. */
export default function SenderIdsPage() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const url = useUrlFilters<Filters>(["status"]);
  const query = useSenderIds(url.params);
  const withdraw = useWithdrawSenderId();

  const columns: TableColumnsType<SenderIdRow> = [
    {
      title: t("col.senderId"),
      dataIndex: "senderId",
      key: "senderId",
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t("col.country"),
      dataIndex: "countryCode",
      key: "countryCode",
      render: (v: string | null) => countryText(v, t.lang, t("form.allCountries")),
    },
    {
      title: t("col.kind"),
      dataIndex: "kind",
      key: "kind",
      render: (v: string) => t(`kind.${v}` as SenderIdMessageKey),
    },
    {
      title: t("col.status"),
      dataIndex: "status",
      key: "status",
      render: (v: number) => <SenderIdStatusTag status={v} />,
    },
    { title: t("col.reason"), dataIndex: "reason", key: "reason", render: (v: string | null) => v ?? "-" },
    { title: t("col.note"), dataIndex: "note", key: "note", ellipsis: true, render: (v: string | null) => v ?? "-" },
    { title: t("col.createdAt"), dataIndex: "createdAt", key: "createdAt", render: formatTime },
    { title: t("col.reviewedAt"), dataIndex: "reviewedAt", key: "reviewedAt", render: formatTime },
    {
      title: t("col.actions"),
      key: "actions",
      fixed: "right",
      render: (_, row) => (
        <Popconfirm
          title={t("withdrawConfirm", { senderId: row.senderId })}
          onConfirm={() =>
            withdraw.mutate(row.id, {
              onSuccess: () => void message.success(t("withdrawn")),
              onError: showError,
            })
          }
        >
          <Button type="link" size="small" danger data-testid={`sender-id-withdraw-${row.id}`}>
            {t("withdraw")}
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <PageContainer>
      <Flex vertical gap={24}>
        <section aria-labelledby="sender-id-request-title">
          <Typography.Title level={5} id="sender-id-request-title">
            {t("form.title")}
          </Typography.Title>
          <Typography.Paragraph type="secondary" data-testid="sender-id-intro">
            {t("intro")}
            <br />
            {t("rules")}
          </Typography.Paragraph>
          <RequestForm />
        </section>
        <section aria-labelledby="sender-id-list-title">
          <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
            <Typography.Title level={5} id="sender-id-list-title" style={{ margin: 0 }}>
              {t("list.title")}
            </Typography.Title>
            <SenderIdStatusFilter list={url} />
          </Flex>
          <PagedTable<SenderIdRow>
            data-testid="sender-id-table"
            columns={columns}
            query={query}
            paging={url}
            empty={t("list.empty")}
            emptyTestId="sender-id-empty"
            retryTestId="sender-id-retry"
            showTotal={(total) => t("list.total", { total: formatNumber(total) })}
          />
        </section>
      </Flex>
    </PageContainer>
  );
}
