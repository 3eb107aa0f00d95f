// A newcomer's first minutes, in a real browser: the sign-in pages, the areas they lead to, logout.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe("sign-in in Chromium", () => {
  it("shows the website config's title and signs a customer in to the customer app", async () => {
    const page = await h.newPage();
    await page.goto("/login");
    await expect.poll(() => page.title()).toContain("Switchboard");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "login.png") });
    await page.getByTestId("login-username").fill("customer");
    await page.getByTestId("login-password").fill("Customer123");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/app\/dashboard/);
    await page.getByTestId("menu").waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "app-dashboard.png") });
    const token = await page.evaluate(
      () => Object.entries(localStorage).find(([k]) => k.toLowerCase().includes("token"))?.[1],
    );
    expect(token).toBeTruthy();
    await page.getByTestId("logout").click();
    await page.waitForURL(/\/login/);
    await page.context().close();
  });

  it("shows the server's message for a wrong password and stays on the page", async () => {
    const page = await h.newPage();
    await page.goto("/login");
    await page.getByTestId("login-username").fill("customer");
    await page.getByTestId("login-password").fill("wrong-password-1");
    await page.getByTestId("login-submit").click();
    await page.getByText("用户名或密码错误").waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await page.context().close();
  });

  it("signs the agent in to the back office", async () => {
    const page = await h.newPage();
    await page.goto("/system/login");
    await page.getByTestId("login-username").fill("agent");
    await page.getByTestId("login-password").fill("Agent12345");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/backend\/dashboard/);
    await page.getByTestId("menu").waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "backend-dashboard.png") });
    await page.context().close();
  });
});
