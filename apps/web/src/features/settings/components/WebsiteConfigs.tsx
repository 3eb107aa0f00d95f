import { DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from "@ant-design/icons";
import { WEBSITE_LOGO_MAX_BYTES } from "@switchboard/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Image,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Typography,
  Upload,
} from "antd";
import { useState } from "react";
import { LoadError } from "../../../components/LoadError";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { config } from "../../../lib/config";
import { websiteKeys } from "../../website/api/get-website-config";
import {
  deleteWebsite,
  listAgents,
  listWebsites,
  saveWebsite,
  settingsKeys,
  type TenantParam,
  uploadLogo,
  type WebsiteConfigRow,
  type WebsiteInput,
} from "../api";
import { formatDateTime } from "../format";
import { messages } from "../messages";

const HOST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Address of a stored logo path for <img> (the API serves it publicly). */
export function logoSrc(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  return /^https?:\/\//i.test(path) ? path : `${config.apiBase}${path.startsWith("/") ? "" : "/"}${path}`;
}

interface LogoFieldProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  tenantId: TenantParam;
  testId: string;
  label: string;
}

/** A logo: upload (PNG/JPG, 2 MB, checked here and again by the server), preview, remove. */
function LogoField({ value, onChange, tenantId, testId, label }: LogoFieldProps) {
  const t = messages.useT();
  const showError = useApiErrorMessage();
  const { message } = App.useApp();
  const upload = useMutation({
    mutationFn: (file: File) => uploadLogo(tenantId, file),
    onSuccess: (res) => {
      onChange?.(res.path);
      message.success(t("website.upload.done"));
    },
    onError: showError,
  });
  return (
    <Space align="start" wrap>
      {value ? (
        <Image
          src={logoSrc(value)}
          alt={label}
          width={96}
          height={48}
          style={{ objectFit: "contain", background: "#fafafa", border: "1px solid #f0f0f0" }}
          data-testid={`${testId}-preview`}
        />
      ) : null}
      <Space orientation="vertical" size={4}>
        <Upload
          accept="image/png,image/jpeg"
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            if (file.type && !["image/png", "image/jpeg"].includes(file.type)) {
              message.warning(t("website.upload.type"));
              return Upload.LIST_IGNORE;
            }
            if (file.size > WEBSITE_LOGO_MAX_BYTES) {
              message.warning(t("website.upload.size"));
              return Upload.LIST_IGNORE;
            }
            upload.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid={`${testId}-upload`}>
            {t("website.upload")}
          </Button>
        </Upload>
        <Typography.Text type="secondary">{t("website.upload.help")}</Typography.Text>
        {value ? (
          <Button size="small" type="link" onClick={() => onChange?.(null)} style={{ padding: 0 }}>
            {t("website.remove")}
          </Button>
        ) : null}
      </Space>
    </Space>
  );
}

interface EditorValues {
  host: string;
  title: string;
  description?: string;
  logo?: string | null;
  logoSmall?: string | null;
  agentId?: number | null;
}

