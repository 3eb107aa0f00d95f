// The developer page's API keys section: lists the keys (name, prefix, scopes, expiry, last used, state), creates
// one with name and scopes and shows the key once (with copy), revokes one only after a confirmation.
import type { ApiKeyRow } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it } from "vitest";
import { ApiKeysSection } from "../src/features/developer/components/ApiKeysSection";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };

function render(lang: "en" | "zh" = "en") {
  storage.setLang(lang);
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <ApiKeysSection />
          </App>
        ),
      },
    ],
    "/",
  );
}

const key = (o: Partial<ApiKeyRow>): ApiKeyRow => ({
  id: 1,
  name: "billing",
  prefix: "sk_Bill1",
  scopes: ["send", "read"],
  expiresAt: null,
  lastUsedAt: null,
  createdAt: "2026-01-02T03:04:05.000Z",
  revokedAt: null,
  ...o,
});

describe("API keys section", () => {
  it("lists keys with prefix, scopes, expiry, last use and state", slow, async () => {
    mockFetch({
      "GET /user/api-keys": {
        body: envelope({
          list: [
            key({
              id: 2,
              name: "reporting",
              prefix: "sk_Repo2",
              scopes: ["read"],
              lastUsedAt: "2026-01-03T00:00:00.000Z",
            }),
            key({ id: 1, revokedAt: "2026-01-04T00:00:00.000Z" }),
          ],
          total: 2,
        }),
      },
    });
    render();
    const table = await screen.findByTestId("api-keys");
    const rows = await within(table).findAllByRole("row");
    expect(rows).toHaveLength(3); // header + 2
    expect(rows[1]).toHaveTextContent("reporting");
    expect(rows[1]).toHaveTextContent("sk_Repo2…");
    expect(rows[1]).toHaveTextContent("Read");
    expect(rows[1]).toHaveTextContent("Never");
    expect(rows[1]).toHaveTextContent("Active");
    expect(within(rows[1] as HTMLElement).getByTestId("api-key-revoke-2")).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent("Never used");
    expect(rows[2]).toHaveTextContent("Revoked");
    expect(within(rows[2] as HTMLElement).queryByTestId("api-key-revoke-1")).toBeNull();
  });

  it("creates a key with a name and scopes, shows it once with copy, and forgets it on close", slow, async () => {
    const secretKey = "sk_TheNewNamedKeyValue1234567890abcdefghijklmn";
    const list: ApiKeyRow[] = [];
    const { requests } = mockFetch({
      "GET /user/api-keys": () => ({ body: envelope({ list, total: list.length }) }),
      "POST /user/api-keys": (req) => {
        const body = req.body as { name: string; scopes: ApiKeyRow["scopes"] };
        const row = key({ id: 7, name: body.name, scopes: body.scopes, prefix: secretKey.slice(0, 8) });
        list.unshift(row);
        return { body: envelope({ ...row, secretKey }) };
      },
    });
    render();
    expect(await screen.findByText("No keys yet")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("api-key-create"));
    const form = await screen.findByRole("dialog", { name: "Create an API key" });
    // A name is required.
    await userEvent.click(within(form).getByTestId("api-key-create-ok"));
    expect(await within(form).findByText("Enter a name (at most 64 characters)")).toBeInTheDocument();
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(0);

    await userEvent.type(within(form).getByTestId("api-key-name"), "order system");
    await userEvent.click(within(form).getByRole("checkbox", { name: "Send" })); // off: read only
    await userEvent.click(within(form).getByRole("checkbox", { name: "Manage" }));
    await userEvent.click(within(form).getByTestId("api-key-create-ok"));

    const shown = await screen.findByRole("dialog", { name: "Your new secret key" });
    expect(within(shown).getByTestId("secret-key-value")).toHaveTextContent(secretKey);
    expect(within(shown).getByTestId("secret-key-warning")).toHaveTextContent("This key is shown only once");
    const posted = requests.filter((r) => r.method === "POST" && r.url.pathname === "/user/api-keys");
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual({ name: "order system", scopes: ["read", "manage"], expiresAt: null });

    await userEvent.click(screen.getByTestId("secret-key-done"));
    await waitFor(() => expect(screen.queryByTestId("secret-key-value")).toBeNull());
    expect(document.body.textContent).not.toContain(secretKey);
    const table = screen.getByTestId("api-keys");
    expect(await within(table).findByText("order system")).toBeInTheDocument();
  });

  it("revokes a key only after the confirmation", slow, async () => {
    const list = [key({ id: 3, name: "old integration" })];
    const { requests } = mockFetch({
      "GET /user/api-keys": () => ({ body: envelope({ list, total: list.length }) }),
      "POST /user/api-keys/3/revoke": () => {
        list[0] = key({ id: 3, name: "old integration", revokedAt: "2026-02-01T00:00:00.000Z" });
        return { body: envelope(list[0]) };
      },
    });
    render();
    await userEvent.click(await screen.findByTestId("api-key-revoke-3"));
    const confirm = await screen.findByRole("dialog", { name: "Revoke the key “old integration”?" });
    expect(confirm).toHaveTextContent("The key stops working at once");
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(0);
    await userEvent.click(within(confirm).getByTestId("api-key-revoke-ok"));
    await waitFor(() => expect(requests.filter((r) => r.url.pathname === "/user/api-keys/3/revoke")).toHaveLength(1));
    await waitFor(() => expect(screen.queryByTestId("api-key-revoke-3")).toBeNull());
    expect(screen.getByTestId("api-keys")).toHaveTextContent("Revoked");
  });

  it("speaks Chinese too", slow, async () => {
    mockFetch({ "GET /user/api-keys": { body: envelope({ list: [key({})], total: 1 }) } });
    render("zh");
    const table = await screen.findByTestId("api-keys");
    await waitFor(() => expect(table).toHaveTextContent("有效"));
    expect(table).toHaveTextContent("发送");
    expect(table).toHaveTextContent("从未使用");
    expect(screen.getByTestId("api-key-create")).toHaveTextContent("创建密钥");
  });
});
