import { Button, Modal, Typography } from "antd";
import { type MessageKey, useT } from "../../../lib/i18n";

const TERMS: readonly MessageKey[] = [
  "agreement.item.content",
  "agreement.item.recipients",
  "agreement.item.billing",
  "agreement.item.account",
  "agreement.item.suspension",
];

export interface AgreementModalProps {
  open: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

/** The service agreement a customer accepts before registering (and may reopen from the form). */
export function AgreementModal({ open, onAccept, onDecline }: AgreementModalProps) {
  const t = useT();
  return (
    <Modal
      open={open}
      title={t("agreement.title")}
      onCancel={onDecline}
      mask={{ closable: false }}
      footer={[
        <Button key="decline" data-testid="agreement-decline" onClick={onDecline}>
          {t("agreement.decline")}
        </Button>,
        <Button key="accept" data-testid="agreement-accept" type="primary" onClick={onAccept}>
          {t("agreement.accept")}
        </Button>,
      ]}
    >
      <div data-testid="agreement-text" style={{ maxHeight: "50vh", overflowY: "auto" }}>
        <Typography.Paragraph>{t("agreement.intro")}</Typography.Paragraph>
        <ol style={{ paddingInlineStart: 20 }}>
          {TERMS.map((key) => (
            <li key={key}>
              <Typography.Paragraph>{t(key)}</Typography.Paragraph>
            </li>
          ))}
        </ol>
      </div>
    </Modal>
  );
}
