// A super admin reading a back-office list across every tenant (no tenant chosen) gets a tenant column: the rows
// then name their tenant (the API adds tenantName only then). Otherwise no such column.
import { screen, within } from "@testing-library/react";
import { App } from "antd";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import BackendTaskPage from "../src/features/batches/pages/BackendTaskPage";
import ChannelsPage from "../src/features/channels/pages/ChannelsPage";
import LoginLogPage from "../src/features/customers/pages/LoginLogPage";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { type Answer, envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

const superAdmin: UserInfo = {
  id: 1,
  user: "root",
  type: UserType.SUPER_ADMIN,
  tenantId: null,
  agentId: null,
  balance: "0.0000",
  authStatus: 0,
  nickname: null,
};

function renderPage(key: string, Page: ComponentType, path: string, answers: Record<string, Answer>) {
  mockFetch({ "/website/config": websiteConfig, ...answers });
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return renderRoutes(
    [
      {
        path,
        element: (
          <SessionContext value={{ user: superAdmin }}>
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
}

function loginLog(id: string, tenantName?: string) {
  return {
    id,
    tenantId: Number(id),
    userId: 3,
    username: `user${id}`,
    area: "customer",
    ip: "10.0.0.1",
    userAgent: null,
    success: true,
    reason: null,
    createdAt: "2026-03-01T08:00:00.000Z",
    ...(tenantName ? { tenantName } : {}),
  };
}

function batch(id: string, tenantName?: string) {
  return {
    id,
    userId: 7,
    user: "customer",
    agentId: null,
    productId: 1,
    productCode: 3000,
    productName: "SMS",
    taskType: 2,
    submitMode: 2,
    source: 1,
    status: 22,
    preview: "Hello",
    senderId: null,
    segments: 1,
    scheduledAt: null,
    fileName: null,
    ingesting: false,
    ingestedCount: 0,
    totalCount: 1,
    validCount: 1,
    invalidCount: 0,
    duplicateCount: 0,
    notServedCount: 0,
    sentCount: 1,
    successCount: 1,
    failedCount: 0,
    deliveredCount: 1,
    undeliveredCount: 0,
    readCount: 0,
    fallbackCount: 0,
    progress: 100,
    cost: "0.0350",
    refunded: "0.0000",
    reason: null,
    reviewedAt: null,
    startedAt: null,
    finishedAt: null,
    createdAt: "2026-03-01T08:00:00.000Z",
    ...(tenantName ? { tenantName } : {}),
  };
}

function channel(id: number, tenantName?: string) {
  return {
    id,
    name: `Channel ${id}`,
    kind: "smpp",
    productCode: 3000,
    config: {},
    secrets: {},
    throughput: 100,
    countryScope: 1,
    countryCodes: [],
    status: 1,
    defaultFor: [],
    routeCount: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...(tenantName ? { tenantName } : {}),
  };
}

const list = (rows: unknown[]) => ({ body: envelope({ list: rows, total: rows.length }) });

describe("the tenant column of lists across every tenant", () => {
  it("customer lists (ListView): the tenant first, named per row", slow, async () => {
    renderPage("backend.customer.log", LoginLogPage, "/backend/customer/log", {
      "/user/login/log": list([loginLog("1", "Alpha Telecom"), loginLog("2", "Beta Messaging")]),
    });
    const table = await screen.findByTestId("login-log-table");
    await within(table).findByText("Alpha Telecom");
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers[0]).toBe("平台");
    expect(within(table).getByText("Beta Messaging")).toBeInTheDocument();
  });

  it("customer lists: no tenant column when the rows name none (a tenant chosen)", slow, async () => {
    renderPage("backend.customer.log", LoginLogPage, "/backend/customer/log", {
      "/user/login/log": list([loginLog("1")]),
    });
    const table = await screen.findByTestId("login-log-table");
    await within(table).findByText("user1");
    expect(within(table).queryByRole("columnheader", { name: "平台" })).toBeNull();
  });

  it("batch lists", slow, async () => {
    renderPage("backend.sms.task", BackendTaskPage, "/backend/sms/message/task", {
      "/batch/list": list([batch("42", "Alpha Telecom"), batch("41", "Beta Messaging")]),
      "/user/search": list([]),
    });
    const table = await screen.findByTestId("batch-table");
    await within(table).findByText("Alpha Telecom");
    expect(within(table).getByRole("columnheader", { name: "平台" })).toBeInTheDocument();
    expect(within(table).getByText("Beta Messaging")).toBeInTheDocument();
  });

  it("channel lists", slow, async () => {
    renderPage("backend.product.api", ChannelsPage, "/backend/product/api", {
      "/channel/list": list([channel(1, "Alpha Telecom"), channel(2, "Beta Messaging")]),
      "/channel/route/list": list([]),
      "/product/list": list([]),
    });
    expect(await screen.findByText("Alpha Telecom")).toBeInTheDocument();
    expect(screen.getByRole("columnheader", { name: "平台" })).toBeInTheDocument();
    expect(screen.getByText("Beta Messaging")).toBeInTheDocument();
  });
});
