// Developer settings and notices in a real browser: a customer opens developer settings from the user menu,
// refreshes the secret key (seen once, gone after the modal closes), edits the IP whitelist and switches the
// API; an admin publishes a notice, the tenant switches to domestic mode, and the customer finds the notice in
// the menu and reads it. The demo tenant's mode and the customer's settings are put back at the end.
import path from "node:path";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

const run = Date.now().toString(36);
const TITLE = `E2E maintenance ${run}`;
const CONTENT = `The platform is under maintenance on Sunday.\nRun ${run}.`;

let h: Harness;
let prisma: PrismaClient;
let tenantId: number;
let savedInternational: boolean | null = null;
let savedCustomer: { apiEnabled: boolean; ipWhitelist: string[] } | null = null;

beforeAll(async () => {
  h = await startHarness();
  prisma = createPrisma(inject("databaseUrl"), { max: 2 });
  tenantId = (await prisma.tenant.findUniqueOrThrow({ where: { code: "demo" } })).id;
  savedInternational =
    (await prisma.tenantSetting.findUnique({ where: { tenantId }, select: { international: true } }))?.international ??
    null;
  savedCustomer = await prisma.user.findFirstOrThrow({
    where: { username: "customer", tenantId },
    select: { apiEnabled: true, ipWhitelist: true },
  });
  await setInternational(true);
});

afterAll(async () => {
  if (prisma) {
    if (savedInternational === null) await prisma.tenantSetting.deleteMany({ where: { tenantId } });
    else await setInternational(savedInternational);
    if (savedCustomer) {
      await prisma.user.updateMany({ where: { username: "customer", tenantId }, data: savedCustomer });
    }
    await prisma.notice.deleteMany({ where: { tenantId, title: TITLE } });
    await prisma.$disconnect();
  }
  await h?.close();
});

async function setInternational(international: boolean) {
  await prisma.tenantSetting.upsert({
    where: { tenantId },
    create: { tenantId, international },
    update: { international },
  });
}

async function signIn(page: Page, loginPath: string, username: string, password: string, landing: RegExp) {
  await page.goto(loginPath);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(landing);
  await page.getByTestId("menu").waitFor();
}

