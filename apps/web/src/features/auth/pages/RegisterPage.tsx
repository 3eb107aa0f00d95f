import { Button, Checkbox, Form, Input } from "antd";
import { useState } from "react";
import { Link } from "react-router-dom";
import { config } from "../../../lib/config";
import { useT } from "../../../lib/i18n";
import { PATHS } from "../../../routes/paths";
import { AgreementModal } from "../../agreement/components/AgreementModal";
import { type RegisterBody, useRegister } from "../api/register";
import { AuthShell } from "../components/AuthShell";
import { passwordRules, usernameRules } from "../components/credential-rules";
import { ServerError } from "../components/ServerError";
import { useCompleteLogin } from "../hooks/use-complete-login";

interface RegisterValues {
  username: string;
  password: string;
  confirmPassword: string;
  email?: string;
  phone?: string;
  company?: string;
  agreement: boolean;
}

const PHONE_PATTERN = /^\+?[0-9][0-9 -]{4,19}$/;

function optional(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * Customer registration (/register, and /control/register for the RCS portal). The service agreement
 * opens by itself (agree-show flag) and must be accepted before the form submits.
 */
export function RegisterPage({ portal }: { portal: "customer" | "control" }) {
  const t = useT();
  const [form] = Form.useForm<RegisterValues>();
  const [agreementOpen, setAgreementOpen] = useState(config.agreeShow);
  const mutation = useRegister();
  const completeLogin = useCompleteLogin(portal);

  const submit = (values: RegisterValues) => {
    const body: RegisterBody = { username: values.username.trim(), password: values.password };
    const email = optional(values.email);
    const phone = optional(values.phone);
    const company = optional(values.company);
    if (email) body.email = email;
    if (phone) body.phone = phone;
    if (company) body.company = company;
    mutation.mutate(body, { onSuccess: completeLogin });
  };

  const optionalLabel = (key: "auth.email" | "auth.phone" | "auth.company") => (
    <span>
      {t(key)} <span style={{ opacity: 0.65 }}>({t("auth.optional")})</span>
    </span>
  );

  return (
    <AuthShell
      heading={t(portal === "control" ? "auth.register.control" : "auth.register.customer")}
      footer={
        <span>
          {t("auth.haveAccount")}{" "}
          <Link to={portal === "control" ? PATHS.controlLogin : PATHS.customerLogin}>{t("auth.toLogin")}</Link>
        </span>
      }
    >
      <Form<RegisterValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        disabled={mutation.isPending}
        initialValues={{ agreement: false }}
      >
        <Form.Item name="username" label={t("auth.username")} rules={usernameRules(t)}>
          <Input data-testid="register-username" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t("auth.password")} rules={passwordRules(t)}>
          <Input.Password data-testid="register-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t("auth.confirmPassword")}
          dependencies={["password"]}
          rules={[
            { required: true, message: t("auth.rule.confirmRequired") },
            ({ getFieldValue }) => ({
              validator: (_rule, value) =>
                !value || getFieldValue("password") === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("auth.rule.passwordMismatch"))),
            }),
          ]}
        >
          <Input.Password data-testid="register-confirm-password" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="email"
          label={optionalLabel("auth.email")}
          rules={[{ type: "email", max: 254, message: t("auth.rule.emailInvalid") }]}
        >
          <Input type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={optionalLabel("auth.phone")}
          rules={[{ pattern: PHONE_PATTERN, message: t("auth.rule.phoneInvalid") }]}
        >
          <Input type="tel" autoComplete="tel" />
        </Form.Item>
        <Form.Item name="company" label={optionalLabel("auth.company")} rules={[{ max: 128 }]}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item>
          <Form.Item
            name="agreement"
            valuePropName="checked"
            noStyle
            rules={[
              {
                validator: (_rule, value) =>
                  value ? Promise.resolve() : Promise.reject(new Error(t("auth.rule.agreementRequired"))),
              },
            ]}
          >
            <Checkbox data-testid="register-agreement">{t("auth.agreement.prefix")}</Checkbox>
          </Form.Item>
          <Button
            type="link"
            size="small"
            data-testid="register-agreement-open"
            style={{ paddingInline: 0 }}
            onClick={() => setAgreementOpen(true)}
          >
            {t("auth.agreement.link")}
          </Button>
        </Form.Item>
        <Button
          data-testid="register-submit"
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={mutation.isPending}
        >
          {t("auth.submitRegister")}
        </Button>
      </Form>
      <ServerError error={mutation.error} />
      <AgreementModal
        open={agreementOpen}
        onAccept={() => {
          form.setFields([{ name: "agreement", value: true, errors: [] }]);
          setAgreementOpen(false);
        }}
        onDecline={() => {
          form.setFieldValue("agreement", false);
          setAgreementOpen(false);
        }}
      />
    </AuthShell>
  );
}

export const CustomerRegisterPage = () => <RegisterPage portal="customer" />;
export const ControlRegisterPage = () => <RegisterPage portal="control" />;
