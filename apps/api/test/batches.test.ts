// Batch submission (modes 1 and 2), review, cancel, terminate and billing: numbers normalised, invalid and
// duplicates counted and never charged, the whole cost taken at creation as one consume row, refunds exact,
// every refusal writes nothing, every illegal transition is a 409.
import { AuthStatus, BalanceLogType, BatchStatus, ReviewMode, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post, smsContent } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

interface SubmitData {
  batch: {
    id: string;
    status: number;
    totalCount: number;
    validCount: number;
    invalidCount: number;
    duplicateCount: number;
    notServedCount: number;
    cost: string;
    refunded: string;
    segments: number;
  };
  numbers: Array<{ input: string; result: string; e164: string | null; countryCode: string | null }>;
  outcome: string | null;
}

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp({ BATCH_SINGLE_WAIT_MS: "600" });
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

async function submit(c: Account, body: unknown) {
  return post<SubmitData>(t, "/batch/submit", c.token, body);
}

/** Expects a refusal that wrote nothing: no batch, no ledger row, the balance unchanged. */
async function expectRefusedCleanly(c: Account, body: unknown, status: number): Promise<string> {
  const before = {
    balance: await fx.balance(c.id),
    logs: (await fx.logs(c.id)).length,
    batches: await fx.batchCount(c.id),
  };
  const res = await submit(c, body);
  expect({ status: res.status, code: res.body.code, message: res.body.message }).toMatchObject({ status, code: 1 });
  expect({
    balance: await fx.balance(c.id),
    logs: (await fx.logs(c.id)).length,
    batches: await fx.batchCount(c.id),
  }).toEqual(before);
  return res.body.message;
}

