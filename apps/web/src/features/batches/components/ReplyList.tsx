import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Table, type TableColumnsType, Typography } from "antd";
import { useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { type BatchReply, batchKeys, fetchReplies } from "../api";
import { messages } from "../messages";
import { formatTime } from "./time";

/**
 * What the batch's recipients wrote back (WhatsApp and RCS replies, button and suggestion taps), newest first;
 * refreshed while the batch moves, since replies come in as messages are delivered.
 */
export function ReplyList({ batchId, live }: { batchId: string; live: boolean }) {
  const t = messages.useT();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const params = { page, pageSize };
  const query = useQuery({
    queryKey: batchKeys.replies(batchId, params),
    queryFn: ({ signal }) => fetchReplies(batchId, params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 5_000 : false,
  });
  const columns: TableColumnsType<BatchReply> = [
    { title: t("col.phone"), dataIndex: "phone", key: "phone", width: 160 },
    {
      title: t("col.reply"),
      key: "text",
      render: (_, r) => (
        <>
          {r.text !== null && <Typography.Text style={{ whiteSpace: "pre-wrap" }}>{r.text}</Typography.Text>}
          {r.postbackData !== null && (
            <Typography.Text type="secondary" style={{ display: "block" }}>
              {t("reply.postback", { data: r.postbackData })}
            </Typography.Text>
          )}
        </>
      ),
    },
    {
      title: t("col.repliedAt"),
      dataIndex: "receivedAt",
      key: "receivedAt",
      width: 180,
      render: (v: string) => formatTime(v),
    },
  ];
  if (query.isError && !query.data) {
    return <LoadError error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  }
  return (
    <Table<BatchReply>
      data-testid="reply-list"
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={query.data?.list ?? []}
      loading={query.isLoading}
      locale={{ emptyText: t("reply.empty") }}
      pagination={{
        current: page,
        pageSize,
        total: query.data?.total ?? 0,
        hideOnSinglePage: true,
        showTotal: (total) => t("list.total", { total }),
        onChange: (p, size) => {
          setPage(size !== pageSize ? 1 : p);
          setPageSize(size);
        },
      }}
    />
  );
}
