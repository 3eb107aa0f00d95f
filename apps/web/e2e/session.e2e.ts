// A newcomer's account in a real browser: register (agreement first), land on the dashboard, switch the
// language, and lose the session when its token is revoked elsewhere (the next call answers 401 -> login).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe("a customer's session in Chromium", () => {
  it("registers, switches zh/en, and is sent to login once its token is revoked", async () => {
    const page = await h.newPage();
    const username = `e2e${randomBytes(3).toString("hex")}`;
    await page.goto("/register");
    // The agreement opens by itself; accepting it ticks the box.
    await page.getByTestId("agreement-accept").click();
    await page.getByTestId("register-username").fill(username);
    await page.getByTestId("register-password").fill("Marble-Tundra-37");
    await page.getByTestId("register-confirm-password").fill("Marble-Tundra-37");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "register.png") });
    await page.getByTestId("register-submit").click();
    await page.waitForURL(/\/app\/dashboard/);
    const menu = page.getByTestId("menu");
    await expect.poll(() => menu.textContent()).toContain("首页");

    // zh -> en: menus and page titles follow, and the choice survives a reload.
    await page.getByTestId("language-switch").getByText("English").click();
    await expect.poll(() => menu.textContent()).toContain("Home");
    await page.reload();
    await expect.poll(() => page.getByTestId("menu").textContent()).toContain("Finance");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "app-dashboard-en.png") });

    // The token is revoked elsewhere (the same as a logout from another tab or an admin freezing the account).
    const token = await page.evaluate(
      () => Object.entries(localStorage).find(([k]) => k.toLowerCase().includes("token"))?.[1],
    );
    expect(token).toBeTruthy();
    const revoked = await fetch(`${h.apiUrl}/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.status).toBe(200);
    // The next call the page makes answers 401: the session is cleared and the customer is at the login page.
    // That call may be the page's own (a refresh in the background) before the menu is clicked: either way ends
    // at the login page, so a click that finds the menu gone is not a failure.
    const financeMenu = page.getByTestId("menu");
    await financeMenu
      .getByText("Finance")
      .click({ timeout: 5_000 })
      .then(() => financeMenu.getByText("Recharge records").click({ timeout: 5_000 }))
      .catch(() => undefined);
    await page.waitForURL(/\/login$/, { timeout: 20_000 });
    const left = await page.evaluate(
      () => Object.entries(localStorage).find(([k]) => k.toLowerCase().includes("token"))?.[1] ?? null,
    );
    expect(left).toBeNull();
    await page.context().close();
  });
});
