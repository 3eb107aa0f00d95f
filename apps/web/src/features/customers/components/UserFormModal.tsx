import { AuthRequirement, UserType } from "@switchboard/contracts/codes";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, type ButtonProps, Form, Input, Modal, Radio, Select } from "antd";
import { useEffect, useState } from "react";
import { errorText } from "../../../lib/error-text";
import { passwordRules, usernameRules } from "../../auth/components/credential-rules";
import { useSession } from "../../auth/context/session-context";
import { createUser, customerKeys, editUser, listTenants, type UserCreateInput, type UserRow } from "../api";
import { messages } from "../messages";
import { codeLabel } from "./labels";
import { UserPicker } from "./UserPicker";

export interface UserFormModalProps {
  open: boolean;
  /** Edit this account; without it the modal creates one. */
  editing?: UserRow | null;
  onClose: () => void;
}

interface Values {
  type?: number;
  tenantId?: number;
  username?: string;
  password?: string;
  nickname?: string;
  email?: string;
  phone?: string;
  company?: string;
  remark?: string;
  agentId?: number | null;
  authRequirement?: number;
}

/** Types a role may create (docs/permissions.md): admins any tenant account, agents their own customers. */
export function creatableTypes(userType: UserType): UserType[] {
  if (userType === UserType.ADMIN || userType === UserType.SUPER_ADMIN)
    return [UserType.USER, UserType.AGENT, UserType.ADMIN];
  if (userType === UserType.AGENT) return [UserType.USER];
  return [];
}

const blank = (v: string | undefined) => {
  const s = v?.trim();
  return s ? s : undefined;
};

/** The 'user create' modal (POST /user/create) and the edit modal (POST /user/edit). */
export function UserFormModal({ open, editing, onClose }: UserFormModalProps) {
  const t = messages.useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const isSuper = user.type === UserType.SUPER_ADMIN;
  const mayPickAgent = user.type === UserType.ADMIN || isSuper;
  const types = creatableTypes(user.type);
  const [form] = Form.useForm<Values>();
  const [serverError, setServerError] = useState<string | null>(null);
  const chosenType = Form.useWatch("type", form) ?? editing?.type;
  const isCustomer = chosenType === UserType.USER;

  const tenants = useQuery({
    queryKey: customerKeys.tenants,
    queryFn: ({ signal }) => listTenants({ signal }),
    enabled: open && isSuper && !editing,
  });

  useEffect(() => {
    if (!open) return;
    setServerError(null);
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        nickname: editing.nickname ?? "",
        email: editing.email ?? "",
        phone: editing.phone ?? "",
        company: editing.company ?? "",
        remark: editing.remark ?? "",
        agentId: editing.agentId,
        authRequirement: editing.authRequirement,
      });
    } else {
      form.setFieldsValue({ type: UserType.USER, authRequirement: AuthRequirement.REQUIRED });
    }
  }, [open, editing, form]);

  const mutation = useMutation({
    mutationFn: async (values: Values) => {
      if (editing) {
        const customer = editing.type === UserType.USER;
        return editUser({
          id: editing.id,
          nickname: values.nickname?.trim() ?? null,
          email: values.email?.trim() ?? null,
          phone: values.phone?.trim() ?? null,
          company: values.company?.trim() ?? null,
          remark: values.remark?.trim() ?? null,
          ...(customer ? { authRequirement: values.authRequirement } : {}),
          ...(customer && mayPickAgent ? { agentId: values.agentId ?? null } : {}),
        });
      }
      const type = values.type ?? UserType.USER;
      const body: UserCreateInput = {
        type,
        username: (values.username ?? "").trim(),
        password: values.password ?? "",
        nickname: blank(values.nickname),
        email: blank(values.email),
        phone: blank(values.phone),
        company: blank(values.company),
        remark: blank(values.remark),
      };
      if (type === UserType.USER) {
        body.authRequirement = values.authRequirement;
        if (mayPickAgent && values.agentId) body.agentId = values.agentId;
      }
      if (isSuper && values.tenantId) body.tenantId = values.tenantId;
      return createUser(body);
    },
    onSuccess: (row) => {
      message.success(editing ? t("form.saved") : t("form.created", { user: row.user }));
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      onClose();
    },
    onError: (error) => setServerError(errorText(error, t.shell)),
  });

  const max = (n: number) => ({ max: n, message: t("form.maxLength", { max: n }) });

  return (
    <Modal
      open={open}
      title={editing ? t("form.editTitle", { user: editing.user }) : t("form.createTitle")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("common.save")}
      cancelText={t("common.cancel")}
      okButtonProps={{ loading: mutation.isPending, "data-testid": "user-form-submit" } as ButtonProps}
      destroyOnHidden
      forceRender
      data-testid="user-form-modal"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(values) => {
          setServerError(null);
          mutation.mutate(values);
        }}
        onValuesChange={() => serverError && setServerError(null)}
      >
        {!editing && (
          <>
            {isSuper && (
              <Form.Item
                name="tenantId"
                label={t("user.tenant")}
                rules={[{ required: true, message: t("form.tenantRequired") }]}
              >
                <Select
                  loading={tenants.isFetching}
                  options={(tenants.data?.list ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.code})` }))}
                />
              </Form.Item>
            )}
            <Form.Item name="type" label={t("user.type")} rules={[{ required: true, message: t("form.typeRequired") }]}>
              <Radio.Group
                data-testid="user-form-type"
                options={types.map((v) => ({ value: v, label: codeLabel(t, "type", v) }))}
              />
            </Form.Item>
            <Form.Item
              name="username"
              label={t("user.username")}
              validateFirst
              rules={[...usernameRules(t.shell), { pattern: /^[A-Za-z0-9_.@-]+$/, message: t("form.usernameChars") }]}
            >
              <Input autoComplete="off" data-testid="user-form-username" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t("user.password")}
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
              <Input.Password autoComplete="new-password" data-testid="user-form-password" />
            </Form.Item>
          </>
        )}
        <Form.Item name="nickname" label={t("user.nickname")} rules={[max(100)]}>
          <Input data-testid="user-form-nickname" />
        </Form.Item>
        <Form.Item name="company" label={t("user.company")} rules={[max(200)]}>
          <Input data-testid="user-form-company" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t("user.email")}
          rules={[{ type: "email", message: t.shell("auth.rule.emailInvalid") }, max(254)]}
        >
          <Input data-testid="user-form-email" />
        </Form.Item>
        <Form.Item name="phone" label={t("user.phone")} rules={[max(32)]}>
          <Input data-testid="user-form-phone" />
        </Form.Item>
        {isCustomer && mayPickAgent && (
          <Form.Item name="agentId" label={t("user.agent")} extra={t("form.agentHint")}>
            <UserPicker type={UserType.AGENT} testId="user-form-agent" />
          </Form.Item>
        )}
        {isCustomer && (
          <Form.Item name="authRequirement" label={t("user.authRequirement")}>
            <Radio.Group
              options={[AuthRequirement.REQUIRED, AuthRequirement.EXEMPT].map((v) => ({
                value: v,
                label: codeLabel(t, "authReq", v),
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name="remark" label={t("user.remark")} rules={[max(500)]}>
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
      {serverError && <Alert type="error" showIcon title={serverError} data-testid="user-form-error" />}
    </Modal>
  );
}
