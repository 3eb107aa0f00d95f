import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App as AntApp } from "antd";
import { describe, expect, it } from "vitest";
import { cleanWords, SystemSettingsForm } from "../src/features/settings/components/SystemSettingsForm";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };

const saved = {
  tenantId: 1,
  reviewMode: 1,
  reviewThreshold: 1000,
  sensitiveWords: ["casino"],
  registrationOpen: true,
  internationalMode: true,
  domesticCountry: "CN",
  updatedAt: "2026-05-01T08:00:00.000Z",
};

const countries = {
  body: envelope({
    list: [
      { code: "CN", dialCode: "86", name: "中国", nameEn: "China", nameZh: "中国" },
      { code: "US", dialCode: "1", name: "美国", nameEn: "United States", nameZh: "美国" },
    ],
    total: 2,
  }),
};

function renderForm(answers: Parameters<typeof mockFetch>[0]) {
  const mocked = mockFetch({
    "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
    "/country/list": countries,
    ...answers,
  });
  const view = renderRoutes(
    [
      {
        path: "/",
        element: (
          <AntApp>
            <SystemSettingsForm tenantId={undefined} />
          </AntApp>
        ),
      },
    ],
    "/",
  );
  return { ...mocked, ...view };
}

const posts = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === "POST" && r.url.pathname === "/setting/system");

describe("cleanWords", () => {
  it("trims, drops blanks and case-insensitive repeats, keeping the first spelling", () => {
    expect(cleanWords([" Casino ", "casino", "", "  ", "赌博", "CASINO", "lottery"])).toEqual([
      "Casino",
      "赌博",
      "lottery",
    ]);
  });
});

describe("system settings form", () => {
  it("shows the saved settings in their sections; the threshold only for 'above a threshold'", slow, async () => {
    renderForm({ "GET /setting/system": { body: envelope(saved) } });
    expect(await screen.findByText("审核规则")).toBeInTheDocument();
    for (const section of ["敏感词", "注册", "号码模式"])
      expect(screen.getAllByText(section).length).toBeGreaterThan(0);
    expect(screen.getByRole("radio", { name: "每个任务都审核" })).toBeChecked();
    expect(screen.getByText("casino")).toBeInTheDocument();
    expect(screen.getByRole("switch")).toBeChecked();
    expect(screen.queryByTestId("review-threshold")).not.toBeVisible();
    await userEvent.click(screen.getByRole("radio", { name: "号码数超过阈值时审核" }));
    await waitFor(() => expect(screen.getByTestId("review-threshold")).toBeVisible());
  });

  it("saves every field, with a new sensitive word trimmed and repeats dropped", slow, async () => {
    const { requests } = renderForm({
      "GET /setting/system": { body: envelope(saved) },
      "POST /setting/system": (req) => ({ body: envelope({ ...saved, ...(req.body as object) }) }),
    });
    await screen.findByText("casino");
    await userEvent.click(screen.getByRole("radio", { name: "不审核" }));
    const words = within(screen.getByTestId("sensitive-words")).getByRole("combobox");
    await userEvent.type(words, "  jackpot {Enter}");
    await userEvent.type(words, "CASINO{Enter}");
    await userEvent.click(screen.getByRole("switch"));
    await userEvent.click(screen.getByRole("radio", { name: /国内模式/ }));
    await userEvent.click(screen.getByTestId("system-save"));
    await waitFor(() => expect(posts(requests)).toHaveLength(1));
    expect(posts(requests)[0]?.body).toEqual({
      reviewMode: 0,
      reviewThreshold: 1000,
      sensitiveWords: ["casino", "jackpot"],
      registrationOpen: false,
      internationalMode: false,
      domesticCountry: "CN",
    });
    expect(await screen.findByText("已保存")).toBeInTheDocument();
  });

  it("refuses a sensitive word that is too long without calling the server", slow, async () => {
    const { requests } = renderForm({ "GET /setting/system": { body: envelope(saved) } });
    await screen.findByText("casino");
    const words = within(screen.getByTestId("sensitive-words")).getByRole("combobox");
    await userEvent.type(words, `${"x".repeat(51)}{Enter}`);
    await userEvent.click(screen.getByTestId("system-save"));
    expect(await screen.findByText("敏感词不能超过 50 个字符")).toBeInTheDocument();
    expect(posts(requests)).toHaveLength(0);
  });

  it("shows the server's refusal and keeps the form as typed", slow, async () => {
    storage.setLang("en");
    renderForm({
      "GET /setting/system": { body: envelope(saved) },
      "POST /setting/system": { status: 400, body: envelope(null, 1, "unknown country code ZZ") },
    });
    await screen.findByText("casino");
    await userEvent.click(screen.getByRole("radio", { name: "Never" }));
    await userEvent.click(screen.getByTestId("system-save"));
    expect(await screen.findByText("unknown country code ZZ")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Never" })).toBeChecked();
  });

  it("offers a retry when the settings cannot be loaded", slow, async () => {
    let calls = 0;
    renderForm({
      "GET /setting/system": () => {
        calls += 1;
        return calls === 1 ? { status: 403, body: envelope(null, 1, "not allowed") } : { body: envelope(saved) };
      },
    });
    expect(await screen.findByText("not allowed")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("retry"));
    expect(await screen.findByText("casino")).toBeInTheDocument();
  });
});
