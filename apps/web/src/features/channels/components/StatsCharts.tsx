import type { ChannelStats } from "@switchboard/contracts";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { messages } from "../messages";
import { axisNumber } from "./stats-shared";

type StatRow = ChannelStats["list"][number];
type SeriesKey = "sent" | "success" | "delivered" | "failed";

const SERIES: ReadonlyArray<{ key: SeriesKey; color: string }> = [
  { key: "sent", color: "#1677ff" },
  { key: "success", color: "#52c41a" },
  { key: "delivered", color: "#13c2c2" },
  { key: "failed", color: "#ff4d4f" },
];

/** A chart's size: the card's width (responsive) on the page, a fixed one where there is no layout (tests). */
export type ChartSize = { width: number; height: number } | undefined;

function chartSize(size: ChartSize) {
  return size ?? { responsive: true, style: { width: "100%", height: 280 } };
}

/**
 * The daily series: straight segments between days (a curve would suggest traffic between them) and a point at
 * 0 for each day nothing was sent; axis and tooltip figures with thousands separators.
 */
export function DailyStatsChart({ daily, size }: { daily: ChannelStats["daily"]; size?: ChartSize }) {
  const t = messages.useT();
  return (
    <LineChart data={daily} {...chartSize(size)} data-testid="stats-daily-chart">
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="day" />
      <YAxis allowDecimals={false} tickFormatter={axisNumber} width={72} />
      <Tooltip formatter={axisNumber} />
      <Legend />
      {SERIES.map((s) => (
        <Line
          key={s.key}
          type="linear"
          dataKey={s.key}
          name={t(`stats.col.${s.key}`)}
          stroke={s.color}
          dot={daily.length <= 31}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}

/** Sent, accepted, delivered and failed per channel that sent anything. */
export function PerChannelStatsChart({ list, size }: { list: StatRow[]; size?: ChartSize }) {
  const t = messages.useT();
  return (
    <BarChart data={list.filter((r) => r.sent > 0)} {...chartSize(size)} data-testid="stats-channel-chart">
      <CartesianGrid strokeDasharray="3 3" />
      <XAxis dataKey="channelName" />
      <YAxis allowDecimals={false} tickFormatter={axisNumber} width={72} />
      <Tooltip formatter={axisNumber} />
      <Legend />
      {SERIES.map((s) => (
        <Bar key={s.key} dataKey={s.key} name={t(`stats.col.${s.key}`)} fill={s.color} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}
