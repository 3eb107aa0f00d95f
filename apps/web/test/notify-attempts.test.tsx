// The developer page's callback attempts (issue 18): the customer's attempts with their answers (numbers with
// separators, local times), filters in the URL, empty and error states, and Resend with its toast.
import type { NotifyAttemptRow } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { NotifyAttemptsSection } from "../src/features/developer/components/NotifyAttemptsSection";
import StaffNotifyAttemptsPage from "../src/features/developer/pages/StaffNotifyAttemptsPage";
import { storage } from "../src/lib/storage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };

function render(lang: "en" | "zh" = "en", path = "/") {
  storage.setLang(lang);
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <NotifyAttemptsSection />
          </App>
        ),
      },
    ],
    path,
  );
}

const row = (o: Partial<NotifyAttemptRow>): NotifyAttemptRow => ({
  id: "1",
  event: "batch_finished",
  eventId: "callback-batch_finished-77.abc",
  batchId: "77",
  attempt: 1,
  httpStatus: 500,
  error: "http_500",
  durationMs: 1234,
  manual: false,
  resendable: true,
  createdAt: "2026-01-02T03:04:05.000Z",
  ...o,
});

describe("callback attempts", () => {
  it("lists attempts with their answers, numbers with separators, times in the user's zone", slow, async () => {
    mockFetch({
      "GET /user/notify/attempts": {
        body: envelope({
          list: [
            row({ id: "3", attempt: 1, httpStatus: 200, error: null, durationMs: 15, manual: true }),
            row({ id: "2", attempt: 2, httpStatus: null, error: "timeout", durationMs: 5000 }),
            row({ id: "1", event: "test", eventId: null, batchId: null, resendable: false }),
          ],
          total: 1200,
        }),
      },
    });
    render();
    const table = await screen.findByTestId("notify-attempts");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(4)); // header + 3
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("Batch finished");
    expect(rows[1]).toHaveTextContent("callback-batch_finished-77.abc");
    expect(rows[1]).toHaveTextContent("resent by hand");
    expect(rows[1]).toHaveTextContent("200");
    expect(rows[1]).toHaveTextContent(dayjs("2026-01-02T03:04:05.000Z").format("YYYY-MM-DD HH:mm:ss"));
    expect(rows[2]).toHaveTextContent("No answer within the time limit");
    expect(rows[3]).toHaveTextContent("HTTP 500");
    expect(rows[2]).toHaveTextContent("5,000 ms");
    expect(rows[3]).toHaveTextContent("Test");
    expect(within(rows[3] as HTMLElement).queryByTestId("notify-attempt-resend-1")).toBeNull();
    // 1,200 attempts: 60 pages of 20.
    expect(screen.getByTitle("60")).toBeInTheDocument();
  });

  it("filters by event and batch id through the URL and the list call", slow, async () => {
    const { requests } = mockFetch({
      "GET /user/notify/attempts": { body: envelope({ list: [], total: 0 }) },
    });
    render("en", "/?event=delivery_report&batchId=42");
    expect(await screen.findByTestId("notify-attempts-empty")).toHaveTextContent("No callback attempts yet");
    const call = requests.find((r) => r.url.pathname === "/user/notify/attempts");
    expect(call?.url.searchParams.get("event")).toBe("delivery_report");
    expect(call?.url.searchParams.get("batchId")).toBe("42");
    expect(within(screen.getByTestId("notify-attempts-batch")).getByRole("searchbox")).toHaveValue("42");
  });

  it("shows a load error with a retry", slow, async () => {
    let fail = true;
    mockFetch({
      "GET /user/notify/attempts": () =>
        fail ? { status: 500, body: envelope(null, 1, "boom") } : { body: envelope({ list: [row({})], total: 1 }) },
    });
    render();
    const retry = await screen.findByTestId("notify-attempts-retry");
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByTestId("notify-attempt-resend-1")).toBeInTheDocument();
  });

  it("re-sends an attempt's event and confirms with a toast; a refusal is shown", slow, async () => {
    let queued = false;
    const { requests } = mockFetch({
      "GET /user/notify/attempts": { body: envelope({ list: [row({ id: "9" })], total: 1 }) },
      "POST /user/notify/attempts/9/resend": () => {
        if (queued) return { status: 409, body: envelope(null, 1, "a resend of this event is already queued") };
        queued = true;
        return {
          body: envelope({
            eventId: "callback-batch_finished-77.abc",
            event: "batch_finished",
            batchId: "77",
            jobId: "callback-batch_finished-77.abc-resend",
          }),
        };
      },
    });
    render();
    await userEvent.click(await screen.findByTestId("notify-attempt-resend-9"));
    expect(await screen.findByText(/Queued to be sent again \(same event ID\)/)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("notify-attempt-resend-9"));
    expect(await screen.findByText("a resend of this event is already queued")).toBeInTheDocument();
    await waitFor(() =>
      expect(
        requests.filter((r) => r.method === "POST" && r.url.pathname === "/user/notify/attempts/9/resend"),
      ).toHaveLength(2),
    );
  });

  it("speaks Chinese too", slow, async () => {
    mockFetch({ "GET /user/notify/attempts": { body: envelope({ list: [row({})], total: 1 }) } });
    render("zh");
    const table = await screen.findByTestId("notify-attempts");
    expect(await within(table).findByText("任务完成")).toBeInTheDocument();
    expect(within(table).getByText("重发")).toBeInTheDocument();
    expect(screen.getByText("回调记录")).toBeInTheDocument();
    expect(within(table).getByText("1,234 毫秒")).toBeInTheDocument();
  });
});

