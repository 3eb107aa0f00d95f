// Countries and products: the country list, product create/edit/status/countries, who sees which products,
// tenant boundaries and bad input on every route.
import { UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  account,
  createProduct,
  makeWorld,
  ok,
  type ProductData,
  refused,
  superAdmin,
  type World,
} from "./catalog-fixtures";
import { call, createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let w: World;
let other: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
});
afterAll(() => t.close());

interface CountryData {
  code: string;
  dialCode: string;
  name: string;
  nameEn: string;
  nameZh: string;
}

describe("GET /country/list", () => {
  it("lists every ISO country with dial code and zh/en names, named in the request's language", async () => {
    const en = await ok<{ list: CountryData[]; total: number }>(t, "GET", "/country/list", {
      token: w.customer.token,
      lang: "en",
    });
    expect(en.total).toBe(en.list.length);
    expect(en.total).toBeGreaterThan(230);
    const cn = en.list.find((c) => c.code === "CN")!;
    expect(cn).toEqual({ code: "CN", dialCode: "86", name: "China", nameEn: "China", nameZh: "中国" });
    // ordered by the English name
    const names = en.list.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));

    const zh = await ok<{ list: CountryData[] }>(t, "GET", "/country/list", { token: w.admin.token, lang: "zh" });
    expect(zh.list.find((c) => c.code === "CN")!.name).toBe("中国");
  });

  it("filters by code, dial code with or without +, and names in both languages", async () => {
    const q = async (keyword: string) =>
      (
        await ok<{ list: CountryData[] }>(t, "GET", "/country/list", {
          token: w.agent.token,
          lang: "en",
          query: { keyword },
        })
      ).list.map((c) => c.code);
    expect(await q("us")).toContain("US");
    expect(await q("+44")).toEqual(expect.arrayContaining(["GB", "GG", "IM", "JE"]));
    expect(await q("86")).toContain("CN");
    expect(await q("germ")).toEqual(["DE"]);
    expect(await q("德国")).toEqual(["DE"]);
    expect(await q("zzzz")).toEqual([]);
  });

  it("needs a session and refuses a too long keyword", async () => {
    await refused(t, "GET", "/country/list", 401, {});
    const msg = await refused(t, "GET", "/country/list", 400, {
      token: w.admin.token,
      query: { keyword: "x".repeat(51) },
    });
    expect(msg).toContain("keyword");
  });
});

