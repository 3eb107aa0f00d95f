import type { SenderIdRow } from "@switchboard/contracts";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App, ConfigProvider } from "antd";
import type { ComponentType } from "react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "../src/app/providers";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import { SenderIdSelect } from "../src/features/sender-ids/components/SenderIdSelect";
import { messages } from "../src/features/sender-ids/messages";
import SenderIdReviewPage from "../src/features/sender-ids/pages/SenderIdReviewPage";
import SenderIdsPage from "../src/features/sender-ids/pages/SenderIdsPage";
import { createQueryClient } from "../src/lib/query";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { type Answer, envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };
const countries = {
  body: envelope({
    list: [
      { code: "GB", dialCode: "44", name: "United Kingdom", nameEn: "United Kingdom", nameZh: "英国" },
      { code: "US", dialCode: "1", name: "United States", nameEn: "United States", nameZh: "美国" },
    ],
    total: 2,
  }),
};

function row(id: number, o: Partial<SenderIdRow> = {}): SenderIdRow {
  return {
    id,
    userId: 7,
    user: "shop",
    senderId: `Brand${id}`,
    countryCode: "GB",
    kind: "alphanumeric",
    status: 1,
    note: null,
    reason: null,
    reviewerId: null,
    reviewedAt: null,
    createdAt: "2026-11-20T07:00:00.000Z",
    updatedAt: "2026-11-20T07:00:00.000Z",
    ...o,
  };
}

function user(type: UserType): UserInfo {
  return {
    id: 1,
    user: "someone",
    type,
    tenantId: "7",
    agentId: null,
    balance: "0.0000",
    authStatus: 2,
    nickname: null,
  } as unknown as UserInfo;
}

function renderPage(
  key: string,
  Page: ComponentType,
  path: string,
  type: UserType,
  answers: Record<string, Answer | ((req: RecordedRequest) => Answer)>,
) {
  const mocked = mockFetch({ "/website/config": websiteConfig, "/country/list": countries, ...answers });
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  const view = renderRoutes(
    [
      {
        path,
        element: (
          <SessionContext value={{ user: user(type) }}>
            <CurrentRouteContext value={route}>
              <App>
                <Page />
              </App>
            </CurrentRouteContext>
          </SessionContext>
        ),
      },
    ],
    path,
  );
  return { ...mocked, ...view };
}

const posts = (requests: RecordedRequest[], path: string) =>
  requests.filter((r) => r.method === "POST" && r.url.pathname === path);

beforeEach(() => {
  storage.setLang("en");
  storage.saveSession("tok-1", { userType: UserType.USER, tenantId: "7", agentId: "" });
});

describe("customer: Sender IDs page", () => {
  it("shows the empty state, then requests a sender id for all countries and lists it", slow, async () => {
    let list: SenderIdRow[] = [];
    const { requests } = renderPage("app.senderIds", SenderIdsPage, "/app/sender-ids", UserType.USER, {
      "GET /sender-id/list": () => ({ body: envelope({ list, total: list.length }) }),
      "POST /sender-id/request": (req) => {
        const body = req.body as { senderId: string; countryCode: string | null; note?: string };
        list = [row(5, { senderId: body.senderId, countryCode: body.countryCode })];
        return { body: envelope(list[0]) };
      },
    });
    expect(await screen.findByTestId("sender-id-empty")).toHaveTextContent(
      "No sender IDs yet. Request one above; SMS without a sender ID go out with the channel's default sender.",
    );
    expect(screen.getByTestId("sender-id-intro")).toHaveTextContent("Alphanumeric: up to 11 characters");

    await userEvent.type(screen.getByTestId("sender-id-input"), "Acme");
    await userEvent.type(screen.getByTestId("sender-id-note"), "our shop");
    await userEvent.click(screen.getByTestId("sender-id-submit"));

    await waitFor(() => expect(posts(requests, "/sender-id/request")).toHaveLength(1));
    expect(posts(requests, "/sender-id/request")[0]?.body).toEqual({
      senderId: "Acme",
      countryCode: null,
      note: "our shop",
    });
    expect(await screen.findByText("Requested: it waits for review")).toBeInTheDocument();
    const table = screen.getByTestId("sender-id-table");
    await waitFor(() => expect(within(table).getByText("Acme")).toBeInTheDocument());
    expect(within(table).getByText("Waiting for review")).toBeInTheDocument();
    expect(within(table).getByText("All countries")).toBeInTheDocument();
  });

  it("refuses a national number before calling, and shows the server's refusal", slow, async () => {
    const { requests } = renderPage("app.senderIds", SenderIdsPage, "/app/sender-ids", UserType.USER, {
      "GET /sender-id/list": { body: envelope({ list: [], total: 0 }) },
      "POST /sender-id/request": {
        status: 409,
        body: envelope(null, 1, "sender ID Acme (all countries) is already requested and waits for review"),
      },
    });
    const input = await screen.findByTestId("sender-id-input");
    await userEvent.type(input, "07700900123");
    await userEvent.click(screen.getByTestId("sender-id-submit"));
    expect(
      await screen.findByText(
        "A sender ID is up to 11 letters, digits, spaces or . _ -, a number with its country code, or a short code of 3 to 8 digits",
      ),
    ).toBeInTheDocument();
    expect(posts(requests, "/sender-id/request")).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, "Acme");
    await userEvent.click(screen.getByTestId("sender-id-submit"));
    expect(await screen.findByTestId("sender-id-error")).toHaveTextContent(
      "sender ID Acme (all countries) is already requested and waits for review",
    );
  });

  it("lists decisions with their reason, in Chinese, with the total's separators; withdraws one", slow, async () => {
    storage.setLang("zh");
    const rows = [
      row(1, { status: 3, reason: "与银行名称相似", reviewedAt: "2026-11-21T07:00:00.000Z" }),
      row(2, { status: 2, senderId: "+447700900123", kind: "international", countryCode: null }),
    ];
    const { requests } = renderPage("app.senderIds", SenderIdsPage, "/app/sender-ids", UserType.USER, {
      "GET /sender-id/list": { body: envelope({ list: rows, total: 1234 }) },
      "POST /sender-id/withdraw": { body: envelope({ id: 1 }) },
    });
    const table = await screen.findByTestId("sender-id-table");
    await waitFor(() => expect(within(table).getByText("与银行名称相似")).toBeInTheDocument());
    expect(within(table).getByText("已拒绝")).toBeInTheDocument();
    expect(within(table).getByText("已批准")).toBeInTheDocument();
    expect(within(table).getByText("国际号码")).toBeInTheDocument();
    expect(within(table).getByText("所有国家")).toBeInTheDocument();
    expect(screen.getByText("共 1,234 条")).toBeInTheDocument();

    await userEvent.click(screen.getByTestId("sender-id-withdraw-1"));
    await userEvent.click(await screen.findByRole("button", { name: /OK|确定|确 定/ }));
    await waitFor(() => expect(posts(requests, "/sender-id/withdraw")).toHaveLength(1));
    expect(posts(requests, "/sender-id/withdraw")[0]?.body).toEqual({ id: 1 });
  });
});

