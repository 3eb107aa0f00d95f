import { useMutation } from "@tanstack/react-query";
import { Alert, App, type ButtonProps, Form, Input, Modal } from "antd";
import { useState } from "react";
import { errorText } from "../../../lib/error-text";
import { passwordRules } from "../../auth/components/credential-rules";
import { resetPassword } from "../api";
import { messages } from "../messages";

interface Values {
  password?: string;
  confirm?: string;
}

/** POST /user/password/mod with the account's userId: a reset without the old password. */
export function PasswordResetModal({
  user,
  onClose,
}: {
  user: { id: number; user: string } | null;
  onClose: () => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [serverError, setServerError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (values: Values) => resetPassword(user?.id ?? 0, values.password ?? ""),
    onSuccess: () => {
      message.success(t("password.done", { user: user?.user ?? "" }));
      onClose();
    },
    onError: (error) => setServerError(errorText(error, t.shell)),
  });
  return (
    <Modal
      open={user !== null}
      title={t("password.title", { user: user?.user ?? "" })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: mutation.isPending, "data-testid": "password-submit" } as ButtonProps}
      destroyOnHidden
      data-testid="password-modal"
    >
      <Alert type="warning" showIcon title={t("password.hint")} style={{ marginBottom: 16 }} />
      <Form<Values>
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => {
          setServerError(null);
          mutation.mutate(values);
        }}
      >
        <Form.Item
          name="password"
          label={t("password.new")}
          validateFirst
          rules={[
            ...passwordRules(t.shell),
            {
              validator: (_, v: string | undefined) =>
                !v || (/[A-Za-z]/.test(v) && /\d/.test(v))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("form.passwordWeak"))),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t("password.confirm")}
          dependencies={["password"]}
          rules={[
            { required: true, message: t.shell("auth.rule.confirmRequired") },
            ({ getFieldValue }) => ({
              validator: (_, v: string | undefined) =>
                !v || v === getFieldValue("password")
                  ? Promise.resolve()
                  : Promise.reject(new Error(t.shell("auth.rule.passwordMismatch"))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
      </Form>
      {serverError && <Alert type="error" showIcon title={serverError} />}
    </Modal>
  );
}
