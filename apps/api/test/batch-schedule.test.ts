// POST /batch/schedule: a reviewer moves the send time of a batch pending send (20) or clears it; one
// conditional update on the status, so any other status is a 409 and nothing changes; scoped like every batch
// route; the waiting dispatch job follows the new time.
import { BatchStatus, ReviewMode } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

interface Row {
  id: string;
  status: number;
  scheduledAt: string | null;
}

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world({ reviewMode: ReviewMode.ALL });
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

const inHours = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();

/** A batch of a new customer under review (11), then passed with a schedule so it waits in 20. */
async function pendingBatch(at = inHours(2)): Promise<{ customer: Account; batch: Row }> {
  const customer = await fx.customer(w, "10.00");
  const made = await post<{ batch: Row }>(t, "/batch/submit", customer.token, multiple(w, ["+12025550123"]));
  expect(made.body.data.batch.status).toBe(BatchStatus.UNDER_REVIEW);
  const passed = await post<Row>(t, "/batch/review/pass", w.admin.token, {
    id: made.body.data.batch.id,
    scheduledAt: at,
  });
  expect(passed.body.data).toMatchObject({ status: BatchStatus.PENDING_SEND, scheduledAt: at });
  return { customer, batch: passed.body.data };
}

async function stored(id: string) {
  return t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { scheduledAt: true } });
}

describe("changing the schedule of a pending batch", () => {
  it("the owning agent moves it; the waiting dispatch job gets the new delay", async () => {
    const { batch } = await pendingBatch(inHours(2));
    const at = inHours(5);
    const res = await post<Row>(t, "/batch/schedule", w.agent.token, { id: batch.id, scheduledAt: at });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: batch.id, status: BatchStatus.PENDING_SEND, scheduledAt: at });
    expect((await stored(batch.id)).scheduledAt?.toISOString()).toBe(at);
    const job = await fx.job("dispatch-batch", batch.id);
    expect(job).toBeTruthy();
    expect(await job?.isDelayed()).toBe(true);
    expect(job?.delay).toBeGreaterThan(4.9 * 3600_000);
  });

  it("null sends it at once: the schedule is cleared and the dispatch job is due now", async () => {
    const { batch } = await pendingBatch(inHours(3));
    const res = await post<Row>(t, "/batch/schedule", w.admin.token, { id: batch.id, scheduledAt: null });
    expect(res.status).toBe(200);
    expect(res.body.data.scheduledAt).toBeNull();
    expect((await stored(batch.id)).scheduledAt).toBeNull();
    const job = await fx.job("dispatch-batch", batch.id);
    expect(job?.delay ?? 0).toBe(0);
  });

  it("refuses a time in the past or beyond 90 days, changing nothing", async () => {
    const at = inHours(2);
    const { batch } = await pendingBatch(at);
    const past = await post(t, "/batch/schedule", w.admin.token, {
      id: batch.id,
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    const far = await post(t, "/batch/schedule", w.admin.token, { id: batch.id, scheduledAt: inHours(24 * 91) });
    expect(far.status).toBe(400);
    const malformed = await post(t, "/batch/schedule", w.admin.token, { id: batch.id, scheduledAt: "tomorrow" });
    expect(malformed.status).toBe(400);
    expect((await stored(batch.id)).scheduledAt?.toISOString()).toBe(at);
  });

  it("is a 409 outside status 20 (under review, sending, cancelled), and nothing changes", async () => {
    const customer = await fx.customer(w, "10.00");
    const made = await post<{ batch: Row }>(t, "/batch/submit", customer.token, multiple(w, ["+12025550123"]));
    const review = made.body.data.batch;
    const underReview = await post(t, "/batch/schedule", w.admin.token, { id: review.id, scheduledAt: inHours(1) });
    expect(underReview.status).toBe(409);
    expect(underReview.body.message).toMatch(/status 11/);
    expect((await stored(review.id)).scheduledAt).toBeNull();

    const at = inHours(2);
    const { batch } = await pendingBatch(at);
    await fx.setStatus(batch.id, BatchStatus.SENDING);
    const sending = await post(t, "/batch/schedule", w.admin.token, { id: batch.id, scheduledAt: inHours(4) });
    expect(sending.status).toBe(409);
    expect(sending.body.message).toMatch(/status 21/);
    expect((await stored(batch.id)).scheduledAt?.toISOString()).toBe(at);

    const other = await pendingBatch(at);
    const cancelled = await post(t, "/batch/cancel", other.customer.token, { id: other.batch.id });
    expect(cancelled.body.data).toMatchObject({ status: BatchStatus.SEND_CANCELLED });
    const late = await post(t, "/batch/schedule", w.admin.token, { id: other.batch.id, scheduledAt: inHours(4) });
    expect(late.status).toBe(409);
  });

  it("is for the admin and the owning agent: another agent and another tenant get 404, customers 403", async () => {
    const at = inHours(2);
    const { customer, batch } = await pendingBatch(at);
    const body = { id: batch.id, scheduledAt: inHours(6) };
    expect((await post(t, "/batch/schedule", w.otherAgent.token, body)).status).toBe(404);
    const elsewhere = await fx.world();
    expect((await post(t, "/batch/schedule", elsewhere.admin.token, body)).status).toBe(404);
    expect((await post(t, "/batch/schedule", customer.token, body)).status).toBe(403);
    expect((await post(t, "/batch/schedule", undefined, body)).status).toBe(401);
    expect((await stored(batch.id)).scheduledAt?.toISOString()).toBe(at);
  });
});