describe("mode 2: many numbers", () => {
  it("normalises numbers, counts invalid, duplicate and not served, charges only the valid ones, exactly", async () => {
    const c = await fx.customer(w, "100.00");
    const numbers = [
      "+8613800138000",
      "008613800138000", // duplicate of the first
      "+86 138-0013-8001",
      "+12025550123",
      "+447400123456",
      "12345", // invalid
      "not a number", // invalid
      "+33612345678", // FR: no price -> not served
    ];
    const res = await submit(c, multiple(w, numbers));
    expect(res.status).toBe(200);
    const { batch, numbers: outcomes } = res.body.data;
    expect(batch).toMatchObject({
      status: BatchStatus.PENDING_SEND,
      totalCount: 8,
      validCount: 4,
      invalidCount: 2,
      duplicateCount: 1,
      notServedCount: 1,
      segments: 1,
    });
    // CN 350 x 2 + US 80 + GB 400 = 1180 units = 0.1180
    expect(batch.cost).toBe("0.1180");
    expect(outcomes.map((o) => o.result)).toEqual([
      "accepted",
      "duplicate",
      "accepted",
      "accepted",
      "accepted",
      "invalid",
      "invalid",
      "country_not_served",
    ]);
    expect(outcomes[2]).toMatchObject({ e164: "+8613800138001", countryCode: "CN" });
    await fx.expectExactCharge(batch.id);
    expect(await fx.balance(c.id)).toBe(1_000_000n - 1180n);

    const recipients = await t.prisma.recipient.findMany({
      where: { batchId: BigInt(batch.id) },
      orderBy: { id: "asc" },
    });
    expect(recipients.map((r) => [r.phone, r.countryCode, r.price, r.channelId])).toEqual([
      ["+8613800138000", "CN", 350n, w.channelId],
      ["+8613800138001", "CN", 350n, w.channelId],
      ["+12025550123", "US", 80n, w.channelId],
      ["+447400123456", "GB", 400n, w.channelId],
    ]);
    const rejected = await t.prisma.rejectedNumber.findMany({
      where: { batchId: BigInt(batch.id) },
      orderBy: { id: "asc" },
    });
    expect(rejected.map((r) => [r.raw, r.reason])).toEqual([
      ["008613800138000", 2],
      ["12345", 1],
      ["not a number", 1],
      ["+33612345678", 3],
    ]);
    // The dispatch job waits in the queue for the workers.
    expect(await fx.job("dispatch-batch", batch.id)).toBeTruthy();
  });

  it("charges SMS per segment (a 2-part message costs twice)", async () => {
    const c = await fx.customer(w, "10.00");
    const res = await submit(c, multiple(w, ["+12025550123"], { content: smsContent("x".repeat(161)) }));
    expect(res.body.data.batch).toMatchObject({ segments: 2, cost: "0.0160" });
    await fx.expectExactCharge(res.body.data.batch.id);
  });

  it("reads national numbers of the domestic country when the customer's numbering is domestic", async () => {
    const c = await fx.customer(w, "10.00");
    await t.prisma.user.update({ where: { id: c.id }, data: { international: false } });
    const res = await submit(c, multiple(w, ["13800138002", "+12025550123"]));
    expect(res.body.data.numbers.map((n) => n.e164)).toEqual(["+8613800138002", "+12025550123"]);
  });

  it("refuses bad content, a paused product, a short balance and a missing authentication, writing nothing", async () => {
    const c = await fx.customer(w, "0.01");
    expect(
      await expectRefusedCleanly(c, multiple(w, ["+12025550123"], { content: smsContent("x".repeat(1531)) }), 400),
    ).toMatch(/content\.text/);
    expect(
      await expectRefusedCleanly(c, multiple(w, ["+12025550123"], { content: smsContent("你".repeat(680)) }), 400),
    ).toMatch(/too long/);
    expect(
      await expectRefusedCleanly(
        c,
        multiple(w, ["+12025550123"], { content: { product: 2000, body: { type: "text", text: "hi" } } }),
        400,
      ),
    ).toMatch(/content is for product 2000/);
    expect(await expectRefusedCleanly(c, multiple(w, ["+12025550123"], { numbers: [] }), 400)).toMatch(/numbers/);
    expect(await expectRefusedCleanly(c, multiple(w, ["nope", "12"]), 400)).toMatch(/no number can be sent: 2 invalid/);
    expect(
      await expectRefusedCleanly(c, multiple(w, ["+12025550123"], { scheduledAt: "2001-01-01T00:00:00Z" }), 400),
    ).toMatch(/future/);
    // 0.01 buys 1 US message (0.0080), not 2 (0.0160)
    expect(await expectRefusedCleanly(c, multiple(w, ["+12025550123", "+12015550123"]), 402)).toMatch(
      /insufficient balance/,
    );

    const unauthenticated = await fx.customer(w, "10.00", { authStatus: AuthStatus.NOT_AUTHENTICATED });
    expect(await expectRefusedCleanly(unauthenticated, multiple(w, ["+12025550123"]), 403)).toMatch(
      /identity authentication/,
    );

    await t.prisma.product.update({ where: { id: w.productId }, data: { status: 2 } });
    try {
      expect(await expectRefusedCleanly(c, multiple(w, ["+12025550123"]), 409)).toMatch(/paused/);
    } finally {
      await t.prisma.product.update({ where: { id: w.productId }, data: { status: 1 } });
    }
  });

  it("is for customers only", async () => {
    const res = await post(t, "/batch/submit", w.admin.token, multiple(w, ["+12025550123"]));
    expect(res.status).toBe(403);
  });

  it("finds the product by code", async () => {
    const c = await fx.customer(w, "1.00");
    const body = { ...multiple(w, ["+12025550123"]), productId: undefined, productCode: 3000 };
    const res = await submit(c, body);
    expect(res.status).toBe(200);
    expect(res.body.data.batch.validCount).toBe(1);
  });
});

