// Prices: default and per-user prices through every action and country scope, the one resolution function
// (table-driven), the agent's cost floor, the price lists, role and tenant boundaries, bad input.
import { formatMoney } from "@switchboard/contracts";
import { resolveUnitPrice, resolveUnitPrices } from "@switchboard/domain/price-resolution";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingDb, createProduct, makeWorld, ok, type ProductData, refused, type World } from "./catalog-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let w: World;
let other: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
});
afterAll(() => t.close());

type Expect = string | `${string}/${"customer" | "default"}`;

/** Resolution of each country as "units/source" or the failure reason. */
async function resolved(customerId: number, productId: number, countries: string[]): Promise<Record<string, Expect>> {
  const all = await resolveUnitPrices(t.prisma, { customerId, productId, countryCodes: countries });
  const out: Record<string, Expect> = {};
  for (const [code, r] of all) out[code] = r.ok ? `${r.unitPrice}/${r.source}` : r.reason;
  return out;
}

const setDefault = (body: Record<string, unknown>) =>
  ok<{ action: number; countries: number }>(t, "POST", "/price/default/set", { token: w.admin.token, body });
const setCustomer = (token: string, body: Record<string, unknown>) =>
  ok<{ action: number; countries: number }>(t, "POST", "/price/customer/set", { token, body });

