// Per-customer routing: route set/clear, the one resolution function (table-driven: per-country route, "*"
// route, product default, paused and out-of-scope channels, paused product), the route list, "API data
// transfer" and channel statistics over recipient rows inserted here.
import { UserType } from "@switchboard/contracts";
import { resolveChannel, resolveChannels } from "@switchboard/domain/routing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  account,
  countingDb,
  createProduct,
  makeWorld,
  ok,
  type ProductData,
  refused,
  superAdmin,
  type World,
} from "./catalog-fixtures";
import { createTestApp, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let w: World;
let other: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
});
afterAll(() => t.close());

interface Channel {
  id: number;
  name: string;
  status: number;
}

async function channel(
  body: { kind?: string; countryScope?: number; countryCodes?: string[]; config?: Record<string, unknown> } = {},
  admin = w.admin,
): Promise<Channel> {
  const kind = body.kind ?? "smpp";
  const configs: Record<string, Record<string, unknown>> = {
    smpp: { host: "127.0.0.1", port: 2775, systemId: "sys", password: "pw" },
    http: { url: "http://127.0.0.1:9/send" },
    whatsapp: { phoneNumberId: "1", accessToken: "t", appSecret: "s", webhookVerifyToken: "v" },
  };
  return ok<Channel>(t, "POST", "/channel/create", {
    token: admin.token,
    body: { name: uniqueName("ch "), kind, config: configs[kind], ...body },
  });
}

const route = (body: Record<string, unknown>, token = w.admin.token) =>
  ok<{ action: number; routes: number }>(t, "POST", "/channel/route", { token, body });
const setStatus = (id: number, status: number) =>
  ok(t, "POST", "/channel/status", { token: w.admin.token, body: { id, status } });

/** "<channel name>/<source>" or the failure reason (with the channel it is about). */
async function resolved(customerId: number, productId: number, countries: string[], names: Map<number, string>) {
  const all = await resolveChannels(t.prisma, { customerId, productId, countryCodes: countries });
  const out: Record<string, string> = {};
  for (const [code, r] of all) {
    if (r.ok) out[code] = `${names.get(r.channelId)}/${r.source}`;
    else out[code] = r.channelId ? `${r.reason}:${names.get(r.channelId)}/${r.source}` : r.reason;
  }
  return out;
}

