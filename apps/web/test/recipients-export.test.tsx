// The recipients' CSV is asked for in the user's language (lang header) and on the browser's clock (tz).
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import { describe, expect, it, vi } from "vitest";
import { browserTimeZone } from "../src/features/batches/api";
import { RecipientList } from "../src/features/batches/components/RecipientList";
import { storage } from "../src/lib/storage";
import { envelope, renderRoutes } from "./helpers";

describe("recipients export", () => {
  it("sends the browser's time zone and the language, and saves the file the server names", async () => {
    storage.setLang("zh");
    const requests: { url: URL; headers: Headers }[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input));
        requests.push({ url, headers: new Headers(init?.headers) });
        const json = (data: unknown) =>
          new Response(JSON.stringify(envelope(data)), { headers: { "content-type": "application/json" } });
        if (url.pathname === "/batch/recipients") return json({ list: [], total: 0 });
        if (url.pathname === "/batch/recipients/export") {
          return new Response("\uFEFF号码,国家\r\n", {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": 'attachment; filename="batch-42-recipients.csv"',
            },
          });
        }
        return json({ title: "Acme", logo: null, logoSmall: null, description: null });
      }),
    );
    const createObjectURL = vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:csv");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    renderRoutes(
      [
        {
          path: "/",
          element: <App>{<RecipientList batchId="42" productCode={3000} staff={false} live={false} />}</App>,
        },
      ],
      "/",
    );
    await userEvent.click(await screen.findByTestId("export-recipients"));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const exported = requests.find((r) => r.url.pathname === "/batch/recipients/export");
    expect(exported?.url.searchParams.get("id")).toBe("42");
    expect(exported?.url.searchParams.get("tz")).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(exported?.headers.get("lang")).toBe("zh");
    expect(await screen.findByText(/batch-42-recipients\.csv/)).toBeInTheDocument();
  });

  it("falls back to UTC when the browser names no time zone", () => {
    const spy = vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockReturnValue({
      timeZone: "",
    } as Intl.ResolvedDateTimeFormatOptions);
    expect(browserTimeZone()).toBe("UTC");
    spy.mockRestore();
    expect(browserTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