describe("price resolution table: default and customer prices through every action and scope", () => {
  const countries = ["US", "GB", "CN", "DE", "FR", "KP"];
  let product: ProductData;
  let served: number;

  beforeAll(async () => {
    product = await createProduct(t, w.admin, { countryScope: 3, countryCodes: ["KP"] });
    served = (await t.prisma.country.count()) - 1;
  });

  it("walks the table", async () => {
    const pid = () => ({ productId: product.id });
    const steps: Array<{
      what: string;
      run: () => Promise<{ countries: number }>;
      touched: number;
      expect: Record<string, Expect>;
    }> = [
      {
        what: "default, set, scope 1: every country the product serves",
        run: () => setDefault({ ...pid(), action: 1, countryScope: 1, unitPrice: "0.05" }),
        touched: served,
        expect: {
          US: "500/default",
          GB: "500/default",
          CN: "500/default",
          DE: "500/default",
          FR: "500/default",
          KP: "country_not_served",
        },
      },
      {
        what: "default, set, scope 2: only the listed",
        run: () => setDefault({ ...pid(), action: 1, countryScope: 2, countryCodes: ["US", "gb"], unitPrice: "0.02" }),
        touched: 2,
        expect: { US: "200/default", GB: "200/default", CN: "500/default", DE: "500/default", FR: "500/default" },
      },
      {
        what: "default, set, scope 3: all served but the listed",
        run: () =>
          setDefault({ ...pid(), action: 1, countryScope: 3, countryCodes: ["US", "GB", "CN", "DE"], unitPrice: 0.03 }),
        touched: served - 4,
        expect: { US: "200/default", GB: "200/default", CN: "500/default", DE: "500/default", FR: "300/default" },
      },
      {
        what: "default, clear, scope 2: the country has no price any more",
        run: () => setDefault({ ...pid(), action: 2, countryScope: 2, countryCodes: ["DE"] }),
        touched: 1,
        expect: { DE: "no_price", FR: "300/default" },
      },
      {
        what: "customer, set, scope 2",
        run: () =>
          setCustomer(w.admin.token, {
            userId: w.customer.id,
            ...pid(),
            action: 1,
            countryScope: 2,
            countryCodes: ["US"],
            unitPrice: "0.0100",
          }),
        touched: 1,
        expect: { US: "100/customer", GB: "200/default", DE: "no_price" },
      },
      {
        what: "customer, set, scope 3: a customer price needs no default",
        run: () =>
          setCustomer(w.admin.token, {
            userId: w.customer.id,
            ...pid(),
            action: 1,
            countryScope: 3,
            countryCodes: ["US", "CN"],
            unitPrice: "0.04",
          }),
        touched: served - 2,
        expect: {
          US: "100/customer",
          GB: "400/customer",
          CN: "500/default",
          DE: "400/customer",
          FR: "400/customer",
          KP: "country_not_served",
        },
      },
      {
        what: "customer, clear, scope 2: falls back to the default",
        run: () =>
          setCustomer(w.admin.token, {
            userId: w.customer.id,
            ...pid(),
            action: 2,
            countryScope: 2,
            countryCodes: ["GB"],
          }),
        touched: 1,
        expect: { GB: "200/default", FR: "400/customer" },
      },
      {
        what: "customer, clear, scope 3: all but the listed",
        run: () =>
          setCustomer(w.admin.token, {
            userId: w.customer.id,
            ...pid(),
            action: 2,
            countryScope: 3,
            countryCodes: ["US"],
          }),
        touched: served - 3, // US kept; GB and CN had no customer price
        expect: { US: "100/customer", FR: "300/default", DE: "no_price" },
      },
      {
        what: "customer, clear, scope 1: everything back to the defaults",
        run: () => setCustomer(w.admin.token, { userId: w.customer.id, ...pid(), action: 2, countryScope: 1 }),
        touched: 1,
        expect: {
          US: "200/default",
          GB: "200/default",
          CN: "500/default",
          DE: "no_price",
          FR: "300/default",
          KP: "country_not_served",
        },
      },
    ];
    for (const step of steps) {
      const result = await step.run();
      expect(result.countries, step.what).toBe(step.touched);
      const got = await resolved(w.customer.id, product.id, countries);
      for (const [country, want] of Object.entries(step.expect))
        expect(`${step.what}: ${country} ${got[country]}`).toBe(`${step.what}: ${country} ${want}`);
    }
    // another customer of the tenant never saw any of the customer prices
    expect(await resolved(w.direct.id, product.id, ["US", "FR"])).toEqual({ US: "200/default", FR: "300/default" });
  });

  it("bulk and single resolution agree for every country", async () => {
    const codes = (await t.prisma.country.findMany({ select: { code: true } })).map((c) => c.code);
    const bulk = await resolveUnitPrices(t.prisma, {
      customerId: w.customer.id,
      productId: product.id,
      countryCodes: codes,
    });
    expect(bulk.size).toBe(codes.length);
    const counted = countingDb(t.prisma);
    await resolveUnitPrices(counted.db, { customerId: w.customer.id, productId: product.id, countryCodes: codes });
    expect(counted.calls()).toBe(4);
    for (const code of ["US", "KP", "DE", "JP"]) {
      expect(
        await resolveUnitPrice(t.prisma, { customerId: w.customer.id, productId: product.id, countryCode: code }),
      ).toEqual(bulk.get(code));
    }
  });

  it("reports a paused product, a country outside the product's scope, an unknown customer and another tenant's product", async () => {
    const p = await createProduct(t, w.admin, { countryScope: 2, countryCodes: ["US", "GB"] });
    await setDefault({ productId: p.id, action: 1, countryScope: 1, unitPrice: "0.01" });
    expect(await resolved(w.customer.id, p.id, ["US", "FR"])).toEqual({ US: "100/default", FR: "country_not_served" });
    await ok(t, "POST", "/product/status", { token: w.admin.token, body: { id: p.id, status: 2 } });
    expect(await resolved(w.customer.id, p.id, ["US", "FR"])).toEqual({ US: "product_paused", FR: "product_paused" });
    expect(await resolved(999_999_999, p.id, ["US"])).toEqual({ US: "customer_not_found" });
    expect(await resolved(other.customer.id, p.id, ["US"])).toEqual({ US: "product_not_found" });
  });
});