function WebsiteEditor({
  tenantId,
  row,
  allowAgent,
  onClose,
}: {
  tenantId: TenantParam;
  row: WebsiteConfigRow | null;
  allowAgent: boolean;
  onClose: () => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditorValues>();
  const watched = Form.useWatch([], form);
  const agents = useQuery({
    queryKey: settingsKeys.agents,
    queryFn: ({ signal }) => listAgents(signal),
    enabled: allowAgent,
  });
  const save = useMutation({
    mutationFn: (input: WebsiteInput) => saveWebsite(tenantId, input),
    onSuccess: async () => {
      message.success(t("common.saved"));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.websites(tenantId) });
      // The shell's branding may come from this config.
      await queryClient.invalidateQueries({ queryKey: websiteKeys.all });
      onClose();
    },
    onError: showError,
  });
  const onFinish = (v: EditorValues) =>
    save.mutate({
      ...(row ? { id: row.id } : {}),
      host: v.host.trim().toLowerCase(),
      title: v.title.trim(),
      description: v.description?.trim() || null,
      logo: v.logo ?? null,
      logoSmall: v.logoSmall ?? null,
      agentId: allowAgent ? (v.agentId ?? null) : (row?.agentId ?? null),
    });

  return (
    <Modal
      open
      title={row ? t("website.editTitle") : t("website.create")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: save.isPending, "data-testid": "website-save" } as never}
      destroyOnHidden
      width={640}
    >
      <Form<EditorValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={
          row
            ? {
                host: row.host,
                title: row.title,
                description: row.description ?? "",
                logo: row.logo,
                logoSmall: row.logoSmall,
                agentId: row.agentId,
              }
            : { logo: null, logoSmall: null, agentId: null }
        }
      >
        <Form.Item
          name="host"
          label={t("website.host")}
          extra={t("website.host.help")}
          rules={[
            { required: true, whitespace: true, message: t("website.host.required") },
            {
              validator: async (_, v: string | undefined) => {
                if (v && !HOST.test(v.trim().toLowerCase())) throw new Error(t("website.host.format"));
              },
            },
          ]}
        >
          <Input maxLength={253} data-testid="website-host" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="title"
          label={t("website.title")}
          rules={[{ required: true, whitespace: true, message: t("website.title.required") }]}
        >
          <Input maxLength={100} data-testid="website-title" />
        </Form.Item>
        <Form.Item name="description" label={t("website.description")}>
          <Input.TextArea maxLength={500} rows={2} data-testid="website-description" />
        </Form.Item>
        {allowAgent && (
          <Form.Item name="agentId" label={t("website.agent")} extra={t("website.agent.help")}>
            <Select
              loading={agents.isLoading}
              options={[
                { value: null as unknown as number, label: t("website.agent.none") },
                ...(agents.data?.list ?? []).map((a) => ({ value: a.id, label: a.nickname || a.user })),
              ]}
            />
          </Form.Item>
        )}
        <Form.Item name="logo" label={t("website.logo")}>
          <LogoField tenantId={tenantId} testId="website-logo" label={t("website.logo")} />
        </Form.Item>
        <Form.Item name="logoSmall" label={t("website.logoSmall")}>
          <LogoField tenantId={tenantId} testId="website-logo-small" label={t("website.logoSmall")} />
        </Form.Item>
        <Card size="small" title={t("website.preview")} data-testid="website-preview">
          <Space align="center">
            {watched?.logo ? (
              <img src={logoSrc(watched.logo)} alt="" style={{ height: 32, objectFit: "contain" }} />
            ) : null}
            <Typography.Title level={4} style={{ margin: 0 }}>
              {watched?.title || "-"}
            </Typography.Title>
          </Space>
          {watched?.description ? <Typography.Paragraph>{watched.description}</Typography.Paragraph> : null}
        </Card>
      </Form>
    </Modal>
  );
}

/** The tenant's website configs (branding by host): list, add, edit, delete. */
export function WebsiteConfigs({ tenantId, allowAgent = true }: { tenantId: TenantParam; allowAgent?: boolean }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<WebsiteConfigRow | "new" | null>(null);
  const list = useQuery({
    queryKey: settingsKeys.websites(tenantId),
    queryFn: ({ signal }) => listWebsites(tenantId, signal),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteWebsite(tenantId, id),
    onSuccess: async () => {
      message.success(t("common.deleted"));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.websites(tenantId) });
      await queryClient.invalidateQueries({ queryKey: websiteKeys.all });
    },
    onError: showError,
  });

  if (list.isError) return <LoadError error={list.error} onRetry={() => list.refetch()} />;

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="website-create">
          {t("website.create")}
        </Button>
      </Space>
      <Table<WebsiteConfigRow>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        pagination={false}
        data-testid="website-table"
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("website.empty")} /> }}
        columns={[
          { title: t("website.host"), dataIndex: "host" },
          { title: t("website.title"), dataIndex: "title" },
          {
            title: t("website.logo"),
            dataIndex: "logoUrl",
            render: (_, r) =>
              r.logo ? <img src={logoSrc(r.logo)} alt={r.title} style={{ height: 28, objectFit: "contain" }} /> : "-",
          },
          ...(allowAgent
            ? [
                {
                  title: t("website.agent"),
                  dataIndex: "agentUser",
                  render: (v: string | null) => v ?? t("website.agent.none"),
                },
              ]
            : []),
          { title: t("common.updatedAt"), dataIndex: "updatedAt", render: (v: string) => formatDateTime(v) },
          {
            title: t("common.actions"),
            key: "actions",
            render: (_, r) => (
              <Space>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(r)}
                  aria-label={t("common.edit")}
                >
                  {t("common.edit")}
                </Button>
                <Popconfirm title={t("common.confirmDelete")} onConfirm={() => remove.mutate(r.id)}>
                  <Button size="small" danger icon={<DeleteOutlined />} aria-label={t("common.delete")}>
                    {t("common.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <WebsiteEditor
          tenantId={tenantId}
          row={editing === "new" ? null : editing}
          allowAgent={allowAgent}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