describe("developer settings and notices in Chromium", () => {
  let customer: Page;

  it("customer: developer settings from the user menu; key shown once; whitelist; API switch", async () => {
    customer = await h.newPage();
    await signIn(customer, "/login", "customer", "Customer123", /\/app\/dashboard/);
    // International tenant: no notice entry in the menu.
    expect(await customer.getByTestId("menu").locator('a[href="/app/notice"]').count()).toBe(0);

    await customer.getByTestId("user-menu").click();
    await customer.getByTestId("user-menu-developer").click();
    await customer.waitForURL(/\/app\/developer$/);
    await customer.getByTestId("developer-info").waitFor();
    await customer.getByTestId("api-base").filter({ hasText: h.apiUrl }).waitFor();
    await customer.screenshot({ path: path.join(SCREENSHOT_DIR, "developer.png"), fullPage: true });

    // Refresh the key (a key that already exists needs a confirmation first).
    await customer.getByTestId("secret-key-refresh").click();
    const confirm = customer.getByTestId("secret-key-confirm");
    const value = customer.getByTestId("secret-key-value");
    await confirm.or(value).first().waitFor();
    if (await confirm.isVisible()) await confirm.click();
    await value.waitFor();
    const secretKey = (await value.textContent())?.trim() ?? "";
    expect(secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    await customer.getByTestId("secret-key-warning").waitFor();
    await new Promise((r) => setTimeout(r, 400)); // the modal's opening animation
    await customer.screenshot({ path: path.join(SCREENSHOT_DIR, "developer-secret-key.png") });
    // Esc does not close it.
    await customer.keyboard.press("Escape");
    expect(await value.isVisible()).toBe(true);
    await customer.getByTestId("secret-key-done").click();
    await value.waitFor({ state: "detached" });
    expect(await customer.content()).not.toContain(secretKey);
    await customer
      .getByTestId("secret-key-state")
      .filter({ hasText: secretKey.slice(0, 8) })
      .waitFor();
    // The server keeps only the hash: the key itself is nowhere to be read again.
    const stored = await prisma.user.findFirstOrThrow({
      where: { username: "customer", tenantId },
      select: { secretKeyPrefix: true, secretKeyHash: true },
    });
    expect(stored.secretKeyPrefix).toBe(secretKey.slice(0, 8));
    expect(stored.secretKeyHash).not.toContain(secretKey);

    // Whitelist: a bad line blocks saving; valid lines are saved in canonical form.
    const ipInput = customer.getByTestId("ip-input");
    await ipInput.fill("203.0.113.0/24\n10.0.0.0/33");
    await customer.getByTestId("ip-errors").filter({ hasText: "第 2 行" }).waitFor();
    expect(await customer.getByTestId("ip-save").isDisabled()).toBe(true);
    await ipInput.fill("203.0.113.7/24\n2001:DB8::/32");
    await customer.getByTestId("ip-save").click();
    await expect.poll(() => ipInput.inputValue()).toBe("203.0.113.0/24\n2001:db8::/32");
    await customer.getByTestId("whitelist-summary").filter({ hasText: "2" }).waitFor();
    await customer.screenshot({ path: path.join(SCREENSHOT_DIR, "developer-whitelist.png"), fullPage: true });
    const afterIp = await prisma.user.findFirstOrThrow({
      where: { username: "customer", tenantId },
      select: { ipWhitelist: true, apiEnabled: true },
    });
    expect(afterIp.ipWhitelist).toEqual(["203.0.113.0/24", "2001:db8::/32"]);

    // API switch.
    const before = afterIp.apiEnabled;
    await customer.getByTestId("api-toggle").click();
    await customer
      .getByTestId("api-state")
      .filter({ hasText: before ? "已关闭" : "已开启" })
      .waitFor();
    await expect
      .poll(
        async () =>
          (
            await prisma.user.findFirstOrThrow({
              where: { username: "customer", tenantId },
              select: { apiEnabled: true },
            })
          ).apiEnabled,
      )
      .toBe(!before);
  });

  it("admin publishes a notice; in domestic mode the customer finds it in the menu and reads it", async () => {
    const admin = await h.newPage();
    await signIn(admin, "/system/login", "admin", "Admin12345", /\/backend\/dashboard/);
    // The system settings group opens to show its entries.
    await admin.getByTestId("menu").getByText("系统设置").click();
    await admin.getByTestId("menu").locator('a[href="/backend/setting/notice"]').click();
    await admin.waitForURL(/\/backend\/setting\/notice$/);
    await admin.getByTestId("notice-create").click();
    await admin.getByTestId("notice-form-title").fill(TITLE);
    await admin.getByTestId("notice-form-content").fill(CONTENT);
    await admin.getByTestId("notice-form-save").click();
    const row = admin.locator("tr", { hasText: TITLE });
    await row.getByText("草稿").waitFor();
    const notice = await prisma.notice.findFirstOrThrow({ where: { tenantId, title: TITLE } });
    expect(notice.status).toBe(2);
    await admin.getByTestId(`notice-publish-${notice.id}`).click();
    await row.getByText("已发布").waitFor();
    await admin.screenshot({ path: path.join(SCREENSHOT_DIR, "notice-manage.png"), fullPage: true });

    await setInternational(false);
    await customer.reload();
    const entry = customer.getByTestId("menu").locator('a[href="/app/notice"]');
    await entry.waitFor();
    await entry.click();
    await customer.waitForURL(/\/app\/notice$/);
    await customer.getByTestId("notice-item").filter({ hasText: TITLE }).getByRole("button").click();
    const reader = customer.getByTestId("notice-reader");
    await reader
      .getByTestId("notice-content")
      .filter({ hasText: `Run ${run}.` })
      .waitFor();
    await new Promise((r) => setTimeout(r, 400)); // the modal's opening animation
    await customer.screenshot({ path: path.join(SCREENSHOT_DIR, "notice.png") });
    await customer.getByTestId("notice-reader-close").click();
    await customer.screenshot({ path: path.join(SCREENSHOT_DIR, "notice-list.png") });

    await admin.context().close();
    await customer.context().close();
  });
});
