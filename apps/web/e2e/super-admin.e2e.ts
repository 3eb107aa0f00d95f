// A super admin's working tenant in a real browser: it chooses the demo tenant in the top bar's switcher,
// then the back office's tenant pages (customers, channels, settings) act in that tenant (tenant-id header).
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

/** The machine is shared: give pages time to load. */
const POLL = { timeout: 15_000 };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** Picks an option of the switcher by its exact label. */
async function chooseTenant(page: Page, label: string) {
  await page.getByTestId("tenant-switcher").locator("input").first().click();
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content")
    .getByText(label, { exact: true })
    .click();
}

describe("super admin's working tenant in Chromium", () => {
  it("chooses the demo tenant; customers, channels and settings then load for it", { timeout: 150_000 }, async () => {
    const page = await h.newPage();
    // The tenant-id header of every API call the page makes.
    const sent: { path: string; tenant: string | undefined }[] = [];
    page.on("request", (req) => {
      if (req.url().startsWith(h.apiUrl))
        sent.push({ path: new URL(req.url()).pathname, tenant: req.headers()["tenant-id"] });
    });

    await page.goto("/system/login");
    await page.getByTestId("login-username").fill("superadmin");
    await page.getByTestId("login-password").fill("Super12345");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/backend\/dashboard/);
    await page.getByTestId("menu").waitFor();
    // No tenant chosen yet: "all tenants", and no call names a tenant.
    await page.getByTestId("tenant-switcher").getByText("全部平台").waitFor();
    expect(sent.filter((r) => r.tenant !== undefined)).toEqual([]);

    await chooseTenant(page, "Demo Platform (demo)");
    await page.getByTestId("tenant-switcher").getByText("Demo Platform (demo)").waitFor();
    const demoId = await page.evaluate(() => localStorage.getItem("switchboard.workingTenantId"));
    expect(Number(demoId)).toBeGreaterThan(0);

    await page.goto("/backend/customer/list");
    await page.getByTestId("customer-balance-customer").waitFor(POLL);
    await expect.poll(() => sent.find((r) => r.path === "/user/list")?.tenant, POLL).toBe(demoId);
    // The choice stays after a full page load.
    await page.getByTestId("tenant-switcher").getByText("Demo Platform (demo)").waitFor();

    await page.goto("/backend/product/api");
    await page.getByTestId("channels-panel").waitFor(POLL);
    await page.getByTestId("channel-row-Demo SMSC (local simulator)").waitFor(POLL);
    expect(await page.locator(".ant-result-error").count()).toBe(0);
    expect(sent.filter((r) => r.path === "/channel/list").map((r) => r.tenant)).toContain(demoId);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "super-admin-tenant.png") });

    // Settings act in the working tenant too: the form, not 'choose a tenant'.
    await page.goto("/backend/setting/system");
    await page.getByTestId("system-save").waitFor(POLL);
    expect(await page.getByTestId("settings-choose-tenant").count()).toBe(0);

    // Back to all tenants: the settings pages ask for a tenant again.
    await chooseTenant(page, "全部平台");
    await page.getByTestId("settings-choose-tenant").waitFor(POLL);
    expect(await page.evaluate(() => localStorage.getItem("switchboard.workingTenantId"))).toBeNull();

    // Logging out forgets the choice.
    await chooseTenant(page, "Demo Platform (demo)");
    await page.getByTestId("system-save").waitFor(POLL);
    await page.getByTestId("logout").click();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem("switchboard.workingTenantId"))).toBeNull();
    await page.context().close();
  });
});
