import { useQuery } from "@tanstack/react-query";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import { ChooseTenant, useTenantScope } from "../src/features/settings/components/TenantScope";
import { TenantSwitcher } from "../src/features/tenant-switcher/TenantSwitcher";
import { api } from "../src/lib/api";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };

const tenants = [
  {
    id: 1,
    code: "demo",
    name: "Demo Platform",
    status: 1,
    currency: "CNY",
    userCounts: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  },
  {
    id: 2,
    code: "acme",
    name: "Acme",
    status: 1,
    currency: "USD",
    userCounts: null,
    createdAt: "2026-01-02T00:00:00.000Z",
  },
];

function userOf(type: UserType): UserInfo {
  return { id: 1, user: "boss", type, tenantId: null, agentId: null, balance: "0", authStatus: 1, nickname: null };
}

/** A page of the back office: a tenant-dependent list, and the settings pages' tenant scope. */
function Page() {
  const scope = useTenantScope();
  const customers = useQuery({
    queryKey: ["customers", "list"],
    queryFn: ({ signal }) => api.getList<{ id: number }>("/user/list", { signal }),
  });
  return (
    <div>
      <span data-testid="customer-count">{customers.data ? customers.data.list.length : "loading"}</span>
      {scope.missing ? <ChooseTenant /> : <span data-testid="scope-tenant">{String(scope.tenantId)}</span>}
    </div>
  );
}

function renderSwitcher(type: UserType, answers: Parameters<typeof mockFetch>[0] = {}) {
  const mocked = mockFetch({
    "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
    "/user/tenant": { body: envelope({ list: tenants, total: tenants.length }) },
    // Two customers in tenant 1, one in tenant 2, three over all tenants.
    "/user/list": (req) => {
      const n = { "1": 2, "2": 1 }[req.headers.get("tenant-id") ?? ""] ?? 3;
      return { body: envelope({ list: Array.from({ length: n }, (_, i) => ({ id: i + 1 })), total: n }) };
    },
    ...answers,
  });
  storage.saveSession("tok", { userType: type, tenantId: type === UserType.SUPER_ADMIN ? null : "1" });
  const view = renderRoutes(
    [
      {
        path: "/backend/customer/list",
        element: (
          <SessionContext value={{ user: userOf(type) }}>
            <TenantSwitcher />
            <Page />
          </SessionContext>
        ),
      },
    ],
    "/backend/customer/list",
  );
  return { ...mocked, ...view };
}

const listCalls = (requests: RecordedRequest[]) => requests.filter((r) => r.url.pathname === "/user/list");

async function choose(option: string) {
  await userEvent.click(within(screen.getByTestId("tenant-switcher")).getByRole("combobox"));
  await userEvent.click(await screen.findByText(option, { selector: ".ant-select-item-option-content" }));
}

describe("tenant switcher", () => {
  it("shows nothing to admins, whose calls keep their own tenant", slow, async () => {
    const { requests } = renderSwitcher(UserType.ADMIN);
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("2"));
    expect(screen.queryByTestId("tenant-switcher")).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.pathname === "/user/tenant")).toBe(false);
    expect(screen.queryByTestId("settings-choose-tenant")).not.toBeInTheDocument();
  });

  it("starts on 'all tenants': no tenant id is sent and the settings pages ask for a tenant", slow, async () => {
    const { requests } = renderSwitcher(UserType.SUPER_ADMIN);
    const switcher = await screen.findByTestId("tenant-switcher");
    await waitFor(() => expect(within(switcher).getByText("全部平台")).toBeInTheDocument());
    expect(screen.getByTestId("customer-count")).toHaveTextContent("3");
    expect(listCalls(requests)[0]?.headers.has("tenant-id")).toBe(false);
    expect(screen.getByTestId("settings-choose-tenant")).toHaveTextContent("请先在顶部栏选择要管理的平台");
  });

  it("lists every tenant; choosing one stores it and reloads the page for it", slow, async () => {
    const { requests } = renderSwitcher(UserType.SUPER_ADMIN);
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("3"));
    await userEvent.click(within(screen.getByTestId("tenant-switcher")).getByRole("combobox"));
    for (const label of ["全部平台", "Demo Platform (demo)", "Acme (acme)"]) {
      expect(await screen.findByText(label, { selector: ".ant-select-item-option-content" })).toBeInTheDocument();
    }
    await userEvent.click(screen.getByText("Demo Platform (demo)", { selector: ".ant-select-item-option-content" }));

    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("2"));
    expect(storage.getWorkingTenantId()).toBe("1");
    expect(listCalls(requests).at(-1)?.headers.get("tenant-id")).toBe("1");
    expect(screen.getByTestId("scope-tenant")).toHaveTextContent("1");
    expect(within(screen.getByTestId("tenant-switcher")).getByText("Demo Platform (demo)")).toBeInTheDocument();

    await choose("Acme (acme)");
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("1"));
    expect(listCalls(requests).at(-1)?.headers.get("tenant-id")).toBe("2");
    expect(screen.getByTestId("scope-tenant")).toHaveTextContent("2");
    // The tenant list does not depend on the working tenant: it is not loaded again.
    expect(requests.filter((r) => r.url.pathname === "/user/tenant")).toHaveLength(1);
  });

  it("never shows the previous tenant's answer while the new one loads", slow, async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    renderSwitcher(UserType.SUPER_ADMIN);
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("3"));
    const original = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      await gate;
      return original(...args);
    }) as typeof fetch;
    await choose("Demo Platform (demo)");
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("loading"));
    release();
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("2"));
  });

  it("goes back to all tenants", slow, async () => {
    storage.setWorkingTenantId(1);
    const { requests } = renderSwitcher(UserType.SUPER_ADMIN);
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("2"));
    await waitFor(() =>
      expect(within(screen.getByTestId("tenant-switcher")).getByText("Demo Platform (demo)")).toBeInTheDocument(),
    );
    await choose("全部平台");
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("3"));
    expect(storage.getWorkingTenantId()).toBeNull();
    expect(listCalls(requests).at(-1)?.headers.has("tenant-id")).toBe(false);
    expect(screen.getByTestId("settings-choose-tenant")).toBeInTheDocument();
  });

  it("drops a stored tenant that is not in the list any more", slow, async () => {
    storage.setWorkingTenantId(42);
    const { requests } = renderSwitcher(UserType.SUPER_ADMIN);
    await waitFor(() => expect(storage.getWorkingTenantId()).toBeNull());
    await waitFor(() => expect(screen.getByTestId("customer-count")).toHaveTextContent("3"));
    expect(listCalls(requests).at(-1)?.headers.has("tenant-id")).toBe(false);
    expect(within(screen.getByTestId("tenant-switcher")).getByText("全部平台")).toBeInTheDocument();
  });

  it("says so when the tenant list cannot load, and tries again when opened", slow, async () => {
    let fail = true;
    const { requests } = renderSwitcher(UserType.SUPER_ADMIN, {
      "/user/tenant": () =>
        fail ? { status: 500, body: envelope(null, 1, "boom") } : { body: envelope({ list: tenants, total: 2 }) },
    });
    const switcher = await screen.findByTestId("tenant-switcher");
    await waitFor(() => expect(within(switcher).getByText("平台列表加载失败")).toBeInTheDocument());
    fail = false;
    await userEvent.click(within(switcher).getByRole("combobox"));
    expect(await screen.findByText("Acme (acme)", { selector: ".ant-select-item-option-content" })).toBeInTheDocument();
    expect(requests.filter((r) => r.url.pathname === "/user/tenant")).toHaveLength(2);
  });
});
