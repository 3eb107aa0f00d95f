// The back office's customer management and the agent's finance pages in a real browser: an agent recharges its
// customer (first refused for more than its own balance, then after an admin's top-up), the customer sees the new
// balance, and the menus and guards follow the roles (docs/permissions.md, docs/finance.md).
import path from "node:path";
import { createPrisma } from "@switchboard/db";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

/** The machine is shared: give lists time to refresh. */
const POLL = { timeout: 15_000 };
const SLOW = { timeout: 150_000 };

let h: Harness;
const prisma = createPrisma(inject("databaseUrl"), { max: 2 });
/** The seed customer's balance once recharged (money units): other files may have spent some before this one. */
let recharged = 0n;
/** The seed agent's balance (funded by the seed) after the admin's 100 and its recharge of 12.50. */
let agentAfter = 0n;
beforeAll(async () => {
  h = await startHarness();
  const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer" }, select: { balance: true } });
  recharged = customer.balance + 125_000n;
  const agent = await prisma.user.findFirstOrThrow({ where: { username: "agent" }, select: { balance: true } });
  agentAfter = agent.balance + 1_000_000n - 125_000n;
});
afterAll(async () => {
  await h?.close();
  await prisma.$disconnect();
});

/** Money units as the pages show amounts (formatMoney): two decimals, thousands separators. */
const shown = (units: bigint) =>
  (Number(units) / 10_000).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });

async function signIn(loginPath: string, username: string, password: string, home: RegExp): Promise<Page> {
  const page = await h.newPage();
  await page.goto(loginPath);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(home);
  await page.getByTestId("menu").waitFor();
  return page;
}

const staff = (username: string, password: string) =>
  signIn("/system/login", username, password, /\/backend\/dashboard/);