describe("agent prices: its own customers only, never below its own cost", () => {
  let product: ProductData;
  beforeAll(async () => {
    product = await createProduct(t, w.admin);
    await setDefault({ productId: product.id, action: 1, countryScope: 1, unitPrice: "0.05" });
    // the admin gives the agent a cost price below the default in the US
    await setCustomer(w.admin.token, {
      userId: w.agent.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US"],
      unitPrice: "0.03",
    });
  });

  it("refuses a price below the agent's cost, naming the country and the floor", async () => {
    const msg = await refused(t, "POST", "/price/customer/set", 400, {
      token: w.agent.token,
      body: {
        userId: w.customer.id,
        productId: product.id,
        action: 1,
        countryScope: 2,
        countryCodes: ["US"],
        unitPrice: "0.0299",
      },
    });
    expect(msg).toBe("the price 0.0299 for US is below your cost price 0.0300");
    // the default price is the agent's cost where it has no cost price of its own
    const wide = await refused(t, "POST", "/price/customer/set", 400, {
      token: w.agent.token,
      body: {
        userId: w.customer.id,
        productId: product.id,
        action: 1,
        countryScope: 2,
        countryCodes: ["US", "FR"],
        unitPrice: "0.04",
      },
    });
    expect(wide).toBe("the price 0.0400 for FR is below your cost price 0.0500");
    expect(await t.prisma.customerPrice.count({ where: { userId: w.customer.id, productId: product.id } })).toBe(0);
  });

  it("accepts a price at or above the cost", async () => {
    await setCustomer(w.agent.token, {
      userId: w.customer.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US"],
      unitPrice: "0.03",
    });
    await setCustomer(w.agent.token, {
      userId: w.customer.id,
      productId: product.id,
      action: 1,
      countryScope: 3,
      countryCodes: ["US"],
      unitPrice: "0.06",
    });
    expect(await resolved(w.customer.id, product.id, ["US", "FR"])).toEqual({ US: "300/customer", FR: "600/customer" });
    // an agent may always clear
    await setCustomer(w.agent.token, {
      userId: w.customer.id,
      productId: product.id,
      action: 2,
      countryScope: 2,
      countryCodes: ["FR"],
    });
    expect(await resolved(w.customer.id, product.id, ["FR"])).toEqual({ FR: "500/default" });
  });

  it("refuses a country where the agent has no cost at all", async () => {
    await setDefault({ productId: product.id, action: 2, countryScope: 2, countryCodes: ["JP"] });
    const msg = await refused(t, "POST", "/price/customer/set", 400, {
      token: w.agent.token,
      body: {
        userId: w.customer.id,
        productId: product.id,
        action: 1,
        countryScope: 2,
        countryCodes: ["JP"],
        unitPrice: "9",
      },
    });
    expect(msg).toBe("you have no cost price for JP; ask the platform administrator");
  });

  it("does not bind the admin, who may price any customer below an agent's cost", async () => {
    await setCustomer(w.admin.token, {
      userId: w.customer.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["GB"],
      unitPrice: "0.0001",
    });
    expect(await resolved(w.customer.id, product.id, ["GB"])).toEqual({ GB: "1/customer" });
  });

  it("answers 404 for users the agent does not own: another agent's customer, a direct customer, itself, another tenant's", async () => {
    for (const userId of [
      w.otherCustomer.id,
      w.direct.id,
      w.agent.id,
      w.otherAgent.id,
      other.customer.id,
      w.admin.id,
    ]) {
      const msg = await refused(t, "POST", "/price/customer/set", 404, {
        token: w.agent.token,
        body: { userId, productId: product.id, action: 1, countryScope: 1, unitPrice: "1" },
      });
      expect(msg).toBe("user not found");
    }
  });

  it("lets the admin price agents and customers but not admins or another tenant's users", async () => {
    for (const userId of [w.admin.id, other.customer.id, other.agent.id]) {
      await refused(t, "POST", "/price/customer/set", 404, {
        token: w.admin.token,
        body: { userId, productId: product.id, action: 1, countryScope: 1, unitPrice: "1" },
      });
    }
  });
});

