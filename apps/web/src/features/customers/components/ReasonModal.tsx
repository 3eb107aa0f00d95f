import { Alert, type ButtonProps, Form, Input, Modal } from "antd";
import { messages } from "../messages";

interface ReasonModalProps {
  open: boolean;
  title: string;
  requiredMessage: string;
  loading: boolean;
  error: string | null;
  onSubmit: (reason: string) => void;
  onClose: () => void;
  testId: string;
}

/** Asks for the reason of a rejection (remittances, authentication submissions): 1-500 characters. */
export function ReasonModal({
  open,
  title,
  requiredMessage,
  loading,
  error,
  onSubmit,
  onClose,
  testId,
}: ReasonModalProps) {
  const t = messages.useT();
  const [form] = Form.useForm<{ reason?: string }>();
  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ danger: true, loading, "data-testid": `${testId}-submit` } as ButtonProps}
      destroyOnHidden
      data-testid={testId}
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => onSubmit((v.reason ?? "").trim())}>
        <Form.Item
          name="reason"
          label={t("remit.reason")}
          rules={[
            { required: true, whitespace: true, message: requiredMessage },
            { max: 500, message: t("form.maxLength", { max: 500 }) },
          ]}
        >
          <Input.TextArea rows={3} autoFocus data-testid={`${testId}-reason`} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}