/** An API call from the page, with the page's own session (token and tenant from local storage). */
function apiFromPage(page: Page, apiPath: string) {
  return page.evaluate(
    async ({ url }) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${localStorage.getItem("switchboard.token")}`,
      };
      const tenant = localStorage.getItem("switchboard.tenantId");
      if (tenant) headers["tenant-id"] = tenant;
      const r = await fetch(url, { headers });
      return { status: r.status, body: (await r.json()) as { code: number; message: string; data: unknown } };
    },
    { url: `${h.apiUrl}${apiPath}` },
  );
}

/** Picks an account in the modal's user picker by typing part of its name. */
async function pickUser(page: Page, username: string) {
  const picker = page.getByTestId("balance-user");
  await picker.click();
  await page.keyboard.type(username);
  await page
    .locator(".ant-select-item-option")
    .filter({ hasText: new RegExp(`^${username}\\b`) })
    .first()
    .click();
}

async function openRechargeModal(page: Page) {
  await page.getByTestId("open-recharge").click();
  await page.getByTestId("balance-amount").waitFor();
}

describe("customer management in Chromium", () => {
  it(
    "agent recharges its customer 12.5 (refused for more than its own balance); the customer sees it",
    SLOW,
    async () => {
      const agent = await staff("agent", "Agent12345");
      await agent.goto("/backend/customer/recharge/add");
      await agent.getByTestId("recharge-table-totals").waitFor();
      await openRechargeModal(agent);
      await pickUser(agent, "customer");
      await agent.getByTestId("balance-amount").fill("50000");
      await agent.getByTestId("balance-remark").fill("e2e top-up");
      await agent.getByTestId("balance-submit").click();
      // More than the seed's agent holds of its own (10,000.00): the modal refuses it before sending, and says why.
      await agent.getByText("金额超过您的当前余额", { exact: false }).waitFor(POLL);
      await shot(agent, "backend-customer-recharge-agent-short");

      // An admin tops the agent up from the same page.
      const admin = await staff("admin", "Admin12345");
      await admin.goto("/backend/customer/recharge/add");
      await openRechargeModal(admin);
      await pickUser(admin, "agent");
      await admin.getByTestId("balance-amount").fill("100");
      await admin.getByTestId("balance-submit").click();
      await admin.getByTestId("balance-modal").waitFor({ state: "hidden" });
      await expect.poll(() => admin.getByTestId("recharge-table").textContent(), POLL).toContain("+100.00");
      await shot(admin, "backend-customer-recharge-add");
      await admin.context().close();

      // The agent tries again with what it can pay: recharged, and the record shows.
      await agent.getByTestId("balance-amount").fill("12.5");
      await agent.getByTestId("balance-submit").click();
      await agent.getByTestId("balance-modal").waitFor({ state: "hidden" });
      await expect.poll(() => agent.getByTestId("recharge-table").textContent(), POLL).toContain("e2e top-up");
      const row = agent.locator("tr", { hasText: "e2e top-up" });
      expect(await row.textContent()).toContain("+12.50");
      expect(await row.textContent()).toContain(shown(recharged));
      await shot(agent, "backend-customer-recharge-agent");

      // The agent's own finance page shows both sides: the admin's +100 and the -12.50 naming the customer.
      await agent.goto("/backend/finance/recharge");
      await expect
        .poll(() => agent.getByTestId("agent-recharge-table").textContent(), POLL)
        .toContain("[customer] e2e top-up");
      expect(await agent.getByTestId("agent-recharge-table").textContent()).toContain("+100.00");
      expect(await agent.getByTestId("agent-balance").textContent()).toContain(shown(agentAfter));
      await shot(agent, "backend-finance-recharge");
      await agent.goto("/backend/finance/deduct");
      await agent.getByTestId("agent-deduct-table-totals").waitFor();
      await shot(agent, "backend-finance-deduct");
      await agent.goto("/backend/finance/consume");
      await agent.getByTestId("consume-table-totals").waitFor();
      await shot(agent, "backend-finance-consume");
      await agent.context().close();

      // The customer signs in and sees the new balance.
      const customer = await signIn("/login", "customer", "Customer123", /\/app\/dashboard/);
      const info = await apiFromPage(customer, "/user/info");
      expect(info.body.code).toBe(0);
      expect((info.body.data as { balance: string }).balance).toBe((Number(recharged) / 10_000).toFixed(4));
      await customer.goto("/app/finance/recharge/add");
      await customer.getByTestId("menu").waitFor();
      // The customer's own record list is another helper's page; when it is there it lists the recharge.
      const records = await apiFromPage(customer, "/finance/recharge/list?type=add");
      expect(JSON.stringify(records.body.data)).toContain("e2e top-up");
      await shot(customer, "app-finance-recharge-after-agent");
      await customer.context().close();
    },
  );

  it("admin: menus, the customer list with its modals, the login log and the other customer pages", SLOW, async () => {
    const admin = await staff("admin", "Admin12345");
    const menu = admin.getByTestId("menu");
    expect(await menu.textContent()).toContain("通道与产品");
    expect(await menu.textContent()).toContain("系统设置");
    expect(await menu.textContent()).not.toContain("财务");

    await admin.goto("/backend/customer/list");
    await admin.getByTestId("customer-balance-customer").waitFor();
    expect(await admin.getByTestId("customer-balance-customer").textContent()).toBe(shown(recharged));
    expect(await menu.textContent()).toContain("客户登录日志");
    await shot(admin, "backend-customer-list");

    // Search by keyword keeps the filter in the URL.
    await admin.getByTestId("customer-keyword").fill("newcustomer");
    await admin.getByTestId("customer-filters-submit").click();
    await admin.waitForURL(/keyword=newcustomer/);
    await expect.poll(() => admin.getByTestId("customer-table").textContent(), POLL).not.toContain("Demo Customer");

    // Create a customer under the agent.
    await admin.getByTestId("customer-create").click();
    await admin.getByTestId("user-form-username").fill("e2e-customer");
    await admin.getByTestId("user-form-password").fill("Copper-Violin-64");
    await admin.getByTestId("user-form-company").fill("E2E Ltd");
    await shot(admin, "backend-customer-create");
    // The answer is waited for before leaving the page: navigating away cancels the request in flight, and the
    // modal's test id was seen "hidden" 0.3 s after the click while the answer came at 1.1 s (a loaded machine).
    const created = admin.waitForResponse((r) => r.url().includes("/user/create"));
    await admin.getByTestId("user-form-submit").click();
    expect(((await (await created).json()) as { code: number }).code).toBe(0);
    await admin.getByTestId("user-form-modal").waitFor({ state: "hidden" });
    await admin.goto("/backend/customer/list?keyword=e2e-customer");
    await expect.poll(() => admin.getByTestId("customer-table").textContent(), POLL).toContain("E2E Ltd");

    // Delete the customer that still holds money: the server's refusal is shown.
    await admin.goto("/backend/customer/list?keyword=customer&type=3");
    await admin.getByTestId("customer-more-customer").click();
    await admin.locator(".ant-dropdown-menu-item", { hasText: "删除" }).click();
    await admin.locator(".ant-modal-confirm .ant-btn-dangerous").click();
    await admin.locator(".ant-message").getByText("余额").waitFor();
    await shot(admin, "backend-customer-delete-refused");

    await admin.goto("/backend/customer/log");
    await expect.poll(() => admin.getByTestId("login-log-table").textContent(), POLL).toContain("agent");
    await shot(admin, "backend-customer-log");
    await admin.goto("/backend/customer/consume");
    await admin.getByTestId("consume-table-totals").waitFor();
    await shot(admin, "backend-customer-consume");
    await admin.goto("/backend/customer/remit");
    await admin.getByTestId("remit-table-totals").waitFor();
    await shot(admin, "backend-customer-remit");
    await admin.goto("/backend/product/finance/remit");
    await admin.getByTestId("remit-table-totals").waitFor();
    await admin.goto("/backend/customer/authentication");
    await admin.getByTestId("authn-table-totals").waitFor();
    await shot(admin, "backend-customer-authentication");
    await admin.goto("/backend/customer/recharge/deduct");
    await admin.getByTestId("recharge-table-totals").waitFor();
    await shot(admin, "backend-customer-recharge-deduct");
    await admin.context().close();
  });

  it("agent: Finance in the menu, no login log, the not-allowed page and the API's refusal", SLOW, async () => {
    const agent = await staff("agent", "Agent12345");
    await agent.goto("/backend/customer/list");
    await agent.getByTestId("customer-balance-customer").waitFor();
    const menu = agent.getByTestId("menu");
    expect(await menu.textContent()).toContain("财务");
    expect(await menu.textContent()).not.toContain("客户登录日志");
    expect(await menu.textContent()).not.toContain("系统设置");
    await shot(agent, "backend-customer-list-agent");

    for (const forbidden of ["/backend/customer/log", "/backend/setting/system"]) {
      await agent.goto(forbidden);
      await agent.getByText("抱歉，您无权访问此页面").waitFor();
    }
    await shot(agent, "backend-forbidden-agent");
    const refused = await apiFromPage(agent, "/user/login/log");
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(1);
    await agent.context().close();
  });
});
