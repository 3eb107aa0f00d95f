// System settings in a real browser: the admin sets review mode 'every batch' and a sensitive word, adds a
// website config with an uploaded logo, creates an SMS template; the super admin creates a tenant. The demo
// tenant's settings, and the rows this file adds to it, are put back at the end (other tests share the database).
import path from "node:path";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const run = Date.now().toString(36);
const WORD = `e2ejackpot${run}`;
const HOST = `brand-${run}.example.test`;
const TEMPLATE = `E2E verification ${run}`;

let h: Harness;
let prisma: PrismaClient;
let tenantId: number;
let savedSetting: Awaited<ReturnType<PrismaClient["tenantSetting"]["findUnique"]>>;

beforeAll(async () => {
  h = await startHarness();
  prisma = createPrisma(inject("databaseUrl"), { max: 2 });
  tenantId = (await prisma.tenant.findUniqueOrThrow({ where: { code: "demo" } })).id;
  savedSetting = await prisma.tenantSetting.findUnique({ where: { tenantId } });
});

afterAll(async () => {
  if (prisma) {
    if (savedSetting) {
      const { tenantId: _id, updatedAt: _at, ...fields } = savedSetting;
      await prisma.tenantSetting.update({ where: { tenantId }, data: fields });
    } else {
      await prisma.tenantSetting.deleteMany({ where: { tenantId } });
    }
    await prisma.websiteConfig.deleteMany({ where: { host: HOST } });
    await prisma.smsTemplate.deleteMany({ where: { tenantId, name: TEMPLATE } });
    await prisma.$disconnect();
  }
  await h?.close();
});

async function signIn(page: Page, username: string, password: string) {
  await page.goto("/system/login");
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(/\/backend\/dashboard/);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });

describe("system settings in Chromium", () => {
  it("lets the admin set review rules and a sensitive word, add a branded host with a logo, and an SMS template", async () => {
    const page = await h.newPage();
    await signIn(page, "admin", "Admin12345");

    // Review mode 'every batch' and a sensitive word.
    await page.goto("/backend/setting/system");
    await page.getByTestId("system-form").waitFor();
    await page.getByRole("radio", { name: "每个任务都审核" }).check();
    const words = page.getByTestId("sensitive-words").getByRole("combobox");
    await words.fill(WORD);
    await words.press("Enter");
    await page.getByTestId("system-save").click();
    await page.getByText("已保存").first().waitFor();
    const row = await prisma.tenantSetting.findUniqueOrThrow({ where: { tenantId } });
    expect(row.reviewMode).toBe(1);
    expect(row.sensitiveWords).toContain(WORD);
    await page.reload();
    await page.getByTestId("system-form").getByText(WORD).waitFor();
    await shot(page, "settings-system");

    // A website config with an uploaded logo, previewed before saving.
    await page.getByTestId("website-create").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("website-host").fill(HOST);
    await dialog.getByTestId("website-title").fill("E2E Brand");
    await dialog
      .locator('input[type="file"]')
      .first()
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
    await dialog.getByTestId("website-logo-preview").waitFor();
    await shot(page, "settings-website-editor");
    await dialog.getByTestId("website-save").click();
    await page.getByTestId("website-table").getByText(HOST).waitFor();
    const site = await prisma.websiteConfig.findUniqueOrThrow({ where: { host: HOST } });
    expect(site.logo).toMatch(new RegExp(`^/website/logo/${tenantId}/[0-9a-f]{32}\\.png$`));
    const logo = await page.request.get(`${h.apiUrl}${site.logo}`);
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/png");
    const loaded = await page
      .getByTestId("website-table")
      .locator(`img[alt="E2E Brand"]`)
      .evaluate(
        (img) =>
          (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
          (img as unknown as { naturalWidth: number }).naturalWidth > 0,
      );
    expect(loaded).toBe(true);

    // An SMS template, with a placeholder inserted from the hint.
    await page.goto("/backend/setting/sms/template");
    await page.getByTestId("template-create").click();
    const modal = page.getByRole("dialog");
    await modal.getByTestId("template-name").fill(TEMPLATE);
    await modal.getByTestId("template-content").fill("Your code is ");
    await modal.getByTestId("template-placeholders").getByRole("button", { name: "{code}" }).click();
    await shot(page, "settings-sms-template-editor");
    await modal.getByTestId("template-save").click();
    await page.getByTestId("template-table").getByText(TEMPLATE).waitFor();
    const tpl = await prisma.smsTemplate.findFirstOrThrow({ where: { tenantId, name: TEMPLATE } });
    expect(tpl).toMatchObject({ scene: "verify_code", content: "Your code is {code}", status: 1 });
    await shot(page, "settings-sms-template");

    await page.goto("/backend/setting/sms/record");
    await page.getByTestId("record-table").waitFor();
    await shot(page, "settings-sms-record");

    await page.goto("/backend/setting/account");
    await page.getByTestId("account-table").getByText("admin", { exact: true }).waitFor();
    await page.getByTestId("admin-create").click();
    await page.getByRole("dialog").getByTestId("admin-username").waitFor();
    await shot(page, "settings-account-create");
    await page.context().close();
  });

  it("lets the super admin create a tenant with its first admin", async () => {
    const page = await h.newPage();
    await signIn(page, "superadmin", "Super12345");
    await page.goto("/backend/tenant/list");
    await page.getByTestId("tenant-table").getByText("demo", { exact: true }).waitFor();
    await page.getByTestId("tenant-create").click();
    const dialog = page.getByRole("dialog");
    const code = `e2e-${run}`;
    await dialog.getByTestId("tenant-code").fill(code);
    await dialog.getByTestId("tenant-name").fill("E2E Tenant");
    await dialog.getByTestId("tenant-admin-username").fill(`admin-${run}`);
    await dialog.getByTestId("tenant-admin-password").fill("Quartz-Meadow-58");
    await dialog.getByTestId("tenant-save").click();
    await page.getByTestId("tenant-table").getByText(code, { exact: true }).waitFor();
    const tenant = await prisma.tenant.findUniqueOrThrow({ where: { code }, include: { users: true, setting: true } });
    expect(tenant.name).toBe("E2E Tenant");
    expect(tenant.users.map((u) => [u.username, u.type])).toEqual([[`admin-${run}`, 1]]);
    expect(tenant.setting).not.toBeNull();
    await shot(page, "tenant-list");

    await page.getByTestId(`tenant-websites-${code}`).click();
    await page.getByRole("dialog").getByTestId("website-create").waitFor();
    await shot(page, "tenant-websites");
    await page.context().close();
  });
});
