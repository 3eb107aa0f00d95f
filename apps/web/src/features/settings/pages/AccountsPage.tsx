import { PlusOutlined } from "@ant-design/icons";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Tabs, Tag } from "antd";
import { useState } from "react";
import { ListToolbar, PagedTable, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
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
  const list = useListFilters<{ type?: string; keyword?: string }>(["type", "keyword"]);
  const { filters, setFilters, params } = list;
  const type = filters.type === "2" ? "2" : "1";
  const listParams = { ...params, type };
  const [creating, setCreating] = useState(false);
  const accounts = useQuery({
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
      <ListToolbar marginBottom={12}>
        <SearchBox search={list.search} placeholder={t("account.keyword")} width={280} />
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
      </ListToolbar>
      <PagedTable<UserRow>
        query={accounts}
        paging={list}
        data-testid="account-table"
        simpleEmpty
        showSizeChanger
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
      {creating && !scope.missing && (
        <CreateAdminModal
          tenantId={scope.tenantId}
          onClose={() => setCreating(false)}
          onCreated={async () => {
            setCreating(false);
            await queryClient.invalidateQueries({ queryKey: settingsKeys.allAccounts });
          }}
        />
      )}
    </PageContainer>
  );
}
