import { PlusOutlined } from "@ant-design/icons";
import {
  SMS_TEMPLATE_CONTENT_MAX,
  SMS_TEMPLATE_SCENE_NAMES,
  SMS_TEMPLATE_SCENES,
  type SmsTemplateScene,
  templatePlaceholders,
} from "@switchboard/contracts";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tag, Typography } from "antd";
import type { TextAreaRef } from "antd/es/input/TextArea";
import { useRef, useState } from "react";
import { FilterSelect, ListToolbar, PagedTable, ResetButton, SearchBox } from "../../../components/ListPage";
import { PageContainer } from "../../../components/PageContainer";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useListFilters } from "../../../hooks/use-list-filters";
import {
  createTemplate,
  deleteTemplate,
  editTemplate,
  listTemplates,
  type SmsTemplateRow,
  setTemplateStatus,
  settingsKeys,
  type TemplateInput,
  type TenantParam,
} from "../api";
import { ChooseTenant, useTenantScope } from "../components/TenantScope";
import { formatDateTime } from "../format";
import { messages } from "../messages";

type T = ReturnType<typeof messages.useT>;
const sceneLabel = (t: T, scene: string) =>
  scene in SMS_TEMPLATE_SCENES ? t(`template.scene.${scene}` as "template.scene.verify_code") : scene;

interface EditorValues {
  scene: SmsTemplateScene;
  name: string;
  content: string;
}

