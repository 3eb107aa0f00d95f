import { PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Empty, Input, Space, Table, Tabs, Tag } from "antd";
import { useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney } from "../../../lib/format";
import { listAccounts, settingsKeys, type UserRow } from "../api";
import { CreateAdminModal } from "../components/CreateAdminModal";
import { useTenantScope } from "../components/TenantScope";
import { formatDateTime } from "../format";
import { messages } from "../messages";

/** setting/account: the tenant's staff accounts (admins, agents) and the 'create admin' modal. */
export default function AccountsPage() {
  const t = messages.useT();
  const scope = useTenantScope();
  const queryClient = useQueryClient();
  const { filters, setFilters, page, pageSize, setPage, params } = useUrlFilters<{ type?: string; keyword?: string }>([
    "type",
    "keyword",
  ]);
  const type = filters.type === "2" ? "2" : "1";
  const listParams = { ...params, type };
  const [keyword, setKeyword] = useState(filters.keyword ?? "");
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: settingsKeys.accounts(listParams),
    queryFn: ({ signal }) => listAccounts(listParams, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <PageContainer>
      <Tabs
        activeKey={type}
        onChange={(k) => setFilters({ type: k })}
        items={[
          { key: "1", label: t("account.admins") },
          { key: "2", label: t("account.agents") },
        ]}
      />
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t("account.keyword")}
          aria-label={t("account.keyword")}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(v) => setFilters({ keyword: v.trim() })}
          style={{ width: 280 }}
        />
        {type === "1" && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setCreating(true)}
            disabled={scope.missing}
            data-testid="admin-create"
          >
            {t("account.create")}
          </Button>
        )}
      </Space>
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <Table<UserRow>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          data-testid="account-table"
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
          pagination={{
            current: page,
            pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            onChange: (p, size) => setPage(p, size),
          }}
          columns={[
            { title: t("account.username"), dataIndex: "user" },
            ...(scope.isSuper
              ? [
                  {
                    title: t("tenant.label"),
                    dataIndex: "tenantId",
                    // Across every tenant the list names each account's tenant; else its id.
                    render: (id: number | null, row: UserRow) => row.tenantName ?? id ?? "-",
                  },
                ]
              : []),
            { title: t("account.nickname"), dataIndex: "nickname", render: (v: string | null) => v ?? "-" },
            { title: t("account.email"), dataIndex: "email", render: (v: string | null) => v ?? "-" },
            { title: t("account.phone"), dataIndex: "phone", render: (v: string | null) => v ?? "-" },
            ...(type === "2"
              ? [{ title: t("account.balance"), dataIndex: "balance", render: (v: string) => formatMoney(v) }]
              : []),
            {
              title: t("common.status"),
              dataIndex: "status",
              render: (v: number) => <Tag color={v === 1 ? "green" : "red"}>{t(`status.${v}` as "status.1")}</Tag>,
            },
            {
              title: t("account.lastLogin"),
              dataIndex: "lastLoginAt",
              render: (v: string | null) => formatDateTime(v),
            },
            { title: t("common.createdAt"), dataIndex: "createdAt", render: (v: string) => formatDateTime(v) },
          ]}
        />
      )}
      {creating && !scope.missing && (
        <CreateAdminModal
          tenantId={scope.tenantId}
          onClose={() => setCreating(false)}
          onCreated={async () => {
            setCreating(false);
            await queryClient.invalidateQueries({ queryKey: ["settings", "account"] });
          }}
        />
      )}
    </PageContainer>
  );
}
