// The remittance page: the declaration form checks what the API checks before sending, sends multipart with the
// proof, and the list shows the customer's transfers with their state and a total; the status filter is in the URL.
import type { RemittanceRow } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it } from "vitest";
import { amountProblem } from "../src/features/remit/amount";
import RemitPage from "../src/features/remit/pages/RemitPage";
import { storage } from "../src/lib/storage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch as mockFetchOnly, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 20_000 };
const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };
const mockFetch = (answers: Parameters<typeof mockFetchOnly>[0]) =>
  mockFetchOnly({ "/website/config": websiteConfig, ...answers });

function renderRemit(path = "/app/dashboard/remit") {
  const route = flattenTree(routeTree).find((r) => r.node.key === "app.dashboard.remit")!;
  return renderRoutes(
    [
      {
        path: "/app/dashboard/remit",
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <RemitPage />
            </App>
          </CurrentRouteContext>
        ),
      },
    ],
    path,
  );
}

function row(o: Partial<RemittanceRow> = {}): RemittanceRow {
  return {
    id: 1,
    userId: 5,
    user: "customer",
    amount: "1500.0000",
    payer: "ACME LTD",
    reference: "TRX-1",
    remark: null,
    hasProof: true,
    status: 1,
    reviewer: null,
    reason: null,
    reviewedAt: null,
    createdAt: "2026-03-30T08:00:00.000Z",
    ...o,
  };
}

describe("amountProblem", () => {
  it("follows the API's rules for typed amounts", () => {
    expect(amountProblem("1500")).toBeNull();
    expect(amountProblem(" 0.01 ")).toBeNull();
    expect(amountProblem("100000000.00")).toBeNull();
    expect(amountProblem("")).toBe("required");
    expect(amountProblem("  ")).toBe("required");
    expect(amountProblem("0")).toBe("invalid");
    expect(amountProblem("0.00")).toBe("invalid");
    expect(amountProblem("-5")).toBe("invalid");
    expect(amountProblem("1.234")).toBe("invalid");
    expect(amountProblem("1e3")).toBe("invalid");
    expect(amountProblem("1,000")).toBe("invalid");
    expect(amountProblem("100000000.01")).toBe("max");
  });
});

describe("remittance page", () => {
  it("refuses a missing or malformed amount and a missing payer without sending anything", slow, async () => {
    storage.setLang("en");
    const { requests } = mockFetch({
      "/finance/remit/list": { body: envelope({ list: [], total: 0, totalAmount: "0.0000" }) },
    });
    renderRemit();
    expect(await screen.findByText("No bank transfers yet")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("remit-submit"));
    expect(await screen.findByText("Please enter the amount")).toBeInTheDocument();
    expect(screen.getByText("Please enter the payer")).toBeInTheDocument();

    await userEvent.type(screen.getByTestId("remit-amount"), "12.345");
    expect(await screen.findByText("Enter an amount greater than 0 with at most 2 decimals")).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId("remit-amount"));
    await userEvent.type(screen.getByTestId("remit-amount"), "100000000.01");
    expect(await screen.findByText("The amount must be at most 100,000,000.00")).toBeInTheDocument();

    const file = screen.getByTestId("remit-form").querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(file, new File(["x"], "notes.txt", { type: "text/plain" }), { applyAccept: false });
    expect(await screen.findByText("The proof must be a PNG, JPG or PDF file")).toBeInTheDocument();
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("declares a transfer with its proof as multipart and lists it as pending", slow, async () => {
    const created: RecordedRequest[] = [];
    let list: RemittanceRow[] = [];
    mockFetch({
      "/finance/remit/list": () => ({
        body: envelope({ list, total: list.length, totalAmount: list.length ? "1500.0000" : "0.0000" }),
      }),
      "POST /finance/remit/create": (req) => {
        created.push(req);
        list = [row()];
        return { body: envelope(row()) };
      },
    });
    renderRemit();
    await userEvent.type(await screen.findByTestId("remit-amount"), "1500");
    await userEvent.type(screen.getByTestId("remit-payer"), "ACME LTD");
    await userEvent.type(screen.getByTestId("remit-reference"), "TRX-1");
    const file = screen.getByTestId("remit-form").querySelector<HTMLInputElement>('input[type="file"]')!;
    await userEvent.upload(file, new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], "receipt.pdf"));
    await userEvent.click(screen.getByTestId("remit-submit"));

    await waitFor(() => expect(created).toHaveLength(1));
    const body = created[0]!.body as FormData;
    expect(body.get("amount")).toBe("1500");
    expect(body.get("payer")).toBe("ACME LTD");
    expect(body.get("reference")).toBe("TRX-1");
    expect(body.has("remark")).toBe(false);
    expect((body.get("proof") as File).name).toBe("receipt.pdf");

    const table = await screen.findByTestId("remit-list");
    expect(await within(table).findByTestId("remit-row-status")).toHaveTextContent("待确认");
    expect(within(table).getAllByText("1,500.00")).toHaveLength(2); // the row and the total
    expect(screen.getByTestId("remit-total")).toHaveTextContent("1,500.00");
    expect(screen.getByTestId("remit-amount")).toHaveValue("");
  });

  it("reads the status filter from the URL and shows a rejection's reason", slow, async () => {
    const { requests } = mockFetch({
      "/finance/remit/list": {
        body: envelope({ list: [row({ status: 3, reason: "no such transfer" })], total: 1, totalAmount: "1500.0000" }),
      },
    });
    renderRemit("/app/dashboard/remit?status=3&page=2");
    expect(await screen.findByText("驳回原因: no such transfer")).toBeInTheDocument();
    const call = requests.find((r) => r.url.pathname === "/finance/remit/list")!;
    expect(call.url.searchParams.get("status")).toBe("3");
    expect(call.url.searchParams.get("page")).toBe("2");
  });
});
