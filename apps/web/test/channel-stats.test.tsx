import type { ChannelStats } from "@switchboard/contracts";
import { waitFor } from "@testing-library/react";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { DailyStatsChart, PerChannelStatsChart } from "../src/features/channels/components/StatsCharts";
import { axisNumber, everyDay } from "../src/features/channels/components/stats-shared";
import { envelope, mockFetch, renderRoutes } from "./helpers";

type Day = ChannelStats["daily"][number];
const day = (d: string, sent: number): Day => ({
  day: d,
  sent,
  success: sent,
  failed: 0,
  delivered: Math.floor(sent / 2),
  cost: "0",
});

function renderChart(node: React.ReactNode) {
  mockFetch({
    "/website/config": { body: envelope({ title: "Switchboard", logo: null, logoSmall: null, description: null }) },
  });
  return renderRoutes([{ path: "/", element: node }], "/");
}

/** The y axis's tick labels (recharts draws them in a layer of their own once the chart has measured itself). */
async function yTicks(container: HTMLElement): Promise<string[]> {
  const labels = () =>
    [...container.querySelectorAll(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")].map(
      (n) => n.textContent ?? "",
    );
  await waitFor(() => expect(labels().length).toBeGreaterThan(1));
  return labels();
}

describe("channel statistics charts", () => {
  it("formats axis and tooltip figures with thousands separators", () => {
    expect(axisNumber(12_345)).toBe("12,345");
    expect(axisNumber(1_000_000)).toBe("1,000,000");
    expect(axisNumber(999)).toBe("999");
    expect(axisNumber("2500")).toBe("2,500");
  });

  it("gives every day of the range a point, zeros for the days nothing was sent", () => {
    const days = everyDay([day("2026-03-02", 5000), day("2026-03-05", 10)], dayjs("2026-03-01"), dayjs("2026-03-05"));
    expect(days.map((d) => [d.day, d.sent])).toEqual([
      ["2026-03-01", 0],
      ["2026-03-02", 5000],
      ["2026-03-03", 0],
      ["2026-03-04", 0],
      ["2026-03-05", 10],
    ]);
    expect(days[2]).toEqual({ day: "2026-03-03", sent: 0, success: 0, failed: 0, delivered: 0, cost: "0" });
  });

  it("draws the daily line as straight segments down to the empty days, with separated axis labels", async () => {
    const daily = everyDay(
      [day("2026-03-01", 12_000), day("2026-03-03", 48_000)],
      dayjs("2026-03-01"),
      dayjs("2026-03-04"),
    );
    const { container } = renderChart(<DailyStatsChart daily={daily} size={{ width: 640, height: 300 }} />);
    await waitFor(() => expect(container.querySelectorAll(".recharts-line-curve").length).toBe(4));
    const ticks = await yTicks(container);
    expect(ticks).toEqual(["0", "15,000", "30,000", "45,000", "60,000"]);
    expect(ticks.filter((text) => /\d{4}/.test(text))).toEqual([]);
    for (const path of container.querySelectorAll(".recharts-line-curve")) {
      const d = path.getAttribute("d") ?? "";
      // M x,y L x,y ...: one straight segment per day, no Bezier curves (C) through the empty days.
      expect(d).not.toMatch(/C/);
      expect(d.match(/[ML]/g)).toHaveLength(4);
    }
  });

  it("separates thousands on the per-channel bars' axis", async () => {
    const row = {
      channelId: 1,
      channelName: "SMSC",
      kind: "smpp",
      productCode: 3000,
      sent: 25_000,
      success: 24_000,
      failed: 1000,
      delivered: 20_000,
      cost: "0",
    };
    const { container } = renderChart(<PerChannelStatsChart list={[row]} size={{ width: 640, height: 300 }} />);
    const ticks = await yTicks(container);
    expect(ticks).toEqual(["0", "6,500", "13,000", "19,500", "26,000"]);
  });
});
