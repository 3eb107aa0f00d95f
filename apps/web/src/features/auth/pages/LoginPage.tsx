import { Button, Form } from "antd";
// The two input kinds by path, not antd's `Input` (whose static TextArea, Search and OTP would come along):
// the login route's JavaScript has a budget (docs/benchmarks.md).
import Input from "antd/es/input/Input";
import Password from "antd/es/input/Password";
import { Link } from "react-router-dom";
import { useT } from "../../../lib/i18n";
import { PATHS, type Portal } from "../../../routes/paths";
import { useLogin } from "../api/login";
import { useStaffLogin } from "../api/staff-login";
import type { Credentials } from "../api/types";
import { AuthShell } from "../components/AuthShell";
import { passwordRules, usernameRules } from "../components/credential-rules";
import { ServerError } from "../components/ServerError";
import { useCompleteLogin } from "../hooks/use-complete-login";

const HEADING = {
  customer: "auth.login.customer",
  control: "auth.login.control",
  staff: "auth.login.staff",
} as const;

const REGISTER_PATH: Partial<Record<Portal, string>> = {
  customer: PATHS.customerRegister,
  control: PATHS.controlRegister,
};

/** Login for one portal: customers (/login), RCS portal (/control/login) or staff (/system/login). */
export function LoginPage({ portal }: { portal: Portal }) {
  const t = useT();
  const customerLogin = useLogin();
  const staffLogin = useStaffLogin();
  const mutation = portal === "staff" ? staffLogin : customerLogin;
  const completeLogin = useCompleteLogin(portal);
  const registerPath = REGISTER_PATH[portal];

  const submit = (values: Credentials) => {
    mutation.mutate({ username: values.username.trim(), password: values.password }, { onSuccess: completeLogin });
  };

  return (
    <AuthShell
      heading={t(HEADING[portal])}
      footer={
        registerPath && (
          <span>
            {t("auth.noAccount")} <Link to={registerPath}>{t("auth.toRegister")}</Link>
          </span>
        )
      }
    >
      <Form<Credentials> layout="vertical" requiredMark={false} onFinish={submit} disabled={mutation.isPending}>
        <Form.Item name="username" label={t("auth.username")} rules={usernameRules(t)}>
          <Input data-testid="login-username" autoComplete="username" autoFocus size="large" />
        </Form.Item>
        <Form.Item name="password" label={t("auth.password")} rules={passwordRules(t)}>
          <Password data-testid="login-password" autoComplete="current-password" size="large" />
        </Form.Item>
        <Button
          data-testid="login-submit"
          type="primary"
          htmlType="submit"
          size="large"
          block
          loading={mutation.isPending}
        >
          {t("auth.submitLogin")}
        </Button>
      </Form>
      <ServerError error={mutation.error} />
    </AuthShell>
  );
}

export const CustomerLoginPage = () => <LoginPage portal="customer" />;
export const ControlLoginPage = () => <LoginPage portal="control" />;
export const StaffLoginPage = () => <LoginPage portal="staff" />;
