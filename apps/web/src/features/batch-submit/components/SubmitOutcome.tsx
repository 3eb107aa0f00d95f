import type { BatchSubmitResult } from "@switchboard/contracts";
import { Button, Descriptions, Result } from "antd";
import { formatPrice } from "../../../lib/format";
import { messages } from "../messages";

const STATUS = {
  accepted: "success",
  refused: "error",
  sending: "info",
  under_review: "info",
  scheduled: "info",
} as const;

/** Mode 1's answer: what happened to the one number (the provider's outcome, or that it waits). */
export function SubmitOutcome({ result, onDone }: { result: BatchSubmitResult; onDone: () => void }) {
  const t = messages.useT();
  const outcome = result.outcome ?? "sending";
  const number = result.numbers[0];
  const recipient = result.recipient;
  return (
    <div data-testid="task-outcome" data-outcome={outcome}>
      <Result
        status={STATUS[outcome]}
        title={t(`outcome.${outcome}`)}
        extra={
          <Button type="primary" data-testid="task-done" onClick={onDone} autoFocus>
            {t("action.done")}
          </Button>
        }
      >
        <Descriptions
          size="small"
          column={1}
          items={[
            { key: "id", label: t("outcome.batchId"), children: result.batch.id },
            {
              key: "number",
              label: t("outcome.number"),
              children: recipient?.phone ?? number?.e164 ?? number?.input ?? "-",
            },
            {
              key: "country",
              label: t("outcome.country"),
              children: recipient?.countryCode ?? number?.countryCode ?? "-",
            },
            { key: "price", label: t("outcome.price"), children: formatPrice(recipient?.price ?? result.batch.cost) },
            ...(recipient?.errorCode
              ? [{ key: "error", label: t("outcome.errorCode"), children: recipient.errorCode }]
              : []),
          ]}
        />
      </Result>
    </div>
  );
}
