// WhatsApp bills a template message by its category (marketing, utility, authentication) and the user's country:
// a WS product carries a price per category beside its message price, set by the admin (defaults and per user)
// and by agents (never below their own cost), and a template batch is charged by the category of its template
// on the channel that carries it; a category without a price of its own costs the message price.
import { ProductCode } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchFixtures, type BatchWorld } from "./batch-fixtures";
import { call, createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;
let wsProductId: number;

const TEMPLATES = [
  { name: "spring_sale", category: "MARKETING" },
  { name: "order_shipped", category: "UTILITY" },
  { name: "login_code", category: "AUTHENTICATION" },
];

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
  const channel = await t.prisma.channel.create({
    data: {
      tenantId: w.tenantId,
      name: "WhatsApp",
      kind: "whatsapp",
      productCode: ProductCode.WS,
      config: {},
      secrets: "",
    },
  });
  await t.prisma.whatsappTemplate.createMany({
    data: TEMPLATES.map((x) => ({
      tenantId: w.tenantId,
      channelId: channel.id,
      name: x.name,
      language: "en_US",
      category: x.category,
      status: "APPROVED",
      components: [{ type: "BODY", text: "Hello {{1}}" }],
      bodyParams: 1,
      buttonParams: [],
      syncedAt: new Date(),
    })),
  });
  const product = await t.prisma.product.create({
    data: { tenantId: w.tenantId, code: ProductCode.WS, name: "WS", category: "WS", defaultChannelId: channel.id },
  });
  wsProductId = product.id;
  // 0.0200 a message in US and GB; marketing US 0.0500; utility left to the message price
  await setPrice(w.admin.token, "/price/default/set", { countryCodes: ["US", "GB"], unitPrice: "0.02" });
  await setPrice(w.admin.token, "/price/default/set", { countryCodes: ["US"], marketingPrice: "0.05" });
});

afterAll(async () => {
  await fx?.expectLedgersReplay();
  await fx?.close();
  await t?.close();
});

async function setPrice(token: string, url: string, body: Record<string, unknown>) {
  const res = await call(t.app, "POST", url, {
    token,
    lang: "en",
    body: { productId: wsProductId, action: 1, countryScope: 2, ...body },
  });
  return res;
}

const US = ["+12025550141", "+12025550142"];

function submit(token: string, name: string, numbers = US) {
  return call<{ batch: { id: string; cost: string } }>(t.app, "POST", "/batch/submit", {
    token,
    lang: "en",
    body: {
      productId: wsProductId,
      taskType: 2,
      submitMode: 2,
      numbers,
      content: {
        product: ProductCode.WS,
        body: { type: "template", name, language: "en_US", parameters: ["Ana"], buttons: [] },
      },
    },
  });
}

describe("template category prices", () => {
  it("charge a template batch by its category; a category without a price costs the message price", async () => {
    const c = await fx.customer(w);
    const marketing = await submit(c.token, "spring_sale");
    expect(marketing.body.code, marketing.body.message).toBe(0);
    expect(marketing.body.data.batch.cost).toBe("0.1000");
    await fx.expectExactCharge(marketing.body.data.batch.id);

    const utility = await submit(c.token, "order_shipped");
    expect(utility.body.data.batch.cost).toBe("0.0400");

    // GB has no marketing price: the message price
    const gb = await submit(c.token, "spring_sale", ["+447400123456"]);
    expect(gb.body.data.batch.cost).toBe("0.0200");

    // the pre-submit check quotes the same
    const pre = await call<{ totalCost: string; countries: Array<{ unitPrice: string }> }>(
      t.app,
      "POST",
      "/user/submit/pre",
      {
        token: c.token,
        lang: "en",
        body: {
          productId: wsProductId,
          numbers: US,
          content: {
            product: ProductCode.WS,
            body: { type: "template", name: "spring_sale", language: "en_US", parameters: ["Ana"], buttons: [] },
          },
        },
      },
    );
    expect(pre.body.data).toMatchObject({ totalCost: "0.1000", countries: [{ unitPrice: "0.0500" }] });
  });

  it("a user's own category price overrides the default; the user's message price alone does not", async () => {
    const c = await fx.customer(w);
    await setPrice(w.admin.token, "/price/customer/set", { userId: c.id, countryCodes: ["US"], unitPrice: "0.03" });
    // marketing: the default's category price still applies; utility: the user's message price
    expect((await submit(c.token, "spring_sale")).body.data.batch.cost).toBe("0.1000");
    expect((await submit(c.token, "order_shipped")).body.data.batch.cost).toBe("0.0600");
    const set = await setPrice(w.admin.token, "/price/customer/set", {
      userId: c.id,
      countryCodes: ["US"],
      authenticationPrice: "0.01",
      marketingPrice: "0.04",
    });
    expect(set.body.code, set.body.message).toBe(0);
    expect((await submit(c.token, "spring_sale")).body.data.batch.cost).toBe("0.0800");
    expect((await submit(c.token, "login_code")).body.data.batch.cost).toBe("0.0200");
  });

  it("price pages show what is set per category; the customer's list shows what each category costs", async () => {
    const list = await call<{ list: Array<Record<string, unknown>> }>(t.app, "GET", "/price/list", {
      token: w.admin.token,
      query: { productId: String(wsProductId), keyword: "united states" },
    });
    expect(list.body.data.list[0]).toMatchObject({
      countryCode: "US",
      unitPrice: "0.0200",
      marketingPrice: "0.0500",
      utilityPrice: null,
      authenticationPrice: null,
    });
    const c = await fx.customer(w);
    const own = await call<{ list: Array<Record<string, unknown>> }>(t.app, "GET", "/user/product/price", {
      token: c.token,
      query: { productId: String(wsProductId), keyword: "united states" },
    });
    expect(own.body.data.list[0]).toMatchObject({
      unitPrice: "0.0200",
      marketingPrice: "0.0500",
      utilityPrice: "0.0200",
      authenticationPrice: "0.0200",
    });
  });

  it("refuses category prices on other products, below an agent's cost, and alone where no price exists", async () => {
    const sms = await call(t.app, "POST", "/price/default/set", {
      token: w.admin.token,
      lang: "en",
      body: { productId: w.productId, action: 1, countryScope: 2, countryCodes: ["US"], marketingPrice: "0.05" },
    });
    expect(sms.status).toBe(400);
    expect(sms.body.message).toContain("apply to WhatsApp products only");
    expect(
      (await t.prisma.price.findFirstOrThrow({ where: { productId: w.productId, countryCode: "US" } })).marketingPrice,
    ).toBeNull();

    const alone = await setPrice(w.admin.token, "/price/default/set", { countryCodes: ["DE"], utilityPrice: "0.01" });
    expect(alone.status).toBe(400);
    expect(alone.body.message).toContain("DE has no price yet");

    // the agent's marketing cost in US is the default 0.0500
    const c = await fx.customer(w);
    const below = await setPrice(w.agent.token, "/price/customer/set", {
      userId: c.id,
      countryCodes: ["US"],
      marketingPrice: "0.04",
    });
    expect(below.status).toBe(400);
    expect(below.body.message).toContain("below your cost price 0.0500");
    const fine = await setPrice(w.agent.token, "/price/customer/set", {
      userId: c.id,
      countryCodes: ["US"],
      unitPrice: "0.03",
      marketingPrice: "0.06",
    });
    expect(fine.body.code, fine.body.message).toBe(0);
    expect((await submit(c.token, "spring_sale")).body.data.batch.cost).toBe("0.1200");
  });
});
