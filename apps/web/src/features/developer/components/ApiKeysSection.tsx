import { PlusOutlined } from "@ant-design/icons";
import { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyRow, type ApiKeyScope } from "@switchboard/contracts";
import {
  App,
  Button,
  type ButtonProps,
  Checkbox,
  DatePicker,
  Flex,
  Form,
  Input,
  Modal,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/api-keys";
import { messages } from "../messages";
import { QueryState } from "./QueryState";
import { SecretKeyModal } from "./SecretKeyModal";

const time = (iso: string | null) => (iso ? dayjs(iso).format("YYYY-MM-DD HH:mm") : null);

const revokeButtonProps: ButtonProps & { "data-testid": string } = { danger: true, "data-testid": "api-key-revoke-ok" };

interface CreateForm {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: Dayjs | null;
}

/** The form of a new key: name, scopes, optional expiry. The key itself is shown once, by the parent. */
function CreateKeyModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: string) => void;
}) {
  const t = messages.useT();
  const showError = useApiErrorMessage();
  const create = useCreateApiKey();
  const [form] = Form.useForm<CreateForm>();
  const submit = (values: CreateForm) =>
    create.mutate(
      { name: values.name, scopes: values.scopes, expiresAt: values.expiresAt ? values.expiresAt.toISOString() : null },
      {
        onSuccess: (result) => {
          form.resetFields();
          create.reset(); // the key goes to the one-time modal only
          onCreated(result.secretKey);
        },
        onError: showError,
      },
    );
  return (
    <Modal
      open={open}
      title={t("keys.createTitle")}
      okText={t("keys.createOk")}
      okButtonProps={{ loading: create.isPending, "data-testid": "api-key-create-ok" } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ scopes: ["send", "read"] }} onFinish={submit}>
        <Form.Item
          name="name"
          label={t("keys.name")}
          rules={[
            {
              required: true,
              whitespace: true,
              max: API_KEY_NAME_MAX,
              message: t("keys.nameRequired", { max: API_KEY_NAME_MAX }),
            },
          ]}
        >
          <Input maxLength={API_KEY_NAME_MAX} placeholder={t("keys.namePlaceholder")} data-testid="api-key-name" />
        </Form.Item>
        <Form.Item
          name="scopes"
          label={t("keys.scopes")}
          extra={t("keys.scopesHelp")}
          rules={[{ required: true, type: "array", min: 1, message: t("keys.scopesRequired") }]}
        >
          <Checkbox.Group
            data-testid="api-key-scopes"
            options={API_KEY_SCOPES.map((s) => ({ value: s, label: t(`keys.scope.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="expiresAt" label={t("keys.expiresAt")} extra={t("keys.expiresHelp")}>
          <DatePicker
            showTime
            data-testid="api-key-expiry"
            disabledDate={(d) => d.isBefore(dayjs(), "day")}
            format="YYYY-MM-DD HH:mm"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The customer's named API keys: list, create (shown once, with copy), revoke with a confirmation. */
export function ApiKeysSection() {
  const t = messages.useT();
  const { modal, message } = App.useApp();
  const showError = useApiErrorMessage();
  const query = useApiKeys();
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  // The key lives here only while its modal is open.
  const [shownKey, setShownKey] = useState<string | null>(null);

  const confirmRevoke = (key: ApiKeyRow) =>
    modal.confirm({
      title: t("keys.revokeTitle", { name: key.name }),
      content: t("keys.revokeContent"),
      okText: t("keys.revokeOk"),
      okButtonProps: revokeButtonProps,
      onOk: () =>
        revoke.mutateAsync(key.id).then(
          () => void message.success(t("keys.revoked", { name: key.name })),
          (err: unknown) => showError(err),
        ),
    });

  const now = Date.now();
  const columns: TableColumnsType<ApiKeyRow> = [
    { key: "name", title: t("keys.name"), dataIndex: "name" },
    {
      key: "prefix",
      title: t("keys.prefix"),
      dataIndex: "prefix",
      render: (prefix: string) => <Typography.Text code>{prefix}…</Typography.Text>,
    },
    {
      key: "scopes",
      title: t("keys.scopes"),
      dataIndex: "scopes",
      render: (scopes: ApiKeyScope[]) => scopes.map((s) => <Tag key={s}>{t(`keys.scope.${s}`)}</Tag>),
    },
    {
      key: "expiresAt",
      title: t("keys.expiresAt"),
      dataIndex: "expiresAt",
      render: (v: string | null) => time(v) ?? t("keys.never"),
    },
    {
      key: "lastUsedAt",
      title: t("keys.lastUsedAt"),
      dataIndex: "lastUsedAt",
      render: (v: string | null) => time(v) ?? t("keys.unused"),
    },
    { key: "createdAt", title: t("keys.createdAt"), dataIndex: "createdAt", render: (v: string) => time(v) },
    {
      key: "state",
      title: t("keys.state"),
      render: (_, key) => {
        if (key.revokedAt) return <Tag>{t("keys.stateRevoked", { time: time(key.revokedAt) ?? "" })}</Tag>;
        if (key.expiresAt && new Date(key.expiresAt).getTime() <= now)
          return <Tag color="orange">{t("keys.stateExpired")}</Tag>;
        return (
          <Flex gap={8} align="center">
            <Tag color="green">{t("keys.stateActive")}</Tag>
            <Button size="small" danger onClick={() => confirmRevoke(key)} data-testid={`api-key-revoke-${key.id}`}>
              {t("keys.revoke")}
            </Button>
          </Flex>
        );
      },
    },
  ];

  return (
    <Flex vertical gap={12}>
      <Typography.Text type="secondary">{t("keys.help")}</Typography.Text>
      <div>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="api-key-create">
          {t("keys.create")}
        </Button>
      </div>
      <QueryState query={query}>
        {(data) => (
          <Table<ApiKeyRow>
            rowKey="id"
            size="small"
            pagination={false}
            scroll={{ x: true }}
            columns={columns}
            dataSource={data.list}
            locale={{ emptyText: t("keys.empty") }}
            data-testid="api-keys"
          />
        )}
      </QueryState>
      <CreateKeyModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreating(false);
          setShownKey(key);
        }}
      />
      <SecretKeyModal secretKey={shownKey} onClose={() => setShownKey(null)} />
    </Flex>
  );
}
