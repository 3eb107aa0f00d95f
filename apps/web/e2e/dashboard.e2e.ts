// Dashboards in a real browser: the customer's figures and chart (checked against the database), the price list,
// a bank transfer declared with a proof file and listed as pending, the finance records, and the admin's
// dashboard counting the customer's batches.
import path from "node:path";
import { BatchStatus, formatMoney as decimalMoney, ProductCode } from "@switchboard/contracts";
import { createPrisma, type PrismaClient } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { formatMoney, formatNumber } from "../src/lib/format";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
let prisma: PrismaClient;
const shot = (name: string) => path.join(SCREENSHOT_DIR, `${name}.png`);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);

const startOfTodayUtc = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
};

/** The demo customer's batches sent today (UTC), summed by the database: what the dashboard must show. */
async function sentToday(where: { userId?: number; tenantId?: number }) {
  const r = await prisma.messageBatch.aggregate({
    where: { ...where, createdAt: { gte: startOfTodayUtc() } },
    _sum: { sentCount: true },
  });
  return r._sum.sentCount ?? 0;
}

beforeAll(async () => {
  h = await startHarness();
  prisma = createPrisma(inject("databaseUrl"), { max: 2 });
  const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer", type: 3 } });
  const product = await prisma.product.findFirstOrThrow({
    where: { tenantId: customer.tenantId!, code: ProductCode.SMS },
  });
  const base = {
    tenantId: customer.tenantId!,
    userId: customer.id,
    agentId: customer.agentId,
    productId: product.id,
    productCode: ProductCode.SMS,
    taskType: 2,
    submitMode: 2,
    content: { product: 3000, text: "dashboard e2e" },
  };
  // A finished batch today (figures and chart) and one waiting for review (the admin's queue).
  await prisma.messageBatch.create({
    data: {
      ...base,
      status: BatchStatus.SEND_FINISHED,
      totalCount: 1200,
      validCount: 1200,
      sentCount: 1200,
      successCount: 1100,
      failedCount: 100,
      deliveredCount: 990,
    },
  });
  await prisma.messageBatch.create({
    data: { ...base, status: BatchStatus.UNDER_REVIEW, totalCount: 3, validCount: 3 },
  });
});
afterAll(async () => {
  await prisma?.$disconnect();
  await h?.close();
});

describe("dashboards in Chromium", () => {
  it("shows the customer its figures and chart, the price list, and takes a bank transfer", async () => {
    const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer", type: 3 } });
    const page = await h.newPage();
    await page.goto("/login");
    await page.getByTestId("login-username").fill("customer");
    await page.getByTestId("login-password").fill("Customer123");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/app\/dashboard$/);

    const sent = await sentToday({ userId: customer.id });
    expect(sent).toBeGreaterThanOrEqual(1200);
    await page.getByTestId("dashboard-today-sent").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("dashboard-today-sent").textContent()).toBe(formatNumber(sent));
    const balance = (await prisma.user.findUniqueOrThrow({ where: { id: customer.id } })).balance;
    expect(await page.getByTestId("dashboard-balance").textContent()).toBe(formatMoney(decimalMoney(balance)));
    expect(await page.getByTestId("dashboard-auth-status").textContent()).toBe("已认证");
    await page.locator("[data-testid=dashboard-chart] .recharts-bar-rectangle").first().waitFor();
    await page.screenshot({ path: shot("app-dashboard-figures"), fullPage: true });

    await page.getByTestId("open-price-list").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("price-list-price").first().waitFor();
    await page.screenshot({ path: shot("app-price-list") });
    await dialog.getByRole("searchbox").fill("US");
    await dialog.getByRole("searchbox").press("Enter");
    await dialog.getByText("(US)").first().waitFor();
    await dialog.getByTestId("price-list-close").click();

    await page.getByTestId("remit-link").click();
    await page.waitForURL(/\/app\/dashboard\/remit$/);
    await page.getByTestId("remit-amount").fill("2345.67");
    await page.getByTestId("remit-payer").fill("E2E Payer Ltd");
    await page.getByTestId("remit-reference").fill("E2E-REF-1");
    await page.locator("[data-testid=remit-form] input[type=file]").setInputFiles({
      name: "receipt.png",
      mimeType: "image/png",
      buffer: PNG,
    });
    await page.getByTestId("remit-submit").click();
    const row = page.locator("[data-testid=remit-list] tr", { hasText: "E2E-REF-1" });
    await row.waitFor();
    expect(await row.textContent()).toContain("2,345.67");
    expect(await row.getByTestId("remit-row-status").textContent()).toBe("待确认");
    const stored = await prisma.remittance.findFirstOrThrow({ where: { reference: "E2E-REF-1" } });
    expect(stored.status).toBe(1);
    expect(stored.proofPath).not.toBeNull();
    await page.screenshot({ path: shot("app-remit"), fullPage: true });

    await page.goto("/app/finance/recharge/add");
    await page.getByTestId("recharge-records").waitFor();
    await page.screenshot({ path: shot("app-finance-recharge"), fullPage: true });
    await page.goto("/app/finance/consume/customer?productCode=3000");
    await page.getByTestId("consume-records").waitFor();
    await page.screenshot({ path: shot("app-finance-consume"), fullPage: true });
    await page.context().close();
  });

  it("shows the admin the tenant's figures and the review queue, linked to the review list", async () => {
    const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer", type: 3 } });
    const page = await h.newPage();
    await page.goto("/system/login");
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("Admin12345");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/backend\/dashboard$/);

    const sent = await sentToday({ tenantId: customer.tenantId! });
    await page.getByTestId("dashboard-today-sent").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("dashboard-today-sent").textContent()).toBe(formatNumber(sent));
    const waiting = await prisma.messageBatch.count({
      where: { tenantId: customer.tenantId!, productCode: ProductCode.SMS, status: BatchStatus.UNDER_REVIEW },
    });
    expect(waiting).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId("review-queue-sms").textContent()).toContain(formatNumber(waiting));
    await page.locator("[data-testid=dashboard-chart] .recharts-bar-rectangle").first().waitFor();
    await page.screenshot({ path: shot("backend-dashboard-figures"), fullPage: true });
    await page.getByTestId("review-queue-sms-link").click();
    await page.waitForURL(/\/backend\/sms\/message\/1$/);
    await page.context().close();
  });
});
