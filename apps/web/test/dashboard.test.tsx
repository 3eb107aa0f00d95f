// Dashboards: figures formatted (thousands separators, money, rates), the authentication call to action and its
// form, the price-list modal, and the back office's queues and top customers.
import type { BackendDashboard, CustomerDashboard, DashboardDay, PeriodFigures } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import { formatRate } from "../src/features/dashboard/format";
import BackendDashboardPage from "../src/features/dashboard/pages/BackendDashboardPage";
import CustomerDashboardPage from "../src/features/dashboard/pages/CustomerDashboardPage";
import { storage } from "../src/lib/storage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { type Answer, envelope, mockFetch as mockFetchOnly, type RecordedRequest, renderRoutes } from "./helpers";

const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };
const noNotices = { body: envelope({ list: [], total: 0 }) };
const mockFetch = (answers: Parameters<typeof mockFetchOnly>[0]) =>
  mockFetchOnly({ "/website/config": websiteConfig, "/notice/list": noNotices, ...answers });

const slow = { timeout: 20_000 };

function renderPage(key: string, Page: ComponentType) {
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <Page />
            </App>
          </CurrentRouteContext>
        ),
      },
      { path: "/app/dashboard/remit", element: <h1>remit page</h1> },
      { path: "/backend/:product/message/:filter", element: <h1>message list</h1> },
    ],
    "/",
  );
}

function figures(o: Partial<PeriodFigures> = {}): PeriodFigures {
  return {
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
  };
}

function days(sentToday: Record<number, number> = {}): DashboardDay[] {
  return Array.from({ length: 30 }, (_, i) => ({
    date: `2026-03-${String(i + 1).padStart(2, "0")}`,
    products: [1000, 2000, 3000].map((productCode) => ({
      productCode,
      batches: 0,
      sent: i === 29 ? (sentToday[productCode] ?? 0) : 0,
      success: 0,
      delivered: 0,
      read: 0,
      fallback: 0,
    })),
  }));
}

function customerData(o: Partial<CustomerDashboard> = {}): CustomerDashboard {
  return {
    timeZone: "UTC",
    todayFrom: "2026-03-30T00:00:00.000Z",
    monthFrom: "2026-03-01T00:00:00.000Z",
    today: figures({
      batches: 3,
      sent: 12_345,
      success: 11_111,
      delivered: 9_876,
      successRate: 0.9,
      deliveryRate: 0.8,
      linkSent: 10_000,
      clickers: 1_250,
      clickRate: 0.125,
    }),
    month: figures({ batches: 40, sent: 1_234_567, success: 1_000_000, successRate: 0.81, deliveryRate: null }),
    series: days({ 3000: 12_345 }),
    balance: "1234567.5000",
    currency: "CNY",
    authStatus: 0,
    authRequirement: 0,
    authExemptUntil: null,
    authRejectReason: null,
    ...o,
  };
}

describe("formatRate", () => {
  it("shows rates as percentages with 2 decimals, and '-' when nothing was sent", () => {
    expect(formatRate(0.8571)).toBe("85.71%");
    expect(formatRate(1)).toBe("100.00%");
    expect(formatRate(0)).toBe("0.00%");
    expect(formatRate(0.00005)).toBe("0.01%");
    expect(formatRate(null)).toBe("-");
  });
});

