import type { BatchRow, OptOutRow, SubmitPreResult } from "@switchboard/contracts";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import { SubmitSummary } from "../src/features/batch-submit/components/SubmitSummary";
import { BatchCounts } from "../src/features/batches/components/BatchCounts";
import { numbersOfFile } from "../src/features/opt-outs/api";
import { messages } from "../src/features/opt-outs/messages";
import OptOutsPage from "../src/features/opt-outs/pages/OptOutsPage";
import { SystemSettingsForm } from "../src/features/settings/components/SystemSettingsForm";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { type Answer, envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };

function row(id: number, phone: string, source = 1): OptOutRow {
  return { id, userId: 7, user: "shop", phone, source, createdAt: "2026-11-20T07:00:00.000Z" };
}

function renderPage(
  answers: Record<string, Answer | ((req: RecordedRequest) => Answer)>,
  as: { key: string; path: string; type: UserType; at?: string } = {
    key: "app.optOuts",
    path: "/app/opt-outs",
    type: UserType.USER,
  },
) {
  const mocked = mockFetch({ "/website/config": websiteConfig, ...answers });
  const route = flattenTree(routeTree).find((r) => r.node.key === as.key);
  if (!route) throw new Error(`no route ${as.key}`);
  const user = { id: 7, user: "shop", type: as.type, tenantId: "7", agentId: null } as unknown as UserInfo;
  const view = renderRoutes(
    [
      {
        path: as.path,
        element: (
          <SessionContext value={{ user }}>
            <CurrentRouteContext value={route}>
              <App>
                <OptOutsPage />
              </App>
            </CurrentRouteContext>
          </SessionContext>
        ),
      },
    ],
    as.at ?? as.path,
  );
  return { ...mocked, ...view };
}

const posts = (requests: RecordedRequest[], path: string) =>
  requests.filter((r) => r.method === "POST" && r.url.pathname === path);

beforeEach(() => {
  storage.setLang("en");
  storage.saveSession("tok-1", { userType: UserType.USER, tenantId: "7", agentId: "" });
});

describe("customer: Opt-outs page", () => {
  it("shows the empty state, adds a number, searches and removes it", slow, async () => {
    let list: OptOutRow[] = [];
    const { requests } = renderPage({
      "GET /opt-out/list": () => ({ body: envelope({ list, total: list.length }) }),
      "POST /opt-out/add": () => {
        list = [row(5, "+447700900123")];
        return { body: envelope(list[0]) };
      },
      "POST /opt-out/remove": (req) => {
        list = list.filter((r) => r.id !== (req.body as { id: number }).id);
        return { body: envelope({ id: 5 }) };
      },
    });
    expect(await screen.findByTestId("opt-out-empty")).toHaveTextContent("The opt-out list is empty.");

    await userEvent.type(screen.getByTestId("opt-out-phone"), "+44 7700 900123");
    await userEvent.click(screen.getByTestId("opt-out-add"));
    await waitFor(() => expect(posts(requests, "/opt-out/add")).toHaveLength(1));
    expect(posts(requests, "/opt-out/add")[0]?.body).toEqual({ phone: "+44 7700 900123" });
    expect(await screen.findByText("Added to the opt-out list: +447700900123")).toBeInTheDocument();
    const table = screen.getByTestId("opt-out-table");
    await waitFor(() => expect(within(table).getByText("+447700900123")).toBeInTheDocument());
    expect(within(table).getByText("Added by hand")).toBeInTheDocument();

    const search = within(screen.getByTestId("opt-out-search")).getByRole("searchbox");
    await userEvent.type(search, "7700{Enter}");
    await waitFor(() =>
      expect(
        requests.some((r) => r.url.pathname === "/opt-out/list" && r.url.searchParams.get("keyword") === "7700"),
      ).toBe(true),
    );

    await userEvent.click(screen.getByTestId("opt-out-remove-5"));
    await userEvent.click(await screen.findByRole("button", { name: "OK" }));
    await waitFor(() => expect(posts(requests, "/opt-out/remove")[0]?.body).toEqual({ id: 5 }));
    expect(await screen.findByTestId("opt-out-empty")).toBeInTheDocument();
  });

  it("imports the numbers of a CSV file and says what was added", slow, async () => {
    const { requests, container } = renderPage({
      "GET /opt-out/list": { body: envelope({ list: [row(1, "+12025550123", 2)], total: 1 }) },
      "POST /opt-out/import": { body: envelope({ total: 3, added: 1, existing: 1, invalid: 1 }) },
    });
    expect(await screen.findByText("Imported")).toBeInTheDocument();
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    const file = new File(["phone\n+12025550123\n+447700900123,x\n12ab\n"], "stop.csv", { type: "text/csv" });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(posts(requests, "/opt-out/import")).toHaveLength(1));
    expect(posts(requests, "/opt-out/import")[0]?.body).toEqual({
      numbers: ["+12025550123", "+447700900123", "12ab"],
    });
    expect(await screen.findByText("Imported: 1 added, 1 already on the list, 1 invalid")).toBeInTheDocument();
  });
});