describe("channel resolution table", () => {
  it("per-country route, then the all-countries route, then the product default; failures are reported, never replaced", async () => {
    const product = await createProduct(t, w.admin, { countryScope: 3, countryCodes: ["KP"] });
    const D = await channel();
    const R = await channel({ kind: "http", countryScope: 3, countryCodes: ["RU"] });
    const C = await channel({ countryScope: 2, countryCodes: ["US", "GB"] });
    const names = new Map([
      [D.id, "D"],
      [R.id, "R"],
      [C.id, "C"],
    ]);
    const countries = ["US", "GB", "FR", "RU", "KP"];
    const pid = product.id;
    const cid = w.customer.id;

    const steps: Array<{ what: string; run: () => Promise<unknown>; expect: Record<string, string> }> = [
      {
        what: "no route, no default",
        run: async () => null,
        expect: { US: "no_channel", FR: "no_channel", KP: "country_not_served" },
      },
      {
        what: "the product's default channel",
        run: () =>
          ok(t, "POST", "/channel/default", { token: w.admin.token, body: { channelId: D.id, productId: pid } }),
        expect: { US: "D/default", GB: "D/default", FR: "D/default", RU: "D/default", KP: "country_not_served" },
      },
      {
        what: 'action 1 without countries: the "*" route',
        run: () => route({ userId: cid, productId: pid, action: 1, channelId: R.id }),
        expect: { US: "R/route", GB: "R/route", FR: "R/route", RU: "channel_country_excluded:R/route" },
      },
      {
        what: "action 1 with countries: per-country routes win over *",
        run: () => route({ userId: cid, productId: pid, action: 1, channelId: C.id, countryCodes: ["US", "gb"] }),
        expect: { US: "C/route", GB: "C/route", FR: "R/route" },
      },
      {
        what: "a paused routed channel is reported, not replaced by * or the default",
        run: () => setStatus(C.id, 2),
        expect: { US: "channel_paused:C/route", GB: "channel_paused:C/route", FR: "R/route" },
      },
      {
        what: "action 2 with countries clears those routes: back to *",
        run: async () => {
          await setStatus(C.id, 1);
          return route({ userId: cid, productId: pid, action: 2, countryCodes: ["US"] });
        },
        expect: { US: "R/route", GB: "C/route", FR: "R/route" },
      },
      {
        what: "action 2 without countries clears every route: back to the default",
        run: () => route({ userId: cid, productId: pid, action: 2 }),
        expect: { US: "D/default", GB: "D/default", FR: "D/default", RU: "D/default" },
      },
      {
        what: "a paused default channel is reported",
        run: () => setStatus(D.id, 2),
        expect: { US: "channel_paused:D/default", KP: "country_not_served" },
      },
      {
        what: "a default channel whose scope leaves the country out is reported",
        run: async () => {
          await setStatus(D.id, 1);
          return ok(t, "POST", "/channel/edit", {
            token: w.admin.token,
            body: { id: D.id, kind: "smpp", countryScope: 2, countryCodes: ["US"] },
          });
        },
        expect: { US: "D/default", FR: "channel_country_excluded:D/default" },
      },
      {
        what: "a paused product",
        run: () => ok(t, "POST", "/product/status", { token: w.admin.token, body: { id: pid, status: 2 } }),
        expect: { US: "product_paused", FR: "product_paused", KP: "product_paused" },
      },
    ];
    for (const step of steps) {
      await step.run();
      const got = await resolved(cid, pid, countries, names);
      for (const [country, want] of Object.entries(step.expect)) {
        expect(`${step.what}: ${country} ${got[country]}`).toBe(`${step.what}: ${country} ${want}`);
      }
    }
    await ok(t, "POST", "/product/status", { token: w.admin.token, body: { id: pid, status: 1 } });
    const codes = (await t.prisma.country.findMany({ select: { code: true } })).map((c) => c.code);
    const counted = countingDb(t.prisma);
    const bulk = await resolveChannels(counted.db, { customerId: cid, productId: pid, countryCodes: codes });
    expect(bulk.size).toBe(codes.length);
    expect(counted.calls()).toBe(4);
    expect(await resolveChannel(t.prisma, { customerId: cid, productId: pid, countryCode: "US" })).toEqual({
      ok: true,
      channelId: D.id,
      source: "default",
    });
    expect(await resolveChannel(t.prisma, { customerId: 999_999_999, productId: pid, countryCode: "US" })).toEqual({
      ok: false,
      reason: "customer_not_found",
    });
    expect(
      await resolveChannel(t.prisma, { customerId: other.customer.id, productId: pid, countryCode: "US" }),
    ).toEqual({
      ok: false,
      reason: "product_not_found",
    });
  });

  it("routes are per customer: another customer keeps the default", async () => {
    const product = await createProduct(t, w.admin);
    const D = await channel();
    const R = await channel();
    await ok(t, "POST", "/channel/default", { token: w.admin.token, body: { channelId: D.id, productId: product.id } });
    await route({ userId: w.customer.id, productId: product.id, action: 1, channelId: R.id });
    const names = new Map([
      [D.id, "D"],
      [R.id, "R"],
    ]);
    expect(await resolved(w.customer.id, product.id, ["US"], names)).toEqual({ US: "R/route" });
    expect(await resolved(w.direct.id, product.id, ["US"], names)).toEqual({ US: "D/default" });
  });
});

