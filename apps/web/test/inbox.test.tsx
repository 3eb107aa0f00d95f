// The inbox page (issue 18, inbound messages): a customer's replies across its batches in the customer app and
// the RCS portal, newest first, each opening the batch it answers; filters by number and batch in the URL and the
// list call; empty states; both languages.
import type { InboxRow } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { messages } from "../src/features/inbox/messages";
import InboxPage, { inboxBatchPath } from "../src/features/inbox/pages/InboxPage";
import { storage } from "../src/lib/storage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };

function render(key: "app.inbox" | "rcs.inbox", at: string, lang: "en" | "zh" = "en") {
  storage.setLang(lang);
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return renderRoutes(
    [
      {
        path: route.fullPath,
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <InboxPage />
            </App>
          </CurrentRouteContext>
        ),
      },
      { path: "*", element: <div data-testid="navigated" /> },
    ],
    at,
  );
}

const row = (o: Partial<InboxRow>): InboxRow => ({
  inboundId: "1",
  batchId: "77",
  recipientId: "700",
  from: "+447700900123",
  text: "yes please",
  postbackData: null,
  inReplyTo: null,
  receivedAt: "2026-11-25T08:00:05.000Z",
  product: ProductCode.SMS,
  batchStatus: 22,
  ...o,
});

describe("the inbox page", () => {
  it("lists replies newest first with their product and batch; a row opens the batch it answers", slow, async () => {
    mockFetch({
      "GET /inbound/list": {
        body: envelope({
          list: [
            row({ inboundId: "3", text: null, postbackData: "book_now", product: ProductCode.RCS, batchId: "78" }),
            row({ inboundId: "2", batchId: null, product: null, batchStatus: null, text: "who is this?" }),
            row({ inboundId: "1" }),
          ],
          total: 3,
        }),
      },
    });
    render("app.inbox", "/app/inbox");
    const table = await screen.findByTestId("inbox-table");
    await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(4));
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent("Tapped: book_now");
    expect(rows[1]).toHaveTextContent("RCS");
    expect(rows[2]).toHaveTextContent("No batch matched");
    expect(rows[3]).toHaveTextContent("+447700900123");
    expect(rows[3]).toHaveTextContent("SMS");
    expect(rows[3]).toHaveTextContent(dayjs("2026-11-25T08:00:05.000Z").format("YYYY-MM-DD HH:mm:ss"));
    await userEvent.click(within(table).getByTestId("inbox-batch-1"));
    expect(await screen.findByTestId("navigated")).toBeInTheDocument();
  });

  it("opens a batch where each area shows it: the task drawer, or the portal's detail by stage", () => {
    expect(inboxBatchPath(row({ product: ProductCode.WS, batchId: "9" }), false)).toBe("/app/ws/message/task?batch=9");
    expect(inboxBatchPath(row({ product: ProductCode.RCS, batchId: "9", batchStatus: 21 }), true)).toBe(
      "/user/message/sending/detail/9",
    );
    expect(inboxBatchPath(row({ batchId: null }), true)).toBeNull();
  });

  it("filters by number and batch through the URL and the list call, with its own empty text", slow, async () => {
    const { requests } = mockFetch({ "GET /inbound/list": { body: envelope({ list: [], total: 0 }) } });
    render("rcs.inbox", "/user/inbox?phone=%2B4477&batchId=42");
    expect(await screen.findByTestId("inbox-empty")).toHaveTextContent("No replies match these filters");
    const call = requests.find((r) => r.url.pathname === "/inbound/list");
    expect(call?.url.searchParams.get("phone")).toBe("+4477");
    expect(call?.url.searchParams.get("batchId")).toBe("42");
  });

  it("says when nothing came back yet, in Chinese too", slow, async () => {
    mockFetch({ "GET /inbound/list": { body: envelope({ list: [], total: 0 }) } });
    render("app.inbox", "/app/inbox", "zh");
    expect(await screen.findByTestId("inbox-empty")).toHaveTextContent("还没有收到回复");
  });

  it("has every text in both languages", () => {
    const { zh, en } = messages.texts;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
});
