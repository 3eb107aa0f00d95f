// WhatsApp's customer-service window: free-form text only reaches a user who wrote to the business number within
// the last 24 hours. Other numbers are refused per recipient (reason 4), never charged; templates go to anyone.
import { ProductCode } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "./accounts";
import { call, createTestApp, demoTenantId, signIn, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let token: string;
let channelId: number;
let tenantId: number;

beforeAll(async () => {
  t = await createTestApp();
  tenantId = await demoTenantId(t.prisma);
  // the demo seed's WhatsApp channel is the WS product's default
  const ws = await t.prisma.product.findFirstOrThrow({ where: { tenantId, code: ProductCode.WS } });
  channelId = ws.defaultChannelId as number;
  token = await signIn(t.app, "customer", "customer", "Customer123");
});

afterAll(async () => {
  await t.close();
});

async function wroteUs(phone: string, hoursAgo: number) {
  await t.prisma.inboundMessage.create({
    data: {
      tenantId,
      channelId,
      providerMessageId: uniqueName("wamid.in"),
      phone,
      text: "hi",
      receivedAt: new Date(Date.now() - hoursAgo * 3600_000),
    },
  });
}

type Submitted = { batch: { id: string; validCount: number; cost: string } };

describe("WhatsApp 24-hour window", () => {
  it("sends free-form text only to numbers that wrote within 24 hours, charging only those", async () => {
    const open = "+12025557001";
    const stale = "+12025557002";
    const never = "+12025557003";
    await wroteUs(open, 2);
    await wroteUs(stale, 30);
    const res = await call<Submitted>(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: {
        productCode: ProductCode.WS,
        taskType: 2,
        submitMode: 2,
        numbers: [open, stale, never],
        content: { product: ProductCode.WS, body: { type: "text", text: "Your parcel is at the door" } },
      },
    });
    expect(res.status).toBe(200);
    const batch = res.body.data.batch;
    expect(batch.validCount).toBe(1);
    const rejected = await t.prisma.rejectedNumber.findMany({ where: { batchId: BigInt(batch.id) } });
    expect(rejected.map((r) => [r.raw, r.reason]).sort()).toEqual([
      [stale, 4],
      [never, 4],
    ]);
    const recipients = await t.prisma.recipient.findMany({ where: { batchId: BigInt(batch.id) } });
    expect(recipients.map((r) => r.phone)).toEqual([open]);
    expect(batch.cost).toBe("0.0250"); // one US WhatsApp message at the demo price
  });

  it("refuses a text batch none of whose numbers may get it, with nothing charged; templates go to anyone", async () => {
    const before = await t.prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    const closed = await call(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: {
        productCode: ProductCode.WS,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025557101", "+12025557102"],
        content: { product: ProductCode.WS, body: { type: "text", text: "Hello" } },
      },
    });
    expect(closed.status).toBe(400);
    expect(closed.body.message).toContain("2 numbers have not written in the last 24 hours");
    const after = await t.prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    expect(after.balance).toBe(before.balance);

    const template = await call<Submitted>(t.app, "POST", "/batch/submit", {
      token,
      body: {
        productCode: ProductCode.WS,
        taskType: 2,
        submitMode: 2,
        numbers: ["+12025557101", "+12025557102"],
        content: {
          product: ProductCode.WS,
          body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-1"] },
        },
      },
    });
    expect(template.status).toBe(200);
    expect(template.body.data.batch.validCount).toBe(2);
  });

  it("the pre-submit check counts the numbers outside the window, as the submission would refuse them", async () => {
    const open = "+12025557201";
    const stale = "+12025557202";
    const never = "+12025557203";
    await wroteUs(open, 1);
    await wroteUs(stale, 25);
    const text = { product: ProductCode.WS, body: { type: "text", text: "Your table is ready" } };
    type Pre = { valid: number; windowClosed: number; notServed: number; totalCost: string };
    const pre = await call<Pre>(t.app, "POST", "/user/submit/pre", {
      token,
      body: { productCode: ProductCode.WS, taskType: 2, numbers: [open, stale, never], content: text },
    });
    expect(pre.status).toBe(200);
    expect(pre.body.data).toMatchObject({ valid: 1, windowClosed: 2, notServed: 0, totalCost: "0.0250" });

    // A file: the same count, read in the worker thread.
    const form = multipart({ productCode: String(ProductCode.WS), taskType: "2", content: JSON.stringify(text) }, [
      { name: "n.csv", data: Buffer.from(`${open}\n${stale}\n${never}\n`), field: "file" },
    ]);
    const file = await t.app.inject({
      method: "POST",
      url: "/user/submit/pre/file",
      headers: { authorization: `Bearer ${token}`, "content-type": form.contentType },
      payload: form.payload,
    });
    expect(file.statusCode).toBe(200);
    expect((file.json() as { data: Pre }).data).toMatchObject({ valid: 1, windowClosed: 2, totalCost: "0.0250" });

    // A template needs no window: every number counts, none outside.
    const template = await call<Pre>(t.app, "POST", "/user/submit/pre", {
      token,
      body: {
        productCode: ProductCode.WS,
        taskType: 2,
        numbers: [open, stale, never],
        content: {
          product: ProductCode.WS,
          body: { type: "template", name: "order_update", language: "en_US", parameters: ["Ana", "A-1"] },
        },
      },
    });
    expect(template.body.data).toMatchObject({ valid: 3, windowClosed: 0 });
  });
});
