import { NotificationOutlined } from "@ant-design/icons";
import { Button, Card, Empty, Flex, Skeleton, Tag, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { Link } from "react-router-dom";
import { LoadError } from "../../../components/LoadError";
import { useNoticeList } from "../../notice/api/notice-api";
import { NoticeReader } from "../../notice/components/NoticeReader";
import { messages } from "../messages";

/** How many of the latest notices the dashboard shows. */
export const DASHBOARD_NOTICES = 5;
/** A notice published this recently is marked new (the API keeps no read state per customer). */
export const NEW_NOTICE_DAYS = 7;

export const isNewNotice = (publishedAt: string | null, now = dayjs()) =>
  publishedAt !== null && now.diff(dayjs(publishedAt), "day", true) < NEW_NOTICE_DAYS;

/**
 * The tenant's latest published notices on the customer's dashboard, in every mode (international mode has no
 * notice menu entry): one opens here to be read; the whole list is one link away.
 */
export function LatestNotices() {
  const t = messages.useT();
  const query = useNoticeList({ page: 1, pageSize: DASHBOARD_NOTICES });
  const [reading, setReading] = useState<number | null>(null);
  return (
    <Card
      size="small"
      title={
        <span>
          <NotificationOutlined /> {t("notice.title")}
        </span>
      }
      extra={
        <Link to="/app/notice" data-testid="dashboard-notices-all">
          {t("notice.all")}
        </Link>
      }
      data-testid="dashboard-notices"
    >
      {query.isError && !query.data ? (
        <LoadError error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : query.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : query.data.list.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t("notice.empty")}
          data-testid="dashboard-notices-empty"
        />
      ) : (
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {query.data.list.map((n, i) => (
            <li
              key={n.id}
              style={{ padding: "8px 0", borderTop: i === 0 ? undefined : "1px solid rgba(5,5,5,0.06)" }}
              data-testid="dashboard-notice"
            >
              <Flex justify="space-between" align="baseline" gap={8} wrap>
                <span style={{ minWidth: 0 }}>
                  <Button
                    type="link"
                    style={{ padding: 0, height: "auto", whiteSpace: "normal", textAlign: "start" }}
                    onClick={() => setReading(n.id)}
                  >
                    {n.title}
                  </Button>
                  {isNewNotice(n.publishedAt) && (
                    <Tag color="red" style={{ marginInlineStart: 8 }} data-testid="dashboard-notice-new">
                      {t("notice.new")}
                    </Tag>
                  )}
                </span>
                <Typography.Text type="secondary">
                  {n.publishedAt ? dayjs(n.publishedAt).format("YYYY-MM-DD") : ""}
                </Typography.Text>
              </Flex>
            </li>
          ))}
        </ul>
      )}
      <NoticeReader id={reading} onClose={() => setReading(null)} />
    </Card>
  );
}