describe("review, cancel and terminate", () => {
  let rw: BatchWorld;
  beforeAll(async () => {
    rw = await fx.world({ reviewMode: ReviewMode.ALL, sensitiveWords: ["Casino"] });
  });

  async function underReview(c: Account, numbers = ["+8613800138000", "+12025550123"]) {
    const res = await submit(c, multiple(rw, numbers));
    expect(res.body.data.batch.status).toBe(BatchStatus.UNDER_REVIEW);
    expect(await fx.job("dispatch-batch", res.body.data.batch.id)).toBeFalsy();
    return res.body.data.batch;
  }

  it("review mode 1 holds every batch; the owning agent passes it to 20 and dispatch is enqueued", async () => {
    const c = await fx.customer(rw, "10.00");
    const batch = await underReview(c);
    const other = await post(t, "/batch/review/pass", rw.otherAgent.token, { id: batch.id });
    expect(other.status).toBe(404);
    const passed = await post<{ status: number; reviewedAt: string }>(t, "/batch/review/pass", rw.agent.token, {
      id: batch.id,
    });
    expect(passed.status).toBe(200);
    expect(passed.body.data.status).toBe(BatchStatus.PENDING_SEND);
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(batch.id) } })).reviewerId).toBe(
      rw.agent.id,
    );
    expect(await fx.job("dispatch-batch", batch.id)).toBeTruthy();
    const again = await post(t, "/batch/review/pass", rw.admin.token, { id: batch.id });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/status 20/);
  });

  it("passing with a schedule stores it and delays the dispatch", async () => {
    const c = await fx.customer(rw, "10.00");
    const batch = await underReview(c);
    const at = new Date(Date.now() + 3600_000).toISOString();
    const passed = await post<{ scheduledAt: string }>(t, "/batch/review/pass", rw.admin.token, {
      id: batch.id,
      scheduledAt: at,
    });
    expect(passed.body.data.scheduledAt).toBe(at);
    const job = await fx.job("dispatch-batch", batch.id);
    expect(job?.opts.delay).toBeGreaterThan(3500_000);
  });

  it("rejecting refunds the whole cost, once, and the ledger replays", async () => {
    const c = await fx.customer(rw, "10.00");
    const batch = await underReview(c);
    expect(await fx.balance(c.id)).toBe(100_000n - 430n);
    const rejected = await post<{ status: number; refunded: string; reason: string }>(
      t,
      "/batch/review/reject",
      rw.admin.token,
      {
        id: batch.id,
        reason: "not allowed content",
      },
    );
    expect(rejected.body.data).toMatchObject({
      status: BatchStatus.REVIEW_REJECTED,
      refunded: "0.0430",
      reason: "not allowed content",
    });
    expect(await fx.balance(c.id)).toBe(100_000n);
    const refunds = await t.prisma.balanceLog.findMany({
      where: { batchId: BigInt(batch.id), type: BalanceLogType.REFUND },
    });
    expect(refunds.map((r) => r.amount)).toEqual([430n]);
    const again = await post(t, "/batch/review/reject", rw.admin.token, { id: batch.id, reason: "again" });
    expect(again.status).toBe(409);
    expect(await fx.balance(c.id)).toBe(100_000n);
  });

  it("exempt customers skip review, unless the content hits a sensitive word (any case)", async () => {
    const exempt = await fx.customer(rw, "10.00", { authRequirement: 1 });
    const plain = await submit(exempt, multiple(rw, ["+12025550123"]));
    expect(plain.body.data.batch.status).toBe(BatchStatus.PENDING_SEND);
    const hit = await submit(
      exempt,
      multiple(rw, ["+12025550123"], { content: smsContent("Win at the CASINO tonight") }),
    );
    expect(hit.body.data.batch.status).toBe(BatchStatus.UNDER_REVIEW);
  });

  it("review mode 2 holds batches above the threshold only", async () => {
    const tw = await fx.world({ reviewMode: ReviewMode.ABOVE_THRESHOLD, reviewThreshold: 2 });
    const c = await fx.customer(tw, "10.00");
    const two = await submit(c, multiple(tw, ["+12025550123", "+12015550123", "nope"]));
    expect(two.body.data.batch.status).toBe(BatchStatus.PENDING_SEND);
    const three = await submit(c, multiple(tw, ["+12025550123", "+12015550123", "+14155552671"]));
    expect(three.body.data.batch.status).toBe(BatchStatus.UNDER_REVIEW);
  });

  it("tells staff (never the customer) why a batch is held: the words found, mode 1, the threshold of mode 2", async () => {
    type Detail = { status: number; reviewReasons: unknown };
    const detail = async (token: string, id: string) =>
      (await get<Detail>(t, "/batch/detail", token, { id })).body.data;

    const c = await fx.customer(rw, "10.00");
    const hit = await submit(c, multiple(rw, ["+12025550123"], { content: smsContent("Win at the CASINO tonight") }));
    const held = hit.body.data.batch.id;
    expect((await detail(rw.admin.token, held)).reviewReasons).toEqual([
      { kind: "sensitive_word", words: ["Casino"] },
      { kind: "review_all" },
    ]);
    expect((await detail(rw.agent.token, held)).reviewReasons).toEqual([
      { kind: "sensitive_word", words: ["Casino"] },
      { kind: "review_all" },
    ]);
    // The tenant's rules are not the customer's business.
    expect(await detail(c.token, held)).toMatchObject({ status: BatchStatus.UNDER_REVIEW, reviewReasons: null });

    // An exempt customer is held by the word alone.
    const exempt = await fx.customer(rw, "10.00", { authRequirement: 1 });
    const word = await submit(exempt, multiple(rw, ["+12025550123"], { content: smsContent("casino") }));
    expect((await detail(rw.admin.token, word.body.data.batch.id)).reviewReasons).toEqual([
      { kind: "sensitive_word", words: ["Casino"] },
    ]);

    const tw = await fx.world({ reviewMode: ReviewMode.ABOVE_THRESHOLD, reviewThreshold: 2 });
    const tc = await fx.customer(tw, "10.00");
    const three = await submit(tc, multiple(tw, ["+12025550123", "+12015550123", "+14155552671"]));
    expect((await detail(tw.admin.token, three.body.data.batch.id)).reviewReasons).toEqual([
      { kind: "above_threshold", threshold: 2, recipients: 3 },
    ]);
    // Not held: no reasons; and they stay with the batch once it is passed.
    const two = await submit(tc, multiple(tw, ["+12025550123", "+12015550123"]));
    expect(await detail(tw.admin.token, two.body.data.batch.id)).toMatchObject({
      status: BatchStatus.PENDING_SEND,
      reviewReasons: null,
    });
    await post(t, "/batch/review/pass", tw.admin.token, { id: three.body.data.batch.id });
    expect((await detail(tw.admin.token, three.body.data.batch.id)).reviewReasons).toHaveLength(1);
  });

  it("the customer cancels from 11 and 20 with a full refund, not from 21; another customer gets 404", async () => {
    const c = await fx.customer(rw, "10.00");
    const stranger = await fx.customer(rw, "1.00");
    const inReview = await underReview(c);
    expect((await post(t, "/batch/cancel", stranger.token, { id: inReview.id })).status).toBe(404);
    const cancelled = await post<{ status: number; refunded: string }>(t, "/batch/cancel", c.token, {
      id: inReview.id,
    });
    expect(cancelled.body.data).toMatchObject({ status: BatchStatus.SEND_CANCELLED, refunded: "0.0430" });

    // A batch in 20: a customer of the world without review.
    const direct = await fx.customer(w, "10.00");
    const pending = { customer: direct, batch: (await submit(direct, multiple(w, ["+447400123456"]))).body.data.batch };
    expect(pending.batch.status).toBe(BatchStatus.PENDING_SEND);
    const cancelled20 = await post<{ status: number; refunded: string }>(t, "/batch/cancel", pending.customer.token, {
      id: pending.batch.id,
    });
    expect(cancelled20.body.data).toMatchObject({ status: BatchStatus.SEND_CANCELLED, refunded: "0.0400" });
    expect(await fx.balance(pending.customer.id)).toBe(100_000n);

    const sending = await underReview(c);
    await fx.setStatus(sending.id, BatchStatus.SENDING);
    const refused = await post(t, "/batch/cancel", c.token, { id: sending.id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/status 21/);
  });

  it("admin terminates a sending batch (21 -> 23) and finish-batch is enqueued; not a pending one", async () => {
    const c = await fx.customer(rw, "10.00");
    const batch = await underReview(c);
    const early = await post(t, "/batch/terminate", rw.admin.token, { id: batch.id });
    expect(early.status).toBe(409);
    await fx.setStatus(batch.id, BatchStatus.SENDING);
    expect((await post(t, "/batch/terminate", c.token, { id: batch.id })).status).toBe(403);
    const stopped = await post<{ status: number }>(t, "/batch/terminate", rw.admin.token, {
      id: batch.id,
      reason: "complaint",
    });
    expect(stopped.body.data.status).toBe(BatchStatus.SEND_TERMINATED);
    expect(await fx.job("finish-batch", batch.id)).toBeTruthy();
  });

  it("parallel cancels refund once", async () => {
    const c = await fx.customer(rw, "10.00");
    const batch = await underReview(c);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => post(t, "/batch/cancel", c.token, { id: batch.id })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await fx.balance(c.id)).toBe(100_000n);
  });
});