describe("products", () => {
  it("lets an admin create a product with a country scope; codes are upper-cased, deduplicated and sorted", async () => {
    const p = await createProduct(t, w.admin, {
      code: 2000,
      category: "WhatsApp",
      countryScope: 2,
      countryCodes: ["us", "CN", "US"],
    });
    expect(p).toMatchObject({
      code: 2000,
      category: "WhatsApp",
      status: 1,
      countryScope: 2,
      countryCodes: ["CN", "US"],
    });
    expect(p).toHaveProperty("defaultChannelId", null);
    const row = await t.prisma.product.findUniqueOrThrow({ where: { id: p.id } });
    expect(row.tenantId).toBe(w.tenantId);
  });

  it("stores no list for scope 1, and refuses unknown countries naming them", async () => {
    const p = await createProduct(t, w.admin, { countryScope: 1, countryCodes: ["US"] });
    expect(p.countryCodes).toEqual([]);
    const msg = await refused(t, "POST", "/product/create", 400, {
      token: w.admin.token,
      body: { code: 3000, name: "x", category: "SMS", countryScope: 3, countryCodes: ["US", "XX", "QQ"] },
    });
    expect(msg).toBe("unknown country codes: QQ, XX");
  });

  it("edits name and category, sets countries, pauses and enables (idempotently)", async () => {
    const p = await createProduct(t, w.admin);
    const edited = await ok<ProductData>(t, "POST", "/product/edit", {
      token: w.admin.token,
      body: { id: p.id, name: "Renamed", category: "Bulk SMS" },
    });
    expect(edited).toMatchObject({ name: "Renamed", category: "Bulk SMS" });
    const scoped = await ok<ProductData>(t, "POST", "/product/countries", {
      token: w.admin.token,
      body: { id: p.id, countryScope: 3, countryCodes: ["KP", "IR"] },
    });
    expect(scoped).toMatchObject({ countryScope: 3, countryCodes: ["IR", "KP"], name: "Renamed" });
    for (const status of [2, 2, 1, 1]) {
      const s = await ok<ProductData>(t, "POST", "/product/status", {
        token: w.admin.token,
        body: { id: p.id, status },
      });
      expect(s.status).toBe(status);
    }
  });

  it("shows admins every product of the tenant, agents and customers only active ones without channel details", async () => {
    const active = await createProduct(t, w.admin, { code: 1000, category: "RCS" });
    const paused = await createProduct(t, w.admin, { code: 1000, category: "RCS" });
    await ok(t, "POST", "/product/status", { token: w.admin.token, body: { id: paused.id, status: 2 } });
    const foreign = await createProduct(t, other.admin, { code: 1000 });

    const adminList = await ok<{ list: ProductData[]; total: number }>(t, "GET", "/product/list", {
      token: w.admin.token,
      query: { code: "1000", pageSize: "200" },
    });
    const adminIds = adminList.list.map((p) => p.id);
    expect(adminIds).toEqual(expect.arrayContaining([active.id, paused.id]));
    expect(adminIds).not.toContain(foreign.id);
    expect(adminList.list[0]).toHaveProperty("defaultChannelId");

    const pausedOnly = await ok<{ list: ProductData[] }>(t, "GET", "/product/list", {
      token: w.admin.token,
      query: { status: "2", pageSize: "200" },
    });
    expect(pausedOnly.list.every((p) => p.status === 2)).toBe(true);

    for (const who of [w.agent, w.customer]) {
      const list = await ok<{ list: ProductData[] }>(t, "GET", "/product/list", {
        token: who.token,
        query: { status: "2", pageSize: "200" },
      });
      const ids = list.list.map((p) => p.id);
      expect(ids).toContain(active.id);
      expect(ids).not.toContain(paused.id);
      expect(ids).not.toContain(foreign.id);
      expect(list.list[0]).not.toHaveProperty("defaultChannelId");
    }
  });

  it("pages and filters by keyword", async () => {
    const tag = `kw${Date.now()}`;
    for (let i = 0; i < 3; i += 1) await createProduct(t, w.admin, { name: `${tag} ${i}` });
    const page = await ok<{ list: ProductData[]; total: number }>(t, "GET", "/product/list", {
      token: w.admin.token,
      query: { keyword: tag.toUpperCase(), page: "2", pageSize: "2" },
    });
    expect(page.total).toBe(3);
    expect(page.list.map((p) => p.name)).toEqual([`${tag} 2`]);
  });

  it("refuses agents and customers on every write", async () => {
    const p = await createProduct(t, w.admin);
    const writes: Array<[string, unknown]> = [
      ["/product/create", { code: 3000, name: "x", category: "y" }],
      ["/product/edit", { id: p.id, name: "x" }],
      ["/product/status", { id: p.id, status: 2 }],
      ["/product/countries", { id: p.id, countryScope: 1 }],
    ];
    for (const [url, body] of writes) {
      for (const who of [w.agent, w.customer]) await refused(t, "POST", url, 403, { token: who.token, body });
      await refused(t, "POST", url, 401, { body });
    }
    expect((await t.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).status).toBe(1);
  });

  it("answers another tenant's product exactly like a missing one", async () => {
    const foreign = await createProduct(t, other.admin);
    const bodies: Array<[string, Record<string, unknown>]> = [
      ["/product/edit", { name: "hijack" }],
      ["/product/status", { status: 2 }],
      ["/product/countries", { countryScope: 1 }],
    ];
    for (const [url, body] of bodies) {
      const a = await refused(t, "POST", url, 404, { token: w.admin.token, body: { id: foreign.id, ...body } });
      const b = await refused(t, "POST", url, 404, { token: w.admin.token, body: { id: 999_999_999, ...body } });
      expect(a).toBe("product not found");
      expect(b).toBe(a);
    }
    const row = await t.prisma.product.findUniqueOrThrow({ where: { id: foreign.id } });
    expect(row).toMatchObject({ name: foreign.name, status: 1 });
  });

  it("lets a super admin act only inside the tenant named by the tenant-id header", async () => {
    const sa = await superAdmin(t);
    const msg = await refused(t, "POST", "/product/create", 400, {
      token: sa.token,
      body: { code: 3000, name: "x", category: "SMS" },
    });
    expect(msg).toContain("tenant-id");
    const p = await ok<ProductData>(t, "POST", "/product/create", {
      token: sa.token,
      headers: { "tenant-id": String(w.tenantId) },
      body: { code: 3000, name: "By super admin", category: "SMS" },
    });
    expect((await t.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).tenantId).toBe(w.tenantId);
  });

  it("refuses bad input on every route, naming the field, and writes nothing", async () => {
    const p = await createProduct(t, w.admin);
    const before = await t.prisma.product.count({ where: { tenantId: w.tenantId } });
    const cases: Array<[string, unknown, string]> = [
      ["/product/create", { name: "x", category: "y" }, "code"],
      ["/product/create", { code: 4000, name: "x", category: "y" }, "code"],
      ["/product/create", { code: 3000, category: "y" }, "name"],
      ["/product/create", { code: 3000, name: "n".repeat(101), category: "y" }, "name"],
      ["/product/create", { code: 3000, name: "x", category: "" }, "category"],
      ["/product/create", { code: 3000, name: "x", category: "y", countryScope: 4 }, "countryScope"],
      ["/product/create", { code: 3000, name: "x", category: "y", countryScope: 2 }, "countryCodes"],
      [
        "/product/create",
        { code: 3000, name: "x", category: "y", countryScope: 3, countryCodes: ["USA"] },
        "countryCodes",
      ],
      ["/product/edit", { name: "x" }, "id"],
      ["/product/edit", { id: "abc" }, "id"],
      ["/product/status", { id: p.id, status: 3 }, "status"],
      ["/product/status", { id: p.id }, "status"],
      ["/product/countries", { id: p.id }, "countryScope"],
      ["/product/countries", { id: p.id, countryScope: 2, countryCodes: [] }, "countryCodes"],
    ];
    for (const [url, body, field] of cases) {
      const msg = await refused(t, "POST", url, 400, { token: w.admin.token, body });
      expect(msg, `${url} ${JSON.stringify(body)}`).toContain(field);
    }
    const listMsg = await refused(t, "GET", "/product/list", 400, { token: w.admin.token, query: { pageSize: "500" } });
    expect(listMsg).toContain("pageSize");
    expect(await t.prisma.product.count({ where: { tenantId: w.tenantId } })).toBe(before);
  });

  it("the seeded demo tenant has its three products with default prices for every country", async () => {
    const demoAdmin = await t.prisma.user.findFirstOrThrow({ where: { username: "admin", type: UserType.ADMIN } });
    const token = t.app.signToken(demoAdmin).token;
    const list = await ok<{ list: ProductData[] }>(t, "GET", "/product/list", { token });
    expect(list.list.map((p) => p.code)).toEqual(expect.arrayContaining([1000, 2000, 3000]));
    const countries = await t.prisma.country.count();
    for (const p of list.list.filter((x) => x.name === "International SMS")) {
      expect(await t.prisma.price.count({ where: { productId: p.id } })).toBe(countries);
    }
  });
});

it("an agent of another tenant does not see this tenant's products", async () => {
  const stranger = await account(t, UserType.AGENT, other.tenantId);
  const mine = await createProduct(t, w.admin);
  const list = await ok<{ list: ProductData[] }>(t, "GET", "/product/list", {
    token: stranger.token,
    query: { pageSize: "200" },
  });
  expect(list.list.map((p) => p.id)).not.toContain(mine.id);
  const res = await call(t.app, "GET", "/product/list", { token: stranger.token });
  expect(res.status).toBe(200);
});
