import type { ProductItem } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it, vi } from "vitest";
import {
  isValidUnitPrice,
  PriceFormModal,
  type PriceFormModalProps,
} from "../src/features/products/components/PriceFormModal";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const product: ProductItem = {
  id: 3,
  code: 3000,
  name: "International SMS",
  category: "SMS",
  status: 1,
  countryScope: 3,
  countryCodes: ["CN"],
  defaultChannelId: null,
  defaultChannelName: null,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

const countries = {
  body: envelope({
    list: [
      { code: "CN", dialCode: "86", name: "中国", nameEn: "China", nameZh: "中国" },
      { code: "GB", dialCode: "44", name: "英国", nameEn: "United Kingdom", nameZh: "英国" },
      { code: "US", dialCode: "1", name: "美国", nameEn: "United States", nameZh: "美国" },
    ],
    total: 3,
  }),
};

function renderForm(props: Partial<PriceFormModalProps> = {}, answer: unknown = envelope({ action: 1, countries: 2 })) {
  const onClose = vi.fn();
  const answers = {
    "/website/config": { body: envelope({ title: "Switchboard", logo: null, logoSmall: null, description: null }) },
    "/country/list": countries,
    "POST /price/default/set": { body: answer },
    "POST /price/customer/set": { body: answer },
  };
  const { requests } = mockFetch(answers);
  renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <PriceFormModal open product={product} currency="CNY" onClose={onClose} {...props} />
          </App>
        ),
      },
    ],
    "/",
  );
  const posts = () => requests.filter((r) => r.method === "POST");
  return { onClose, posts };
}

const submit = () => userEvent.click(screen.getByTestId("price-form-submit"));

describe("price form", () => {
  it("accepts at most 4 decimals and a positive amount", () => {
    expect(isValidUnitPrice("0.0450")).toBe(true);
    expect(isValidUnitPrice("12")).toBe(true);
    expect(isValidUnitPrice(" 0.1234 ")).toBe(true);
    expect(isValidUnitPrice("0.12345")).toBe(false);
    expect(isValidUnitPrice("0")).toBe(false);
    expect(isValidUnitPrice("0.0000")).toBe(false);
    expect(isValidUnitPrice("-1")).toBe(false);
    expect(isValidUnitPrice("1e3")).toBe(false);
  });

  it("refuses a fifth decimal, then sets the default price for every served country (scope 1)", async () => {
    const { posts, onClose } = renderForm();
    const input = await screen.findByTestId("price-form-unit-price");
    await submit();
    expect(await screen.findByText("请输入单价")).toBeInTheDocument();

    await userEvent.type(input, "0.12345");
    expect(await screen.findByText("单价必须大于 0，最多 4 位小数")).toBeInTheDocument();
    await submit();
    expect(posts()).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, "0.1234");
    await submit();
    await waitFor(() => expect(posts()).toHaveLength(1));
    const [req] = posts();
    expect(req?.url.pathname).toBe("/price/default/set");
    expect(req?.body).toEqual({ productId: 3, action: 1, countryScope: 1, countryCodes: [], unitPrice: "0.1234" });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("sets a screening price alone (no unit price needed), or both at once", async () => {
    const { posts } = renderForm();
    await userEvent.type(await screen.findByTestId("price-form-screening-price"), "0.002");
    await submit();
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({
      productId: 3,
      action: 1,
      countryScope: 1,
      countryCodes: [],
      screeningPrice: "0.002",
    });
  });

  it("offers template category prices on a WS product only, and sends one alone", async () => {
    const { posts } = renderForm({ product: { ...product, code: 2000, name: "WhatsApp" } });
    expect(await screen.findByText("营销模板单价（CNY）")).toBeInTheDocument();
    expect(screen.getByText("验证码类（AUTHENTICATION）模板消息的价格；不填按消息单价")).toBeInTheDocument();
    await userEvent.type(screen.getByTestId("price-form-marketingPrice"), "0.05");
    await userEvent.type(screen.getByTestId("price-form-authenticationPrice"), "0.00001");
    expect(await screen.findByText("单价必须大于 0，最多 4 位小数")).toBeInTheDocument();
    await submit();
    expect(posts()).toHaveLength(0);
    await userEvent.clear(screen.getByTestId("price-form-authenticationPrice"));
    await submit();
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({
      productId: 3,
      action: 1,
      countryScope: 1,
      countryCodes: [],
      marketingPrice: "0.05",
    });
  });

  it("shows no category prices on an SMS product", async () => {
    renderForm();
    await screen.findByTestId("price-form-unit-price");
    expect(screen.queryByTestId("price-form-marketingPrice")).not.toBeInTheDocument();
  });

  it("needs countries for scopes 2 and 3 and sends the chosen ones", async () => {
    const { posts } = renderForm({ user: { id: 9, label: "customer" } });
    await userEvent.click(await screen.findByLabelText("仅所列国家"));
    await userEvent.type(screen.getByTestId("price-form-unit-price"), "0.05");
    await submit();
    expect(await screen.findByText("请至少选择一个国家")).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    // Only the countries the product serves are offered (it serves all but CN).
    const countrySelect = within(screen.getByTestId("price-form-countries")).getByRole("combobox");
    await userEvent.click(countrySelect);
    await userEvent.type(countrySelect, "United K");
    await userEvent.click(await screen.findByText("英国 (GB +44)"));
    await userEvent.click(countrySelect);
    await userEvent.type(countrySelect, "China");
    expect(screen.queryByText("中国 (CN +86)")).not.toBeInTheDocument();

    await userEvent.click(screen.getByLabelText("服务国家中除所列国家外"));
    await submit();
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.url.pathname).toBe("/price/customer/set");
    expect(posts()[0]?.body).toEqual({
      productId: 3,
      userId: 9,
      action: 1,
      countryScope: 3,
      countryCodes: ["GB"],
      unitPrice: "0.05",
    });
  });

  it("clears a customer's prices without a unit price", async () => {
    const { posts } = renderForm(
      { user: { id: 9, label: "customer" }, initial: { countryScope: 2, countryCodes: ["US"] } },
      envelope({ action: 2, countries: 1 }),
    );
    await userEvent.click(await screen.findByLabelText("清除价格"));
    expect(screen.queryByTestId("price-form-unit-price")).not.toBeInTheDocument();
    expect(screen.getByText("清除后所选国家回落到默认价格。")).toBeInTheDocument();
    await submit();
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({ productId: 3, userId: 9, action: 2, countryScope: 2, countryCodes: ["US"] });
  });

  it("shows the server's refusal (an agent's cost floor) inside the form and stays open", async () => {
    const { onClose } = renderForm(
      { user: { id: 9, label: "customer" } },
      envelope(null, 1, "价格 0.0299（US）低于您的成本价 0.0300"),
    );
    await userEvent.type(await screen.findByTestId("price-form-unit-price"), "0.0299");
    await submit();
    expect(await screen.findByTestId("price-form-error")).toHaveTextContent("价格 0.0299（US）低于您的成本价 0.0300");
    expect(onClose).not.toHaveBeenCalled();
  });
});
