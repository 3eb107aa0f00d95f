// Layout in Chromium: the customer app on a phone (390 x 844: no page wider than the screen, the menu in a
// drawer, titles on one line), and the wide lists at 1280 px (the fixed actions column covers no other column
// once the table is scrolled to its end; the user's choice of columns is kept across a reload).
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
const shot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** What these checks read of the page's DOM (the e2e project compiles without the DOM library). */
interface Box {
  left: number;
  right: number;
  width: number;
  height: number;
}
interface El {
  className: string;
  textContent: string | null;
  getBoundingClientRect(): Box;
  querySelector(selector: string): Scroller | null;
  querySelectorAll(selector: string): Iterable<El>;
}
interface Scroller {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
}
interface Win {
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(el: El): { lineHeight: string };
  requestAnimationFrame(callback: () => void): void;
}

const pageWidth = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as Win).document.documentElement.scrollWidth);

/** The page title's height in lines of its own line height (1 when it does not wrap). */
const titleLines = (page: Page) =>
  page.locator("#page-title").evaluate((node) => {
    const el = node as unknown as El;
    const lineHeight = Number.parseFloat((globalThis as unknown as Win).getComputedStyle(el).lineHeight);
    return Math.round(el.getBoundingClientRect().height / lineHeight);
  });

/**
 * Scrolls a table to its right end and measures its header: every cell's edges, which are fixed, and whether the
 * body scrolls sideways.
 */
async function headerAfterScrollingRight(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate(async (node) => {
    const root = node as unknown as El;
    const win = globalThis as unknown as Win;
    const scroller = root.querySelector(".ant-table-content, .ant-table-body");
    if (scroller) scroller.scrollLeft = scroller.scrollWidth;
    await new Promise<void>((r) => win.requestAnimationFrame(() => win.requestAnimationFrame(r)));
    const cells = [...root.querySelectorAll("thead > tr > th")]
      .filter((th) => th.getBoundingClientRect().width > 0)
      .map((th) => {
        const r = th.getBoundingClientRect();
        return {
          text: th.textContent ?? "",
          left: r.left,
          right: r.right,
          fixed: /ant-table-cell-fix-(right|end)/.test(th.className),
        };
      });
    return {
      cells,
      scrollable: scroller ? scroller.scrollWidth > scroller.clientWidth : false,
      scrolledToEnd: scroller ? Math.ceil(scroller.scrollLeft + scroller.clientWidth) >= scroller.scrollWidth : true,
    };
  });
}

/** No header cell runs under the fixed actions cell, nor under its right neighbour. */
function expectNoCoveredColumn(header: Awaited<ReturnType<typeof headerAfterScrollingRight>>) {
  const fixed = header.cells.find((c) => c.fixed);
  expect(fixed, "a fixed actions column").toBeDefined();
  const others = header.cells.filter((c) => !c.fixed);
  expect(others.length).toBeGreaterThan(0);
  for (const cell of others) expect(cell.right, cell.text).toBeLessThanOrEqual(fixed!.left + 1);
  for (let i = 1; i < others.length; i++) {
    expect(others[i]!.left, others[i]!.text).toBeGreaterThanOrEqual(others[i - 1]!.right - 1);
  }
  expect(header.scrolledToEnd).toBe(true);
}

describe("layout in Chromium", () => {
  it("fits the customer app on a 390 px phone: no sideways page, titles on one line, the menu in a drawer", async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/login");
    await page.getByTestId("login-username").fill("customer");
    await page.getByTestId("login-password").fill("Customer123");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/app\/dashboard$/);
    await page.getByTestId("dashboard-today-sent").waitFor({ timeout: 20_000 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await titleLines(page)).toBe(1);
    await page.screenshot({ path: shot("app-phone-dashboard"), fullPage: true });

    // the menu: a drawer from the header, with the developer entry; choosing a page closes it
    await page.getByTestId("menu-open").click();
    const drawer = page.getByTestId("menu-drawer");
    await drawer.getByTestId("menu").waitFor();
    await drawer.getByRole("menuitem", { name: "开发者设置" }).waitFor();
    await page.screenshot({ path: shot("app-phone-menu") });
    await drawer.getByRole("menuitem", { name: /SMS/ }).click();
    await page.waitForURL(/\/app\/sms\/message\/task$/);
    await drawer.waitFor({ state: "hidden" });

    await page.getByTestId("batch-table").waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(390);
    expect(await titleLines(page)).toBe(1);
    await page.screenshot({ path: shot("app-phone-sms-tasks"), fullPage: true });
    await page.context().close();
  });

  it("shows every column of the channel and customer lists beside the fixed actions, and keeps a column choice", async () => {
    const page = await h.newPage();
    await page.goto("/system/login");
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("Admin12345");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/backend\/dashboard/);

    await page.goto("/backend/product/api");
    await page.getByTestId("channel-row-Demo SMSC (local simulator)").waitFor();
    expectNoCoveredColumn(await headerAfterScrollingRight(page, "channels-panel"));
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: shot("layout-channels-1280") });

    // hide the "default for" column; the choice survives a reload
    await page.getByTestId("columns-channels-open").click();
    await page.getByTestId("columns-channels").getByLabel("默认通道").uncheck();
    await expect
      .poll(() => page.locator("[data-testid=channels-panel] thead th", { hasText: "默认通道" }).count())
      .toBe(0);
    await page.reload();
    await page.getByTestId("channel-row-Demo SMSC (local simulator)").waitFor();
    expect(await page.locator("[data-testid=channels-panel] thead th", { hasText: "默认通道" }).count()).toBe(0);
    expect(await page.locator("[data-testid=channels-panel] thead th", { hasText: "接口类型" }).count()).toBe(1);
    await page.getByTestId("columns-channels-open").click();
    await page.getByTestId("columns-channels").getByRole("button", { name: "显示全部" }).click();
    await page.locator("[data-testid=channels-panel] thead th", { hasText: "默认通道" }).waitFor();

    await page.goto("/backend/customer/list");
    await page.getByTestId("customer-table").locator(".ant-table-row").first().waitFor();
    const customers = await headerAfterScrollingRight(page, "customer-table");
    expectNoCoveredColumn(customers);
    expect(await pageWidth(page)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: shot("layout-customers-1280") });
    await page.context().close();
  });
});
