// The RCS portal's own pages: the home asks for RCS figures only and shows read rate and SMS fallback share with
// their counts, the latest batches and notices (or their empty states); the message lists ask for their stage.
import type { BatchRow, CustomerDashboard, PeriodFigures } from "@switchboard/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import RcsHomePage from "../src/areas/rcs/pages/RcsHomePage";
import RcsMessageListPage from "../src/areas/rcs/pages/RcsMessageListPage";
import { stageOf } from "../src/areas/rcs/stage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };
const website = { "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null }) } };

function renderPage(key: string, Page: ComponentType, path = "/") {
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return renderRoutes(
    [
      {
        path,
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <Page />
            </App>
          </CurrentRouteContext>
        ),
      },
    ],
    path,
  );
}

const figures = (o: Partial<PeriodFigures> = {}): PeriodFigures => ({
  batches: 0,
  sent: 0,
  success: 0,
  delivered: 0,
  read: 0,
  fallback: 0,
  successRate: null,
  deliveryRate: null,
  readRate: null,
  fallbackShare: null,
  spend: "0.0000",
  linkSent: 0,
  clickers: 0,
  clickRate: null,
  ...o,
});

const dashboard = (o: Partial<CustomerDashboard> = {}): CustomerDashboard => ({
  timeZone: "UTC",
  todayFrom: "2026-03-30T00:00:00.000Z",
  monthFrom: "2026-03-01T00:00:00.000Z",
  today: figures({ batches: 2, sent: 1_200 }),
  month: figures({
    batches: 9,
    sent: 12_000,
    delivered: 10_000,
    read: 6_500,
    fallback: 1_500,
    deliveryRate: 0.8333,
    readRate: 0.65,
    fallbackShare: 0.125,
    spend: "1234.5000",
  }),
  series: Array.from({ length: 30 }, (_, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, "0")}`,
    products: [
      { productCode: 1000, batches: 0, sent: i === 29 ? 1_200 : 0, success: 0, delivered: 0, read: 0, fallback: 0 },
    ],
  })),
  balance: "5000.0000",
  currency: "CNY",
  authStatus: 2,
  authRequirement: 0,
  authExemptUntil: null,
  authRejectReason: null,
  ...o,
});

describe("RCS portal home", () => {
  it(
    "asks for RCS figures only and shows sends, read rate and fallback share with thousands separators",
    slow,
    async () => {
      const { requests } = mockFetch({
        ...website,
        "/dashboard/customer": { body: envelope(dashboard()) },
        "/batch/list": { body: envelope({ list: [], total: 0 }) },
        "/notice/list": { body: envelope({ list: [], total: 0 }) },
      });
      renderPage("rcs.home", RcsHomePage);
      expect(await screen.findByTestId("rcs-today-sent")).toHaveTextContent("1,200");
      expect(screen.getByTestId("rcs-month-sent")).toHaveTextContent("12,000");
      expect(screen.getByTestId("rcs-read-rate")).toHaveTextContent("65.00%");
      expect(screen.getByTestId("rcs-read-rate-note")).toHaveTextContent("6,500");
      expect(screen.getByTestId("rcs-fallback-share")).toHaveTextContent("12.50%");
      expect(screen.getByTestId("rcs-fallback-share-note")).toHaveTextContent("1,500");
      expect(screen.getByTestId("rcs-balance")).toHaveTextContent("5,000.00");
      const dashboardCall = requests.find((r) => r.url.pathname === "/dashboard/customer");
      expect(dashboardCall?.url.searchParams.get("productCode")).toBe("1000");
      const listCall = requests.find((r) => r.url.pathname === "/batch/list");
      expect(listCall?.url.searchParams.get("productCode")).toBe("1000");
      // Empty states, each with its way forward.
      expect(await screen.findByText(/还没有 RCS 批次/)).toBeInTheDocument();
      expect(await screen.findByText("暂无公告")).toBeInTheDocument();
    },
  );

  it("shows the load error with a retry when the figures cannot be read", slow, async () => {
    let calls = 0;
    mockFetch({
      ...website,
      "/dashboard/customer": () => {
        calls += 1;
        return calls === 1
          ? { status: 500, body: envelope(null, 1, "server error (abc)") }
          : { body: envelope(dashboard()) };
      },
      "/batch/list": { body: envelope({ list: [], total: 0 }) },
      "/notice/list": { body: envelope({ list: [], total: 0 }) },
    });
    renderPage("rcs.home", RcsHomePage);
    expect(await screen.findByText("server error (abc)")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("retry"));
    expect(await screen.findByTestId("rcs-today-sent")).toHaveTextContent("1,200");
  });
});

describe("RCS portal message lists", () => {
  it("asks for its stage of RCS batches", slow, async () => {
    const row = { id: "77", status: 21 } as Partial<BatchRow>;
    const { requests } = mockFetch({ ...website, "/batch/list": { body: envelope({ list: [], total: 0 }) } });
    renderPage("rcs.message.sending", RcsMessageListPage);
    await waitFor(() => expect(requests.some((r) => r.url.pathname === "/batch/list")).toBe(true));
    const call = requests.find((r) => r.url.pathname === "/batch/list");
    expect(call?.url.searchParams.get("stage")).toBe("sending");
    expect(call?.url.searchParams.get("productCode")).toBe("1000");
    expect(stageOf(row.status ?? 0)).toBe("sending");
    expect(stageOf(11)).toBe("processing");
    expect(stageOf(13)).toBe("finish");
    expect(stageOf(24)).toBe("finish");
  });
});
