import { useMutation } from "@tanstack/react-query";
import { App, Form, Input, Modal } from "antd";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { type AdminInput, createAdmin, type TenantParam, type UserRow } from "../api";
import { messages } from "../messages";

const USERNAME = /^[A-Za-z0-9_.@-]{3,64}$/;
const strong = (pw: string) => pw.length >= 8 && pw.length <= 128 && /[A-Za-z]/.test(pw) && /\d/.test(pw);

/** The 'create admin' modal: POST /user/create with type 1 (in the chosen tenant for a super admin). */
export function CreateAdminModal({
  tenantId,
  onClose,
  onCreated,
}: {
  tenantId: TenantParam;
  onClose: () => void;
  onCreated: (row: UserRow) => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const [form] = Form.useForm<AdminInput>();
  const create = useMutation({
    mutationFn: (input: AdminInput) => createAdmin(tenantId, input),
    onSuccess: (row) => {
      message.success(t("account.created"));
      onCreated(row);
    },
    onError: showError,
  });
  const optional = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
  return (
    <Modal
      open
      title={t("account.create")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("common.create")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: create.isPending, "data-testid": "admin-save" } as never}
      destroyOnHidden
    >
      <Form<AdminInput>
        form={form}
        layout="vertical"
        onFinish={(v) =>
          create.mutate({
            username: v.username.trim(),
            password: v.password,
            nickname: optional(v.nickname),
            email: optional(v.email),
            phone: optional(v.phone),
            remark: optional(v.remark),
          })
        }
      >
        <Form.Item
          name="username"
          label={t("account.username")}
          rules={[
            { required: true, whitespace: true, message: t("account.username.required") },
            { pattern: USERNAME, message: t("account.username.format") },
          ]}
        >
          <Input autoComplete="off" data-testid="admin-username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t("account.password")}
          rules={[
            { required: true, message: t("account.password.required") },
            {
              validator: async (_, v: string | undefined) => {
                if (v && !strong(v)) throw new Error(t("account.password.format"));
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="admin-password" />
        </Form.Item>
        <Form.Item name="nickname" label={t("account.nickname")}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item
          name="email"
          label={t("account.email")}
          rules={[{ type: "email", message: t("account.email.format") }]}
        >
          <Input maxLength={254} />
        </Form.Item>
        <Form.Item name="phone" label={t("account.phone")}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="remark" label={t("account.remark")}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
