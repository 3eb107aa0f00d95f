import type { NoticeRow } from "@switchboard/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it } from "vitest";
import NoticeManagePage from "../src/features/notice/pages/NoticeManagePage";
import { flattenTree } from "../src/routes/flatten";
import { CurrentRouteContext } from "../src/routes/route-context";
import { routeTree } from "../src/routes/tree";
import { envelope, mockFetch, type RecordedRequest, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };

function notice(id: number, status: 1 | 2, publishedAt: string | null): NoticeRow {
  return {
    id,
    tenantId: 1,
    title: `Notice ${id}`,
    content: "text",
    status,
    publishedAt,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-02T00:00:00.000Z",
  };
}

function renderManage(path: string, answers: Parameters<typeof mockFetch>[0]) {
  const mocked = mockFetch({
    "/website/config": { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) },
    ...answers,
  });
  const route = flattenTree(routeTree).find((r) => r.node.key === "backend.setting.notice");
  if (!route) throw new Error("no notice route");
  const view = renderRoutes(
    [
      {
        path: "/backend/setting/notice",
        element: (
          <CurrentRouteContext value={route}>
            <App>
              <NoticeManagePage />
            </App>
          </CurrentRouteContext>
        ),
      },
    ],
    path,
  );
  return { ...mocked, ...view };
}

describe("notice management", () => {
  it(
    "shows the list in the server's order (published first) and goes to page 1 after publishing a draft",
    slow,
    async () => {
      // Page 2 of the list: the last published notice, then drafts.
      const pageTwo = [notice(3, 1, "2026-01-01T08:00:00.000Z"), notice(9, 2, null), notice(8, 2, null)];
      const pageOne = [notice(9, 1, "2026-03-01T08:00:00.000Z"), notice(2, 1, "2026-02-01T08:00:00.000Z")];
      const { requests, router } = renderManage("/backend/setting/notice?page=2&pageSize=3", {
        "GET /notice/manage/list": (req: RecordedRequest) => ({
          body: envelope({ list: req.url.searchParams.get("page") === "2" ? pageTwo : pageOne, total: 6 }),
        }),
        "POST /notice/publish": { body: envelope(notice(9, 1, "2026-03-01T08:00:00.000Z")) },
      });
      const table = await screen.findByTestId("notice-table");
      await waitFor(() => expect(within(table).getAllByRole("row")).toHaveLength(4));
      expect(
        within(table)
          .getAllByRole("row")
          .slice(1)
          .map((r) => r.textContent?.slice(0, 8)),
      ).toEqual(["Notice 3", "Notice 9", "Notice 8"]);

      await userEvent.click(screen.getByTestId("notice-publish-9"));
      await waitFor(() => expect(requests.some((r) => r.url.pathname === "/notice/publish")).toBe(true));
      expect(requests.find((r) => r.url.pathname === "/notice/publish")?.body).toEqual({ id: 9 });
      await waitFor(() => expect(router.state.location.search).toBe("?pageSize=3"));
      await waitFor(() => expect(within(table).getAllByRole("row")[1]).toHaveTextContent("Notice 9"));
      expect(within(table).getAllByRole("row")[1]).toHaveTextContent("已发布");
    },
  );
});
