import type { PriceList, ProductItem, UserRow } from "@switchboard/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import CustomerListPage from "../src/features/customers/pages/CustomerListPage";
import { PricesPanel } from "../src/features/products/components/PricesPanel";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

const admin: UserInfo = {
  id: 1,
  user: "admin",
  type: UserType.ADMIN,
  tenantId: 1,
  agentId: null,
  balance: "0.0000",
  authStatus: 0,
  nickname: null,
};

const product: ProductItem = {
  id: 3,
  code: 3000,
  name: "International SMS",
  category: "SMS",
  status: 1,
  countryScope: 1,
  countryCodes: [],
  defaultChannelId: null,
  defaultChannelName: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

function priceList(userId: number | null, user: string | null): PriceList {
  return {
    list: [
      {
        countryCode: "US",
        countryName: "美国",
        dialCode: "1",
        unitPrice: "0.0250",
        screeningPrice: null,
        marketingPrice: null,
        utilityPrice: null,
        authenticationPrice: null,
        source: "customer",
      },
    ],
    total: 1,
    productId: product.id,
    userId,
    user,
    currency: "CNY",
  };
}

function page(key: string, Page: ComponentType, path: string) {
  const route = flattenTree(routeTree).find((r) => r.node.key === key);
  if (!route) throw new Error(`no route ${key}`);
  return renderRoutes(
    [
      {
        path: "/backend/*",
        element: (
          <SessionContext value={{ user: admin }}>
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

describe("prices and routes of one customer", () => {
  it("names the customer by its username when the link carries only its id", slow, async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "/product/list": { body: envelope({ list: [product], total: 1 }) },
      "/price/list": { body: envelope(priceList(4, "acme-trading")) },
      "/user/search": { body: envelope({ list: [], total: 0 }) },
    });
    page("backend.product.list", PricesPanel, "/backend/product/list?customerId=4");
    expect(await screen.findByText(/当前显示 acme-trading 的生效价格/)).toBeInTheDocument();
    expect(screen.queryByText(/#4/)).toBeNull();
  });

  it("the customer list's link opens the customer's prices under its name at once", slow, async () => {
    const row: UserRow = {
      id: 4,
      tenantId: 1,
      user: "acme-trading",
      type: UserType.USER,
      status: 1,
      nickname: null,
      company: null,
      email: null,
      phone: null,
      remark: null,
      agentId: null,
      agentUser: null,
      balance: "0.0000",
      authStatus: 2,
      authRequirement: 0,
      authExemptUntil: null,
      apiEnabled: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      lastLoginAt: null,
    };
    mockFetch({
      "/website/config": websiteConfig,
      "/user/list": { body: envelope({ list: [row], total: 1 }) },
      "/product/list": { body: envelope({ list: [product], total: 1 }) },
      "/user/search": { body: envelope({ list: [], total: 0 }) },
    });
    const { router } = page("backend.customer.list", CustomerListPage, "/backend/customer/list");
    await userEvent.click(await screen.findByTestId("customer-more-acme-trading"));
    await userEvent.click(await screen.findByText("价格与路由"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/product/list"));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get("customerId")).toBe("4");
    expect(search.get("customerName")).toBe("acme-trading");
  });
});
