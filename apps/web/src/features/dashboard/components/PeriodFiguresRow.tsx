import type { PeriodFigures } from "@switchboard/contracts";
import { Typography } from "antd";
import { formatNumber } from "../../../lib/format";
import { formatRate } from "../format";
import { messages } from "../messages";
import { FigureRow } from "./FigureRow";

/** Sent, success rate, delivery rate and tracked links' click-through rate of one period (today or this month). */
export function PeriodFiguresRow({ period, figures }: { period: "today" | "month"; figures: PeriodFigures }) {
  const t = messages.useT();
  return (
    <div>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t(`period.${period}`)}
      </Typography.Title>
      <FigureRow
        col={{ xs: 24, sm: 12, xl: 6 }}
        figures={[
          {
            testId: `dashboard-${period}-sent`,
            label: t(period === "today" ? "figure.todaySent" : "figure.monthSent"),
            value: formatNumber(figures.sent),
            note: t("figure.batches", { count: formatNumber(figures.batches) }),
          },
          {
            testId: `dashboard-${period}-success-rate`,
            label: t("figure.successRate"),
            value: formatRate(figures.successRate),
            note: `${formatNumber(figures.success)} / ${formatNumber(figures.sent)}`,
          },
          {
            testId: `dashboard-${period}-delivery-rate`,
            label: t("figure.deliveryRate"),
            value: formatRate(figures.deliveryRate),
            note: `${formatNumber(figures.delivered)} / ${formatNumber(figures.sent)}`,
          },
          {
            testId: `dashboard-${period}-click-rate`,
            label: t("figure.clickRate"),
            value: formatRate(figures.clickRate),
            note: t("figure.clickRateOf", {
              clickers: formatNumber(figures.clickers),
              sent: formatNumber(figures.linkSent),
            }),
          },
        ]}
      />
    </div>
  );
}
