// The web client sends `x-refusal-status: 200`: business refusals then answer HTTP 200 with code 1, so a browser
// does not log each expected 402 / 403 / 409 as a failed request. Without the header, statuses match the envelope.
import { REFUSAL_STATUS_HEADER, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, FinanceFixtures } from "./finance-fixtures";
import { call, createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
let fx: FinanceFixtures;
let admin: Account;
let customer: Account;
const web = { [REFUSAL_STATUS_HEADER]: "200" };

beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: "https://app.example.com" });
  fx = new FinanceFixtures(t);
  const tenantId = await demoTenantId(t.prisma);
  admin = await fx.account(UserType.ADMIN, tenantId);
  customer = await fx.account(UserType.USER, tenantId, { balance: "2.00" });
});
afterAll(async () => {
  await fx.expectLedgersReplay();
  await t.close();
});

describe("business refusals for the web client", () => {
  it("402: a deduct past the balance answers 200 with code 1 and the message, and changes nothing", async () => {
    const body = { userId: customer.id, amount: "5", remark: "x" };
    const plain = await call(t.app, "POST", "/finance/deduct", { token: admin.token, body, lang: "en" });
    expect(plain.status).toBe(402);
    const res = await call(t.app, "POST", "/finance/deduct", { token: admin.token, body, lang: "en", headers: web });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.body).toEqual({ code: 1, message: "insufficient balance (current balance 2.00)", data: null });
    expect(await fx.balance(customer.id)).toBe("2.0000");
  });

  it("403, 404 and 400 (validation) answer 200 with code 1 too", async () => {
    const forbidden = await call(t.app, "POST", "/finance/recharge", {
      token: customer.token,
      body: { userId: customer.id, amount: "1" },
      headers: web,
    });
    expect({ status: forbidden.status, code: forbidden.body.code }).toEqual({ status: 200, code: 1 });
    const missing = await call(t.app, "POST", "/finance/recharge", {
      token: admin.token,
      body: { userId: 2_000_000_000, amount: "1" },
      headers: web,
    });
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 200, code: 1 });
    const invalid = await call(t.app, "POST", "/finance/recharge", {
      token: admin.token,
      body: { userId: customer.id, amount: "1.234" },
      lang: "en",
      headers: web,
    });
    expect(invalid.status).toBe(200);
    expect(invalid.body).toMatchObject({ code: 1, data: null });
    expect(invalid.body.message).toContain("amount");
  });

  it("keeps 401 (signed out), an unknown route's 404 and a success's 200 as they are", async () => {
    const signedOut = await call(t.app, "GET", "/user/info", { headers: web });
    expect({ status: signedOut.status, code: signedOut.body.code }).toEqual({ status: 401, code: 401 });
    const unknown = await call(t.app, "GET", "/no/such/route", { headers: web });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 1 });
    const ok = await call(t.app, "GET", "/user/info", { token: customer.token, headers: web });
    expect({ status: ok.status, code: ok.body.code }).toEqual({ status: 200, code: 0 });
  });

  it("lets the web client's origin send the header (CORS preflight)", async () => {
    const res = await t.app.inject({
      method: "OPTIONS",
      url: "/finance/deduct",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": `authorization,content-type,${REFUSAL_STATUS_HEADER}`,
      },
    });
    expect(String(res.headers["access-control-allow-headers"])).toContain(REFUSAL_STATUS_HEADER);
  });
});