describe("back office: a customer's callback attempts", () => {
  function renderStaff(path: string) {
    storage.setLang("en");
    const route = flattenTree(routeTree).find((r) => r.node.key === "backend.customer.callbacks");
    if (!route) throw new Error("no route backend.customer.callbacks");
    return renderRoutes(
      [
        {
          path: "/backend/customer/callbacks",
          element: (
            <CurrentRouteContext value={route}>
              <App>
                <StaffNotifyAttemptsPage />
              </App>
            </CurrentRouteContext>
          ),
        },
      ],
      path,
    );
  }

  it("asks for a customer first and reads nothing until one is chosen", slow, async () => {
    const { requests } = mockFetch({
      "GET /user/search": { body: envelope({ list: [{ id: 9, user: "shop9", nickname: null }], total: 1 }) },
      "GET /user/notify/attempts": { body: envelope({ list: [row({})], total: 1 }) },
    });
    renderStaff("/backend/customer/callbacks");
    expect(await screen.findByTestId("staff-attempts-choose")).toHaveTextContent("Choose a customer first");
    expect(requests.some((r) => r.url.pathname === "/user/notify/attempts")).toBe(false);
  });

  it("lists the chosen customer's attempts, filtered in the URL, without the customer's Resend", slow, async () => {
    const { requests } = mockFetch({
      "GET /user/search": { body: envelope({ list: [{ id: 9, user: "shop9", nickname: null }], total: 1 }) },
      "GET /user/notify/attempts": { body: envelope({ list: [row({ id: "5" })], total: 1 }) },
    });
    renderStaff("/backend/customer/callbacks?userId=9&event=batch_finished");
    const table = await screen.findByTestId("notify-attempts");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(2));
    expect(within(table).getByText("Batch finished")).toBeInTheDocument();
    expect(screen.queryByTestId("notify-attempt-resend-5")).toBeNull();
    expect(screen.queryByText("Actions")).toBeNull();
    const call = requests.find((r) => r.url.pathname === "/user/notify/attempts");
    expect(call?.url.searchParams.get("userId")).toBe("9");
    expect(call?.url.searchParams.get("event")).toBe("batch_finished");
  });
});
