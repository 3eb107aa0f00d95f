import { SENDER_ID_REASON_MAX } from "@switchboard/contracts";
import { Alert, type ButtonProps, Form, Input, Modal } from "antd";
import { messages } from "../messages";

interface ReasonModalProps {
  open: boolean;
  title: string;
  okText: string;
  loading: boolean;
  error: string | null;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

/** The reason of a rejection or revocation (the customer reads it): 1 to SENDER_ID_REASON_MAX characters. */
export function ReasonModal({ open, title, okText, loading, error, onSubmit, onClose }: ReasonModalProps) {
  const t = messages.useT();
  const [form] = Form.useForm<{ reason?: string }>();
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t("cancel")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ danger: true, loading, "data-testid": "sender-id-reason-submit" } as ButtonProps}
      destroyOnHidden
      data-testid="sender-id-reason-modal"
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => onSubmit((v.reason ?? "").trim())}>
        <Form.Item
          name="reason"
          label={t("reason")}
          rules={[
            { required: true, whitespace: true, message: t("reasonRequired") },
            { max: SENDER_ID_REASON_MAX, message: t("tooLong", { max: SENDER_ID_REASON_MAX }) },
          ]}
        >
          <Input.TextArea rows={3} autoFocus maxLength={SENDER_ID_REASON_MAX} data-testid="sender-id-reason" />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}