describe("customer dashboard", () => {
  it("shows the balance and figures with thousands separators and rates as percentages", slow, async () => {
    mockFetch({ "/dashboard/customer": { body: envelope(customerData()) } });
    renderPage("app.dashboard", CustomerDashboardPage);
    expect(await screen.findByTestId("dashboard-balance")).toHaveTextContent("1,234,567.50");
    expect(screen.getByTestId("dashboard-today-sent")).toHaveTextContent("12,345");
    expect(screen.getByTestId("dashboard-today-sent-note")).toHaveTextContent("3 个批次");
    expect(screen.getByTestId("dashboard-today-success-rate")).toHaveTextContent("90.00%");
    expect(screen.getByTestId("dashboard-today-success-rate-note")).toHaveTextContent("11,111 / 12,345");
    expect(screen.getByTestId("dashboard-today-delivery-rate")).toHaveTextContent("80.00%");
    expect(screen.getByTestId("dashboard-month-sent")).toHaveTextContent("1,234,567");
    expect(screen.getByTestId("dashboard-month-delivery-rate")).toHaveTextContent("-");
    // Tracked links: distinct clickers over what the batches with links sent; none this month yet.
    expect(screen.getByTestId("dashboard-today-click-rate")).toHaveTextContent("12.50%");
    expect(screen.getByTestId("dashboard-today-click-rate-note")).toHaveTextContent(
      "点击 1,250 人 / 含跟踪链接的发送成功 10,000",
    );
    expect(screen.getByTestId("dashboard-month-click-rate")).toHaveTextContent("-");
    expect(screen.getByTestId("dashboard-auth-status")).toHaveTextContent("未认证");
    expect(screen.getByTestId("dashboard-chart")).toBeInTheDocument();
    expect(screen.queryByTestId("dashboard-chart-empty")).toBeNull();
    expect(screen.getByTestId("remit-link")).toHaveAttribute("href", "/app/dashboard/remit");
  });

  it("says so when nothing was sent in 30 days, and shows a rejection with its reason", slow, async () => {
    mockFetch({
      "/dashboard/customer": {
        body: envelope(customerData({ series: days(), authStatus: 3, authRejectReason: "blurred photo" })),
      },
    });
    renderPage("app.dashboard", CustomerDashboardPage);
    expect(await screen.findByTestId("dashboard-chart-empty")).toBeInTheDocument();
    expect(screen.getByTestId("dashboard-auth-status")).toHaveTextContent("认证被驳回");
    expect(screen.getByText("驳回原因：blurred photo")).toBeInTheDocument();
    expect(screen.getByTestId("dashboard-auth-submit")).toHaveTextContent("重新提交");
  });

  it("offers no submission while under review or once authenticated", slow, async () => {
    mockFetch({ "/dashboard/customer": { body: envelope(customerData({ authStatus: 1 })) } });
    renderPage("app.dashboard", CustomerDashboardPage);
    expect(await screen.findByTestId("dashboard-auth-status")).toHaveTextContent("认证审核中");
    expect(screen.queryByTestId("dashboard-auth-submit")).toBeNull();
  });

  it("shows the latest notices (recent ones marked new), opens one in place, links them all", slow, async () => {
    const recent = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const old = "2025-01-15T08:00:00.000Z";
    const { requests } = mockFetch({
      "/dashboard/customer": { body: envelope(customerData()) },
      "/notice/list": {
        body: envelope({
          list: [
            { id: 7, title: "Maintenance tonight", excerpt: "From 02:00", publishedAt: recent },
            { id: 3, title: "New prices", excerpt: "From March", publishedAt: old },
          ],
          total: 12,
        }),
      },
      "/notice/detail": {
        body: envelope({
          id: 7,
          title: "Maintenance tonight",
          content: "From 02:00 to 03:00 UTC.",
          publishedAt: recent,
        }),
      },
    });
    renderPage("app.dashboard", CustomerDashboardPage);
    const card = await screen.findByTestId("dashboard-notices");
    const items = await within(card).findAllByTestId("dashboard-notice");
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByTestId("dashboard-notice-new")).toHaveTextContent("新");
    expect(within(items[1]!).queryByTestId("dashboard-notice-new")).toBeNull();
    expect(items[1]).toHaveTextContent("2025-01-15");
    expect(within(card).getByTestId("dashboard-notices-all")).toHaveAttribute("href", "/app/notice");
    const listCall = requests.find((r) => r.url.pathname === "/notice/list");
    expect(listCall?.url.searchParams.get("pageSize")).toBe("5");

    await userEvent.click(within(items[0]!).getByRole("button", { name: "Maintenance tonight" }));
    expect(await screen.findByTestId("notice-content")).toHaveTextContent("From 02:00 to 03:00 UTC.");
  });

  it("says so when there is no notice", slow, async () => {
    mockFetch({ "/dashboard/customer": { body: envelope(customerData()) } });
    renderPage("app.dashboard", CustomerDashboardPage);
    expect(await screen.findByTestId("dashboard-notices-empty")).toHaveTextContent("暂无公告");
  });

  it("shows a load error with a retry", slow, async () => {
    let calls = 0;
    mockFetch({
      "/dashboard/customer": () => {
        calls += 1;
        return calls === 1
          ? { status: 500, body: envelope(null, 1, "server error (abc)") }
          : { body: envelope(customerData()) };
      },
    });
    renderPage("app.dashboard", CustomerDashboardPage);
    expect(await screen.findByText("server error (abc)")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("retry"));
    expect(await screen.findByTestId("dashboard-balance")).toHaveTextContent("1,234,567.50");
  });

  it("validates the authentication form, then sends it as multipart and shows 'under review'", slow, async () => {
    storage.setLang("en");
    let status = 0;
    const saved: RecordedRequest[] = [];
    const { requests } = mockFetch({
      "/dashboard/customer": () => ({ body: envelope(customerData({ authStatus: status })) }),
      "POST /user/authentication/save": (req): Answer => {
        saved.push(req);
        status = 1;
        return { body: envelope({ id: 1, status: 1 }) };
      },
    });
    renderPage("app.dashboard", CustomerDashboardPage);
    await userEvent.click(await screen.findByTestId("dashboard-auth-submit"));
    const dialog = await screen.findByRole("dialog");
    await userEvent.click(within(dialog).getByTestId("auth-submit"));
    expect(await within(dialog).findByText("Please enter the Company name")).toBeInTheDocument();
    expect(within(dialog).getByText("Please upload at least 1 document")).toBeInTheDocument();

    await userEvent.type(within(dialog).getByTestId("auth-name"), "Acme Ltd");
    await userEvent.type(within(dialog).getByTestId("auth-id-number"), "91$");
    expect(await within(dialog).findByText("Letters, digits and dashes only, 4-64 characters")).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByTestId("auth-id-number"));
    await userEvent.type(within(dialog).getByTestId("auth-id-number"), "91310000-X");
    await userEvent.type(within(dialog).getByTestId("auth-contact-name"), "Li Lei");
    await userEvent.type(within(dialog).getByTestId("auth-contact-phone"), "+86 138 0000 0000");
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "licence.png"));
    await userEvent.click(within(dialog).getByTestId("auth-submit"));

    await waitFor(() => expect(saved).toHaveLength(1));
    const body = saved[0]!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get("subjectType")).toBe("2");
    expect(body.get("name")).toBe("Acme Ltd");
    expect(body.get("idNumber")).toBe("91310000-X");
    expect(body.get("contactPhone")).toBe("+86 138 0000 0000");
    expect((body.get("documents") as File).name).toBe("licence.png");
    await waitFor(() => expect(screen.getByTestId("dashboard-auth-status")).toHaveTextContent("Under review"));
    expect(requests.filter((r) => r.url.pathname === "/dashboard/customer").length).toBeGreaterThanOrEqual(2);
  });

  it("opens the price list with prices per country, thousands separators and a country search", slow, async () => {
    const { requests } = mockFetch({
      "/dashboard/customer": { body: envelope(customerData()) },
      "/user/product/price": (req) => {
        const keyword = req.url.searchParams.get("keyword");
        const rows = [
          { countryCode: "CN", countryName: "中国", dialCode: "86", unitPrice: "0.0350" },
          { countryCode: "US", countryName: "美国", dialCode: "1", unitPrice: "1234.5000" },
        ].filter((r) => !keyword || r.countryName.includes(keyword));
        const list = rows.map((r) => ({
          productId: 3,
          productCode: 3000,
          productName: "Bulk SMS",
          source: "default",
          currency: "CNY",
          ...r,
        }));
        return { body: envelope({ list, total: list.length, currency: "CNY" }) };
      },
    });
    renderPage("app.dashboard", CustomerDashboardPage);
    await userEvent.click(await screen.findByTestId("open-price-list"));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("美国 (US)")).toBeInTheDocument();
    const prices = within(dialog)
      .getAllByTestId("price-list-price")
      .map((el) => el.textContent);
    expect(prices).toEqual(["0.035", "1,234.50"]);

    await userEvent.type(within(dialog).getByRole("searchbox"), "中国{Enter}");
    await waitFor(() => expect(within(dialog).queryByText("美国 (US)")).toBeNull());
    expect(within(dialog).getByText("中国 (CN)")).toBeInTheDocument();
    const last = requests.filter((r) => r.url.pathname === "/user/product/price").at(-1)!;
    expect(last.url.searchParams.get("keyword")).toBe("中国");
    expect(last.url.searchParams.get("page")).toBe("1");
  });
});

