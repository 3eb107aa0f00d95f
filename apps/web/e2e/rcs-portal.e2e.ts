// The RCS portal (/user) in a real browser, through the API, the workers, the RBM simulator and the SMSC
// simulator (SMS fallback): a visitor registers at /control/register; the demo customer signs in at
// /control/login, creates a rich card with an SMS fallback, watches it go from processing to finish, opens it
// (RCS delivered, read, fallen back to SMS), exports its recipients and looks at its balance records. Every
// portal page is photographed in Chinese and English (artifacts/screenshots/rcs-*.png).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ workers: true });
});
afterAll(async () => {
  await h?.close();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

async function signIn(page: Page, username: string, password: string) {
  await page.goto("/control/login");
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(/\/user\/home/);
}

/** Numbers ending 404 are not RCS-capable at the simulator: they get the SMS fallback. */
const CAPABLE = Array.from({ length: 5 }, (_, i) => `+8613900139${String(i).padStart(3, "0")}`);
const NOT_CAPABLE = ["+8613900138404", "+8613900137404"];

describe("the RCS portal in Chromium", () => {
  it("a visitor registers at /control/register and lands on the portal's home", async () => {
    const page = await h.newPage();
    await page.goto("/control/register");
    // The agreement opens by itself (agree-show): accepting it ticks the form's box.
    await page.getByTestId("agreement-accept").click();
    await page.getByTestId("agreement-accept").waitFor({ state: "hidden" });
    const username = `rcs${Date.now().toString(36)}`;
    await page.getByTestId("register-username").fill(username);
    await page.getByTestId("register-password").fill("Harbor-Kite-4821");
    await page.getByTestId("register-confirm-password").fill("Harbor-Kite-4821");
    const agreement = page.getByTestId("register-agreement");
    if (!(await agreement.isChecked())) await agreement.check();
    await page.getByTestId("register-submit").click();
    await page.waitForURL(/\/user\/home/).catch(async (error) => {
      await shot(page, "rcs-register-failed");
      throw new Error(`${String(error)}; page says: ${(await page.locator("body").innerText()).slice(0, 400)}`);
    });
    // A new customer: nothing sent, and the way to authenticate.
    await expect.poll(() => page.getByTestId("rcs-today-sent").innerText()).toBe("0");
    await page.getByTestId("rcs-latest").getByText(/RCS/).first().waitFor();
    await page.context().close();
  });

  it("the demo customer sends a rich card with an SMS fallback and follows it to the finish list", async () => {
    const page = await h.newPage();
    await signIn(page, "customer", "Customer123");
    await page.getByTestId("rcs-balance").waitFor();

    await page.getByTestId("rcs-new-message").click();
    await page.waitForURL(/\/user\/message\/processing\/create/);
    await page.getByTestId("task-mode-multiple").click();
    await page.getByTestId("task-numbers").fill([...CAPABLE, ...NOT_CAPABLE].join("\n"));
    await page.getByTestId("task-rcs-kind-card").click();
    await page.getByTestId("task-rcs-title").fill("Winter sale");
    await page.getByTestId("task-rcs-description").fill("Everything 30% off until Sunday.");
    await page.getByTestId("task-rcs-media").fill("https://cdn.example.com/winter.png");
    await page.getByTestId("task-rcs-fallback").fill("Winter sale: 30% off until Sunday at shop.example");
    await expect.poll(() => page.getByTestId("task-fallback-segments").innerText()).toMatch(/1/);
    await page.getByTestId("preview-sms").click();
    await page
      .getByTestId("rcs-preview")
      .getByText(/shop\.example/)
      .waitFor();
    await page.getByTestId("preview-rcs").click();
    await page.getByTestId("task-check").click();
    const summary = page.getByTestId("task-summary");
    await summary.waitFor({ timeout: 20_000 });
    expect((await summary.innerText()).replace(/\s+/g, " ")).toMatch(/7/);
    // RCS with a fallback: the SMS fallback's price is shown, with how the charge settles.
    await summary.getByTestId("summary-fallback-note").waitFor();
    await shot(page, "rcs-create-zh");
    await page.getByTestId("task-confirm").click();

    // The detail of the new batch: it goes to 22 by itself.
    await page.waitForURL(/\/user\/message\/\w+\/detail\/\d+/, { timeout: 20_000 });
    const batchId = /detail\/(\d+)/.exec(page.url())?.[1] ?? "";
    const detail = page.getByTestId("batch-detail");
    await detail.waitFor();
    await expect
      .poll(() => detail.getByTestId("batch-status").first().getAttribute("data-status"), { timeout: 60_000 })
      .toBe("22");
    await expect.poll(() => detail.getByTestId("count-fallback").innerText(), { timeout: 30_000 }).toContain("2");
    await expect.poll(() => detail.getByTestId("count-read").innerText(), { timeout: 30_000 }).toContain("5");
    // The SMS fallbacks' receipts come after their sends: the delivered count catches up by itself.
    await expect.poll(() => detail.getByTestId("count-delivered").innerText(), { timeout: 30_000 }).toContain("7");
    const recipients = detail.getByTestId("recipient-list");
    await expect.poll(() => recipients.getByTestId("carried-sms").count(), { timeout: 20_000 }).toBe(2);
    expect(await recipients.getByTestId("carried-rcs").count()).toBe(5);
    await shot(page, "rcs-detail-zh");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      detail.getByTestId("export-recipients").click(),
    ]);
    const csv = readFileSync((await download.path()) ?? "", "utf8").replace(/^\uFEFF/, "");
    const lines = csv.split("\r\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1 + CAPABLE.length + NOT_CAPABLE.length);

    // The finish list has it, the processing list no longer.
    await page.goto("/user/message/finish");
    await page.locator(`[data-testid="batch-table"] tbody tr[data-row-key="${batchId}"]`).waitFor();
    await shot(page, "rcs-finish-zh");
    await page.goto("/user/message/processing");
    await page.getByTestId("batch-table").waitFor();
    expect(await page.locator(`[data-testid="batch-table"] tbody tr[data-row-key="${batchId}"]`).count()).toBe(0);

    // Home counts it: RCS sent today, read rate, fallback share, and the latest batches list it.
    await page.goto("/user/home");
    await page.getByTestId("rcs-latest").getByRole("link", { name: batchId, exact: true }).waitFor();
    expect(Number((await page.getByTestId("rcs-today-sent").innerText()).replace(/,/g, ""))).toBeGreaterThanOrEqual(7);
    expect(await page.getByTestId("rcs-fallback-share").innerText()).toMatch(/%/);

    // Its cost is in the consume records; recharge records and the remittance form are a click away.
    await page.goto("/user/balance/consume");
    await page.getByTestId("consume-records").getByRole("cell", { name: batchId, exact: true }).first().waitFor();
    await page.goto("/user/balance/recharge");
    await page.getByTestId("recharge-records").waitFor();
    await page.getByTestId("rcs-remit-link").click();
    await page.waitForURL(/\/user\/balance\/remit/);
    await page.context().close();
  });

  it("is usable on a phone: no sideways overflow, the menu in a drawer", async () => {
    const page = await h.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "customer", "Customer123");
    await page.getByTestId("rcs-balance").waitFor();
    type Win = { document: { documentElement: { scrollWidth: number } } };
    const overflow = () => page.evaluate(() => (globalThis as unknown as Win).document.documentElement.scrollWidth);
    expect(await overflow()).toBeLessThanOrEqual(390);
    await shot(page, "rcs-home-phone");
    await page.getByTestId("menu-open").click();
    const drawer = page.getByTestId("menu-drawer");
    await drawer
      .getByText(/余额|Balance/)
      .first()
      .click();
    await drawer.getByText(/消费记录|Consume records/).click();
    await page.waitForURL(/\/user\/balance\/consume/);
    await page.getByTestId("consume-records").waitFor();
    expect(await overflow()).toBeLessThanOrEqual(390);
    await page.goto("/user/message/processing/create");
    await page.getByTestId("task-check").waitFor();
    expect(await overflow()).toBeLessThanOrEqual(390);
    await shot(page, "rcs-create-phone");
    await page.context().close();
  });

  it("every portal page renders in Chinese and English (screenshots)", async () => {
    const pages = [
      "home",
      "message/processing",
      "message/sending",
      "message/finish",
      "message/processing/create",
      "balance/recharge",
      "balance/remit",
      "balance/consume",
      "developer/info",
      "developer/ip",
      "developer/notify",
      "notice",
    ];
    for (const lang of ["zh", "en"] as const) {
      const page = await h.newPage();
      await page.addInitScript((l) => localStorage.setItem("switchboard.lang", l), lang);
      await page.goto("/control/login");
      await page.getByTestId("login-username").waitFor();
      await shot(page, `rcs-login-${lang}`);
      await page.goto("/control/register");
      await page.getByTestId("register-username").waitFor();
      await shot(page, `rcs-register-${lang}`);
      await signIn(page, "customer", "Customer123");
      for (const p of pages) {
        await page.goto(`/user/${p}`);
        await page.locator("#page-title").waitFor();
        // No page of the portal is a placeholder, and none failed to load.
        expect(await page.getByText(/being built|正在建设/).count()).toBe(0);
        // Loaded: no skeleton or spinning table left (lists poll while batches move, so never "network idle").
        await expect.poll(() => page.locator(".ant-skeleton, .ant-spin-spinning").count()).toBe(0);
        await shot(page, `rcs-${p.replaceAll("/", "-")}-${lang}`);
      }
      expect(await page.locator("html").getAttribute("lang")).toBe(lang === "zh" ? "zh-CN" : "en");
      await page.context().close();
    }
  });
});
