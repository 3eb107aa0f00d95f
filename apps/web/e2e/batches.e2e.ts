// Message batches in a real browser with the workers and an SMSC simulator: a customer sends a file batch and
// watches it finish without reloading, opens it and exports its recipients; with review forced, the agent
// passes a batch in the review list and watches it finish.
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma } from "@switchboard/db";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
const prisma = createPrisma(inject("databaseUrl"), { max: 2 });

beforeAll(async () => {
  h = await startHarness({ workers: true });
});
afterAll(async () => {
  await h?.close();
  await prisma.$disconnect();
});

const FINISHED = "22";
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });

async function signIn(page: Page, loginPath: string, username: string, password: string, landing: RegExp) {
  await page.goto(loginPath);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(landing);
}

const rowOf = (page: Page, batchId: string) =>
  page.locator(`[data-testid="batch-table"] tbody tr[data-row-key="${batchId}"]`);

/** Waits for the row's status tag to read `status`, the page never reloading meanwhile. */
async function waitForStatus(row: Locator, status: string, timeout = 60_000) {
  await expect
    .poll(() => row.getByTestId("batch-status").first().getAttribute("data-status"), { timeout, interval: 500 })
    .toBe(status);
}

/** A marker on window that a reload would wipe. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (globalThis as unknown as { __noReload: number }).__noReload = 1;
  });
}
const stillSamePage = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __noReload?: number }).__noReload === 1);

describe("message batches in Chromium", () => {
  it("a customer sends a file batch, watches it reach 'send finished' live, opens it and exports it", async () => {
    const numbers = Array.from({ length: 19 }, (_, i) => `+86138001381${String(i).padStart(2, "0")}`);
    const lines = [...numbers, "12345", numbers[3]];
    const file = path.join(tmpdir(), `h1b-batch-${Date.now()}.csv`);
    writeFileSync(file, `${lines.join("\n")}\n`);

    const page = await h.newPage();
    await signIn(page, "/login", "customer", "Customer123", /\/app\/dashboard/);
    await page.goto("/app/sms/message/task");
    await page.getByTestId("batch-table").waitFor();
    await markPage(page);

    await page.getByTestId("new-task").click();
    const modal = page.getByTestId("task-modal");
    await modal.waitFor();
    await page.getByTestId("task-mode-file").click();
    await page.getByTestId("task-file-input").setInputFiles(file);
    await page.getByTestId("task-sms-text").fill("Your delivery arrives today. Reply STOP to opt out.");
    await page.getByTestId("task-check").click();
    const summary = page.getByTestId("task-summary");
    await summary.waitFor({ timeout: 20_000 });
    const summaryText = (await summary.innerText()).replace(/\s+/g, " ");
    expect(summaryText).toMatch(/号码总数 21/);
    expect(summaryText).toMatch(/有效号码 19/);
    expect(summaryText).toMatch(/无效号码 1/);
    expect(summaryText).toMatch(/重复号码 1/);
    await page.getByTestId("task-confirm").click();
    await modal.waitFor({ state: "hidden", timeout: 20_000 });

    const first = page.locator('[data-testid="batch-table"] tbody tr[data-row-key]').first();
    await first.waitFor();
    const batchId = (await first.getAttribute("data-row-key")) ?? "";
    expect(batchId).toMatch(/^\d+$/);
    const row = rowOf(page, batchId);
    await waitForStatus(row, FINISHED);
    expect(await stillSamePage(page)).toBe(true);
    await expect
      .poll(() => row.getByTestId("batch-progress").getAttribute("data-percent"), { timeout: 20_000 })
      .toBe("100");
    await shot(page, "batches-customer-task-list");

    await row.getByTestId("batch-open").click();
    const detail = page.getByTestId("batch-detail");
    await detail.waitFor();
    await expect.poll(() => detail.getByTestId("count-valid").innerText(), { timeout: 20_000 }).toContain("19");
    expect(await detail.getByTestId("count-invalid").innerText()).toContain("1");
    expect(await detail.getByTestId("count-duplicate").innerText()).toContain("1");
    expect(await detail.getByTestId("preview-text").innerText()).toContain("Your delivery arrives today");
    await detail.getByTestId("recipient-list").locator("tbody tr[data-row-key]").first().waitFor();
    await shot(page, "batches-customer-detail");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      detail.getByTestId("export-recipients").click(),
    ]);
    expect(download.suggestedFilename()).toBe(`batch-${batchId}-recipients.csv`);
    const csv = readFileSync((await download.path()) ?? "", "utf8").replace(/^\uFEFF/, "");
    const csvLines = csv.split("\r\n").filter((l) => l !== "");
    // Written for its reader: the page's language, the browser's clock (named in the header), codes at the end.
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(csvLines[0]?.split(",")).toEqual([
      "号码",
      "国家",
      "条数",
      "单价",
      "发送结果",
      "状态报告",
      "错误码",
      `发送时间（${zone}）`,
      `回执时间（${zone}）`,
      "发送结果代码",
      "状态报告代码",
    ]);
    const rows = csvLines.slice(1).map((l) => l.split(","));
    expect(rows.map((r) => r[0])).toEqual(numbers);
    expect(rows.every((r) => r[1] === "CN" && r[4] === "发送成功" && r[9] === "1")).toBe(true);
    expect(rows.every((r) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(r[7] ?? ""))).toBe(true);

    const [rejected] = await Promise.all([
      page.waitForEvent("download"),
      detail.getByTestId("export-rejected").click(),
    ]);
    const rejectedCsv = readFileSync((await rejected.path()) ?? "", "utf8").replace(/^\uFEFF/, "");
    expect(rejectedCsv.split("\r\n").filter((l) => l !== "")).toEqual([
      "number,reason",
      "12345,invalid",
      `${numbers[3]},duplicate`,
    ]);
    await page.context().close();
  });

  it("a customer picks a WhatsApp template, fills its body, header and button, and the batch reaches 22", async () => {
    const page = await h.newPage();
    await signIn(page, "/login", "customer", "Customer123", /\/app\/dashboard/);
    await page.goto("/app/ws/message/task");
    await page.getByTestId("batch-table").waitFor();
    await page.getByTestId("new-task").click();
    const modal = page.getByTestId("task-modal");
    await modal.waitFor();
    await page.getByTestId("task-mode-multiple").click();
    await page.getByTestId("task-numbers").fill("+12025550301\n+12025550302\n+12025550303");
    await modal.getByText("模板", { exact: true }).click();
    await page.getByTestId("task-ws-template-pick").click();
    await page.getByText("spring_offer · en_US · 营销").click();
    expect(await page.getByTestId("task-ws-template").inputValue()).toBe("spring_offer");
    await page.getByLabel("参数 1").fill("20%");
    await page.getByLabel("参数 2").fill("May 31");
    expect(await page.getByTestId("task-ws-template-preview").innerText()).toBe("20% off everything until May 31.");
    // the image header and the URL button's suffix are asked for, and checked before anything is sent
    await page.getByTestId("task-ws-header").fill("http://cdn.example.com/spring.jpg");
    await page.getByTestId("task-check").click();
    await modal.getByText("请输入 https 开头的链接").waitFor();
    await modal.getByText("该按钮的链接需要一个后缀").waitFor();
    await page.getByTestId("task-ws-header").fill("https://cdn.example.com/spring.jpg");
    await page.getByTestId("task-ws-button-1").fill("spring?ref=wa");
    await shot(page, "batches-ws-template-form");
    await page.getByTestId("task-check").click();
    const summary = page.getByTestId("task-summary");
    await summary.waitFor({ timeout: 20_000 });
    expect((await summary.innerText()).replace(/\s+/g, " ")).toMatch(/有效号码 3/);
    await page.getByTestId("task-confirm").click();
    await modal.waitFor({ state: "hidden", timeout: 20_000 });

    const first = page.locator('[data-testid="batch-table"] tbody tr[data-row-key]').first();
    await first.waitFor();
    const batchId = (await first.getAttribute("data-row-key")) ?? "";
    await waitForStatus(rowOf(page, batchId), FINISHED);
    // what reached WhatsApp: the template with every value the form took
    const sent = (h.whatsapp?.lastBodies() ?? []).filter((m) =>
      String((m.body as { to?: string }).to).includes("1202555030"),
    );
    expect(sent.filter((m) => m.wamid)).toHaveLength(3);
    const template = JSON.stringify((sent[0]?.body as { template?: unknown } | undefined)?.template);
    expect(template).toContain('"name":"spring_offer"');
    expect(template).toContain("https://cdn.example.com/spring.jpg");
    expect(template).toContain("spring?ref=wa");

    // the users' answers (a tap on the template's quick reply) show in the batch's detail
    await rowOf(page, batchId).getByTestId("batch-open").click();
    expect(await page.getByTestId("preview-template-header").innerText()).toContain(
      "https://cdn.example.com/spring.jpg",
    );
    expect(await page.getByTestId("preview-template-button").innerText()).toContain("spring?ref=wa");
    const replies = page.getByTestId("reply-list");
    await expect
      .poll(() => replies.locator("tbody tr[data-row-key]").count(), { timeout: 20_000, interval: 1_000 })
      .toBe(3);
    await shot(page, "batches-ws-detail-replies");
    await page.context().close();
  });

  it("with review forced, the agent passes a batch in SMS review and watches it reach 'send finished'", async () => {
    const tenant = await prisma.tenant.findUniqueOrThrow({ where: { code: "demo" }, select: { id: true } });
    const before = await prisma.tenantSetting.findUniqueOrThrow({
      where: { tenantId: tenant.id },
      select: { reviewMode: true },
    });
    await prisma.tenantSetting.update({ where: { tenantId: tenant.id }, data: { reviewMode: 1 } });
    try {
      const customer = await h.newPage();
      await signIn(customer, "/login", "customer", "Customer123", /\/app\/dashboard/);
      const submitted = await customer.evaluate(async (apiUrl) => {
        const headers: Record<string, string> = {
          "Content-Type": "application/json",
          Authorization: `Bearer ${localStorage.getItem("switchboard.token")}`,
        };
        const tenantId = localStorage.getItem("switchboard.tenantId");
        if (tenantId) headers["tenant-id"] = tenantId;
        const res = await fetch(`${apiUrl}/batch/submit`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            productCode: 3000,
            taskType: 2,
            submitMode: 2,
            numbers: ["+8613800138201", "+8613800138202", "+8613800138203"],
            content: { product: 3000, text: "Reviewed message: your order has shipped." },
          }),
        });
        return (await res.json()) as { code: number; data: { batch: { id: string; status: number } } };
      }, h.apiUrl);
      expect(submitted.code).toBe(0);
      expect(submitted.data.batch.status).toBe(11);
      const batchId = submitted.data.batch.id;
      await customer.context().close();

      const agent = await h.newPage();
      await signIn(agent, "/system/login", "agent", "Agent12345", /\/backend\/dashboard/);
      await agent.goto("/backend/sms/message/1");
      const row = rowOf(agent, batchId);
      await row.waitFor();
      await waitForStatus(row, "11", 5_000);
      await shot(agent, "batches-backend-review-list");

      await row.getByTestId("batch-review").click();
      const modal = agent.getByTestId("review-modal");
      await modal.getByTestId("content-preview").waitFor();
      expect(await modal.getByTestId("preview-text").innerText()).toContain("your order has shipped");
      await shot(agent, "batches-backend-review-modal");
      await modal.getByTestId("review-submit").click();
      await modal.waitFor({ state: "hidden" });
      // Passed: it leaves the review list.
      await row.waitFor({ state: "detached" });

      await agent.goto("/backend/sms/message/task");
      const taskRow = rowOf(agent, batchId);
      await taskRow.waitFor();
      await markPage(agent);
      await waitForStatus(taskRow, FINISHED);
      expect(await stillSamePage(agent)).toBe(true);

      await taskRow.getByTestId("batch-open").click();
      await agent.waitForURL(new RegExp(`/backend/sms/message/detail/${batchId}$`));
      const detail = agent.getByTestId("batch-detail");
      await detail.waitFor();
      await expect.poll(() => detail.getByTestId("count-sent").innerText(), { timeout: 20_000 }).toContain("3");
      expect(await detail.getByTestId("batch-history").innerText()).toContain("agent");
      await shot(agent, "batches-backend-detail");
      await agent.context().close();
    } finally {
      await prisma.tenantSetting.update({ where: { tenantId: tenant.id }, data: { reviewMode: before.reviewMode } });
    }
  });
});
