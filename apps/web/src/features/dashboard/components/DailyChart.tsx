import type { DashboardDay } from "@switchboard/contracts";
import { Empty, Typography } from "antd";
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { formatNumber } from "../../../lib/format";
import { PRODUCT_COLORS, productLabel } from "../format";
import { messages } from "../messages";

/** Messages sent per day, stacked by product (the dashboards' 30-day series). */
export function DailyChart({ series }: { series: DashboardDay[] }) {
  const t = messages.useT();
  const codes = series[0]?.products.map((p) => p.productCode) ?? [];
  const data = useMemo(
    () =>
      series.map((day) => ({
        date: day.date.slice(5),
        ...Object.fromEntries(day.products.map((p) => [productLabel(p.productCode), p.sent])),
      })),
    [series],
  );
  const total = series.reduce((n, day) => n + day.products.reduce((m, p) => m + p.sent, 0), 0);
  return (
    <section aria-label={t("chart.title")} data-testid="dashboard-chart">
      <Typography.Title level={5}>{t("chart.title")}</Typography.Title>
      {total === 0 ? (
        <Empty description={t("chart.empty")} data-testid="dashboard-chart-empty" />
      ) : (
        <BarChart responsive style={{ width: "100%", height: 300 }} data={data}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="date" tickLine={false} />
          <YAxis allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} width={64} />
          <Tooltip formatter={(v) => formatNumber(typeof v === "number" ? v : String(v))} />
          <Legend />
          {codes.map((code) => (
            <Bar
              key={code}
              dataKey={productLabel(code)}
              stackId="sent"
              fill={PRODUCT_COLORS[code] ?? "#8c8c8c"}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      )}
    </section>
  );
}