describe("mode 1: one number", () => {
  it("answers the provider's outcome once the recipient's send result leaves 0", async () => {
    const c = await fx.customer(w, "1.00");
    // Stands in for the dispatch worker: accepts the one recipient shortly after the batch exists.
    const provider = (async () => {
      for (let i = 0; i < 100; i++) {
        const batch = await t.prisma.messageBatch.findFirst({ where: { userId: c.id }, select: { id: true } });
        if (batch) {
          await t.prisma.recipient.updateMany({
            where: { batchId: batch.id },
            data: { sendResult: 1, providerMessageId: "abc123" },
          });
          return;
        }
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const res = await post<SubmitData & { recipient: { sendResult: number; providerMessageId: string } }>(
      t,
      "/batch/submit",
      c.token,
      { productId: w.productId, taskType: 2, submitMode: 1, number: "+1 415 555 2671", content: smsContent() },
    );
    await provider;
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe("accepted");
    expect(res.body.data.recipient).toMatchObject({ sendResult: 1, providerMessageId: "abc123", price: "0.0080" });
  });

  it("says 'sending' when no answer came within the wait", async () => {
    const c = await fx.customer(w, "1.00");
    const res = await post<SubmitData>(t, "/batch/submit", c.token, {
      productId: w.productId,
      taskType: 2,
      submitMode: 1,
      number: "+12015550123",
      content: smsContent(),
    });
    expect(res.body.data.outcome).toBe("sending");
    await fx.expectExactCharge(res.body.data.batch.id);
  });

  it("refuses an invalid number and a country not served, writing nothing", async () => {
    const c = await fx.customer(w, "1.00");
    const body = { productId: w.productId, taskType: 2, submitMode: 1, content: smsContent() };
    expect(await expectRefusedCleanly(c, { ...body, number: "12345" }, 400)).toMatch(/not valid/);
    expect(await expectRefusedCleanly(c, { ...body, number: "+33612345678" }, 400)).toMatch(
      /\(FR\) cannot be sent to: no price is set for this country/,
    );
  });
});

describe("who sees which batch", () => {
  it("lists and details are scoped; another tenant's batch answers 404", async () => {
    const c = await fx.customer(w, "1.00");
    const made = await submit(c, multiple(w, ["+12025550123"]));
    const id = made.body.data.batch.id;
    const ow = await fx.world();
    const foreignAdmin = ow.admin;
    expect((await get(t, "/batch/detail", foreignAdmin.token, { id })).status).toBe(404);
    expect((await get(t, "/batch/detail", w.otherAgent.token, { id })).status).toBe(404);
    expect((await get(t, "/batch/detail", w.agent.token, { id })).status).toBe(200);
    expect((await get(t, "/batch/detail", w.admin.token, { id })).status).toBe(200);
    const mine = await get<{ list: Array<{ id: string }>; total: number }>(t, "/batch/list", c.token, {});
    expect(mine.body.data.list.map((b) => b.id)).toEqual([id]);
    const byAgent = await get<{ list: Array<{ id: string }> }>(t, "/batch/list", w.agent.token, {
      userId: String(c.id),
    });
    expect(byAgent.body.data.list.map((b) => b.id)).toEqual([id]);
    const foreignList = await get<{ total: number }>(t, "/batch/list", foreignAdmin.token, { userId: String(c.id) });
    expect(foreignList.body.data.total).toBe(0);
    const byKeyword = await get<{ total: number }>(t, "/batch/list", w.admin.token, { keyword: id });
    expect(byKeyword.body.data.total).toBe(1);
    const byGroup = await get<{ list: Array<{ id: string; progress: number }> }>(t, "/batch/list", c.token, {
      filterType: "20",
      productCode: "3000",
    });
    expect(byGroup.body.data.list.map((b) => b.id)).toEqual([id]);
    expect((await get<{ total: number }>(t, "/batch/list", c.token, { filterType: "1" })).body.data.total).toBe(0);
    expect((await get<{ total: number }>(t, "/batch/list", c.token, { stage: "processing" })).body.data.total).toBe(1);
  });

  it("replies: the batch's own, newest first, paged; others' batches answer 404", async () => {
    const c = await fx.customer(w, "1.00");
    const made = await submit(c, multiple(w, ["+12025550123", "+12025550124"]));
    const id = made.body.data.batch.id;
    const other = await submit(c, multiple(w, ["+12025550125"]));
    const base = Date.now() - 60_000;
    await t.prisma.inboundMessage.createMany({
      data: [
        { text: "yes please", postbackData: null, at: 1, batch: id, phone: "+12025550123" },
        { text: null, postbackData: "CONFIRM", at: 2, batch: id, phone: "+12025550124" },
        { text: "another batch", postbackData: null, at: 3, batch: other.body.data.batch.id, phone: "+12025550125" },
      ].map((r, i) => ({
        tenantId: w.tenantId,
        userId: c.id,
        batchId: BigInt(r.batch),
        channelId: w.channelId,
        providerMessageId: `reply-${id}-${i}`,
        phone: r.phone,
        text: r.text,
        postbackData: r.postbackData,
        receivedAt: new Date(base + r.at * 1000),
      })),
    });
    type Replies = { list: Array<{ phone: string; text: string | null; postbackData: string | null }>; total: number };
    const replies = await get<Replies>(t, "/batch/replies", c.token, { id });
    expect(replies.body.data.total).toBe(2);
    expect(replies.body.data.list).toMatchObject([
      { phone: "+12025550124", text: null, postbackData: "CONFIRM" },
      { phone: "+12025550123", text: "yes please", postbackData: null },
    ]);
    const page2 = await get<Replies>(t, "/batch/replies", w.agent.token, { id, page: "2", pageSize: "1" });
    expect(page2.body.data.list.map((r) => r.text)).toEqual(["yes please"]);
    expect((await get(t, "/batch/replies", w.otherAgent.token, { id })).status).toBe(404);
    expect((await get(t, "/batch/replies", (await fx.world()).admin.token, { id })).status).toBe(404);
    expect((await get(t, "/batch/replies", (await fx.customer(w, "1.00")).token, { id })).status).toBe(404);
    expect((await get(t, "/batch/replies", c.token, { id: "x" })).status).toBe(400);
  });

  it("detail, recipients (search and filters) and the CSV exports", async () => {
    const c = await fx.customer(w, "1.00");
    const made = await submit(c, multiple(w, ["+12025550123", "+12015550123", "+447400123456", "bad", "+12025550123"]));
    const id = made.body.data.batch.id;
    const detail = await get<{ countries: unknown[]; content: unknown; reviewer: null }>(t, "/batch/detail", c.token, {
      id,
    });
    expect(detail.body.data.countries).toEqual([
      { countryCode: "GB", count: 1, cost: "0.0400" },
      { countryCode: "US", count: 2, cost: "0.0160" },
    ]);
    expect(detail.body.data.content).toEqual(smsContent());

    type Rows = { list: Array<{ phone: string; channelId: number | null; channelName: string | null }>; total: number };
    const search = await get<Rows>(t, "/batch/recipients", c.token, { id, phone: "1202" });
    expect(search.body.data.list.map((r) => r.phone)).toEqual(["+12025550123"]);
    // Which channel carries a message is not the customer's business: neither its id nor its name.
    expect(search.body.data.list[0]).toMatchObject({ channelId: null, channelName: null });
    const staffView = await get<Rows>(t, "/batch/recipients", w.admin.token, { id, countryCode: "us" });
    expect(staffView.body.data.total).toBe(2);
    // Staff read the channel by its name.
    expect(staffView.body.data.list[0]).toMatchObject({ channelId: w.channelId, channelName: "SMSC" });
    const staffCsv = await t.app.inject({
      method: "GET",
      url: `/batch/recipients/export?id=${id}`,
      headers: { authorization: `Bearer ${w.admin.token}`, lang: "en" },
    });
    const staffLines = staffCsv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(staffLines[0]?.endsWith(",channel id,channel,send result code,delivery report code")).toBe(true);
    expect(staffLines[1]?.endsWith(`,${w.channelId},SMSC,0,0`)).toBe(true);

    const csv = await t.app.inject({
      method: "GET",
      url: `/batch/recipients/export?id=${id}`,
      headers: { authorization: `Bearer ${c.token}`, lang: "en" },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "phone,country,segments,price,send result,delivery report,error code,sent at (UTC),report at (UTC)," +
        "send result code,delivery report code",
    );
    expect(lines[1]).toBe("+12025550123,US,1,0.0080,not sent,unknown,,,,0,0");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["+12025550123", "+12015550123", "+447400123456"]);

    const rejected = await t.app.inject({
      method: "GET",
      url: `/batch/rejected/export?id=${id}`,
      headers: { authorization: `Bearer ${c.token}` },
    });
    expect(
      rejected.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n"),
    ).toEqual(["number,reason", "bad,invalid", "+12025550123,duplicate"]);

    const foreign = await fx.world();
    const denied = await t.app.inject({
      method: "GET",
      url: `/batch/recipients/export?id=${id}`,
      headers: { authorization: `Bearer ${foreign.admin.token}`, lang: "en" },
    });
    expect(denied.statusCode).toBe(404);
    expect(denied.json()).toMatchObject({ code: 1, message: "batch not found" });
  });
});

describe("the recipients' CSV for its reader", () => {
  async function exportLines(token: string, lang: "zh" | "en", tz?: string) {
    const id = made;
    const res = await t.app.inject({
      method: "GET",
      url: `/batch/recipients/export?id=${id}${tz === undefined ? "" : `&tz=${encodeURIComponent(tz)}`}`,
      headers: { authorization: `Bearer ${token}`, lang },
    });
    return {
      status: res.statusCode,
      body: res.body,
      lines: res.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n"),
    };
  }
  let made: string;
  let c: Account;

  beforeAll(async () => {
    c = await fx.customer(w, "1.00");
    made = (await submit(c, multiple(w, ["+12025550123", "+12015550123"]))).body.data.batch.id;
    const batchId = BigInt(made);
    await t.prisma.recipient.updateMany({
      where: { batchId, phone: "+12025550123" },
      data: {
        sendResult: 1,
        receiveResult: 1,
        sentAt: new Date("2026-01-05T08:00:00Z"),
        receivedAt: new Date("2026-01-05T08:00:05Z"),
      },
    });
    await t.prisma.recipient.updateMany({
      where: { batchId, phone: "+12015550123" },
      data: { sendResult: 2, receiveResult: 2, errorCode: "ESME_RINVDSTADR", sentAt: new Date("2026-01-05T23:30:00Z") },
    });
  });

  it("writes the header and results in Chinese and the times on a Shanghai clock, the codes kept at the end", async () => {
    const { status, lines } = await exportLines(c.token, "zh", "Asia/Shanghai");
    expect(status).toBe(200);
    expect(lines).toEqual([
      "号码,国家,条数,单价,发送结果,状态报告,错误码,发送时间（Asia/Shanghai）,回执时间（Asia/Shanghai）,发送结果代码,状态报告代码",
      "+12025550123,US,1,0.0080,发送成功,已接收,,2026-01-05 16:00:00,2026-01-05 16:00:05,1,1",
      "+12015550123,US,1,0.0080,发送失败,接收失败,ESME_RINVDSTADR,2026-01-06 07:30:00,,2,2",
    ]);
  });

  it("in English on a New York clock; UTC when no time zone is given", async () => {
    const ny = await exportLines(c.token, "en", "America/New_York");
    expect(ny.lines[0]).toContain("sent at (America/New_York),report at (America/New_York)");
    expect(ny.lines[1]).toBe("+12025550123,US,1,0.0080,sent,delivered,,2026-01-05 03:00:00,2026-01-05 03:00:05,1,1");
    expect(ny.lines[2]).toBe("+12015550123,US,1,0.0080,failed,not delivered,ESME_RINVDSTADR,2026-01-05 18:30:00,,2,2");
    const utc = await exportLines(c.token, "en");
    expect(utc.lines[1]).toBe("+12025550123,US,1,0.0080,sent,delivered,,2026-01-05 08:00:00,2026-01-05 08:00:05,1,1");
  });

  it("refuses a time zone Intl does not know with a translated 400", async () => {
    const en = await exportLines(c.token, "en", "Mars/Olympus_Mons");
    expect(en.status).toBe(400);
    expect(JSON.parse(en.body)).toEqual({
      code: 1,
      message: "field tz must be an IANA time zone name, e.g. Asia/Shanghai",
      data: null,
    });
    const zh = await exportLines(c.token, "zh", "+08:00");
    expect(JSON.parse(zh.body).message).toBe("字段 tz 应为 IANA 时区名称，如 Asia/Shanghai");
  });
});

describe("super admin", () => {
  it("sees a tenant's batches through the tenant-id header", async () => {
    const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN } });
    const token = t.app.signToken(sa).token;
    const c = await fx.customer(w, "1.00");
    const made = await submit(c, multiple(w, ["+12025550123"]));
    const res = await get<{ total: number }>(
      t,
      "/batch/list",
      token,
      { userId: String(c.id) },
      { headers: { "tenant-id": String(w.tenantId) } },
    );
    expect(res.body.data.total).toBe(1);
    expect((await get(t, "/batch/detail", token, { id: made.body.data.batch.id })).status).toBe(200);
  });
});