describe("back-office dashboard", () => {
  const data: BackendDashboard = {
    timeZone: "UTC",
    todayFrom: "2026-03-30T00:00:00.000Z",
    monthFrom: "2026-03-01T00:00:00.000Z",
    today: figures({
      sent: 140,
      success: 120,
      delivered: 90,
      successRate: 0.8571,
      deliveryRate: 0.6429,
      spend: "9.35",
    }),
    month: figures({ sent: 2_500_000, spend: "123456.7800" }),
    series: days({ 1000: 5, 3000: 135 }),
    currency: "CNY",
    ownBalance: "5000.0000",
    customers: 1234,
    topCustomers: [
      { userId: 7, user: "bigspender", spend: "100000.0000", sent: 2_000_000 },
      { userId: 8, user: "small", spend: "5.5000", sent: 10 },
    ],
    reviewQueue: [
      { productCode: 1000, count: 2 },
      { productCode: 2000, count: 0 },
      { productCode: 3000, count: 1500 },
    ],
    sending: [
      { productCode: 1000, count: 0 },
      { productCode: 2000, count: 1 },
      { productCode: 3000, count: 0 },
    ],
  };

  it("shows spend, rates, queues linking to the review lists and the top customers", slow, async () => {
    mockFetch({ "/dashboard/backend": { body: envelope(data) } });
    const { router } = renderPage("backend.dashboard", BackendDashboardPage);
    expect(await screen.findByTestId("dashboard-month-spend")).toHaveTextContent("123,456.78 CNY");
    expect(screen.getByTestId("dashboard-today-spend")).toHaveTextContent("9.35 CNY");
    expect(screen.getByTestId("dashboard-customers")).toHaveTextContent("1,234");
    expect(screen.getByTestId("dashboard-own-balance")).toHaveTextContent("5,000.00 CNY");
    expect(screen.getByTestId("dashboard-today-success-rate")).toHaveTextContent("85.71%");
    expect(screen.getByTestId("dashboard-month-sent")).toHaveTextContent("2,500,000");
    expect(screen.getByTestId("review-queue-sms")).toHaveTextContent("1,500");
    expect(screen.getByTestId("review-queue-sms-link")).toHaveAttribute("href", "/backend/sms/message/1");
    expect(screen.getByTestId("sending-now-ws-link")).toHaveAttribute("href", "/backend/ws/message/21");
    const rows = within(screen.getByTestId("top-customers")).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("bigspender");
    expect(rows[1]).toHaveTextContent("100,000.00 CNY");
    expect(rows[1]).toHaveTextContent("2,000,000");
    await userEvent.click(screen.getByTestId("review-queue-rcs-link"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/rcs/message/1"));
  });

  it("the sending card opens the product's sending list, not the review list", slow, async () => {
    mockFetch({ "/dashboard/backend": { body: envelope(data) } });
    const { router } = renderPage("backend.dashboard", BackendDashboardPage);
    const link = await screen.findByTestId("sending-now-sms-link");
    expect(link).toHaveAttribute("href", "/backend/sms/message/21");
    expect(link).toHaveTextContent("查看");
    expect(screen.getByTestId("review-queue-sms-link")).toHaveTextContent("去审核");
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/sms/message/21"));
  });

  it("has no own balance for admins and an empty top list", slow, async () => {
    mockFetch({ "/dashboard/backend": { body: envelope({ ...data, ownBalance: null, topCustomers: [] }) } });
    renderPage("backend.dashboard", BackendDashboardPage);
    expect(await screen.findByText("本月还没有消费")).toBeInTheDocument();
    expect(screen.queryByTestId("dashboard-own-balance")).toBeNull();
  });
});