describe("POST /channel/route and GET /channel/route/list", () => {
  let product: ProductData;
  let smpp: Channel;
  let narrow: Channel;
  beforeAll(async () => {
    product = await createProduct(t, w.admin);
    smpp = await channel();
    narrow = await channel({ countryScope: 2, countryCodes: ["US"] });
  });

  it("sets, overwrites and lists routes; counts what it wrote or removed", async () => {
    expect(await route({ userId: w.direct.id, productId: product.id, action: 1, channelId: smpp.id })).toEqual({
      action: 1,
      routes: 1,
    });
    expect(
      await route({
        userId: w.direct.id,
        productId: product.id,
        action: 1,
        channelId: narrow.id,
        countryCodes: ["US", "US"],
      }),
    ).toEqual({ action: 1, routes: 1 });
    // setting again overwrites rather than duplicating
    await route({ userId: w.direct.id, productId: product.id, action: 1, channelId: smpp.id, countryCodes: ["US"] });
    await route({ userId: w.direct.id, productId: product.id, action: 1, channelId: narrow.id, countryCodes: ["US"] });
    const list = await ok<{ list: Array<Record<string, unknown>>; total: number }>(t, "GET", "/channel/route/list", {
      token: w.admin.token,
      query: { userId: String(w.direct.id) },
    });
    expect(list.total).toBe(2);
    expect(list.list).toEqual([
      expect.objectContaining({
        userId: w.direct.id,
        username: w.direct.username,
        productId: product.id,
        productCode: 3000,
        countryCode: "*",
        channelId: smpp.id,
        channelName: smpp.name,
        channelStatus: 1,
      }),
      expect.objectContaining({ countryCode: "US", channelId: narrow.id, channelName: narrow.name }),
    ]);
    const byChannel = await ok<{ total: number }>(t, "GET", "/channel/route/list", {
      token: w.admin.token,
      query: { channelId: String(narrow.id) },
    });
    expect(byChannel.total).toBe(1);
    const detail = await ok<{ routeCount: number }>(t, "GET", "/channel/detail", {
      token: w.admin.token,
      query: { id: String(smpp.id) },
    });
    expect(detail.routeCount).toBe(1);
    expect(await route({ userId: w.direct.id, productId: product.id, action: 2 })).toEqual({ action: 2, routes: 2 });
  });

  it("refuses a per-country route outside the channel's scope and a channel of another product code", async () => {
    expect(
      await refused(t, "POST", "/channel/route", 400, {
        token: w.admin.token,
        body: {
          userId: w.customer.id,
          productId: product.id,
          action: 1,
          channelId: narrow.id,
          countryCodes: ["US", "FR", "DE"],
        },
      }),
    ).toBe(`channel ${narrow.name} does not serve: DE, FR`);
    const ws = await channel({ kind: "whatsapp" });
    expect(
      await refused(t, "POST", "/channel/route", 400, {
        token: w.admin.token,
        body: { userId: w.customer.id, productId: product.id, action: 1, channelId: ws.id },
      }),
    ).toBe(`channel ${ws.name} carries product code 2000, but product ${product.name} is 3000`);
    expect(await t.prisma.channelRoute.count({ where: { userId: w.customer.id, productId: product.id } })).toBe(0);
  });

  it("routes customers only, of the admin's own tenant, onto its own channels and products", async () => {
    const foreignChannel = await channel({}, other.admin);
    const foreignProduct = await createProduct(t, other.admin);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ userId: w.agent.id, productId: product.id, channelId: smpp.id }, "user not found"],
      [{ userId: w.admin.id, productId: product.id, channelId: smpp.id }, "user not found"],
      [{ userId: other.customer.id, productId: product.id, channelId: smpp.id }, "user not found"],
      [{ userId: w.customer.id, productId: foreignProduct.id, channelId: smpp.id }, "product not found"],
      [{ userId: w.customer.id, productId: product.id, channelId: foreignChannel.id }, "channel not found"],
    ];
    for (const [body, message] of cases) {
      expect(
        await refused(t, "POST", "/channel/route", 404, { token: w.admin.token, body: { action: 1, ...body } }),
      ).toBe(message);
    }
    const foreignRoutes = await ok<{ list: unknown[]; total: number }>(t, "GET", "/channel/route/list", {
      token: w.admin.token,
      query: { channelId: String(foreignChannel.id) },
    });
    expect(foreignRoutes.total).toBe(0);
  });

  it("is admin-only: agents may neither set nor view routes", async () => {
    await refused(t, "POST", "/channel/route", 403, {
      token: w.agent.token,
      body: { userId: w.customer.id, productId: product.id, action: 1, channelId: smpp.id },
    });
    await refused(t, "GET", "/channel/route/list", 403, {
      token: w.agent.token,
      query: { userId: String(w.customer.id) },
    });
  });
});

