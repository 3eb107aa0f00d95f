import { TaskType } from "@switchboard/contracts/codes";
import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Result,
  Row,
  Skeleton,
  Space,
  Table,
  Timeline,
  Typography,
} from "antd";
import type { ReactNode } from "react";
import { isApiError } from "../../../lib/api";
import { errorText } from "../../../lib/error-text";
import { formatMoney, formatNumber, formatRate } from "../../../lib/format";
import { type BatchDetail, batchKeys, fetchBatchDetail } from "../api";
import { type BatchMessageKey, messages } from "../messages";
import { liveInterval } from "../status";
import { BatchCounts } from "./BatchCounts";
import { BatchProgress } from "./BatchProgress";
import { BatchStatusTag } from "./BatchStatusTag";
import { ContentPreview } from "./ContentPreview";
import { RecipientList } from "./RecipientList";
import { ReplyList } from "./ReplyList";
import { formatTime } from "./time";

/** The batch's own query; polls like the lists while the batch moves by itself. */
export function useBatchDetail(batchId: string) {
  return useQuery({
    queryKey: batchKeys.detail(batchId),
    queryFn: ({ signal }) => fetchBatchDetail(batchId, signal),
    refetchInterval: (q) => liveInterval(q.state.data ? [q.state.data] : undefined),
    staleTime: 0,
  });
}

const ENDED_BY_REVIEW = 13;

function History({ batch }: { batch: BatchDetail }) {
  const t = messages.useT();
  const items: { color?: string; content: ReactNode }[] = [
    { color: "blue", content: `${t("history.created")} · ${formatTime(batch.createdAt)}` },
  ];
  if (batch.reviewedAt) {
    items.push({
      color: batch.status === ENDED_BY_REVIEW ? "red" : "green",
      content: (
        <span>
          {t("history.reviewed")} · {formatTime(batch.reviewedAt)}
          {batch.reviewer ? ` · ${t("history.by", { name: batch.reviewer })}` : ""}
        </span>
      ),
    });
  }
  if (batch.startedAt)
    items.push({ color: "blue", content: `${t("history.started")} · ${formatTime(batch.startedAt)}` });
  if (batch.finishedAt) {
    items.push({
      color: batch.status === 22 ? "green" : "gray",
      content: `${t("history.finished")} · ${formatTime(batch.finishedAt)}`,
    });
  }
  items.push({
    content: <BatchStatusTag status={batch.status} ingesting={batch.ingesting} progress={batch.progress} />,
  });
  return <Timeline items={items} data-testid="batch-history" />;
}

/**
 * Tracked links (docs/batches.md): each link's clicks and distinct clickers, and the click-through rate, over the
 * messages a channel accepted.
 */
function TrackedLinks({ links }: { links: NonNullable<BatchDetail["links"]> }) {
  const t = messages.useT();
  return (
    <Card size="small" title={t("links.title")} style={{ marginTop: 24 }} data-testid="batch-links">
      <Typography.Paragraph type="secondary" data-testid="batch-links-summary">
        {t("links.summary", {
          clickers: formatNumber(links.clickers),
          rate: formatRate(links.clickRate),
          sent: formatNumber(links.sent),
        })}
      </Typography.Paragraph>
      <Table
        size="small"
        rowKey="index"
        pagination={false}
        dataSource={links.links}
        scroll={{ x: true }}
        columns={[
          {
            title: t("links.col.url"),
            dataIndex: "url",
            key: "url",
            render: (v: string) => (
              <Typography.Text copyable style={{ wordBreak: "break-all" }}>
                {v}
              </Typography.Text>
            ),
          },
          { title: t("links.col.clicks"), dataIndex: "clicks", key: "clicks", render: (v: number) => formatNumber(v) },
          {
            title: t("links.col.clickers"),
            dataIndex: "clickers",
            key: "clickers",
            render: (v: number) => formatNumber(v),
          },
          {
            title: t("links.col.rate"),
            dataIndex: "clickRate",
            key: "clickRate",
            render: (v: number | null) => formatRate(v),
          },
        ]}
      />
    </Card>
  );
}

/**
 * One batch: status and progress, counts, the content as the recipient sees it, schedule, status history
 * and reason, recipients per country, and the recipient list with its exports. `actions` renders the
 * caller's buttons (cancel, review, terminate) for the loaded batch.
 */
