import type { ChannelItem } from "@switchboard/contracts";
import type { ChannelKind } from "@switchboard/contracts/codes";
import { Alert, App, Button, Divider, Form, Input, InputNumber, Modal, Select, Typography } from "antd";
import type { Rule } from "antd/es/form";
import { errorText } from "../../../lib/error-text";
import { CountryScopeFields } from "../../products/components/CountryScopeFields";
import { useChannelMutation } from "../api";
import { messages } from "../messages";
import {
  CHANNEL_KINDS,
  type ChannelFormValues,
  type ConfigField,
  channelBody,
  initialValues,
  isSecretField,
  isVisible,
  KIND_FIELDS,
  KIND_PRODUCT_CODE,
  requiredSecrets,
} from "./channel-config";

type T = ReturnType<typeof messages.useT>;
type CfgKey = Parameters<T>[0];

const label = (t: T, name: string) => t(`cfg.${name}` as CfgKey);
/** Fields with a hint under them (`cfg.<name>.hint`). */
const HINTED = new Set(["bodyTemplate", "receiverBinds"]);

function fieldRules(t: T, f: ConfigField, required: boolean): Rule[] {
  const name = label(t, f.name);
  const rules: Rule[] = [];
  // Whitespace-only text is empty; numbers and credentials (taken byte for byte) are not checked for it.
  const text = f.type === "text" || f.type === "textarea";
  if (required) {
    rules.push({
      required: true,
      type: f.type === "number" ? "number" : "string",
      whitespace: text,
      message: t("form.required", { field: name }),
    });
  }
  if (f.type === "number" && f.min !== undefined && f.max !== undefined) {
    rules.push({
      type: "number",
      min: f.min,
      max: f.max,
      message: t("form.range", { field: name, min: f.min, max: f.max }),
    });
  }
  if (f.maxLength !== undefined)
    rules.push({ max: f.maxLength, message: t("form.tooLong", { field: name, max: f.maxLength }) });
  if (f.pattern) rules.push({ pattern: f.pattern, message: t("form.invalid", { field: name }) });
  if (f.url) rules.push({ pattern: /^https?:\/\/[^\s]+$/i, message: t("form.url", { field: name }) });
  if (f.check) {
    const check = f.check;
    rules.push({
      validator: (_, v: string | undefined) =>
        !v || check(v) ? Promise.resolve() : Promise.reject(new Error(t("form.serviceAccountKey"))),
    });
  }
  return rules;
}

/** Form.Item hands its control `value`, `onChange` and `id`: passed on to the actual input. */
function ConfigInput({
  f,
  t,
  item,
  ...control
}: {
  f: ConfigField;
  t: T;
  item?: ChannelItem | undefined;
  value?: unknown;
  onChange?: (...args: unknown[]) => void;
  id?: string;
}) {
  const testId = `channel-cfg-${f.name}`;
  const bound = control as Record<string, never>;
  if (f.type === "number")
    return <InputNumber {...bound} style={{ width: "100%" }} precision={0} data-testid={testId} />;
  if (f.type === "select") {
    const optionLabel = (o: string) => (f.name === "method" ? o : t(`cfg.${f.name}.${o}` as CfgKey));
    return (
      <Select
        {...bound}
        options={(f.options ?? []).map((o) => ({ value: o, label: optionLabel(o) }))}
        data-testid={testId}
      />
    );
  }
  if (f.type === "textarea") return <Input.TextArea {...bound} rows={3} data-testid={testId} />;
  if (isSecretField(f)) {
    const state = item?.secrets[f.name];
    const placeholder = item
      ? state?.set
        ? t("secret.unchanged", { last4: state.last4 ? `, ${state.last4}` : "" })
        : t("secret.notSet")
      : undefined;
    return f.type === "secretTextarea" ? (
      <Input.TextArea
        {...bound}
        rows={4}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        data-testid={testId}
      />
    ) : (
      <Input.Password {...bound} placeholder={placeholder} autoComplete="new-password" data-testid={testId} />
    );
  }
  return <Input {...bound} autoComplete="off" data-testid={testId} />;
}

/**
 * The "create api" modal (and the channel edit): common settings, then the kind's own connection settings
 * and credentials. A credential is never shown; on edit an empty one stays "unchanged". Mount when it opens.
 */
