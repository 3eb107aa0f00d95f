// The inbox (issue 18, inbound messages): GET /inbound/list gives what users wrote back to a customer across its
// batches, newest first, with the answered batch's product for the link to its detail. A customer reads its own
// only; staff read one customer of their scope (an agent's other customers and other agents' answer 404 like a
// missing one; no customer named is a 400 in the request's language).
import { type InboxList, ProductCode, SubmitMode, TaskType, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

/** A batch of the customer's (its product is what the inbox reports) and a reply to it. */
async function batchOf(c: Account) {
  return t.prisma.messageBatch.create({
    data: {
      tenantId: w.tenantId,
      userId: c.id,
      productId: w.productId,
      productCode: ProductCode.SMS,
      taskType: TaskType.MESSAGE,
      submitMode: SubmitMode.MULTIPLE,
      status: 22,
      content: { product: ProductCode.SMS, text: "hello" },
    },
    select: { id: true },
  });
}

let seq = 0;
const reply = (c: Account, batchId: bigint | null, phone: string, text: string, second: number) =>
  t.prisma.inboundMessage.create({
    data: {
      tenantId: w.tenantId,
      userId: c.id,
      batchId,
      channelId: w.channelId,
      providerMessageId: `inbox-${c.id}-${++seq}`,
      phone,
      text,
      receivedAt: new Date(Date.UTC(2026, 10, 25, 8, 0, second)),
    },
  });

describe("the inbox", () => {
  it("lists a customer's replies across its batches, newest first, with the batch's product; filters", async () => {
    const a = await fx.customer(w);
    const b = await fx.customer(w);
    const first = await batchOf(a);
    const second = await batchOf(a);
    await reply(a, first.id, "+12025550181", "yes", 1);
    await reply(a, second.id, "+12025550182", "STOP", 2);
    await reply(a, null, "+12025550183", "who is this?", 3);
    await reply(b, (await batchOf(b)).id, "+12025550184", "not yours", 4);

    const all = await get<InboxList>(t, "/inbound/list", a.token);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.list.map((r) => [r.from, r.text, r.batchId, r.product, r.batchStatus])).toEqual([
      ["+12025550183", "who is this?", null, null, null],
      ["+12025550182", "STOP", second.id.toString(), ProductCode.SMS, 22],
      ["+12025550181", "yes", first.id.toString(), ProductCode.SMS, 22],
    ]);
    const byPhone = await get<InboxList>(t, "/inbound/list", a.token, { phone: "1202555018" });
    expect(byPhone.body.data.total).toBe(3);
    const one = await get<InboxList>(t, "/inbound/list", a.token, { phone: "+12025550182" });
    expect(one.body.data.list.map((r) => r.text)).toEqual(["STOP"]);
    const ofBatch = await get<InboxList>(t, "/inbound/list", a.token, { batchId: first.id.toString() });
    expect(ofBatch.body.data.list.map((r) => r.text)).toEqual(["yes"]);
    const before = await get<InboxList>(t, "/inbound/list", a.token, { to: "2026-11-25T08:00:01.500Z" });
    expect(before.body.data.list.map((r) => r.text)).toEqual(["yes"]);
    // A customer cannot read another's inbox by naming it: its own answer, whatever userId says.
    const named = await get<InboxList>(t, "/inbound/list", a.token, { userId: String(b.id) });
    expect(named.status).toBe(200);
    expect(named.body.data.list.every((r) => r.text !== "not yours")).toBe(true);
    const bad = await get(t, "/inbound/list", a.token, { phone: "abc" });
    expect(bad.status).toBe(400);
  });

  it("lets staff read one customer of their scope; others answer 404, none named 400", async () => {
    const mine = await fx.customer(w);
    await reply(mine, (await batchOf(mine)).id, "+12025550191", "hello agent", 1);
    const theirs = await fx.account(UserType.USER, w.tenantId, { agentId: w.otherAgent.id, balance: "1.00" });
    await reply(theirs, null, "+12025550192", "other agent's", 2);

    const asAgent = await get<InboxList>(t, "/inbound/list", w.agent.token, { userId: String(mine.id) });
    expect(asAgent.status, JSON.stringify(asAgent.body)).toBe(200);
    expect(asAgent.body.data.list.map((r) => r.text)).toEqual(["hello agent"]);
    expect((await get(t, "/inbound/list", w.agent.token, { userId: String(theirs.id) })).status).toBe(404);
    expect((await get(t, "/inbound/list", w.admin.token, { userId: String(theirs.id) })).status).toBe(200);

    const none = await get<unknown>(t, "/inbound/list", w.agent.token);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain("userId");
  });
});
