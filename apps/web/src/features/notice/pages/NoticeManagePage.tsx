import { PlusOutlined } from "@ant-design/icons";
import { type NoticeRow, NoticeStatus } from "@switchboard/contracts";
import { App, Button, Flex, Popconfirm, Space, type TableProps, Tag } from "antd";
import dayjs from "dayjs";
import { useState } from "react";
import { FilterSelect, PagedTable, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import { useDeleteNotice, useManagedNotices, usePublishNotice, useWithdrawNotice } from "../api/notice-api";
import { NoticeFormModal } from "../components/NoticeFormModal";
import { messages } from "../messages";

const time = (iso: string | null) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : "-");

/** /backend/setting/notice (admins): write, edit, publish, withdraw and delete the tenant's notices. */
export default function NoticeManagePage() {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const list = useListFilters<{ keyword?: string; status?: string }>(["keyword", "status"]);
  const { pageSize, setPage, params } = list;
  const query = useManagedNotices(params);
  const publish = usePublishNotice();
  const withdraw = useWithdrawNotice();
  const remove = useDeleteNotice();
  const [form, setForm] = useState<{ open: boolean; editing: NoticeRow | null }>({ open: false, editing: null });

  type Mutate = (id: number, opts: { onSuccess: () => void; onError: (error: Error) => void }) => void;
  const act = (mutate: Mutate, id: number, done: string, then?: () => void) =>
    mutate(id, {
      onSuccess: () => {
        void message.success(done);
        then?.();
      },
      onError: showError,
    });
  // The list shows published notices first, newest publication first: one just published is on page 1.
  const toFirstPage = () => setPage(1, pageSize);

  const columns: TableProps<NoticeRow>["columns"] = [
    { key: "title", title: t("col.title"), dataIndex: "title", ellipsis: true },
    {
      key: "status",
      title: t("col.status"),
      dataIndex: "status",
      width: 110,
      render: (status: number) => (
        <Tag color={status === NoticeStatus.PUBLISHED ? "green" : "default"}>
          {t(status === NoticeStatus.PUBLISHED ? "status.1" : "status.2")}
        </Tag>
      ),
    },
    { key: "publishedAt", title: t("col.publishedAt"), dataIndex: "publishedAt", width: 170, render: time },
    { key: "updatedAt", title: t("col.updatedAt"), dataIndex: "updatedAt", width: 170, render: time },
    {
      key: "actions",
      title: t("col.actions"),
      width: 240,
      render: (_: unknown, row) => (
        <Space size={4} wrap>
          <Button type="link" size="small" onClick={() => setForm({ open: true, editing: row })}>
            {t("manage.edit")}
          </Button>
          {row.status === NoticeStatus.DRAFT ? (
            <Button
              type="link"
              size="small"
              data-testid={`notice-publish-${row.id}`}
              loading={publish.isPending && publish.variables === row.id}
              onClick={() => act(publish.mutate, row.id, t("manage.published"), toFirstPage)}
            >
              {t("manage.publish")}
            </Button>
          ) : (
            <Popconfirm
              title={t("manage.withdrawConfirm")}
              onConfirm={() => act(withdraw.mutate, row.id, t("manage.withdrawn"))}
            >
              <Button type="link" size="small" data-testid={`notice-withdraw-${row.id}`}>
                {t("manage.withdraw")}
              </Button>
            </Popconfirm>
          )}
          <Popconfirm
            title={t("manage.deleteConfirm", { title: row.title })}
            okButtonProps={{ danger: true }}
            onConfirm={() => act(remove.mutate, row.id, t("manage.deleted"))}
          >
            <Button type="link" size="small" danger data-testid={`notice-delete-${row.id}`}>
              {t("manage.delete")}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setForm({ open: true, editing: null })}
          data-testid="notice-create"
        >
          {t("manage.create")}
        </Button>
      }
    >
      <Flex vertical gap={16}>
        <Flex gap={8} wrap>
          <SearchBox search={list.search} placeholder={t("list.search")} style={{ maxWidth: 320 }} />
          <FilterSelect
            list={list}
            name="status"
            placeholder={t("manage.allStatus")}
            label={t("col.status")}
            width={160}
            options={[
              { value: String(NoticeStatus.PUBLISHED), label: t("status.1") },
              { value: String(NoticeStatus.DRAFT), label: t("status.2") },
            ]}
          />
        </Flex>
        <PagedTable<NoticeRow>
          data-testid="notice-table"
          columns={columns}
          query={query}
          paging={list}
          empty={t("manage.empty")}
          retryTestId="notice-retry"
          showTotal={(total) => t("list.total", { total })}
        />
      </Flex>
      <NoticeFormModal
        open={form.open}
        editing={form.editing}
        onClose={() => setForm({ open: false, editing: null })}
        onSaved={(row) => {
          if (row.status === NoticeStatus.PUBLISHED) toFirstPage();
        }}
      />
    </PageContainer>
  );
}
