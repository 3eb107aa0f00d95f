import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ComponentType } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChunkLoadError, Lazy, lazyModule, loadWithTimeout } from "../src/components/lazy";
import { I18nProvider } from "../src/lib/i18n";

type Loaded = { default: ComponentType };

function deferred() {
  let resolve!: (value: Loaded) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<Loaded>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const Page = () => <p>the page</p>;

describe("lazy pages", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'page loading' only after 200 ms", async () => {
    vi.useFakeTimers();
    const chunk = deferred();
    render(
      <I18nProvider>
        <Lazy module={lazyModule(() => chunk.promise, "page")} />
      </I18nProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(screen.queryByText("页面加载中")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.getByText("页面加载中")).toBeInTheDocument();
    await act(async () => chunk.resolve({ default: Page }));
    expect(screen.getByText("the page")).toBeInTheDocument();
  });

  it("offers a retry when the chunk fails, and imports again", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    const load = vi
      .fn<() => Promise<Loaded>>()
      .mockRejectedValueOnce(new TypeError("Failed to fetch dynamically imported module"))
      .mockResolvedValueOnce({ default: Page });
    render(
      <I18nProvider>
        <Lazy module={lazyModule(load, "page")} />
      </I18nProvider>,
    );
    expect(await screen.findByText("页面加载失败，请检查网络后重试")).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "重 试" }));
    expect(await screen.findByText("the page")).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("gives up on a chunk after 120 s", async () => {
    vi.useFakeTimers();
    const result = loadWithTimeout(() => new Promise<never>(() => {})).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ name: "ChunkLoadError", timedOut: true });
    expect(await result).toBeInstanceOf(ChunkLoadError);
  });
});