describe("back office: a customer's opt-out list", () => {
  it("staff see whose entries they are and change a list only once a customer is chosen", slow, async () => {
    const backend = { key: "backend.customer.optOuts", path: "/backend/customer/opt-outs", type: UserType.AGENT };
    const answers = {
      "GET /opt-out/list": { body: envelope({ list: [row(3, "+12025550123")], total: 1 }) },
      "GET /user/search": { body: envelope({ list: [{ id: 9, user: "shop9", nickname: null }], total: 1 }) },
      "POST /opt-out/add": { body: envelope(row(4, "+447700900123")) },
    };
    const first = renderPage(answers, backend);
    const table = await screen.findByTestId("opt-out-table");
    await waitFor(() => expect(within(table).getByText("shop")).toBeInTheDocument());
    expect(screen.getByTestId("opt-out-add")).toBeDisabled();
    first.unmount();

    const { requests } = renderPage(answers, { ...backend, at: "/backend/customer/opt-outs?userId=9" });
    await waitFor(() => expect(screen.getByTestId("opt-out-add")).toBeEnabled());
    expect(requests.find((r) => r.url.pathname === "/opt-out/list")?.url.searchParams.get("userId")).toBe("9");
    await userEvent.type(screen.getByTestId("opt-out-phone"), "+447700900123");
    await userEvent.click(screen.getByTestId("opt-out-add"));
    await waitFor(() =>
      expect(posts(requests, "/opt-out/add")[0]?.body).toEqual({ phone: "+447700900123", userId: 9 }),
    );
  });
});

describe("opt-out helpers and texts", () => {
  it("reads every cell with a digit of a CSV or TXT file", () => {
    expect(numbersOfFile('\uFEFFphone\r\n"+1 202 555 0123";x\n\n447700900123\t99\n')).toEqual([
      "+1 202 555 0123",
      "447700900123",
      "99",
    ]);
  });

  it("has every text in both languages, the Chinese with full-width punctuation", () => {
    const { zh, en } = messages.texts;
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const text of Object.values(zh)) expect(text).not.toMatch(/[,:;?!](?!\d)|\((?![A-Z])/);
  });
});

describe("opted-out numbers in batch screens", () => {
  const counts = {
    totalCount: 1_500,
    validCount: 1_200,
    invalidCount: 0,
    duplicateCount: 0,
    notServedCount: 0,
    sentCount: 0,
    successCount: 0,
    failedCount: 0,
    deliveredCount: 0,
    undeliveredCount: 0,
    readCount: 0,
    fallbackCount: 0,
    cost: "12.0000",
    refunded: "0.0000",
    productCode: 3000,
  } satisfies Partial<BatchRow>;

  it("the batch counts show opted-out numbers when there are any", () => {
    mockFetch({});
    renderRoutes([{ path: "/", element: <BatchCounts batch={{ ...counts, optOutCount: 1_300 }} /> }], "/");
    expect(screen.getByTestId("count-opt-out")).toHaveTextContent("Opted out");
    expect(screen.getByTestId("count-opt-out")).toHaveTextContent("1,300");
  });

  it("the batch counts leave the row out without any", () => {
    mockFetch({});
    renderRoutes([{ path: "/", element: <BatchCounts batch={{ ...counts, optOutCount: 0 }} /> }], "/");
    expect(screen.getByTestId("count-valid")).toBeInTheDocument();
    expect(screen.queryByTestId("count-opt-out")).toBeNull();
  });

  it("the pre-submit summary shows how many are opted out", () => {
    const result = {
      total: 3_000,
      valid: 1_000,
      invalid: 0,
      duplicate: 0,
      rejected: [],
      notServed: 0,
      windowClosed: 0,
      optOut: 2_000,
      countries: [],
      segments: 1,
      encoding: "gsm7",
      totalCost: "10.0000",
      balance: "100.0000",
      sufficient: true,
      authenticationAllowed: true,
      authenticationReason: null,
      reviewRequired: false,
    } satisfies SubmitPreResult;
    mockFetch({});
    renderRoutes([{ path: "/", element: <SubmitSummary result={result} /> }], "/");
    expect(screen.getByTestId("summary-opt-out")).toHaveTextContent("2,000");
    expect(screen.getByText("Opted out (not sent, not charged)")).toBeInTheDocument();
  });
});

describe("admin: opt-out keywords in the system settings", () => {
  it("shows the tenant's keywords and saves a new one with the rest of the settings", slow, async () => {
    const saved = {
      tenantId: 1,
      reviewMode: 1,
      reviewThreshold: 1000,
      sensitiveWords: [],
      registrationOpen: true,
      internationalMode: true,
      domesticCountry: "CN",
      optOutKeywords: ["STOP", "TD"],
      updatedAt: null,
    };
    const { requests } = mockFetch({
      "/website/config": websiteConfig,
      "/country/list": { body: envelope({ list: [], total: 0 }) },
      "GET /setting/system": { body: envelope(saved) },
      "POST /setting/system": (req) => ({ body: envelope({ ...saved, ...(req.body as object) }) }),
    });
    renderRoutes(
      [
        {
          path: "/",
          element: (
            <App>
              <SystemSettingsForm tenantId={undefined} />
            </App>
          ),
        },
      ],
      "/",
    );
    const field = await screen.findByTestId("opt-out-keywords");
    expect(within(field).getByText("TD")).toBeInTheDocument();
    await userEvent.type(within(field).getByRole("combobox"), " halt {Enter}");
    await userEvent.click(screen.getByTestId("system-save"));
    await waitFor(() => expect(posts(requests, "/setting/system")).toHaveLength(1));
    expect(posts(requests, "/setting/system")[0]?.body).toMatchObject({ optOutKeywords: ["STOP", "TD", "halt"] });
  });
});