describe("price lists", () => {
  let product: ProductData;
  beforeAll(async () => {
    product = await createProduct(t, w.admin, { countryScope: 3, countryCodes: ["KP"] });
    await setDefault({ productId: product.id, action: 1, countryScope: 1, unitPrice: "0.05" });
    await setDefault({ productId: product.id, action: 2, countryScope: 2, countryCodes: ["DE"] });
    await setCustomer(w.admin.token, {
      userId: w.agent.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US"],
      unitPrice: "0.02",
    });
    await setCustomer(w.agent.token, {
      userId: w.customer.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US"],
      unitPrice: "0.025",
    });
  });

  interface Row {
    countryCode: string;
    unitPrice: string | null;
    source: string | null;
    costPrice?: string | null;
    countryName: string;
    dialCode: string;
  }
  const list = (token: string, query: Record<string, string>) =>
    ok<{ list: Row[]; total: number; currency: string; userId: number | null; user: string | null }>(
      t,
      "GET",
      "/price/list",
      { token, lang: "en", query: { productId: String(product.id), pageSize: "200", ...query } },
    );
  const row = (rows: Row[], code: string) => rows.find((r) => r.countryCode === code);

  it("shows admins the default prices of every served country, with paging and keyword", async () => {
    const all = await list(w.admin.token, {});
    expect(all.total).toBe((await t.prisma.country.count()) - 1);
    expect(all.list).toHaveLength(200);
    expect(all.currency).toBe("USD");
    expect(all).toMatchObject({ userId: null, user: null });
    const rest = await list(w.admin.token, { page: "2" });
    expect(rest.list).toHaveLength(all.total - 200);
    const everything = [...all.list, ...rest.list];
    expect(new Set(everything.map((r) => r.countryCode)).size).toBe(all.total);
    expect(row(everything, "US")).toEqual({
      countryCode: "US",
      countryName: "United States",
      dialCode: "1",
      unitPrice: "0.0500",
      screeningPrice: null,
      marketingPrice: null,
      utilityPrice: null,
      authenticationPrice: null,
      source: "default",
    });
    expect(row(everything, "DE")).toMatchObject({ unitPrice: null, source: null });
    expect(row(everything, "KP")).toBeUndefined();
    const page = await list(w.admin.token, { keyword: "germany", page: "1", pageSize: "5" });
    expect(page).toMatchObject({ total: 1, list: [{ countryCode: "DE" }] });
  });

  it("shows a user's effective prices, and an agent its own cost beside its customer's price", async () => {
    const us = await list(w.admin.token, { userId: String(w.customer.id), keyword: "united states" });
    const fr = await list(w.admin.token, { userId: String(w.customer.id), keyword: "france" });
    expect(row(us.list, "US")).toMatchObject({ unitPrice: "0.0250", source: "customer" });
    expect(row(fr.list, "FR")).toMatchObject({ unitPrice: "0.0500", source: "default" });
    expect(row(us.list, "US")).not.toHaveProperty("costPrice");
    // the screens name whose prices these are (the customer list's "prices and routes" link carries only the id)
    expect(us).toMatchObject({ userId: w.customer.id, user: w.customer.username });

    const byAgent = await list(w.agent.token, { userId: String(w.customer.id), keyword: "united states" });
    expect(row(byAgent.list, "US")).toMatchObject({ unitPrice: "0.0250", source: "customer", costPrice: "0.0200" });

    const own = await list(w.agent.token, { keyword: "united states" });
    expect(own).toMatchObject({ userId: w.agent.id, user: w.agent.username });
    expect(row(own.list, "US")).toMatchObject({ unitPrice: "0.0200", source: "customer" });
    const ownFr = await list(w.agent.token, { keyword: "france" });
    expect(row(ownFr.list, "FR")).toMatchObject({ unitPrice: "0.0500", source: "default" });
  });

  it("screening prices: set apart from message prices, overridden per user, never below an agent's cost", async () => {
    // alone, a screening price needs a country that has a price
    const refused = await t.app.inject({
      method: "POST",
      url: "/price/default/set",
      headers: { authorization: `Bearer ${w.admin.token}`, lang: "en" },
      payload: { productId: product.id, action: 1, countryScope: 2, countryCodes: ["DE"], screeningPrice: "0.001" },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain("DE has no price yet");
    await setDefault({
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US", "FR"],
      screeningPrice: "0.002",
    });
    await setCustomer(w.admin.token, {
      userId: w.agent.id,
      productId: product.id,
      action: 1,
      countryScope: 2,
      countryCodes: ["US"],
      screeningPrice: "0.0015",
    });
    // the message prices stay as they were
    const fr = await list(w.admin.token, { keyword: "france" });
    expect(row(fr.list, "FR")).toMatchObject({ unitPrice: "0.0500", screeningPrice: "0.0020" });
    const own = await list(w.agent.token, { keyword: "united states" });
    expect(row(own.list, "US")).toMatchObject({ unitPrice: "0.0200", screeningPrice: "0.0015" });
    // the customer's row has no screening price of its own: the default's applies
    const customer = await list(w.admin.token, { userId: String(w.customer.id), keyword: "united states" });
    expect(row(customer.list, "US")).toMatchObject({ unitPrice: "0.0250", screeningPrice: "0.0020" });
    const below = await t.app.inject({
      method: "POST",
      url: "/price/customer/set",
      headers: { authorization: `Bearer ${w.agent.token}`, lang: "en" },
      payload: {
        userId: w.customer.id,
        productId: product.id,
        action: 1,
        countryScope: 2,
        countryCodes: ["US"],
        screeningPrice: "0.001",
      },
    });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toContain("below your cost price 0.0015");
  });

  it("hides other agents' customers and other tenants' products; customers may not call it", async () => {
    await refused(t, "GET", "/price/list", 404, {
      token: w.agent.token,
      query: { productId: String(product.id), userId: String(w.otherCustomer.id) },
    });
    const foreign = await createProduct(t, other.admin);
    expect(
      await refused(t, "GET", "/price/list", 404, { token: w.admin.token, query: { productId: String(foreign.id) } }),
    ).toBe("product not found");
    await refused(t, "GET", "/price/list", 403, { token: w.customer.token, query: { productId: String(product.id) } });
  });

  it("GET /user/product/price: a customer's effective prices by product and country, in the tenant's currency", async () => {
    const mine = await ok<{ list: Array<Record<string, unknown>>; total: number; currency: string }>(
      t,
      "GET",
      "/user/product/price",
      {
        token: w.customer.token,
        lang: "en",
        query: { productId: String(product.id), keyword: "US", pageSize: "200" },
      },
    );
    expect(mine.currency).toBe("USD");
    expect(mine.list.find((r) => r.countryCode === "US")).toEqual({
      productId: product.id,
      productCode: 3000,
      productName: product.name,
      countryCode: "US",
      countryName: "United States",
      dialCode: "1",
      unitPrice: "0.0250",
      source: "customer",
      currency: "USD",
    });
    // countries without a price are not offered
    const de = await ok<{ list: unknown[] }>(t, "GET", "/user/product/price", {
      token: w.customer.token,
      query: { productId: String(product.id), keyword: "DE" },
    });
    expect(de.list.filter((r) => (r as { countryCode: string }).countryCode === "DE")).toEqual([]);

    // agents for their customers, admins naming the user
    const byAgent = await ok<{ total: number }>(t, "GET", "/user/product/price", {
      token: w.agent.token,
      query: { userId: String(w.customer.id), productId: String(product.id) },
    });
    expect(byAgent.total).toBe((await t.prisma.country.count()) - 2);
    await ok(t, "GET", "/user/product/price", { token: w.admin.token, query: { userId: String(w.customer.id) } });
    expect(await refused(t, "GET", "/user/product/price", 400, { token: w.admin.token })).toBe(
      "field userId is required",
    );
    await refused(t, "GET", "/user/product/price", 404, {
      token: w.customer.token,
      query: { userId: String(w.direct.id) },
    });
    await refused(t, "GET", "/user/product/price", 404, {
      token: w.agent.token,
      query: { userId: String(w.otherCustomer.id) },
    });
    await refused(t, "GET", "/user/product/price", 404, {
      token: w.admin.token,
      query: { userId: String(other.customer.id) },
    });
  });

  it("leaves paused products out of a customer's price list", async () => {
    const p = await createProduct(t, w.admin);
    await setDefault({ productId: p.id, action: 1, countryScope: 2, countryCodes: ["US"], unitPrice: "1" });
    const before = await ok<{ total: number }>(t, "GET", "/user/product/price", {
      token: w.direct.token,
      query: { productId: String(p.id) },
    });
    expect(before.total).toBe(1);
    await ok(t, "POST", "/product/status", { token: w.admin.token, body: { id: p.id, status: 2 } });
    const after = await ok<{ total: number }>(t, "GET", "/user/product/price", {
      token: w.direct.token,
      query: { productId: String(p.id) },
    });
    expect(after.total).toBe(0);
  });
});

describe("price routes: roles, tenants, bad input", () => {
  let product: ProductData;
  beforeAll(async () => {
    product = await createProduct(t, w.admin, { countryScope: 2, countryCodes: ["US", "GB"] });
  });

  it("keeps default prices to admins", async () => {
    const body = { productId: product.id, action: 1, countryScope: 1, unitPrice: "1" };
    await refused(t, "POST", "/price/default/set", 403, { token: w.agent.token, body });
    await refused(t, "POST", "/price/default/set", 403, { token: w.customer.token, body });
    await refused(t, "POST", "/price/default/set", 401, { body });
    await refused(t, "POST", "/price/customer/set", 403, {
      token: w.customer.token,
      body: { ...body, userId: w.customer.id },
    });
    expect(await t.prisma.price.count({ where: { productId: product.id } })).toBe(0);
  });

  it("answers another tenant's product like a missing one", async () => {
    const foreign = await createProduct(t, other.admin);
    for (const productId of [foreign.id, 999_999_999]) {
      expect(
        await refused(t, "POST", "/price/default/set", 404, {
          token: w.admin.token,
          body: { productId, action: 1, countryScope: 1, unitPrice: "1" },
        }),
      ).toBe("product not found");
      expect(
        await refused(t, "POST", "/price/customer/set", 404, {
          token: w.admin.token,
          body: { userId: w.customer.id, productId, action: 1, countryScope: 1, unitPrice: "1" },
        }),
      ).toBe("product not found");
    }
    expect(await t.prisma.price.count({ where: { productId: foreign.id } })).toBe(0);
  });

  it("refuses bad input naming the field, and writes nothing", async () => {
    const base = { productId: product.id, action: 1, countryScope: 1, unitPrice: "0.01" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, productId: undefined }, "productId"],
      [{ ...base, action: 3 }, "action"],
      [{ ...base, countryScope: 0 }, "countryScope"],
      [{ ...base, unitPrice: undefined }, "field unitPrice is required"],
      [{ ...base, unitPrice: "0.00001" }, "unitPrice"],
      [{ ...base, unitPrice: "-1" }, "unitPrice"],
      [{ ...base, unitPrice: "0" }, "unitPrice"],
      [{ ...base, unitPrice: "abc" }, "unitPrice"],
      [{ ...base, countryScope: 2 }, "countryCodes"],
      [{ ...base, countryScope: 2, countryCodes: ["US1"] }, "countryCodes"],
      [{ ...base, countryScope: 2, countryCodes: ["ZZ"] }, "unknown country codes: ZZ"],
      [{ ...base, countryScope: 2, countryCodes: ["US", "FR"] }, `product ${product.name} does not serve: FR`],
    ];
    for (const [body, text] of cases) {
      expect(
        await refused(t, "POST", "/price/default/set", 400, { token: w.admin.token, body }),
        JSON.stringify(body),
      ).toContain(text);
      expect(
        await refused(t, "POST", "/price/customer/set", 400, {
          token: w.admin.token,
          body: { ...body, userId: w.customer.id },
        }),
      ).toContain(text);
    }
    expect(await refused(t, "POST", "/price/customer/set", 400, { token: w.admin.token, body: base })).toContain(
      "userId",
    );
    expect(await refused(t, "GET", "/price/list", 400, { token: w.admin.token, query: {} })).toContain("productId");
    expect(await refused(t, "GET", "/price/list", 400, { token: w.admin.token, query: { productId: "x" } })).toContain(
      "productId",
    );
    expect(
      await refused(t, "GET", "/user/product/price", 400, { token: w.customer.token, query: { productCode: "4000" } }),
    ).toContain("productCode");
    expect(await t.prisma.price.count({ where: { productId: product.id } })).toBe(0);
    expect(await t.prisma.customerPrice.count({ where: { productId: product.id } })).toBe(0);
  });

  it("formats money with four decimals", () => {
    expect(formatMoney(250n)).toBe("0.0250");
  });
});
