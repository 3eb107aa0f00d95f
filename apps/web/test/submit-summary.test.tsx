// The pre-submit check's summary: which numbers were not taken and why (the API's sample, translated), country
// names in the reader's language instead of ISO codes, and an authentication row that says what its value says.
import { RejectReason, type SubmitPreResult } from "@switchboard/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SubmitSummary } from "../src/features/batch-submit/components/SubmitSummary";
import { countryName } from "../src/lib/country-name";
import { storage } from "../src/lib/storage";
import { mockFetch, renderRoutes } from "./helpers";

function result(o: Partial<SubmitPreResult> = {}): SubmitPreResult {
  return {
    total: 4,
    valid: 2,
    invalid: 1,
    duplicate: 1,
    rejected: [
      { raw: "12ab", reason: RejectReason.INVALID },
      { raw: "+447911123456", reason: RejectReason.DUPLICATE },
    ],
    notServed: 0,
    windowClosed: 0,
    countries: [
      {
        countryCode: "GG",
        count: 1,
        served: true,
        reason: null,
        unitPrice: "0.0400",
        fallbackPrice: null,
        cost: "0.0400",
      },
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
    totalCost: "0.0900",
    balance: "100.0000",
    sufficient: true,
    authenticationAllowed: true,
    authenticationReason: null,
    reviewRequired: false,
    ...o,
  };
}

function show(r: SubmitPreResult) {
  mockFetch({});
  return renderRoutes([{ path: "/", element: <SubmitSummary result={r} /> }], "/");
}

describe("country names", () => {
  it("names a country in the reader's language, and keeps what is no country code", () => {
    expect(countryName("GG", "en")).toBe("Guernsey");
    expect(countryName("CN", "zh")).toBe("中国");
    expect(countryName("gb", "en")).toBe("United Kingdom");
    expect(countryName("*", "en")).toBe("*");
    expect(countryName("ZZZ", "en")).toBe("ZZZ");
  });
});

describe("pre-submit summary", () => {
  it("lists the numbers not taken with their reason, and countries by name (English)", async () => {
    storage.setLang("en");
    show(result());
    const rejected = await screen.findByTestId("summary-rejected");
    expect(rejected).toHaveTextContent("Numbers not taken");
    const rows = within(rejected).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      "12abNot a valid phone number",
      "+447911123456Duplicate of an earlier number",
    ]);
    // all of them are shown: no "first n of m"
    expect(within(rejected).queryByTestId("summary-rejected-count")).toBeNull();
    expect(screen.getAllByTestId("summary-country").map((c) => c.textContent)).toEqual(["Guernsey (GG)", "China (CN)"]);
  });

  it("says when it shows only the first of the numbers not taken (Chinese)", async () => {
    storage.setLang("zh");
    const many = Array.from({ length: 50 }, (_, i) => ({ raw: `bad${i}`, reason: RejectReason.INVALID }));
    show(result({ invalid: 1_200, duplicate: 34, rejected: many }));
    expect(await screen.findByTestId("summary-rejected-count")).toHaveTextContent("显示前 50 个，共 1,234 个");
    expect(screen.getAllByTestId("rejected-reason")[0]).toHaveTextContent("号码格式无效");
    expect(screen.getAllByTestId("summary-country")[0]).toHaveTextContent("根西岛（GG）");
  });

  it("shows the SMS fallback's price and how RCS with fallback is charged, only when there is one", async () => {
    storage.setLang("en");
    show(
      result({
        countries: [
          {
            countryCode: "CN",
            count: 7,
            served: true,
            reason: null,
            unitPrice: "0.0600",
            fallbackPrice: "0.0350",
            cost: "0.4200",
          },
        ],
      }),
    );
    expect(await screen.findByTestId("summary-fallback-note")).toHaveTextContent(/higher of the RCS and SMS fallback/);
    expect(screen.getAllByText("SMS fallback price").length).toBeGreaterThan(0);
    expect(screen.getAllByText("0.035").length).toBeGreaterThan(0);
  });

  it("has no fallback column without a fallback", async () => {
    storage.setLang("en");
    show(result());
    await screen.findByTestId("summary-rejected");
    expect(screen.queryByTestId("summary-fallback-note")).toBeNull();
    expect(screen.queryByText("SMS fallback price")).toBeNull();
  });

  it("a personalised file: its variables, the largest and total units once filled, and the rows missing a value", async () => {
    storage.setLang("en");
    show(
      result({
        variables: ["Name", "Code"],
        segmentsMax: 2,
        segmentsTotal: 12_345,
        unfilled: 1,
        rejected: [{ raw: "+12025550181", reason: RejectReason.MISSING_VARIABLE }],
        invalid: 0,
        duplicate: 0,
      }),
    );
    expect(await screen.findByTestId("summary-variables")).toHaveTextContent("{{Name}}{{Code}}");
    expect(screen.getByTestId("summary-segments-filled")).toHaveTextContent("2 / 12,345");
    expect(screen.getByTestId("summary-unfilled")).toHaveTextContent("1");
    expect(screen.getAllByTestId("rejected-reason")[0]).toHaveTextContent("A column the content uses is empty");
  });

  it("says the same in Chinese, and shows no variables for numbers without a file", async () => {
    storage.setLang("zh");
    show(result({ variables: ["Name"], segmentsMax: 1, segmentsTotal: 2, unfilled: 0 }));
    expect(await screen.findByText("文件中的变量")).toBeTruthy();
    expect(screen.getByText("填入变量后计费条数（最大 / 合计）")).toBeTruthy();
    expect(screen.queryByTestId("summary-unfilled")).toBeNull();
    // A second summary, of numbers typed in: its units, but no variables row (the first summary's stays alone).
    show(result({ variables: [], segmentsMax: 1, segmentsTotal: 2 }));
    expect(await screen.findAllByTestId("summary-segments-filled")).toHaveLength(2);
    expect(screen.getAllByTestId("summary-variables")).toHaveLength(1);
  });

  it("shows no list when every number was taken", async () => {
    storage.setLang("en");
    show(result({ invalid: 0, duplicate: 0, rejected: [] }));
    await screen.findByTestId("task-summary");
    expect(screen.queryByTestId("summary-rejected")).toBeNull();
  });

  it("labels authentication neutrally; its value says whether it allows sending", async () => {
    storage.setLang("en");
    const view = show(result());
    const summary = await screen.findByTestId("task-summary");
    expect(within(summary).getByText("Authentication")).toBeInTheDocument();
    expect(screen.getByTestId("summary-auth")).toHaveTextContent("Authentication allows sending");
    view.unmount();

    show(result({ authenticationAllowed: false, authenticationReason: "identity not authenticated" }));
    const blocked = await screen.findByTestId("task-summary");
    expect(within(blocked).getByText("Authentication")).toBeInTheDocument();
    expect(within(blocked).queryByText("Authentication allows sending")).toBeNull();
    expect(screen.getByTestId("summary-auth")).toHaveTextContent("identity not authenticated");
  });
});