export function ChannelFormModal({ item, onClose }: { item?: ChannelItem | undefined; onClose: () => void }) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<ChannelFormValues>();
  const create = useChannelMutation<Record<string, unknown>>("/channel/create");
  const edit = useChannelMutation<Record<string, unknown>>("/channel/edit");
  const mutation = item ? edit : create;
  const kind = (Form.useWatch("kind", form) ?? item?.kind ?? "smpp") as ChannelKind;
  const config = (Form.useWatch("config", form) ?? {}) as Record<string, unknown>;
  const fields = KIND_FIELDS[kind];
  const needed = requiredSecrets(kind, config);

  async function submit(values: ChannelFormValues) {
    const result = await mutation.mutateAsync(channelBody({ ...values, kind }, item?.id)).catch(() => null);
    if (!result) return;
    message.success(t("saved"));
    onClose();
  }

  const renderField = (f: ConfigField) => {
    if (!isVisible(f, config)) return null;
    const required = isSecretField(f) ? !item && needed.includes(f.name) : Boolean(f.required);
    return (
      <Form.Item
        key={`${kind}.${f.name}`}
        name={["config", f.name]}
        label={label(t, f.name)}
        rules={fieldRules(t, f, required)}
        extra={HINTED.has(f.name) ? t(`cfg.${f.name}.hint` as CfgKey) : undefined}
      >
        <ConfigInput f={f} t={t} item={item} />
      </Form.Item>
    );
  };

  return (
    <Modal
      open
      width={720}
      title={item ? t("form.editTitle", { name: item.name }) : t("form.createTitle")}
      onCancel={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t("cancel")}</Button>
          <Button
            type="primary"
            loading={mutation.isPending}
            onClick={() => form.submit()}
            data-testid="channel-form-submit"
          >
            {t("ok")}
          </Button>
        </>
      }
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={initialValues((item?.kind ?? "smpp") as ChannelKind, item)}
        onValuesChange={(changed: Partial<ChannelFormValues>) => {
          if (changed.kind) form.setFieldsValue({ config: initialValues(changed.kind).config });
        }}
        data-testid="channel-form"
      >
        <Form.Item
          name="kind"
          label={t("form.kind")}
          extra={t("form.carries", { product: t(`code.${KIND_PRODUCT_CODE[kind]}`) })}
        >
          <Select
            disabled={Boolean(item)}
            options={CHANNEL_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
            data-testid="channel-form-kind"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t("form.name")}
          rules={[
            { required: true, whitespace: true, message: t("form.required", { field: t("form.name") }) },
            { max: 100, message: t("form.tooLong", { field: t("form.name"), max: 100 }) },
          ]}
        >
          <Input autoComplete="off" data-testid="channel-form-name" />
        </Form.Item>
        <Form.Item
          name="throughput"
          label={t("form.throughput")}
          rules={[
            { required: true, type: "number", message: t("form.required", { field: t("form.throughput") }) },
            {
              type: "number",
              min: 1,
              max: 10_000,
              message: t("form.range", { field: t("form.throughput"), min: 1, max: 10_000 }),
            },
          ]}
        >
          <InputNumber style={{ width: "100%" }} precision={0} data-testid="channel-form-throughput" />
        </Form.Item>
        <CountryScopeFields testId="channel-form" />
        <Divider titlePlacement="start">{t("form.section.connection")}</Divider>
        {fields.filter((f) => !isSecretField(f)).map(renderField)}
        {kind === "rcs" && typeof item?.config.serviceAccountEmail === "string" && (
          <Form.Item label={t("cfg.serviceAccountEmail")}>
            <Typography.Text code>{item.config.serviceAccountEmail}</Typography.Text>
          </Form.Item>
        )}
        {fields.some((f) => isSecretField(f) && isVisible(f, config)) && (
          <>
            <Divider titlePlacement="start">{t("form.section.credentials")}</Divider>
            <Typography.Paragraph type="secondary">{t("secret.hint")}</Typography.Paragraph>
            {fields.filter(isSecretField).map(renderField)}
          </>
        )}
        {mutation.isError && (
          <Alert
            type="error"
            showIcon
            role="alert"
            title={errorText(mutation.error, t.shell)}
            data-testid="channel-form-error"
          />
        )}
      </Form>
    </Modal>
  );
}