function TemplateEditor({
  tenantId,
  row,
  onClose,
}: {
  tenantId: TenantParam;
  row: SmsTemplateRow | null;
  onClose: () => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<EditorValues>();
  const scene = Form.useWatch("scene", form) ?? (row?.scene as SmsTemplateScene | undefined) ?? "verify_code";
  const allowed: readonly string[] = SMS_TEMPLATE_SCENES[scene] ?? [];
  const contentRef = useRef<TextAreaRef>(null);
  const save = useMutation({
    mutationFn: (input: TemplateInput) =>
      row ? editTemplate(tenantId, row.id, input) : createTemplate(tenantId, input),
    onSuccess: async () => {
      message.success(t("common.saved"));
      await queryClient.invalidateQueries({ queryKey: settingsKeys.allTemplates });
      onClose();
    },
    onError: showError,
  });

  const insert = (name: string) => {
    const current: string = form.getFieldValue("content") ?? "";
    const el = contentRef.current?.resizableTextArea?.textArea;
    const at = el ? el.selectionStart : current.length;
    form.setFieldValue("content", `${current.slice(0, at)}{${name}}${current.slice(at)}`);
    form.validateFields(["content"]).catch(() => undefined);
  };

  return (
    <Modal
      open
      title={row ? t("template.edit") : t("template.create")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: save.isPending, "data-testid": "template-save" } as never}
      destroyOnHidden
    >
      <Form<EditorValues>
        form={form}
        layout="vertical"
        initialValues={
          row
            ? { scene: row.scene as SmsTemplateScene, name: row.name, content: row.content }
            : { scene: "verify_code", name: "", content: "" }
        }
        onFinish={(v) => save.mutate({ scene: v.scene, name: v.name.trim(), content: v.content.trim() })}
      >
        <Form.Item name="scene" label={t("template.scene")} rules={[{ required: true }]}>
          <Select
            data-testid="template-scene"
            options={SMS_TEMPLATE_SCENE_NAMES.map((s) => ({ value: s, label: sceneLabel(t, s) }))}
            onChange={() => form.validateFields(["content"]).catch(() => undefined)}
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("template.name")}
          rules={[{ required: true, whitespace: true, message: t("template.name.required") }]}
        >
          <Input maxLength={100} data-testid="template-name" />
        </Form.Item>
        <Form.Item
          name="content"
          label={t("template.content")}
          dependencies={["scene"]}
          extra={
            <Space size={4} wrap style={{ marginTop: 4 }} data-testid="template-placeholders">
              <Typography.Text type="secondary">{t("template.placeholders")}</Typography.Text>
              {allowed.map((p) => (
                <Tag
                  key={p}
                  style={{ cursor: "pointer" }}
                  onClick={() => insert(p)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" || e.key === " ") {
                      e.preventDefault();
                      insert(p);
                    }
                  }}
                  role="button"
                  tabIndex={0}
                >
                  {`{${p}}`}
                </Tag>
              ))}
            </Space>
          }
          rules={[
            { required: true, whitespace: true, message: t("template.content.required") },
            {
              validator: async (_, v: string | undefined) => {
                const unknown = templatePlaceholders(v ?? "").filter((p) => !allowed.includes(p));
                if (unknown.length > 0)
                  throw new Error(t("template.content.unknown", { names: unknown.map((p) => `{${p}}`).join(", ") }));
              },
            },
          ]}
        >
          <Input.TextArea
            ref={contentRef}
            rows={4}
            maxLength={SMS_TEMPLATE_CONTENT_MAX}
            showCount
            data-testid="template-content"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function TemplateList({ tenantId }: { tenantId: TenantParam }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const templates = useListFilters<{ scene?: string; status?: string; keyword?: string }>([
    "scene",
    "status",
    "keyword",
  ]);
  const [editing, setEditing] = useState<SmsTemplateRow | "new" | null>(null);
  const list = useQuery({
    queryKey: settingsKeys.templates(tenantId, templates.params),
    queryFn: ({ signal }) => listTemplates(tenantId, templates.params, signal),
    placeholderData: keepPreviousData,
  });
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: settingsKeys.allTemplates });
  };
  const status = useMutation({
    mutationFn: (r: SmsTemplateRow) => setTemplateStatus(tenantId, r.id, r.status === 1 ? 2 : 1),
    onSuccess: done,
    onError: showError,
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteTemplate(tenantId, id),
    onSuccess: async () => {
      message.success(t("common.deleted"));
      await done();
    },
    onError: showError,
  });

  return (
    <>
      <ListToolbar marginBottom={12}>
        <FilterSelect
          list={templates}
          name="scene"
          placeholder={t("template.scene")}
          width={180}
          options={SMS_TEMPLATE_SCENE_NAMES.map((s) => ({ value: s, label: sceneLabel(t, s) }))}
        />
        <FilterSelect
          list={templates}
          name="status"
          placeholder={t("common.status")}
          width={120}
          options={["1", "2"].map((s) => ({ value: s, label: t(`template.status.${s}` as "template.status.1") }))}
        />
        <SearchBox search={templates.search} placeholder={t("template.keyword")} width={240} />
        <ResetButton onReset={templates.reset} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing("new")} data-testid="template-create">
          {t("template.create")}
        </Button>
      </ListToolbar>
      <PagedTable<SmsTemplateRow>
        query={list}
        paging={templates}
        data-testid="template-table"
        empty={t("template.empty")}
        simpleEmpty
        showSizeChanger
        columns={[
          { title: t("template.scene"), dataIndex: "scene", render: (v: string) => sceneLabel(t, v) },
          { title: t("template.name"), dataIndex: "name" },
          {
            title: t("template.content"),
            dataIndex: "content",
            ellipsis: true,
            render: (v: string) => <Typography.Text title={v}>{v}</Typography.Text>,
          },
          {
            title: t("common.status"),
            dataIndex: "status",
            render: (v: number) => (
              <Tag color={v === 1 ? "green" : "default"}>{t(`template.status.${v}` as "template.status.1")}</Tag>
            ),
          },
          { title: t("common.updatedAt"), dataIndex: "updatedAt", render: (v: string) => formatDateTime(v) },
          {
            title: t("common.actions"),
            key: "actions",
            render: (_, r) => (
              <Space>
                <Button size="small" onClick={() => setEditing(r)}>
                  {t("common.edit")}
                </Button>
                <Button size="small" onClick={() => status.mutate(r)} loading={status.isPending}>
                  {r.status === 1 ? t("template.pause") : t("template.enable")}
                </Button>
                <Popconfirm title={t("common.confirmDelete")} onConfirm={() => remove.mutate(r.id)}>
                  <Button size="small" danger>
                    {t("common.delete")}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <TemplateEditor tenantId={tenantId} row={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}

/** setting/sms/template: the SMS templates of the tenant. */
export default function SmsTemplatesPage() {
  const scope = useTenantScope();
  return <PageContainer>{scope.missing ? <ChooseTenant /> : <TemplateList tenantId={scope.tenantId} />}</PageContainer>;
}