describe("POST /channel/transfer (API data transfer)", () => {
  it("moves every route of A to B in one go, folding routes that would repeat an all-countries route on B", async () => {
    const product = await createProduct(t, w.admin);
    const product2 = await createProduct(t, w.admin);
    const A = await channel();
    const B = await channel();
    const c1 = await account(t, UserType.USER, w.tenantId);
    const c2 = await account(t, UserType.USER, w.tenantId);
    const c3 = await account(t, UserType.USER, w.tenantId);
    await route({ userId: c1.id, productId: product.id, action: 1, channelId: A.id });
    await route({ userId: c1.id, productId: product.id, action: 1, channelId: A.id, countryCodes: ["DE"] });
    await route({ userId: c2.id, productId: product.id, action: 1, channelId: A.id, countryCodes: ["US", "GB"] });
    await route({ userId: c3.id, productId: product.id, action: 1, channelId: B.id });
    await route({ userId: c3.id, productId: product.id, action: 1, channelId: A.id, countryCodes: ["FR"] });
    // c3's FR route for another product has no "*" on B: it moves, it is not folded
    await route({ userId: c3.id, productId: product2.id, action: 1, channelId: A.id, countryCodes: ["FR"] });

    const result = await ok(t, "POST", "/channel/transfer", {
      token: w.admin.token,
      body: { fromChannelId: A.id, toChannelId: B.id },
    });
    expect(result).toEqual({ moved: 4, merged: 2, customers: 3 });
    expect(await t.prisma.channelRoute.count({ where: { channelId: A.id } })).toBe(0);
    const onB = await t.prisma.channelRoute.findMany({
      where: { channelId: B.id },
      select: { userId: true, productId: true, countryCode: true },
      orderBy: [{ userId: "asc" }, { productId: "asc" }, { countryCode: "asc" }],
    });
    expect(onB).toEqual([
      { userId: c1.id, productId: product.id, countryCode: "*" },
      { userId: c2.id, productId: product.id, countryCode: "GB" },
      { userId: c2.id, productId: product.id, countryCode: "US" },
      { userId: c3.id, productId: product.id, countryCode: "*" },
      { userId: c3.id, productId: product2.id, countryCode: "FR" },
    ]);
    // an empty channel transfers nothing
    expect(
      await ok(t, "POST", "/channel/transfer", {
        token: w.admin.token,
        body: { fromChannelId: A.id, toChannelId: B.id },
      }),
    ).toEqual({
      moved: 0,
      merged: 0,
      customers: 0,
    });
  });

  it("refuses another product code, a paused target, and a target that does not serve a routed country; nothing moves", async () => {
    const product = await createProduct(t, w.admin);
    const A = await channel();
    await route({
      userId: w.customer.id,
      productId: product.id,
      action: 1,
      channelId: A.id,
      countryCodes: ["FR", "US"],
    });
    const ws = await channel({ kind: "whatsapp" });
    const paused = await channel();
    await setStatus(paused.id, 2);
    const usOnly = await channel({ countryScope: 2, countryCodes: ["US"] });
    const transfer = (toChannelId: number) =>
      refused(t, "POST", "/channel/transfer", 400, {
        token: w.admin.token,
        body: { fromChannelId: A.id, toChannelId },
      });
    expect(await transfer(ws.id)).toBe(
      `channel ${A.name} carries product code 3000 and channel ${ws.name} carries 2000: routes cannot move between them`,
    );
    expect(await transfer(paused.id)).toBe(`the target channel ${paused.name} is paused; enable it first`);
    expect(await transfer(usOnly.id)).toBe(`channel ${usOnly.name} does not serve: FR`);
    expect(await t.prisma.channelRoute.count({ where: { channelId: A.id } })).toBe(2);
  });
});

