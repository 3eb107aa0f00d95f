// The admin's channel and product area in Chromium, end to end: a new SMPP channel to the run's SMSC simulator
// (created and tested in product/api), a customer price for one country and a route of the customer to the
// new channel; then the customer's next SMS batch is charged at that price and sent through that channel.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, SCREENSHOT_DIR, startHarness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ workers: true });
});
afterAll(() => h?.close());

const CHANNEL = "E2E SMSC";
const PRICE = "0.0123";
/** The demo customer in the user pickers: "customer (nickname) · 客户" (not "newcustomer"). */
const CUSTOMER_OPTION = /^customer( \(.*\))? · 客户$/;
/** Two British mobiles (GB, not the Crown dependencies that share +44). */
const NUMBERS = ["+447400123456", "+447400123457"];

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

async function call<T>(
  method: "GET" | "POST",
  url: string,
  token: string,
  body?: unknown,
  tenantId?: string,
): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, lang: "en" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (tenantId) headers["tenant-id"] = tenantId;
  const res = await fetch(`${h.apiUrl}${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Envelope<T>;
  if (json.code !== 0) throw new Error(`${method} ${url}: ${json.message}`);
  return json.data;
}

/** Picks an option of an antd Select by typing into it (when `search` is given) and clicking the exact label. */
async function choose(page: Page, testId: string, label: string | RegExp, search?: string) {
  const box = page.getByTestId(testId).locator("input").first();
  await box.click();
  if (search) await box.fill(search);
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-content")
    .getByText(label, { exact: true })
    .click();
}

/** The <input> of a form control, whether the test id sits on the input or on its wrapper. */
const inputOf = (page: Page, testId: string) =>
  page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

describe("channel and product area in Chromium", () => {
  it("creates and tests an SMPP channel, prices and routes a customer to it; the next batch uses both", async () => {
    const page = await h.newPage();
    await page.goto("/system/login");
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("Admin12345");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/\/backend\/dashboard/);
    const session = await page.evaluate(() => ({
      token: localStorage.getItem("switchboard.token") ?? "",
      tenantId: localStorage.getItem("switchboard.tenantId") ?? "",
    }));
    expect(session.token).toBeTruthy();

    // ---- product/api: create the channel
    await page.goto("/backend/product/api");
    await page.getByTestId("channel-row-Demo SMSC (local simulator)").waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-api.png") });
    await page.getByTestId("channel-create").click();
    const form = page.getByTestId("channel-form");
    await form.waitFor();
    await page.getByTestId("channel-form-name").fill(CHANNEL);
    await page.getByTestId("channel-cfg-host").fill("127.0.0.1");
    await inputOf(page, "channel-cfg-port").fill(String(h.smsc?.port));
    await page.getByTestId("channel-cfg-systemId").fill("e2e");
    await page.getByTestId("channel-cfg-password").fill("e2e-pass");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-api-create.png") });
    await page.getByTestId("channel-form-submit").click();
    const row = page.getByTestId(`channel-row-${CHANNEL}`);
    await row.waitFor();
    await form.waitFor({ state: "detached" });

    const channels = await call<{ list: Array<{ id: number; name: string; config: Record<string, unknown> }> }>(
      "GET",
      "/channel/list?pageSize=200",
      session.token,
    );
    const created = channels.list.find((c) => c.name === CHANNEL);
    expect(created?.config).toMatchObject({ host: "127.0.0.1", port: h.smsc?.port, systemId: "e2e" });
    expect(created?.config).not.toHaveProperty("password");
    const channelId = created!.id;

    // ---- test connection: success with a latency
    await page.getByTestId(`channel-test-${channelId}`).click();
    await expect
      .poll(() => page.getByTestId("channel-test-outcome").textContent(), { timeout: 20_000 })
      .toBe("连接成功");
    expect(await page.getByTestId("channel-test-latency").textContent()).toMatch(/耗时 \d+ ms/);
    await page.getByTestId("channel-test-outcome").waitFor({ state: "visible" });
    await page.waitForTimeout(400); // the modal's zoom-in
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-api-test.png") });
    await page.getByTestId("channel-test-close").click();

    // ---- product/list: the customer's own SMS price in GB
    await page.goto("/backend/product/list");
    await page.getByTestId("products-panel").getByText("International SMS").waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-list.png") });
    await page.getByTestId("tab-prices").click();
    await choose(page, "prices-product", "International SMS · SMS");
    await choose(page, "prices-customer", CUSTOMER_OPTION, "customer");
    await page.getByTestId("prices-keyword").locator("input").fill("GB");
    await page.getByTestId("prices-keyword").locator("input").press("Enter");
    await page.getByTestId("price-set-GB").click();
    const unitPrice = page.getByTestId("price-form-unit-price");
    await unitPrice.fill(PRICE);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-list-price-form.png") });
    await page.getByTestId("price-form-submit").click();
    await page.getByTestId("price-form").waitFor({ state: "detached" });
    const gbRow = page.locator('tr[data-row-key="GB"]');
    await expect.poll(() => gbRow.textContent(), { timeout: 20_000 }).toContain(PRICE);
    expect(await gbRow.textContent()).toContain("客户价格");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-list-prices.png") });

    // ---- product/api routes: the customer's SMS product goes through the new channel
    await page.goto("/backend/product/api?tab=routes");
    await page.getByTestId("routes-panel").waitFor();
    await page.getByTestId("route-create").click();
    await choose(page, "route-form-customer", CUSTOMER_OPTION, "customer");
    await choose(page, "route-form-product", "International SMS · SMS");
    await choose(page, "route-form-channel", `${CHANNEL} · SMPP`);
    await page.getByTestId("route-form-submit").click();
    await page.getByTestId("route-form").waitFor({ state: "detached" });
    await page.getByTestId("routes-panel").locator("td", { hasText: CHANNEL }).waitFor();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-api-routes.png") });

    // ---- the customer's next SMS batch (through the API with the customer's token)
    const login = await fetch(`${h.apiUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "tenant-id": session.tenantId },
      body: JSON.stringify({ username: "customer", password: "Customer123" }),
    });
    const customer = ((await login.json()) as Envelope<{ token: string }>).data;
    const submitted = await call<{ batch: { id: string; cost: string; validCount: number; segments: number } }>(
      "POST",
      "/batch/submit",
      customer.token,
      {
        productCode: 3000,
        taskType: 2,
        submitMode: 2,
        numbers: NUMBERS,
        content: { product: 3000, text: "Channel e2e: hello" },
      },
    );
    const batch = submitted.batch;
    expect(batch.validCount).toBe(NUMBERS.length);
    expect(batch.segments).toBe(1);
    expect(batch.cost).toBe((NUMBERS.length * Number(PRICE)).toFixed(4)); // count x the new price

    // Sent through the routed channel (staff see each recipient's channel).
    await expect
      .poll(
        async () => {
          const r = await call<{ list: Array<{ channelId: number | null; sendResult: number; price: string }> }>(
            "GET",
            `/batch/recipients?id=${batch.id}`,
            session.token,
          );
          return r.list.map((x) => `${x.channelId}:${x.sendResult}:${x.price}`);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(NUMBERS.map(() => `${channelId}:1:${PRICE}`));

    // ---- the statistics and finance pages show the new channel's traffic
    await page.goto("/backend/product/statistics");
    const statsRow = page.getByTestId("stats-table").locator("tr", { hasText: CHANNEL });
    await expect.poll(() => statsRow.textContent(), { timeout: 20_000 }).toContain("100.0%");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-statistics.png"), fullPage: true });
    await page.goto("/backend/product/finance/api");
    const financeRow = page.getByTestId("finance-table").locator("tr", { hasText: CHANNEL });
    // Billed 0.0246 shows as an amount (0.02); what one message cost, as a unit price (0.0123).
    await expect.poll(() => financeRow.textContent(), { timeout: 20_000 }).toContain(PRICE);
    expect(await financeRow.textContent()).toContain("0.02");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "product-finance-api.png"), fullPage: true });
    await page.context().close();
  });
});
