/**
 * /app/inbox and /user/inbox (issue 18, inbound messages): what users wrote back to the customer across all its
 * batches (SMS, WhatsApp and RCS replies, suggestion and button taps), newest first, found by number or batch;
 * each row opens the batch it answers (the customer app's task drawer, or the portal's batch detail). Filters and
 * page live in the URL; the list refreshes while open, since replies come as messages are delivered.
 */
import { PRODUCT_SLUG, type ProductCode } from "@switchboard/contracts/codes";
import { Button, Flex, type TableColumnsType, Tag, Typography } from "antd";
import { useNavigate } from "react-router-dom";
import { rcsDetailPath } from "../../../areas/rcs/stage";
import { ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useCurrentRoute } from "../../../routes/route-context";
import { formatTime } from "../../batches/components/time";
import { type InboxRow, useInbox } from "../api";
import { type InboxMessageKey, messages } from "../messages";

type Filters = { phone?: string; batchId?: string };

/** What a number box may hold: digits and one leading "+" (the API's filter is a prefix of the E.164 number). */
const phoneChars = (text: string) =>
  text
    .replace(/[^\d+]/g, "")
    .replace(/(?!^)\+/g, "")
    .slice(0, 16);
const digitsOnly = (text: string) => text.replace(/\D/g, "").slice(0, 19);

/** Where a reply's batch opens for a customer: the portal's detail, or the customer app's task list drawer. */
export function inboxBatchPath(row: InboxRow, portal: boolean): string | null {
  if (row.batchId === null) return null;
  if (portal) return rcsDetailPath({ id: row.batchId, status: row.batchStatus ?? 22 });
  const slug = PRODUCT_SLUG[row.product as ProductCode] ?? "sms";
  return `/app/${slug}/message/task?batch=${encodeURIComponent(row.batchId)}`;
}

export default function InboxPage() {
  const t = messages.useT();
  const navigate = useNavigate();
  const portal = useCurrentRoute().chain.some((node) => node.area === "rcs");
  const list = useListFilters<Filters>(["phone", "batchId"], { searchKey: "phone", clean: phoneChars });
  const batch = useListFilters<Filters>(["batchId"], { searchKey: "batchId", clean: digitsOnly });
  const query = useInbox(list.params);
  const filtered = list.filters.phone !== undefined || list.filters.batchId !== undefined;

  const columns: TableColumnsType<InboxRow> = [
    { title: t("col.time"), dataIndex: "receivedAt", key: "receivedAt", width: 170, render: formatTime },
    { title: t("col.from"), dataIndex: "from", key: "from", width: 150 },
    {
      title: t("col.reply"),
      key: "reply",
      render: (_, r) => (
        <Flex vertical style={{ minWidth: 200, maxWidth: 480 }}>
          {r.text !== null && <Typography.Text style={{ whiteSpace: "pre-wrap" }}>{r.text}</Typography.Text>}
          {r.postbackData !== null && (
            <Typography.Text type="secondary">{t("reply.postback", { data: r.postbackData })}</Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t("col.product"),
      dataIndex: "product",
      key: "product",
      width: 110,
      render: (v: number | null) => (v === null ? "-" : <Tag>{t(`product.${v}` as InboxMessageKey)}</Tag>),
    },
    {
      title: t("col.batch"),
      dataIndex: "batchId",
      key: "batchId",
      width: 160,
      render: (_: string | null, row) => {
        const path = inboxBatchPath(row, portal);
        return path === null ? (
          <Typography.Text type="secondary">{t("batch.none")}</Typography.Text>
        ) : (
          <Button
            type="link"
            size="small"
            style={{ padding: 0 }}
            onClick={() => navigate(path)}
            data-testid={`inbox-batch-${row.inboundId}`}
          >
            {row.batchId}
          </Button>
        );
      },
    },
  ];

  return (
    <PageContainer>
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("intro")}
        </Typography.Paragraph>
        <ListToolbar>
          <SearchBox
            search={list.search}
            placeholder={t("search.placeholder")}
            width={260}
            maxLength={16}
            inputMode="numeric"
            testId="inbox-phone"
          />
          <SearchBox
            search={batch.search}
            placeholder={t("search.batch")}
            width={180}
            maxLength={19}
            inputMode="numeric"
            testId="inbox-batch"
          />
          <ResetButton onReset={list.reset} />
        </ListToolbar>
        <PagedTable<InboxRow>
          query={query}
          paging={list}
          columns={columns}
          rowKey="inboundId"
          empty={filtered ? t("empty.filtered") : t("empty")}
          emptyTestId="inbox-empty"
          scroll={{ x: "max-content" }}
          size="small"
          data-testid="inbox-table"
        />
      </Flex>
    </PageContainer>
  );
}
