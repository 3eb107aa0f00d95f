import { UserType } from "@switchboard/contracts/codes";
import { Alert, App, Button, Flex, Popconfirm, Space, type TableColumnsType, Typography } from "antd";
import { useState } from "react";
import { PagedTable, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { errorText } from "../../../lib/error-text";
import { formatNumber } from "../../../lib/format";
import { useSession } from "../../auth/context/session-context";
import { formatTime } from "../../batches/components/time";
import {
  type SenderIdRow,
  SenderIdStatus,
  useApproveSenderId,
  useRejectSenderId,
  useRevokeSenderId,
  useSenderIds,
} from "../api";
import { countryText, SenderIdStatusFilter, SenderIdStatusTag } from "../components/labels";
import { ReasonModal } from "../components/ReasonModal";
import { messages, type SenderIdMessageKey } from "../messages";

type Filters = { status?: string; keyword?: string };

type Deciding = { row: SenderIdRow; action: "reject" | "revoke" } | null;

/**
 * /backend/customer/sender-ids: the sender ids customers asked for. Admins approve or reject waiting requests and
 * revoke approved ids (with a reason the customer reads); agents see their customers' requests.
 */
export default function SenderIdReviewPage() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const { user } = useSession();
  const reviewer = user.type === UserType.ADMIN || user.type === UserType.SUPER_ADMIN;
  const url = useListFilters<Filters>(["status", "keyword"]);
  const query = useSenderIds(url.params);
  const approve = useApproveSenderId();
  const reject = useRejectSenderId();
  const revoke = useRevokeSenderId();
  const [deciding, setDeciding] = useState<Deciding>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const all = t("form.allCountries");

  const decide = (reason: string) => {
    if (!deciding) return;
    const { row, action } = deciding;
    const mutation = action === "reject" ? reject : revoke;
    mutation.mutate(
      { id: row.id, reason },
      {
        onSuccess: () => {
          void message.success(t(action === "reject" ? "rejected" : "revoked"));
          setDeciding(null);
        },
        onError: (e) => setReasonError(errorText(e, t.shell)),
      },
    );
  };

  const columns: TableColumnsType<SenderIdRow> = [
    { title: t("col.customer"), dataIndex: "user", key: "user" },
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
      render: (v: string | null) => countryText(v, t.lang, all),
    },
    {
      title: t("col.kind"),
      dataIndex: "kind",
      key: "kind",
      render: (v: string) => t(`kind.${v}` as SenderIdMessageKey),
    },
    { title: t("col.note"), dataIndex: "note", key: "note", ellipsis: true, render: (v: string | null) => v ?? "-" },
    {
      title: t("col.status"),
      dataIndex: "status",
      key: "status",
      render: (v: number) => <SenderIdStatusTag status={v} />,
    },
    { title: t("col.reason"), dataIndex: "reason", key: "reason", render: (v: string | null) => v ?? "-" },
    { title: t("col.createdAt"), dataIndex: "createdAt", key: "createdAt", render: formatTime },
    { title: t("col.reviewedAt"), dataIndex: "reviewedAt", key: "reviewedAt", render: formatTime },
    ...(reviewer
      ? [
          {
            title: t("col.actions"),
            key: "actions",
            fixed: "right" as const,
            render: (_: unknown, row: SenderIdRow) => (
              <Space size={4} wrap>
                {row.status === SenderIdStatus.REQUESTED && (
                  <>
                    <Popconfirm
                      title={t("approveConfirm", {
                        user: row.user,
                        senderId: row.senderId,
                        country: countryText(row.countryCode, t.lang, all),
                      })}
                      onConfirm={() =>
                        approve.mutate(row.id, {
                          onSuccess: () => void message.success(t("approved")),
                          onError: showError,
                        })
                      }
                    >
                      <Button type="link" size="small" data-testid={`sender-id-approve-${row.id}`}>
                        {t("approve")}
                      </Button>
                    </Popconfirm>
                    <Button
                      type="link"
                      size="small"
                      danger
                      onClick={() => {
                        setReasonError(null);
                        setDeciding({ row, action: "reject" });
                      }}
                      data-testid={`sender-id-reject-${row.id}`}
                    >
                      {t("reject")}
                    </Button>
                  </>
                )}
                {row.status === SenderIdStatus.APPROVED && (
                  <Button
                    type="link"
                    size="small"
                    danger
                    onClick={() => {
                      setReasonError(null);
                      setDeciding({ row, action: "revoke" });
                    }}
                    data-testid={`sender-id-revoke-${row.id}`}
                  >
                    {t("revoke")}
                  </Button>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("review.intro")}
        </Typography.Paragraph>
        {!reviewer && <Alert type="info" showIcon title={t("review.agentNote")} />}
        <Flex gap={8} wrap>
          <SearchBox search={url.search} placeholder={t("review.keyword")} style={{ maxWidth: 280 }} />
          <SenderIdStatusFilter list={url} />
        </Flex>
        <PagedTable<SenderIdRow>
          data-testid="sender-id-review-table"
          columns={columns}
          query={query}
          paging={url}
          empty={t("review.empty")}
          retryTestId="sender-id-retry"
          showTotal={(total) => t("list.total", { total: formatNumber(total) })}
        />
      </Flex>
      <ReasonModal
        open={deciding !== null}
        title={
          deciding
            ? t(deciding.action === "reject" ? "rejectTitle" : "revokeTitle", {
                senderId: deciding.row.senderId,
                user: deciding.row.user,
              })
            : ""
        }
        okText={t(deciding?.action === "revoke" ? "revoke" : "reject")}
        loading={reject.isPending || revoke.isPending}
        error={reasonError}
        onSubmit={decide}
        onClose={() => setDeciding(null)}
      />
    </PageContainer>
  );
}
