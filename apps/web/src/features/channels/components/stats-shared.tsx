import type { ChannelStats } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { DatePicker, Select, Space } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useMemo } from "react";
import { useSearchParams } from "react-router-dom";
import { useSearchParamSetter } from "../../../hooks/use-url-filters";
import { formatNumber } from "../../../lib/format";
import { useAllChannels, useChannelStats } from "../api";
import { messages } from "../messages";

const DAY = "YYYY-MM-DD";
const DEFAULT_DAYS = 7;

/** A share as a percentage with one decimal ("-" when there is nothing to divide by). */
export function rate(part: number, whole: number): string {
  return whole > 0 ? `${((part * 100) / whole).toFixed(1)}%` : "-";
}

type StatsDay = ChannelStats["daily"][number];

/** An axis or tooltip figure with thousands separators (12345 -> "12,345"). */
export function axisNumber(value: unknown): string {
  return typeof value === "number" || typeof value === "string" ? formatNumber(value) : String(value ?? "");
}

/**
 * Every day from `start` to `end` (YYYY-MM-DD), each with its figures or zeros: a day nothing was sent on is a
 * point at 0, so the daily line drops to it instead of being drawn through it.
 */
export function everyDay(daily: readonly StatsDay[], start: Dayjs, end: Dayjs): StatsDay[] {
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const out: StatsDay[] = [];
  for (let d = start.startOf("day"); !d.isAfter(end, "day"); d = d.add(1, "day")) {
    const day = d.format(DAY);
    out.push(byDay.get(day) ?? { day, sent: 0, success: 0, failed: 0, delivered: 0, cost: "0" });
  }
  return out;
}

/** Per-channel statistics over whole days of the browser's time zone; the range is kept in the URL. */
export function useStatsFilters() {
  const [search] = useSearchParams();
  const today = dayjs().startOf("day");
  const fromDay = dayjs(search.get("from") ?? "", DAY, true);
  const toDay = dayjs(search.get("to") ?? "", DAY, true);
  const start = fromDay.isValid() ? fromDay : today.subtract(DEFAULT_DAYS - 1, "day");
  const end = toDay.isValid() && !toDay.isBefore(start) ? toDay : today;
  const productCode = search.get("productCode") ?? undefined;
  const channelId = search.get("channelId") ?? undefined;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

  const from = start.startOf("day").toISOString();
  const to = end.add(1, "day").startOf("day").toISOString();
  const params = useMemo(
    () => ({ from, to, timeZone, productCode, channelId }),
    [from, to, timeZone, productCode, channelId],
  );
  const set = useSearchParamSetter();
  return { start, end, productCode, channelId, params, set };
}

export function StatsToolbar({ filters }: { filters: ReturnType<typeof useStatsFilters> }) {
  const t = messages.useT();
  const channels = useAllChannels(filters.productCode ? Number(filters.productCode) : undefined);
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <DatePicker.RangePicker
        aria-label={t("stats.range")}
        allowClear={false}
        value={[filters.start, filters.end]}
        disabledDate={(d: Dayjs) => d.isAfter(dayjs().endOf("day"))}
        onChange={(range) => {
          const [a, b] = range ?? [];
          if (a && b) filters.set({ from: a.format(DAY), to: b.format(DAY) });
        }}
        data-testid="stats-range"
      />
      <Select
        aria-label={t("stats.product")}
        placeholder={t("stats.product")}
        allowClear
        style={{ width: 140 }}
        value={filters.productCode}
        options={Object.values(ProductCode).map((c) => ({ value: String(c), label: t(`code.${c}`) }))}
        onChange={(v) => filters.set({ productCode: v, channelId: undefined })}
      />
      <Select
        aria-label={t("stats.channel")}
        placeholder={t("stats.channel")}
        allowClear
        style={{ width: 220 }}
        value={filters.channelId}
        options={(channels.data?.list ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
        onChange={(v) => filters.set({ channelId: v })}
      />
    </Space>
  );
}

export function useStats(filters: ReturnType<typeof useStatsFilters>) {
  return useChannelStats(filters.params);
}
