import { Button, Empty, Flex, Pagination, Skeleton, Typography } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { SearchBox } from "../../../components/ListPage";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useNoticeList } from "../api/notice-api";
import { NoticeReader } from "../components/NoticeReader";
import { messages } from "../messages";

/** /app/notice and /user/notice: the published notices of the customer's tenant, newest first; one opens to be read. */
export default function NoticePage() {
  const t = messages.useT();
  const { page, pageSize, setPage, params, search: searchBox } = useListFilters<{ keyword?: string }>(["keyword"]);
  const query = useNoticeList(params);
  // ?id= opens one notice at once (the homes link their latest notices so).
  const [search] = useSearchParams();
  const [reading, setReading] = useState<number | null>(() => Number(search.get("id")) || null);

  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <SearchBox search={searchBox} placeholder={t("list.search")} style={{ maxWidth: 360 }} testId="notice-search" />
        {query.isPending && <Skeleton active />}
        {query.isError && (
          <LoadError
            error={query.error}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
            testId="notice-retry"
          />
        )}
        {query.data && query.data.list.length === 0 && (
          <Empty description={t("list.empty")} data-testid="notice-empty" />
        )}
        {query.data && query.data.list.length > 0 && (
          <>
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }} data-testid="notice-list">
              {query.data.list.map((notice) => (
                <li
                  key={notice.id}
                  style={{ padding: "12px 0", borderBottom: "1px solid rgba(5,5,5,0.06)" }}
                  data-testid="notice-item"
                >
                  <Flex justify="space-between" align="baseline" gap={16} wrap>
                    <Button
                      type="link"
                      style={{ padding: 0, height: "auto", fontWeight: 600, fontSize: 16 }}
                      onClick={() => setReading(notice.id)}
                    >
                      {notice.title}
                    </Button>
                    <Typography.Text type="secondary">
                      {notice.publishedAt ? dayjs(notice.publishedAt).format("YYYY-MM-DD HH:mm") : ""}
                    </Typography.Text>
                  </Flex>
                  <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ margin: "4px 0 0" }}>
                    {notice.excerpt}
                  </Typography.Paragraph>
                </li>
              ))}
            </ul>
            <Pagination
              align="end"
              current={page}
              pageSize={pageSize}
              total={query.data.total}
              showTotal={(total) => t("list.total", { total })}
              onChange={(next, size) => setPage(next, size)}
            />
          </>
        )}
      </Flex>
      <NoticeReader id={reading} onClose={() => setReading(null)} />
    </PageContainer>
  );
}
