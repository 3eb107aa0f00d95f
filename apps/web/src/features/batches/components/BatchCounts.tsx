import type { BatchRow } from "@switchboard/contracts";
import { Col, Row, Statistic } from "antd";
import { formatMoney, formatNumber } from "../../../lib/format";
import { type BatchMessageKey, messages } from "../messages";

type CountField =
  | "totalCount"
  | "validCount"
  | "invalidCount"
  | "duplicateCount"
  | "notServedCount"
  | "optOutCount"
  | "sentCount"
  | "successCount"
  | "failedCount"
  | "deliveredCount"
  | "undeliveredCount"
  | "readCount"
  | "fallbackCount";

const COUNTS: ReadonlyArray<{ field: CountField; label: BatchMessageKey; id: string }> = [
  { field: "totalCount", label: "counts.total", id: "total" },
  { field: "validCount", label: "counts.valid", id: "valid" },
  { field: "invalidCount", label: "counts.invalid", id: "invalid" },
  { field: "duplicateCount", label: "counts.duplicate", id: "duplicate" },
  { field: "notServedCount", label: "counts.notServed", id: "not-served" },
  { field: "sentCount", label: "counts.sent", id: "sent" },
  { field: "successCount", label: "counts.success", id: "success" },
  { field: "failedCount", label: "counts.failed", id: "failed" },
  { field: "deliveredCount", label: "counts.delivered", id: "delivered" },
  { field: "undeliveredCount", label: "counts.undelivered", id: "undelivered" },
];

/** Numbers on the customer's opt-out list (never sent, never charged): shown when there are any. */
const OPT_OUT: { field: CountField; label: BatchMessageKey; id: string } = {
  field: "optOutCount",
  label: "counts.optOut",
  id: "opt-out",
};

/** Shown only for the channels that report them: reads (RCS, WhatsApp) and SMS fallbacks (RCS). */
const CHANNEL_COUNTS: ReadonlyArray<{ field: CountField; label: BatchMessageKey; id: string }> = [
  { field: "readCount", label: "counts.read", id: "read" },
  { field: "fallbackCount", label: "counts.fallback", id: "fallback" },
];

/**
 * A screening batch (task type 1) sends nothing: its "delivered" counts the reachable numbers, "undelivered" the
 * ones that are not, "failed" those the channel could not answer for (refunded). Same fields, its own words.
 */
const SCREENING_LABELS: Partial<Record<CountField, { label: BatchMessageKey; id: string }>> = {
  deliveredCount: { label: "counts.reachable", id: "reachable" },
  undeliveredCount: { label: "counts.unreachable", id: "unreachable" },
  failedCount: { label: "counts.unknown", id: "unknown" },
};

/** A batch's counts and money: total, valid, rejected, sent, failed, delivered, cost and refund. */
export function BatchCounts({
  batch,
}: {
  batch: Pick<BatchRow, CountField | "cost" | "refunded" | "productCode"> & { taskType?: number };
}) {
  const t = messages.useT();
  const screening = batch.taskType === 1;
  const counts =
    (batch.optOutCount ?? 0) > 0 ? COUNTS.flatMap((c) => (c.field === "notServedCount" ? [c, OPT_OUT] : [c])) : COUNTS;
  const shown = screening
    ? counts.map((c) => ({ ...c, ...(SCREENING_LABELS[c.field] ?? {}) }))
    : [
        ...counts,
        // SMS (3000) reports neither; WS (2000) reads; RCS (1000) reads and fallbacks.
        ...CHANNEL_COUNTS.filter((c) => batch.productCode === 1000 || (batch.productCode === 2000 && c.id === "read")),
      ];
  return (
    <Row gutter={[16, 16]} data-testid="batch-counts">
      {shown.map((c) => (
        <Col key={c.field} xs={12} sm={8} md={6} lg={4}>
          <Statistic
            title={t(c.label)}
            value={formatNumber(batch[c.field] ?? 0)}
            data-testid={`count-${c.id}`}
            styles={{ content: { fontSize: 20 } }}
          />
        </Col>
      ))}
      <Col xs={12} sm={8} md={6} lg={4}>
        <Statistic
          title={t("counts.cost")}
          value={formatMoney(batch.cost)}
          data-testid="count-cost"
          styles={{ content: { fontSize: 20 } }}
        />
      </Col>
      <Col xs={12} sm={8} md={6} lg={4}>
        <Statistic
          title={t("counts.refunded")}
          value={formatMoney(batch.refunded)}
          data-testid="count-refunded"
          styles={{ content: { fontSize: 20 } }}
        />
      </Col>
    </Row>
  );
}
