import type { ChannelItem } from "@switchboard/contracts";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it, vi } from "vitest";
import { ChannelFormModal } from "../src/features/channels/components/ChannelFormModal";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const smpp: ChannelItem = {
  id: 4,
  name: "SMSC",
  kind: "smpp",
  productCode: 3000,
  config: {
    host: "smsc.example.com",
    port: 2775,
    systemId: "acme",
    systemType: "",
    sourceTon: 5,
    sourceNpi: 0,
    destTon: 1,
    destNpi: 1,
    bindMode: "transceiver",
    windowSize: 20,
    enquireLinkIntervalMs: 30000,
  },
  secrets: { password: { set: true, last4: null } },
  throughput: 200,
  countryScope: 1,
  countryCodes: [],
  status: 1,
  defaultFor: [],
  routeCount: 0,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

function renderForm(item?: ChannelItem) {
  const onClose = vi.fn();
  const { requests } = mockFetch({
    "/website/config": { body: envelope({ title: "Switchboard", logo: null, logoSmall: null, description: null }) },
    "/country/list": { body: envelope({ list: [], total: 0 }) },
    "POST /channel/create": { body: envelope(smpp) },
    "POST /channel/edit": { body: envelope(smpp) },
  });
  renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <ChannelFormModal item={item} onClose={onClose} />
          </App>
        ),
      },
    ],
    "/",
  );
  return { onClose, posts: () => requests.filter((r) => r.method === "POST") };
}

describe("channel form", () => {
  it("creates an SMPP channel with the schema's defaults and requires its password", async () => {
    const { posts, onClose } = renderForm();
    await userEvent.type(await screen.findByTestId("channel-form-name"), "New SMSC");
    await userEvent.type(screen.getByTestId("channel-cfg-host"), "127.0.0.1");
    await userEvent.type(screen.getByTestId("channel-cfg-systemId"), "e2e");
    await userEvent.click(screen.getByTestId("channel-form-submit"));
    expect(await screen.findByText("请填写密码")).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    await userEvent.type(screen.getByTestId("channel-cfg-password"), " pa ss ");
    await userEvent.click(screen.getByTestId("channel-form-submit"));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]?.url.pathname).toBe("/channel/create");
    expect(posts()[0]?.body).toEqual({
      kind: "smpp",
      name: "New SMSC",
      throughput: 100,
      countryScope: 1,
      countryCodes: [],
      config: {
        host: "127.0.0.1",
        port: 2775,
        systemId: "e2e",
        password: " pa ss ",
        bindMode: "transceiver",
        sourceTon: 1,
        sourceNpi: 1,
        destTon: 1,
        destNpi: 1,
        windowSize: 50,
        enquireLinkIntervalMs: 30000,
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows a WhatsApp channel's own fields when the kind changes", async () => {
    renderForm();
    await userEvent.click(await screen.findByRole("combobox", { name: "接口类型" }));
    await userEvent.click(await screen.findByText("WhatsApp", { selector: ".ant-select-item-option-content" }));
    expect(await screen.findByTestId("channel-cfg-phoneNumberId")).toBeInTheDocument();
    expect(screen.getByTestId("channel-cfg-baseUrl")).toHaveValue("https://graph.facebook.com");
    expect(screen.getByTestId("channel-cfg-accessToken")).toBeInTheDocument();
    expect(screen.queryByTestId("channel-cfg-host")).not.toBeInTheDocument();
    expect(screen.getByText("承载产品：WS")).toBeInTheDocument();
  });

  it("edits without sending an untouched secret, which says 'unchanged'", async () => {
    const { posts } = renderForm(smpp);
    const password = await screen.findByTestId("channel-cfg-password");
    expect(password).toHaveValue("");
    expect(password).toHaveAttribute("placeholder", "不修改（已设置）");
    expect(screen.getByTestId("channel-cfg-host")).toHaveValue("smsc.example.com");
    await userEvent.clear(screen.getByTestId("channel-cfg-host"));
    await userEvent.type(screen.getByTestId("channel-cfg-host"), "10.0.0.2");
    await userEvent.click(screen.getByTestId("channel-form-submit"));
    await waitFor(() => expect(posts()).toHaveLength(1));
    const body = posts()[0]?.body as { id: number; kind: string; config: Record<string, unknown> };
    expect(posts()[0]?.url.pathname).toBe("/channel/edit");
    expect(body.id).toBe(4);
    expect(body.kind).toBe("smpp");
    expect(body.config).toMatchObject({
      host: "10.0.0.2",
      systemId: "acme",
      sourceTon: 5,
      sourceNpi: 0,
      windowSize: 20,
    });
    expect(body.config).not.toHaveProperty("password");
  });
});
