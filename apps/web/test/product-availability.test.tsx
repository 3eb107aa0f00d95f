// A task page whose product cannot send for the customer (no channel carries it, only paused ones, or no such
// product open to them) says so and offers no new task; the API's reason is shown as it came (translated).
import type { ProductItem } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { screen, waitFor } from "@testing-library/react";
import { App } from "antd";
import { beforeEach, describe, expect, it } from "vitest";
import { availabilityOf } from "../src/features/batches/hooks/use-product-availability";
import CustomerTaskPage from "../src/features/batches/pages/CustomerTaskPage";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { CurrentRouteContext } from "../src/routes/route-context";
import type { FlatRoute } from "../src/routes/types";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const route = { node: { meta: { productCode: ProductCode.WS } }, fullPath: "/", chain: [] } as unknown as FlatRoute;

function product(o: Partial<ProductItem> = {}): ProductItem {
  return {
    id: 2,
    code: ProductCode.WS,
    name: "WhatsApp Business",
    category: "WS",
    status: 1,
    countryScope: 1,
    countryCodes: [],
    sendable: true,
    unavailableReason: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    ...o,
  };
}

function renderPage(products: ProductItem[], path = "/") {
  const { requests } = mockFetch({
    "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
    "/batch/list": { body: envelope({ list: [], total: 0 }) },
    "/product/list": { body: envelope({ list: products, total: products.length }) },
  });
  renderRoutes(
    [
      {
        path: "/",
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <CustomerTaskPage />
            </App>
          </CurrentRouteContext>
        ),
      },
    ],
    path,
  );
  return requests;
}

beforeEach(() => {
  storage.setLang("en");
  storage.saveSession("tok-1", { userType: UserType.USER, tenantId: "7", agentId: "5" });
});

describe("availability of a task page's product", () => {
  it("reads the product list's answer", () => {
    expect(availabilityOf([product()])).toEqual({ state: "available" });
    expect(availabilityOf([product({ sendable: false, unavailableReason: "no channel" }), product({ id: 3 })])).toEqual(
      { state: "available" },
    );
    expect(availabilityOf([product({ sendable: false, unavailableReason: "no channel" })])).toEqual({
      state: "unavailable",
      reason: "no channel",
    });
    expect(availabilityOf([])).toEqual({ state: "unavailable", reason: null });
  });

  it("says why the product cannot send and disables the new task (even when the URL asks for it)", async () => {
    const reason = "product WhatsApp Business cannot send now: its channels are paused; try again later";
    const requests = renderPage([product({ sendable: false, unavailableReason: reason })], "/?new=1");
    const alert = await screen.findByTestId("product-unavailable");
    expect(alert).toHaveTextContent("This product cannot send for now");
    expect(alert).toHaveTextContent(reason);
    expect(screen.getByTestId("new-task")).toBeDisabled();
    expect(screen.queryByRole("dialog")).toBeNull();
    const call = requests.find((r) => r.url.pathname === "/product/list");
    expect(call?.url.searchParams.get("code")).toBe(String(ProductCode.WS));
  });

  it("says so when no such product is open to the customer", async () => {
    renderPage([]);
    expect(await screen.findByTestId("product-unavailable")).toHaveTextContent(
      "This product is not open for your account or is disabled; please contact support.",
    );
    expect(screen.getByTestId("new-task")).toBeDisabled();
  });

  it("shows nothing and offers the new task when the product can send", async () => {
    const requests = renderPage([product()]);
    await waitFor(() => expect(requests.some((r) => r.url.pathname === "/product/list")).toBe(true));
    await screen.findByTestId("batch-table");
    expect(screen.queryByTestId("product-unavailable")).toBeNull();
    expect(screen.getByTestId("new-task")).toBeEnabled();
  });
});
