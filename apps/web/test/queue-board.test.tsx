// The back office's queue board button: asks the API for a one-time link and opens it in a new tab that gets no
// handle on the back office; a refusal closes the tab and says why; a blocked pop-up says so.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queueBoardUrl } from "../src/features/queue-board/api";
import { QueueBoardButton } from "../src/features/queue-board/components/QueueBoardButton";
import { config } from "../src/lib/config";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

function renderButton() {
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <App>
            <QueueBoardButton />
          </App>
        ),
      },
    ],
    "/",
  );
}

/** A stand-in for the new tab window.open returns. */
function fakeTab() {
  const tab = { opener: {} as unknown, location: { href: "" }, close: vi.fn() };
  const open = vi.spyOn(window, "open").mockReturnValue(tab as unknown as Window);
  return { tab, open };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("QueueBoardButton", () => {
  it("opens the API's one-time link in a new tab without an opener", async () => {
    storage.setLang("en");
    const { requests } = mockFetch({
      "POST /queue-board/ticket": {
        body: envelope({ path: "/admin/queues/open?ticket=abc", readOnly: true, expiresInSeconds: 60 }),
      },
    });
    const { tab, open } = fakeTab();
    renderButton();
    await userEvent.click(await screen.findByRole("button", { name: /Queue board/ }));
    await waitFor(() => expect(tab.location.href).toBe(`${config.apiBase}/admin/queues/open?ticket=abc`));
    expect(open).toHaveBeenCalledWith("", "_blank");
    expect(tab.opener).toBeNull();
    expect(requests.filter((r) => r.url.pathname === "/queue-board/ticket").map((r) => r.method)).toEqual(["POST"]);
  });

  it("closes the tab and shows the API's refusal", async () => {
    storage.setLang("en");
    mockFetch({ "POST /queue-board/ticket": { body: envelope(null, 1, "No permission") } });
    const { tab } = fakeTab();
    renderButton();
    await userEvent.click(await screen.findByRole("button", { name: /Queue board/ }));
    expect(await screen.findByText("No permission")).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe("");
  });

  it("says so when the browser blocks the tab, and asks the API for nothing", async () => {
    storage.setLang("en");
    const { requests } = mockFetch({});
    vi.spyOn(window, "open").mockReturnValue(null);
    renderButton();
    await userEvent.click(await screen.findByRole("button", { name: /Queue board/ }));
    expect(await screen.findByText(/allow pop-ups/)).toBeTruthy();
    expect(requests.filter((r) => r.url.pathname === "/queue-board/ticket")).toEqual([]);
  });

  it("builds the board's address on the API's origin", () => {
    expect(queueBoardUrl({ path: "/admin/queues/open?ticket=x" }, "https://api.example.com")).toBe(
      "https://api.example.com/admin/queues/open?ticket=x",
    );
  });
});
