import type { RecipientSearchResult, RecipientSearchRow } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import MessageSearchPage from "../src/features/message-search/pages/MessageSearchPage";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { type Answer, envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

function user(type: UserType): UserInfo {
  return {
    id: 5,
    user: type === UserType.USER ? "acme" : "staff",
    type,
    tenantId: type === UserType.SUPER_ADMIN ? null : 1,
    agentId: null,
    balance: "0.0000",
    authStatus: 2,
    nickname: null,
  };
}

function row(over: Partial<RecipientSearchRow> = {}): RecipientSearchRow {
  return {
    id: "900",
    batchId: "77",
    productCode: 3000,
    productName: "International SMS",
    taskType: 2,
    batchStatus: 22,
    userId: 9,
    user: "acme",
    phone: "+8613800138000",
    countryCode: "CN",
    sendResult: 1,
    receiveResult: 1,
    errorCode: null,
    sentAt: "2026-03-01T08:00:00.000Z",
    receivedAt: "2026-03-01T08:00:05.000Z",
    readAt: null,
    fellBackToSms: false,
    createdAt: "2026-03-01T07:59:00.000Z",
    channelId: null,
    channelName: null,
    tenantName: null,
    ...over,
  };
}

function result(list: RecipientSearchRow[], over: Partial<RecipientSearchResult> = {}): RecipientSearchResult {
  return { list, total: list.length, capped: false, e164: "+8613800138000", ...over };
}

function renderSearch(type: UserType, answer: Answer | ((req: RecordedRequest) => Answer), path?: string) {
  const mocked = mockFetch({ "/website/config": websiteConfig, "GET /batch/recipients/search": answer });
  const area = type === UserType.USER ? "app" : "backend";
  const route = flattenTree(routeTree).find((r) => r.node.key === `${area}.search`);
  if (!route) throw new Error(`no route ${area}.search`);
  const view = renderRoutes(
    [
      {
        path: `/${area}/search`,
        element: (
          <SessionContext value={{ user: user(type) }}>
            <CurrentRouteContext value={route}>
              <App>
                <MessageSearchPage />
              </App>
            </CurrentRouteContext>
          </SessionContext>
        ),
      },
      { path: "*", element: <h1>batch page</h1> },
    ],
    path ?? `/${area}/search`,
  );
  return { ...mocked, ...view };
}

const searches = (requests: RecordedRequest[]) => requests.filter((r) => r.url.pathname === "/batch/recipients/search");

describe("message search", () => {
  it(
    "asks for a number first, then lists the customer's messages and opens a batch in its task list",
    slow,
    async () => {
      const { requests, router } = renderSearch(UserType.USER, { body: envelope(result([row()])) });
      expect(await screen.findByTestId("search-hint")).toHaveTextContent("输入一个号码");
      expect(searches(requests)).toHaveLength(0);

      await userEvent.type(screen.getByRole("searchbox", { name: "手机号码" }), " 138 0013 8000 {Enter}");
      const table = await screen.findByTestId("search-table");
      await within(table).findByText("77");
      const sent = searches(requests)[0];
      expect(sent?.url.searchParams.get("number")).toBe("138 0013 8000");
      expect(screen.getByText("已搜索：+8613800138000")).toBeInTheDocument();
      expect(within(table).getByText("发送成功")).toBeInTheDocument();
      expect(within(table).getByText("已接收")).toBeInTheDocument();
      // A customer is not told which channel carried it, nor shown a customer column.
      expect(within(table).queryByRole("columnheader", { name: "通道" })).toBeNull();
      expect(within(table).queryByRole("columnheader", { name: "客户" })).toBeNull();

      await userEvent.click(screen.getByTestId("search-open-900"));
      await waitFor(() => expect(router.state.location.pathname).toBe("/app/sms/message/task"));
      expect(router.state.location.search).toBe("?batch=77");
    },
  );

  it("shows staff the customer and the channel by name, and opens the batch detail", slow, async () => {
    const { router } = renderSearch(
      UserType.ADMIN,
      {
        body: envelope(
          result([row({ productCode: 1000, channelId: 4, channelName: "RBM Agent", fellBackToSms: true })]),
        ),
      },
      "/backend/search?number=%2B8613800138000&productCode=1000",
    );
    const table = await screen.findByTestId("search-table");
    await within(table).findByText("RBM Agent");
    expect(within(table).getByRole("columnheader", { name: "客户" })).toBeInTheDocument();
    expect(within(table).getByText("短信回落")).toBeInTheDocument();
    expect(within(table).queryByRole("columnheader", { name: "平台" })).toBeNull();
    await userEvent.click(screen.getByTestId("search-open-900"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/rcs/message/detail/77"));
  });

  it("adds the tenant column for a super admin looking at every tenant", slow, async () => {
    renderSearch(
      UserType.SUPER_ADMIN,
      { body: envelope(result([row({ tenantName: "Acme Telecom", channelId: 2, channelName: "SMSC" })])) },
      "/backend/search?number=%2B8613800138000",
    );
    const table = await screen.findByTestId("search-table");
    expect(await within(table).findByRole("columnheader", { name: "平台" })).toBeInTheDocument();
    expect(within(table).getByText("Acme Telecom")).toBeInTheDocument();
  });

  it("says when nothing was sent to the number, and pages with separators", slow, async () => {
    const view = renderSearch(UserType.USER, { body: envelope(result([])) }, "/app/search?number=%2B8613800138000");
    expect(await screen.findByText("没有发往 +8613800138000 的消息")).toBeInTheDocument();
    view.unmount();

    const many = Array.from({ length: 20 }, (_, i) => row({ id: String(1000 + i), batchId: String(500 - i) }));
    renderSearch(
      UserType.USER,
      { body: envelope(result(many, { total: 1000, capped: true })) },
      "/app/search?number=%2B8613800138000",
    );
    expect(await screen.findByText("共 1,000 条")).toBeInTheDocument();
    expect(screen.getByTestId("search-capped")).toHaveTextContent("超过 1,000 条");
  });

  it("shows the server's refusal of a number that is not one, with a retry", slow, async () => {
    renderSearch(UserType.USER, { status: 400, body: envelope(null, 1, "号码无效") }, "/app/search?number=12345");
    expect(await screen.findByText("号码无效")).toBeInTheDocument();
    expect(screen.getByTestId("retry")).toBeInTheDocument();
  });
});