describe("back office: sender id review", () => {
  it("an admin rejects a waiting request with a reason", slow, async () => {
    const { requests } = renderPage(
      "backend.customer.senderIds",
      SenderIdReviewPage,
      "/backend/customer/sender-ids",
      UserType.ADMIN,
      {
        "GET /sender-id/list": { body: envelope({ list: [row(3), row(4, { status: 2 })], total: 2 }) },
        "POST /sender-id/reject": (req) => ({ body: envelope(row(3, { status: 3, ...(req.body as object) })) }),
      },
    );
    await userEvent.click(await screen.findByTestId("sender-id-reject-3"));
    expect(screen.getByTestId("sender-id-revoke-4")).toBeInTheDocument();
    expect(screen.queryByTestId("sender-id-approve-4")).not.toBeInTheDocument();
    const modal = await screen.findByTestId("sender-id-reason-modal");
    await userEvent.click(within(modal).getByTestId("sender-id-reason-submit"));
    expect(await within(modal).findByText("Enter the reason")).toBeInTheDocument();
    await userEvent.type(within(modal).getByTestId("sender-id-reason"), "looks like a bank");
    await userEvent.click(within(modal).getByTestId("sender-id-reason-submit"));
    await waitFor(() => expect(posts(requests, "/sender-id/reject")).toHaveLength(1));
    expect(posts(requests, "/sender-id/reject")[0]?.body).toEqual({ id: 3, reason: "looks like a bank" });
  });

  it("an agent sees its customers' requests without review actions", slow, async () => {
    renderPage("backend.customer.senderIds", SenderIdReviewPage, "/backend/customer/sender-ids", UserType.AGENT, {
      "GET /sender-id/list": { body: envelope({ list: [row(3)], total: 1 }) },
    });
    const table = await screen.findByTestId("sender-id-review-table");
    await waitFor(() => expect(within(table).getByText("Brand3")).toBeInTheDocument());
    expect(screen.queryByTestId("sender-id-approve-3")).not.toBeInTheDocument();
    expect(screen.getByText("Admins review sender IDs; this lists your customers' requests.")).toBeInTheDocument();
  });
});

describe("SMS editor's sender select", () => {
  it("offers none and the approved ids with their countries", slow, async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "GET /sender-id/list": {
        body: envelope({
          list: [
            row(1, { senderId: "Acme", status: 2, countryCode: "US" }),
            row(2, { senderId: "Acme", status: 2, countryCode: "GB" }),
            row(3, { senderId: "72727", status: 2, countryCode: null, kind: "short_code" }),
          ],
          total: 3,
        }),
      },
    });
    const onChange = vi.fn<(v: string) => void>();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <ConfigProvider theme={{ token: { motion: false } }}>
          <SenderIdSelect value="" onChange={onChange} data-testid="sender" />
        </ConfigProvider>
      </AppProviders>,
    );
    await userEvent.click(within(screen.getByTestId("sender")).getByRole("combobox"));
    const option = (text: string) => screen.findByText(text, { selector: ".ant-select-item-option-content" });
    expect(await option("72727 · all countries")).toBeInTheDocument();
    expect(await option("None (the channel's default sender)")).toBeInTheDocument();
    await userEvent.click(await option("Acme · GB, US"));
    expect(onChange).toHaveBeenCalledWith("Acme");
    expect(screen.getByTestId("sender-id-request-link")).toHaveAttribute("href", "/app/sender-ids");
  });

  it("has every text in both languages", () => {
    expect(Object.keys(messages.texts.zh).sort()).toEqual(Object.keys(messages.texts.en).sort());
  });
});
