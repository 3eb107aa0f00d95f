import type { ChannelItem, ProductItem } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it, vi } from "vitest";
import { RouteFormModal, type RouteFormValues, routeBody } from "../src/features/channels/components/RouteFormModal";
import { type Answer, envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const at = "2025-01-01T00:00:00.000Z";
const product = (id: number, code: number, name: string): ProductItem => ({
  id,
  code,
  name,
  category: name,
  status: 1,
  countryScope: 1,
  countryCodes: [],
  defaultChannelId: null,
  defaultChannelName: null,
  createdAt: at,
  updatedAt: at,
});
const channel = (
  id: number,
  code: number,
  name: string,
  kind: string,
  extra: Partial<ChannelItem> = {},
): ChannelItem => ({
  id,
  name,
  kind,
  productCode: code,
  config: {},
  secrets: {},
  throughput: 100,
  countryScope: 1,
  countryCodes: [],
  status: 1,
  defaultFor: [],
  routeCount: 0,
  createdAt: at,
  updatedAt: at,
  ...extra,
});

const answers: Record<string, Answer | ((req: RecordedRequest) => Answer)> = {
  "/website/config": { body: envelope({ title: "Switchboard", logo: null, logoSmall: null, description: null }) },
  "/country/list": {
    body: envelope({
      list: [
        { code: "GB", dialCode: "44", name: "英国", nameEn: "United Kingdom", nameZh: "英国" },
        { code: "US", dialCode: "1", name: "美国", nameEn: "United States", nameZh: "美国" },
      ],
      total: 2,
    }),
  },
  "/product/list": {
    body: envelope({ list: [product(1, 3000, "International SMS"), product(2, 2000, "WhatsApp")], total: 2 }),
  },
  "/channel/list": {
    body: envelope({
      list: [
        channel(10, 3000, "SMSC A", "smpp"),
        channel(11, 3000, "SMSC B (US only)", "smpp", { countryScope: 2, countryCodes: ["US"] }),
        channel(12, 2000, "Cloud API", "whatsapp"),
      ],
      total: 3,
    }),
  },
  "/user/search": (req) => ({
    body: envelope({
      list: [{ id: 7, user: "customer", nickname: null, type: 3 }].filter((u) =>
        u.user.includes(req.url.searchParams.get("keyword") ?? ""),
      ),
      total: 1,
    }),
  }),
  "POST /channel/route": { body: envelope({ action: 1, routes: 1 }) },
};

function renderForm(initial?: Partial<RouteFormValues>) {
  const onClose = vi.fn();
  const { requests } = mockFetch(answers);
  renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <RouteFormModal initial={initial} onClose={onClose} />
          </App>
        ),
      },
    ],
    "/",
  );
  const posts = () => requests.filter((r) => r.method === "POST");
  return { onClose, posts, requests };
}

async function choose(testId: string, text: string, option: string) {
  const box = within(screen.getByTestId(testId)).getByRole("combobox");
  await userEvent.click(box);
  if (text) await userEvent.type(box, text);
  await userEvent.click(await screen.findByText(option, { selector: ".ant-select-item-option-content" }));
}

describe("route form", () => {
  it("builds the /channel/route bodies: '*' without countries, per-country with them, clear without a channel", () => {
    expect(routeBody({ userId: 7, productId: 1, action: 1, channelId: 10, countryCodes: [] })).toEqual({
      userId: 7,
      productId: 1,
      action: 1,
      channelId: 10,
    });
    expect(routeBody({ userId: 7, productId: 1, action: 1, channelId: 10, countryCodes: ["US"] })).toEqual({
      userId: 7,
      productId: 1,
      action: 1,
      channelId: 10,
      countryCodes: ["US"],
    });
    expect(routeBody({ userId: 7, productId: 1, action: 2, channelId: 10 })).toEqual({
      userId: 7,
      productId: 1,
      action: 2,
    });
  });

  it("requires customer, product and channel, offers only the product's channels, and sets an all-countries route", async () => {
    const { posts, requests, onClose } = renderForm();
    await userEvent.click(await screen.findByTestId("route-form-submit"));
    expect(await screen.findByText("请选择客户")).toBeInTheDocument();
    expect(screen.getByText("请选择产品")).toBeInTheDocument();
    expect(screen.getByText("请选择通道")).toBeInTheDocument();

    await choose("route-form-customer", "cust", "customer · 客户");
    await waitFor(() =>
      expect(requests.some((r) => r.url.pathname === "/user/search" && r.url.searchParams.get("type") === "3")).toBe(
        true,
      ),
    );
    await choose("route-form-product", "", "International SMS · SMS");
    const channelBox = within(screen.getByTestId("route-form-channel")).getByRole("combobox");
    await userEvent.click(channelBox);
    expect(
      await screen.findByText("SMSC A · SMPP", { selector: ".ant-select-item-option-content" }),
    ).toBeInTheDocument();
    expect(screen.queryByText("Cloud API · WhatsApp")).not.toBeInTheDocument();
    await userEvent.click(screen.getByText("SMSC B (US only) · SMPP", { selector: ".ant-select-item-option-content" }));

    // The country list offers what the chosen channel serves.
    const countryBox = within(screen.getByTestId("route-form-countries")).getByRole("combobox");
    await userEvent.click(countryBox);
    await userEvent.type(countryBox, "United");
    expect(await screen.findByText("美国 (US +1)")).toBeInTheDocument();
    expect(screen.queryByText("英国 (GB +44)")).not.toBeInTheDocument();
    await userEvent.keyboard("{Escape}");

    await userEvent.click(screen.getByTestId("route-form-submit"));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({ userId: 7, productId: 1, action: 1, channelId: 11 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("clears routes without asking for a channel", async () => {
    const { posts } = renderForm({ userId: 7, productId: 1, channelId: 10 });
    await userEvent.click(await screen.findByLabelText("清除路由"));
    expect(screen.queryByTestId("route-form-channel")).not.toBeInTheDocument();
    expect(screen.getByText("不选表示清除该客户此产品的全部路由，回落到默认通道")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("route-form-submit"));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.body).toEqual({ userId: 7, productId: 1, action: 2 });
  });

  it("shows the server's refusal in the form", async () => {
    const onClose = vi.fn();
    mockFetch({
      ...answers,
      "POST /channel/route": { body: envelope(null, 1, "通道 SMSC B 不服务这些国家：GB") },
    });
    renderRoutes(
      [
        {
          path: "/",
          element: (
            <App>
              <RouteFormModal initial={{ userId: 7, productId: 1, channelId: 11 }} onClose={onClose} />
            </App>
          ),
        },
      ],
      "/",
    );
    await userEvent.click(await screen.findByTestId("route-form-submit"));
    expect(await screen.findByTestId("route-form-error")).toHaveTextContent("通道 SMSC B 不服务这些国家：GB");
    expect(onClose).not.toHaveBeenCalled();
  });
});
