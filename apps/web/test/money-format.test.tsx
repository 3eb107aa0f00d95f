import type { SubmitPreResult } from "@switchboard/contracts";
import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import { SubmitSummary } from "../src/features/batch-submit/components/SubmitSummary";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const user: UserInfo = {
  id: 3,
  user: "acme",
  type: UserType.USER,
  tenantId: 1,
  agentId: null,
  balance: "999.9120",
  currency: "CNY",
  authStatus: 1,
  nickname: null,
};

// `rejected` as well, whichever version of the contract is checked out (it is being added)
const pre = {
  total: 1416,
  valid: 1416,
  invalid: 0,
  duplicate: 0,
  notServed: 0,
  windowClosed: 0,
  countries: [
    {
      countryCode: "CN",
      count: 1416,
      served: true,
      reason: null,
      unitPrice: "0.0118",
      fallbackPrice: null,
      cost: "16.7088",
    },
  ],
  segments: 1,
  encoding: "gsm7",
  totalCost: "16.6920",
  balance: "999.9120",
  sufficient: true,
  authenticationAllowed: true,
  authenticationReason: null,
  reviewRequired: false,
  rejected: [],
} as SubmitPreResult;

beforeEach(() => {
  storage.setLang("en");
  mockFetch({
    "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
  });
});

describe("money on a screen", () => {
  it("shows amounts with 2 decimals and the tenant's currency, unit prices with their 4 significant decimals", async () => {
    renderRoutes(
      [
        {
          path: "/",
          element: (
            <SessionContext value={{ user }}>
              <SubmitSummary result={pre} />
            </SessionContext>
          ),
        },
      ],
      "/",
    );
    const summary = await screen.findByTestId("task-summary");
    expect(within(summary).getByText("16.69 CNY")).toBeInTheDocument();
    expect(summary).toHaveTextContent("999.91 CNY");
    expect(within(summary).getByText("0.0118")).toBeInTheDocument();
    expect(within(summary).getByText("16.71")).toBeInTheDocument();
    expect(summary.textContent).not.toMatch(/\d\.\d{3}(?!\d)|999\.912/);
  });
});