export function BatchDetailView({
  batchId,
  staff,
  actions,
}: {
  batchId: string;
  staff: boolean;
  actions?: (batch: BatchDetail) => ReactNode;
}) {
  const t = messages.useT();
  const query = useBatchDetail(batchId);

  if (query.isLoading) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (query.isError && !query.data) {
    const notFound = isApiError(query.error) && query.error.status === 404;
    return (
      <Result
        status={notFound ? "404" : "warning"}
        title={notFound ? t("detail.notFound") : errorText(query.error, t.shell)}
        extra={notFound ? undefined : <Button onClick={() => query.refetch()}>{t.shell("common.retry")}</Button>}
      />
    );
  }
  const batch = query.data;
  if (!batch) return null;
  const live = liveInterval([batch]) !== false;

  return (
    <div data-testid="batch-detail" data-batch-id={batch.id}>
      <Space style={{ width: "100%", justifyContent: "space-between", marginBottom: 16 }} wrap>
        <Space size="middle" wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t("detail.title", { id: batch.id })}
          </Typography.Title>
          <BatchStatusTag
            status={batch.status}
            ingesting={batch.ingesting}
            progress={batch.progress}
            taskType={batch.taskType}
          />
          <Typography.Text type="secondary">{batch.productName}</Typography.Text>
          {staff && <Typography.Text type="secondary">{batch.user}</Typography.Text>}
        </Space>
        {actions?.(batch)}
      </Space>
      {batch.reason && (
        <Alert
          type={batch.status === ENDED_BY_REVIEW || batch.status === 24 ? "error" : "warning"}
          showIcon
          title={`${t("detail.reason")}: ${batch.reason}`}
          style={{ marginBottom: 16 }}
          data-testid="batch-reason"
        />
      )}
      <div style={{ maxWidth: 420, marginBottom: 16 }}>
        <BatchProgress batch={batch} />
      </div>
      <BatchCounts batch={batch} />
      <Row gutter={[24, 24]} style={{ marginTop: 24 }}>
        <Col xs={24} lg={10}>
          <Card size="small" title={t("detail.content")}>
            <ContentPreview content={batch.content} senderId={batch.senderId} />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card size="small" title={t("detail.summary")}>
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: "schedule",
                  label: t("detail.schedule"),
                  children: (
                    <span data-testid="batch-schedule">
                      {batch.scheduledAt ? formatTime(batch.scheduledAt) : t("detail.scheduleNow")}
                    </span>
                  ),
                },
                {
                  key: "mode",
                  label: t("detail.mode"),
                  children: t(`detail.mode.${batch.submitMode}` as BatchMessageKey),
                },
                {
                  key: "source",
                  label: t("detail.source"),
                  children: t(`detail.source.${batch.source}` as BatchMessageKey),
                },
                ...(batch.fileName ? [{ key: "file", label: t("detail.fileName"), children: batch.fileName }] : []),
                ...(batch.reviewer ? [{ key: "reviewer", label: t("detail.reviewer"), children: batch.reviewer }] : []),
              ]}
            />
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              {t("detail.history")}
            </Typography.Title>
            <History batch={batch} />
          </Card>
        </Col>
      </Row>
      {batch.countries.length > 0 && (
        <Card size="small" title={t("detail.countries")} style={{ marginTop: 24 }}>
          <Table
            size="small"
            rowKey="countryCode"
            pagination={false}
            dataSource={batch.countries}
            columns={[
              { title: t("col.country"), dataIndex: "countryCode", key: "countryCode" },
              { title: t("counts.valid"), dataIndex: "count", key: "count", render: (v: number) => formatNumber(v) },
              { title: t("counts.cost"), dataIndex: "cost", key: "cost", render: (v: string) => formatMoney(v) },
            ]}
          />
        </Card>
      )}
      {batch.links && <TrackedLinks links={batch.links} />}
      <Card size="small" title={t("detail.recipients")} style={{ marginTop: 24 }}>
        <RecipientList batchId={batch.id} productCode={batch.productCode} staff={staff} live={live} />
      </Card>
      {batch.taskType !== TaskType.SCREENING && (
        // Users answer on every product: WhatsApp and RCS text, button and suggestion taps, SMS replies (mobile
        // originated); a screening batch sends nothing to answer.
        <Card size="small" title={t("detail.replies")} style={{ marginTop: 24 }}>
          <ReplyList batchId={batch.id} live={live} />
        </Card>
      )}
    </div>
  );
}
