import { AccountStatus, AuthStatus, UserType } from "@switchboard/contracts/codes";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Dropdown, Form, Input, type MenuProps, Popconfirm, Select, Space, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useUrlFilters } from "../../../hooks/use-url-filters";
import { formatMoney } from "../../../lib/format";
import {
  type BalanceAction,
  customerKeys,
  deleteUser,
  editUser,
  grantSevenDays,
  listUsers,
  type UserRow,
} from "../api";
import { BalanceLogModal } from "../components/BalanceLogModal";
import { FilterForm, ListView } from "../components/ListView";
import { AccountStatusTag, AuthStatusTag, codeLabel, formatTime } from "../components/labels";
import { PasswordResetModal } from "../components/PasswordResetModal";
import { RechargeModal } from "../components/RechargeModal";
import { useStaffRole } from "../components/roles";
import { UserFormModal } from "../components/UserFormModal";
import { UserPicker } from "../components/UserPicker";
import { messages } from "../messages";

type Filters = { keyword?: string; type?: string; status?: string; authStatus?: string; agentId?: string };

type Target = { id: number; user: string };

/** customer/list: the accounts the caller manages, with create, edit, freeze, money, password and delete. */
export default function CustomerListPage() {
  const t = messages.useT();
  const { message, modal } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user: me, isAdmin } = useStaffRole();
  const filters = useUrlFilters<Filters>(["keyword", "type", "status", "authStatus", "agentId"]);
  const query = useQuery({
    queryKey: customerKeys.users(filters.params),
    queryFn: ({ signal }) => listUsers(filters.params, { signal }),
    placeholderData: keepPreviousData,
  });

  const [form, setForm] = useState<{ open: boolean; editing: UserRow | null }>({ open: false, editing: null });
  const [money, setMoney] = useState<{ action: BalanceAction; target: Target } | null>(null);
  const [logOf, setLogOf] = useState<Target | null>(null);
  const [passwordOf, setPasswordOf] = useState<Target | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: customerKeys.all });
  const toggleFreeze = useMutation({
    mutationFn: (row: UserRow) =>
      editUser({
        id: row.id,
        status: row.status === AccountStatus.FROZEN ? AccountStatus.NORMAL : AccountStatus.FROZEN,
      }),
    onSuccess: (row) => {
      message.success(t(row.status === AccountStatus.FROZEN ? "list.frozen" : "list.unfrozen", { user: row.user }));
      void refresh();
    },
    onError: showError,
  });
  const sevenDays = useMutation({
    mutationFn: (row: UserRow) => grantSevenDays(row.id),
    onSuccess: (result) => {
      message.success(t("list.sevenDayDone", { time: formatTime(result.authExemptUntil) }));
      void refresh();
    },
    onError: showError,
  });
  const remove = useMutation({
    mutationFn: (row: UserRow) => deleteUser(row.id),
    onSuccess: (_, row) => {
      message.success(t("list.deleted", { user: row.user }));
      void refresh();
    },
  });

  const moreItems = (row: UserRow): MenuProps["items"] => {
    const customer = row.type === UserType.USER;
    const items: NonNullable<MenuProps["items"]> = [];
    if (row.type !== UserType.ADMIN) {
      items.push({ key: "recharge", label: t("list.recharge") }, { key: "deduct", label: t("list.deduct") });
      if (customer) items.push({ key: "gift", label: t("list.gift") });
      items.push({ key: "balanceLog", label: t("list.balanceLog") });
    }
    items.push({ key: "password", label: t("list.resetPassword") });
    if (customer && row.authStatus !== AuthStatus.AUTHENTICATED)
      items.push({ key: "sevenDay", label: t("list.sevenDay") });
    if (customer && isAdmin) items.push({ key: "prices", label: t("list.prices") });
    if (row.id !== Number(me.id))
      items.push({ type: "divider" }, { key: "delete", danger: true, label: t("list.delete") });
    return items;
  };

  const onMore = (row: UserRow, key: string) => {
    const target = { id: row.id, user: row.user };
    switch (key) {
      case "recharge":
      case "deduct":
      case "gift":
        setMoney({ action: key, target });
        break;
      case "balanceLog":
        setLogOf(target);
        break;
      case "password":
        setPasswordOf(target);
        break;
      case "sevenDay":
        modal.confirm({
          title: t("list.sevenDayConfirm", { user: row.user }),
          onOk: () => sevenDays.mutateAsync(row).catch(() => undefined),
        });
        break;
      case "prices":
        navigate(
          `/backend/product/list?${new URLSearchParams({ customerId: String(row.id), customerName: row.user })}`,
        );
        break;
      case "delete":
        modal.confirm({
          title: t("list.deleteConfirm", { user: row.user }),
          okButtonProps: { danger: true },
          // The server's refusal (balance left, running batches, customers, a website) is shown as it says it.
          onOk: () => remove.mutateAsync(row).catch((error) => showError(error)),
        });
        break;
    }
  };

  return (
    <PageContainer
      extra={
        <Button type="primary" onClick={() => setForm({ open: true, editing: null })} data-testid="customer-create">
          {t("list.create")}
        </Button>
      }
    >
      <FilterForm
        filters={filters.filters}
        onSearch={filters.setFilters}
        onReset={filters.reset}
        testId="customer-filters"
      >
        <Form.Item name="keyword" label={t("common.keyword")}>
          <Input allowClear style={{ width: 180 }} data-testid="customer-keyword" />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="type" label={t("user.type")}>
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder={t("common.all")}
              options={[UserType.USER, UserType.AGENT, UserType.ADMIN].map((v) => ({
                value: String(v),
                label: codeLabel(t, "type", v),
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name="status" label={t("user.status")}>
          <Select
            allowClear
            style={{ width: 110 }}
            placeholder={t("common.all")}
            options={Object.values(AccountStatus).map((v) => ({ value: String(v), label: codeLabel(t, "status", v) }))}
          />
        </Form.Item>
        <Form.Item name="authStatus" label={t("user.authStatus")}>
          <Select
            allowClear
            style={{ width: 130 }}
            placeholder={t("common.all")}
            options={Object.values(AuthStatus).map((v) => ({ value: String(v), label: codeLabel(t, "auth", v) }))}
          />
        </Form.Item>
        {isAdmin && (
          <Form.Item name="agentId" label={t("common.agent")}>
            <UserPicker type={UserType.AGENT} />
          </Form.Item>
        )}
      </FilterForm>
      <ListView<UserRow>
        query={query}
        filters={filters}
        testId="customer-table"
        columnChoice="customers"
        rowKey={(r) => r.id}
        emptyText={
          Object.keys(filters.filters).length > 0 ? (
            <Typography.Text type="secondary">{t("list.emptyFiltered")}</Typography.Text>
          ) : undefined
        }
        columns={[
          {
            title: t("user.username"),
            dataIndex: "user",
            render: (v: string, row) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong>{v}</Typography.Text>
                {row.nickname && <Typography.Text type="secondary">{row.nickname}</Typography.Text>}
              </Space>
            ),
          },
          { title: t("user.type"), dataIndex: "type", render: (v: number) => codeLabel(t, "type", v) },
          { title: t("user.company"), dataIndex: "company", render: (v: string | null) => v ?? "-" },
          ...(isAdmin
            ? [{ title: t("user.agent"), dataIndex: "agentUser", render: (v: string | null) => v ?? "-" }]
            : []),
          {
            title: t("user.balance"),
            dataIndex: "balance",
            align: "right",
            render: (v: string, row) => <span data-testid={`customer-balance-${row.user}`}>{formatMoney(v)}</span>,
          },
          { title: t("user.status"), dataIndex: "status", render: (v: number) => <AccountStatusTag status={v} /> },
          {
            title: t("user.authStatus"),
            dataIndex: "authStatus",
            render: (v: number, row) =>
              row.type !== UserType.USER ? (
                "-"
              ) : (
                <Space orientation="vertical" size={0}>
                  <AuthStatusTag status={v} />
                  {row.authRequirement === 1 && <Typography.Text type="secondary">{t("authReq.1")}</Typography.Text>}
                  {row.authExemptUntil && new Date(row.authExemptUntil) > new Date() && (
                    <Typography.Text type="secondary">
                      {t("user.exemptUntil", { time: formatTime(row.authExemptUntil) })}
                    </Typography.Text>
                  )}
                </Space>
              ),
          },
          { title: t("user.phone"), dataIndex: "phone", render: (v: string | null) => v ?? "-" },
          { title: t("user.email"), dataIndex: "email", render: (v: string | null) => v ?? "-" },
          { title: t("common.createdAt"), dataIndex: "createdAt", render: formatTime },
          { title: t("user.lastLoginAt"), dataIndex: "lastLoginAt", render: formatTime },
          {
            title: t("common.actions"),
            key: "actions",
            fixed: "right",
            render: (_, row) => (
              <Space size={4}>
                <Button size="small" type="link" onClick={() => setForm({ open: true, editing: row })}>
                  {t("list.edit")}
                </Button>
                {row.id !== Number(me.id) && (
                  <Popconfirm
                    title={t(row.status === AccountStatus.FROZEN ? "list.unfreezeConfirm" : "list.freezeConfirm", {
                      user: row.user,
                    })}
                    onConfirm={() => toggleFreeze.mutateAsync(row).catch(() => undefined)}
                  >
                    <Button size="small" type="link" danger={row.status !== AccountStatus.FROZEN}>
                      {t(row.status === AccountStatus.FROZEN ? "list.unfreeze" : "list.freeze")}
                    </Button>
                  </Popconfirm>
                )}
                <Dropdown trigger={["click"]} menu={{ items: moreItems(row), onClick: ({ key }) => onMore(row, key) }}>
                  <Button size="small" type="link" data-testid={`customer-more-${row.user}`}>
                    {t("common.more")}
                  </Button>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      <UserFormModal open={form.open} editing={form.editing} onClose={() => setForm({ open: false, editing: null })} />
      <RechargeModal
        open={money !== null}
        action={money?.action ?? "recharge"}
        target={money?.target ?? null}
        onClose={() => setMoney(null)}
      />
      <BalanceLogModal user={logOf} onClose={() => setLogOf(null)} />
      <PasswordResetModal user={passwordOf} onClose={() => setPasswordOf(null)} />
    </PageContainer>
  );
}
