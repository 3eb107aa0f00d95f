import { Alert, Button, Modal, Typography } from "antd";
import { messages } from "../messages";

/**
 * Shows a freshly made secret key, once: the parent drops the key when this closes (and resets the mutation
 * that carried it), so it cannot be shown again. Only the explicit button closes it: no mask click, no Esc.
 */
export function SecretKeyModal({ secretKey, onClose }: { secretKey: string | null; onClose: () => void }) {
  const t = messages.useT();
  return (
    <Modal
      open={secretKey !== null}
      title={t("key.modalTitle")}
      closable={false}
      keyboard={false}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Button type="primary" data-testid="secret-key-done" onClick={onClose}>
          {t("key.done")}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t("key.warning")} data-testid="secret-key-warning" />
      {secretKey !== null && (
        <Typography.Paragraph
          code
          copyable={{ text: secretKey, tooltips: [t("key.copy"), t("key.copied")] }}
          style={{ marginTop: 16, wordBreak: "break-all", fontSize: 15 }}
          data-testid="secret-key-value"
        >
          {secretKey}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
