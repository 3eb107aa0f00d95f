import { UploadOutlined } from "@ant-design/icons";
import {
  AUTH_DOCUMENT_FIELD,
  AUTH_DOCUMENT_MAX_BYTES,
  AUTH_DOCUMENT_MAX_FILES,
  type AuthenticationRow,
  SubjectType,
} from "@switchboard/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Modal, Radio, Typography, Upload, type UploadFile } from "antd";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { api } from "../../../lib/api";
import { authKeys } from "../../auth/api/get-user-info";
import { dashboardKeys } from "../../dashboard/api";
import { messages } from "../messages";

const ACCEPT = ".png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf";
const ACCEPTED_NAME = /\.(png|jpe?g|pdf)$/i;
const MAX_MB = AUTH_DOCUMENT_MAX_BYTES / 1024 / 1024;

interface Values {
  subjectType: SubjectType;
  name: string;
  idNumber: string;
  contactName: string;
  contactPhone: string;
  documents: UploadFile[];
}

export interface AuthenticationSubmitModalProps {
  open: boolean;
  onClose: () => void;
  /** Called after the submission was accepted (the customer is now under review). */
  onSubmitted?: (row: AuthenticationRow) => void;
}

/** The customer's identity authentication form (POST /user/authentication/save, multipart with documents). */
export function AuthenticationSubmitModal({ open, onClose, onSubmitted }: AuthenticationSubmitModalProps) {
  const t = messages.useT();
  const [form] = Form.useForm<Values>();
  const subjectType = Form.useWatch("subjectType", form) ?? SubjectType.COMPANY;
  const queryClient = useQueryClient();
  const showError = useApiErrorMessage();
  const { message } = App.useApp();

  const save = useMutation({
    mutationFn: (v: Values) => {
      const data = new FormData();
      data.set("subjectType", String(v.subjectType));
      data.set("name", v.name.trim());
      data.set("idNumber", v.idNumber.trim());
      data.set("contactName", v.contactName.trim());
      data.set("contactPhone", v.contactPhone.trim());
      for (const f of v.documents) if (f.originFileObj) data.append(AUTH_DOCUMENT_FIELD, f.originFileObj, f.name);
      return api.post<AuthenticationRow>("/user/authentication/save", data);
    },
    onSuccess: async (row) => {
      message.success(t("submitted"));
      form.resetFields();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: authKeys.userInfo }),
      ]);
      onSubmitted?.(row);
      onClose();
    },
    onError: showError,
  });

  const required = (field: string) => ({ required: true, whitespace: true, message: t("rule.required", { field }) });
  const nameLabel = t(`name.${subjectType}` as "name.1");
  const idLabel = t(`idNumber.${subjectType}` as "idNumber.1");
  const contactLabel = t("contactName");
  const phoneLabel = t("contactPhone");

  return (
    <Modal
      open={open}
      title={t("title")}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t("cancel")}
        </Button>,
        <Button
          key="submit"
          type="primary"
          loading={save.isPending}
          onClick={() => form.submit()}
          data-testid="auth-submit"
        >
          {t("submit")}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t("intro")}</Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ subjectType: SubjectType.COMPANY, documents: [] }}
        onFinish={(v) => save.mutate(v)}
        data-testid="auth-form"
      >
        <Form.Item name="subjectType" label={t("subjectType")}>
          <Radio.Group
            options={[
              { label: t("subjectType.2"), value: SubjectType.COMPANY },
              { label: t("subjectType.1"), value: SubjectType.INDIVIDUAL },
            ]}
          />
        </Form.Item>
        <Form.Item name="name" label={nameLabel} rules={[required(nameLabel), { max: 200 }]}>
          <Input maxLength={200} data-testid="auth-name" />
        </Form.Item>
        <Form.Item
          name="idNumber"
          label={idLabel}
          rules={[required(idLabel), { pattern: /^\s*[A-Za-z0-9-]{4,64}\s*$/, message: t("rule.idNumber") }]}
        >
          <Input maxLength={64} data-testid="auth-id-number" />
        </Form.Item>
        <Form.Item name="contactName" label={contactLabel} rules={[required(contactLabel), { max: 100 }]}>
          <Input maxLength={100} data-testid="auth-contact-name" />
        </Form.Item>
        <Form.Item
          name="contactPhone"
          label={phoneLabel}
          rules={[required(phoneLabel), { pattern: /^\s*\+?[0-9][0-9 ()-]{4,31}\s*$/, message: t("rule.phone") }]}
        >
          <Input maxLength={32} inputMode="tel" data-testid="auth-contact-phone" />
        </Form.Item>
        <Form.Item
          name="documents"
          label={t("documents")}
          valuePropName="fileList"
          getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList}
          extra={t("documents.hint", { size: MAX_MB, max: AUTH_DOCUMENT_MAX_FILES })}
          rules={[
            {
              validator: async (_, files: UploadFile[] | undefined) => {
                const list = files ?? [];
                if (list.length === 0) throw new Error(t("rule.documents"));
                if (list.length > AUTH_DOCUMENT_MAX_FILES)
                  throw new Error(t("rule.documentCount", { max: AUTH_DOCUMENT_MAX_FILES }));
                for (const f of list) {
                  if (!ACCEPTED_NAME.test(f.name)) throw new Error(t("rule.documentType", { name: f.name }));
                  if ((f.size ?? 0) > AUTH_DOCUMENT_MAX_BYTES)
                    throw new Error(t("rule.documentSize", { name: f.name, size: MAX_MB }));
                }
              },
            },
          ]}
        >
          <Upload multiple accept={ACCEPT} beforeUpload={() => false} maxCount={AUTH_DOCUMENT_MAX_FILES}>
            <Button icon={<UploadOutlined />} data-testid="auth-documents">
              {t("documents.pick")}
            </Button>
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