describe("GET /channel/stats", () => {
  let S1: Channel;
  let S2: Channel;
  let product: ProductData;

  async function batchWith(tenantId: number, userId: number, productId: number, rows: Array<Record<string, unknown>>) {
    const batch = await t.prisma.messageBatch.create({
      data: {
        tenantId,
        userId,
        productId,
        productCode: 3000,
        taskType: 2,
        submitMode: 2,
        status: 22,
        content: { text: "x" },
      },
    });
    await t.prisma.recipient.createMany({
      data: rows.map((r, i) => ({
        batchId: batch.id,
        phone: `+1555010${String(i).padStart(4, "0")}`,
        countryCode: "US",
        price: 100n,
        ...r,
      })),
    });
  }

  beforeAll(async () => {
    product = await createProduct(t, w.admin);
    S1 = await channel();
    S2 = await channel();
    const day1 = new Date("2026-03-01T10:00:00Z");
    const day2 = new Date("2026-03-02T23:30:00Z");
    await batchWith(w.tenantId, w.customer.id, product.id, [
      { channelId: S1.id, sentAt: day1, sendResult: 1, receiveResult: 1 },
      { channelId: S1.id, sentAt: day1, sendResult: 1, receiveResult: 0 },
      { channelId: S1.id, sentAt: day1, sendResult: 2, receiveResult: 0 },
      { channelId: S1.id, sentAt: day2, sendResult: 1, receiveResult: 1, price: 250n },
      { channelId: S2.id, sentAt: day1, sendResult: 3, price: 50n },
      // not sent yet, and sent before the range: neither counts
      { channelId: S1.id, sentAt: null, sendResult: 0 },
      { channelId: S1.id, sentAt: new Date("2026-02-20T00:00:00Z"), sendResult: 1 },
    ]);
    // another tenant's batch cannot count on this tenant's channel
    const otherProduct = await createProduct(t, other.admin);
    await batchWith(other.tenantId, other.customer.id, otherProduct.id, [
      { channelId: S1.id, sentAt: day1, sendResult: 1 },
    ]);
  });

  const range = { from: "2026-03-01T00:00:00Z", to: "2026-03-03T00:00:00Z" };
  type Stats = {
    list: Array<Record<string, unknown>>;
    total: number;
    daily: Array<Record<string, unknown>>;
    currency: string;
    timeZone: string;
  };

  it("counts sent, success, failed, delivered and cost per channel and per day", async () => {
    const stats = await ok<Stats>(t, "GET", "/channel/stats", { token: w.admin.token, query: range });
    expect(stats.currency).toBe("USD");
    expect(stats.timeZone).toBe("UTC");
    const s1 = stats.list.find((c) => c.channelId === S1.id);
    const s2 = stats.list.find((c) => c.channelId === S2.id);
    expect(s1).toEqual({
      channelId: S1.id,
      channelName: S1.name,
      kind: "smpp",
      productCode: 3000,
      sent: 4,
      success: 3,
      failed: 1,
      delivered: 2,
      cost: "0.0450",
    });
    expect(s2).toMatchObject({ sent: 1, success: 0, failed: 0, delivered: 0, cost: "0.0000" });
    expect(stats.daily).toEqual([
      { day: "2026-03-01", sent: 4, success: 2, failed: 1, delivered: 1, cost: "0.0200" },
      { day: "2026-03-02", sent: 1, success: 1, failed: 0, delivered: 1, cost: "0.0250" },
    ]);
  });

  it("cuts days in the given time zone and filters by channel and product code", async () => {
    const shanghai = await ok<Stats>(t, "GET", "/channel/stats", {
      token: w.admin.token,
      query: { ...range, timeZone: "Asia/Shanghai" },
    });
    expect(shanghai.daily.map((d) => [d.day, d.sent])).toEqual([
      ["2026-03-01", 4],
      ["2026-03-02", 0],
      ["2026-03-03", 1],
    ]);
    const onlyS2 = await ok<Stats>(t, "GET", "/channel/stats", {
      token: w.admin.token,
      query: { ...range, channelId: String(S2.id) },
    });
    expect(onlyS2.list.map((c) => c.channelId)).toEqual([S2.id]);
    expect(onlyS2.daily.map((d) => d.sent)).toEqual([1, 0]);
    const ws = await ok<Stats>(t, "GET", "/channel/stats", {
      token: w.admin.token,
      query: { ...range, productCode: "2000" },
    });
    expect(ws.list.map((c) => c.channelId)).not.toContain(S1.id);
    expect(ws.daily.every((d) => d.sent === 0)).toBe(true);
  });

  it("belongs to one tenant: another admin sees none of it, a super admin names the tenant", async () => {
    const theirs = await ok<Stats>(t, "GET", "/channel/stats", { token: other.admin.token, query: range });
    expect(theirs.list.map((c) => c.channelId)).not.toContain(S1.id);
    expect(theirs.daily.reduce((n, d) => n + Number(d.sent), 0)).toBe(0);
    const sa = await superAdmin(t);
    expect(await refused(t, "GET", "/channel/stats", 400, { token: sa.token, query: range })).toContain("tenant-id");
    const viaHeader = await ok<Stats>(t, "GET", "/channel/stats", {
      token: sa.token,
      headers: { "tenant-id": String(w.tenantId) },
      query: range,
    });
    expect(viaHeader.list.find((c) => c.channelId === S1.id)).toMatchObject({ sent: 4 });
  });

  it("defaults to the last 7 days", async () => {
    const stats = await ok<Stats & { from: string; to: string }>(t, "GET", "/channel/stats", { token: w.admin.token });
    expect(new Date(stats.to).getTime() - new Date(stats.from).getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(stats.daily.length).toBeGreaterThanOrEqual(7);
  });
});
