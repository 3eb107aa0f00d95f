import type { SubmitPreResult } from "@switchboard/contracts";
import { ProductCode } from "@switchboard/contracts/codes";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { beforeEach, describe, expect, it } from "vitest";
import CustomerTaskPage from "../src/features/batches/pages/CustomerTaskPage";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { CurrentRouteContext } from "../src/routes/route-context";
import type { FlatRoute } from "../src/routes/types";
import { envelope, mockFetch, renderRoutes } from "./helpers";

// `rejected` as well, whichever version of the contract is checked out (it is being added)
const pre = {
  total: 2,
  valid: 1,
  invalid: 1,
  duplicate: 0,
  notServed: 0,
  windowClosed: 0,
  countries: [
    {
      countryCode: "CN",
      count: 1,
      served: true,
      reason: null,
      unitPrice: "0.0500",
      fallbackPrice: null,
      cost: "0.0500",
    },
  ],
  segments: 1,
  encoding: "gsm7",
  totalCost: "0.0500",
  balance: "100.0000",
  sufficient: true,
  authenticationAllowed: true,
  authenticationReason: null,
  reviewRequired: false,
  rejected: [],
} as SubmitPreResult;

const route = { node: { meta: { productCode: ProductCode.SMS } }, fullPath: "/", chain: [] } as unknown as FlatRoute;

beforeEach(() => {
  storage.setLang("en");
  storage.saveSession("tok-1", { userType: UserType.USER, tenantId: "7", agentId: "5" });
});

describe("a batch submitted from the task page", () => {
  it("is announced by one toast, the task form's, not a second one from the page", { timeout: 20_000 }, async () => {
    mockFetch({
      "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
      "/batch/list": { body: envelope({ list: [], total: 0 }) },
      "/sender-id/list": {
        body: envelope({ list: [{ id: 1, senderId: "Acme", countryCode: null, status: 2 }], total: 1 }),
      },
      "POST /user/submit/pre": { body: envelope(pre) },
      "POST /batch/submit": {
        body: envelope({
          batch: { id: "9007199254740993", cost: "0.0500" },
          numbers: [
            { input: "+8613800138000", result: "accepted", e164: "+8613800138000", countryCode: "CN" },
            { input: "+6591234567", result: "invalid", e164: null, countryCode: null },
          ],
          outcome: null,
          recipient: null,
        }),
      },
    });
    const { router } = renderRoutes(
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
      "/?new=1",
    );
    await userEvent.click(await screen.findByTestId("task-mode-multiple"));
    fireEvent.change(screen.getByTestId("task-numbers"), { target: { value: "+8613800138000\n+6591234567" } });
    fireEvent.change(screen.getByTestId("task-sms-text"), { target: { value: "Your code is 1234" } });
    await userEvent.click(within(screen.getByTestId("task-sender-id")).getByRole("combobox"));
    await userEvent.click(
      await screen.findByText("Acme · all countries", { selector: ".ant-select-item-option-content" }),
    );
    await userEvent.click(screen.getByTestId("task-check"));
    await screen.findByTestId("task-summary");
    await userEvent.click(screen.getByTestId("task-confirm"));

    expect(await screen.findByText("Task submitted: 1 numbers accepted, 1 not sent")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe(""));
    expect(document.querySelectorAll(".ant-message-notice")).toHaveLength(1);
    expect(screen.queryByText(/9007199254740993/)).not.toBeInTheDocument();
  });
});
