import { PlusOutlined } from "@ant-design/icons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Checkbox, Drawer, Empty, Form, Input, Modal, Space, Table, Tag } from "antd";
import { useState } from "react";
import { Link } from "react-router-dom";
import { LoadError } from "../../../components/LoadError";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { formatNumber } from "../../../lib/format";
import { createTenant, listTenants, settingsKeys, type TenantInput, type TenantRow } from "../../settings/api";
import { WebsiteConfigs } from "../../settings/components/WebsiteConfigs";
import { formatDateTime } from "../../settings/format";
import { messages } from "../messages";

const USERNAME = /^[A-Za-z0-9_.@-]{3,64}$/;
const strong = (pw: string) => pw.length >= 8 && pw.length <= 128 && /[A-Za-z]/.test(pw) && /\d/.test(pw);

interface CreateValues {
  code: string;
  name: string;
  currency: string;
  withAdmin: boolean;
  adminUsername?: string;
  adminPassword?: string;
}

function CreateTenantModal({ onClose }: { onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CreateValues>();
  const withAdmin = Form.useWatch("withAdmin", form);
  const create = useMutation({
    mutationFn: (input: TenantInput) => createTenant(input),
    onSuccess: async () => {
      message.success(t("tenant.created"));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.tenants });
      onClose();
    },
    onError: showError,
  });
  const onFinish = (v: CreateValues) =>
    create.mutate({
      code: v.code.trim(),
      name: v.name.trim(),
      currency: v.currency.trim().toUpperCase(),
      ...(v.withAdmin && v.adminUsername && v.adminPassword
        ? { admin: { username: v.adminUsername.trim(), password: v.adminPassword } }
        : {}),
    });
  return (
    <Modal
      open
      title={t("tenant.create")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("common.create")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: create.isPending, "data-testid": "tenant-save" } as never}
      destroyOnHidden
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        initialValues={{ currency: "CNY", withAdmin: true }}
        onFinish={onFinish}
      >
        <Form.Item
          name="code"
          label={t("tenant.code")}
          rules={[
            { required: true, message: t("tenant.code.required") },
            { pattern: /^[a-z0-9][a-z0-9-]{1,31}$/, message: t("tenant.code.format") },
          ]}
        >
          <Input maxLength={32} autoComplete="off" data-testid="tenant-code" />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("tenant.name")}
          rules={[{ required: true, whitespace: true, message: t("tenant.name.required") }]}
        >
          <Input maxLength={100} data-testid="tenant-name" />
        </Form.Item>
        <Form.Item
          name="currency"
          label={t("tenant.currency")}
          rules={[{ pattern: /^[A-Za-z]{3}$/, message: t("tenant.currency.format") }]}
        >
          <Input maxLength={3} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="withAdmin" valuePropName="checked">
          <Checkbox>{t("tenant.firstAdmin")}</Checkbox>
        </Form.Item>
        {withAdmin && (
          <>
            <Form.Item
              name="adminUsername"
              label={t("tenant.admin.username")}
              rules={[
                { required: true, message: t("tenant.admin.username.required") },
                { pattern: USERNAME, message: t("tenant.admin.username.format") },
              ]}
            >
              <Input autoComplete="off" data-testid="tenant-admin-username" />
            </Form.Item>
            <Form.Item
              name="adminPassword"
              label={t("tenant.admin.password")}
              rules={[
                { required: true, message: t("tenant.admin.password.required") },
                {
                  validator: async (_, v: string | undefined) => {
                    if (v && !strong(v)) throw new Error(t("tenant.admin.password.format"));
                  },
                },
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="tenant-admin-password" />
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}

/** /backend/tenant/list (super admins): the tenants, creating one, and each tenant's website configs. */
export default function TenantListPage() {
  const t = messages.useT();
  const [creating, setCreating] = useState(false);
  const [sites, setSites] = useState<TenantRow | null>(null);
  const list = useQuery({ queryKey: settingsKeys.tenants, queryFn: ({ signal }) => listTenants(signal) });

  return (
    <PageContainer
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="tenant-create">
          {t("tenant.create")}
        </Button>
      }
    >
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <Table<TenantRow>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data?.list ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          data-testid="tenant-table"
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("tenant.empty")} /> }}
          columns={[
            { title: "ID", dataIndex: "id", width: 70 },
            { title: t("tenant.code"), dataIndex: "code" },
            { title: t("tenant.name"), dataIndex: "name" },
            { title: t("tenant.currency"), dataIndex: "currency" },
            {
              title: t("tenant.status"),
              dataIndex: "status",
              render: (v: number) => (
                <Tag color={v === 1 ? "green" : "default"}>{t(`tenant.status.${v}` as "tenant.status.1")}</Tag>
              ),
            },
            {
              title: t("tenant.users"),
              key: "users",
              render: (_, r) =>
                r.userCounts
                  ? [r.userCounts.admins, r.userCounts.agents, r.userCounts.customers]
                      .map((n) => formatNumber(n))
                      .join(" / ")
                  : "-",
            },
            { title: t("tenant.createdAt"), dataIndex: "createdAt", render: (v: string) => formatDateTime(v) },
            {
              title: t("tenant.actions"),
              key: "actions",
              render: (_, r) => (
                <Space>
                  <Button size="small" onClick={() => setSites(r)} data-testid={`tenant-websites-${r.code}`}>
                    {t("tenant.websites")}
                  </Button>
                  <Link to={`/backend/setting/system?tenantId=${r.id}`}>{t("tenant.settings")}</Link>
                </Space>
              ),
            },
          ]}
        />
      )}
      {creating && <CreateTenantModal onClose={() => setCreating(false)} />}
      <Drawer
        open={sites !== null}
        onClose={() => setSites(null)}
        title={sites ? t("tenant.websites.title", { name: sites.name }) : ""}
        size={860}
        destroyOnHidden
      >
        {sites && <WebsiteConfigs tenantId={sites.id} allowAgent={false} />}
      </Drawer>
    </PageContainer>
  );
}
