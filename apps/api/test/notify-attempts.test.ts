// Callback attempts (issue 18): GET /user/notify/attempts lists the caller's own attempts (staff: a customer's they
// manage), newest first, filtered by event and batch; POST /user/notify/attempts/{id}/resend queues the attempt's event again with its eventId
// (one job on the workers' callback queue), 409 while that resend is queued, 404 for another customer's attempt.
import { bullPrefix, type NotifyAttemptList, type NotifyResendResult, QUEUE, UserType } from "@switchboard/contracts";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, get, makeAccount, makeWorld, post, type World } from "./accounts";
import { createTestApp, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let w: World;
let queue: Queue;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  queue = new Queue(QUEUE.callback, { connection: t.redis, prefix: bullPrefix(t.config.REDIS_PREFIX) });
});
afterAll(async () => {
  await queue.close();
  await t.close();
});

async function customer(): Promise<Account> {
  const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
  await t.prisma.user.update({ where: { id: c.id }, data: { notifyUrl: "http://127.0.0.1:9/hook" } });
  return c;
}

/** An event with its attempts as the workers write them: the first refused, then taken. */
async function eventWithAttempts(c: Account, event: "batch_finished" | "delivery_report", batchId: bigint) {
  const e = await t.prisma.notifyEvent.create({
    data: {
      userId: c.id,
      eventId: `callback-${event}-${batchId}.${uniqueName("k")}`,
      event,
      batchId,
      recipientIds: event === "delivery_report" ? [batchId * 10n, batchId * 10n + 1n] : [],
    },
  });
  const attempts = [];
  for (const [attempt, httpStatus] of [
    [1, 500],
    [2, 200],
  ] as const) {
    attempts.push(
      await t.prisma.notifyAttempt.create({
        data: {
          userId: c.id,
          batchId,
          event,
          attempt,
          httpStatus,
          error: httpStatus === 500 ? "http_500" : null,
          durationMs: 12,
          notifyEventId: e.id,
        },
      }),
    );
  }
  return { event: e, attempts };
}

describe("GET /user/notify/attempts", () => {
  it("lists the caller's own attempts newest first, filtered by event and batch", async () => {
    const a = await customer();
    const b = await customer();
    const finished = await eventWithAttempts(a, "batch_finished", 9_000_001n);
    const report = await eventWithAttempts(a, "delivery_report", 9_000_002n);
    await eventWithAttempts(b, "batch_finished", 9_000_003n);
    await t.prisma.notifyAttempt.create({
      data: { userId: a.id, event: "test", attempt: 1, httpStatus: 200, durationMs: 3 },
    });

    const all = await get<NotifyAttemptList>(t, "/user/notify/attempts", a.token);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(5);
    const ids = all.body.data.list.map((r) => BigInt(r.id));
    expect(ids).toEqual([...ids].sort((x, y) => (x > y ? -1 : 1)));
    expect(all.body.data.list[0]).toMatchObject({ event: "test", eventId: null, resendable: false, batchId: null });
    expect(all.body.data.list[1]).toMatchObject({
      event: "delivery_report",
      eventId: report.event.eventId,
      batchId: "9000002",
      attempt: 2,
      httpStatus: 200,
      error: null,
      durationMs: 12,
      manual: false,
      resendable: true,
    });
    // Another customer's rows never appear.
    expect(all.body.data.list.every((r) => r.batchId !== "9000003")).toBe(true);

    const byEvent = await get<NotifyAttemptList>(t, "/user/notify/attempts?event=batch_finished", a.token);
    expect(byEvent.body.data.list.map((r) => r.eventId)).toEqual([finished.event.eventId, finished.event.eventId]);
    const byBatch = await get<NotifyAttemptList>(t, "/user/notify/attempts?batchId=9000002&pageSize=1", a.token);
    expect(byBatch.body.data).toMatchObject({ total: 2, list: [{ attempt: 2 }] });
    // Another customer's batch: nothing.
    const theirs = await get<NotifyAttemptList>(t, "/user/notify/attempts?batchId=9000003", a.token);
    expect(theirs.body.data).toEqual({ list: [], total: 0 });
  });

  it("staff read a customer's attempts they manage (support), nobody else's; a bad filter is 400", async () => {
    const a = await customer(); // agent1's customer in w's tenant
    await eventWithAttempts(a, "batch_finished", 9_000_020n);
    const url = `/user/notify/attempts?userId=${a.id}`;
    // The tenant's admin and the customer's own agent read them.
    for (const staff of [w.admin, w.agent1]) {
      const res = await get<NotifyAttemptList>(t, url, staff.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.total).toBe(2);
      expect(res.body.data.list.every((r) => r.batchId === "9000020")).toBe(true);
    }
    // Another agent's customer, or another tenant's, answers like a missing one.
    expect((await get(t, url, w.agent2.token)).status).toBe(404);
    const other = await makeWorld(t);
    expect((await get(t, url, other.admin.token)).status).toBe(404);
    // Staff name the customer; a customer reads only its own.
    expect((await get(t, "/user/notify/attempts", w.admin.token)).status).toBe(400);
    const b = await customer();
    expect((await get(t, url, b.token)).status).toBe(404);
    expect((await get(t, `/user/notify/attempts?userId=${b.id}`, b.token)).status).toBe(200);
    // Only the customer resends.
    const [attempt] = await t.prisma.notifyAttempt.findMany({ where: { userId: a.id }, take: 1 });
    expect((await post(t, `/user/notify/attempts/${attempt!.id}/resend`, w.admin.token, undefined)).status).toBe(403);

    expect((await get(t, "/user/notify/attempts?event=nope", a.token)).status).toBe(400);
    expect((await get(t, "/user/notify/attempts", undefined)).status).toBe(401);
  });
});

describe("POST /user/notify/attempts/{id}/resend", () => {
  it("queues the event again with its eventId, once at a time; another customer's attempt is 404", async () => {
    const a = await customer();
    const b = await customer();
    const { event, attempts } = await eventWithAttempts(a, "delivery_report", 9_000_010n);
    const first = attempts[0]!.id.toString();

    expect((await post(t, `/user/notify/attempts/${first}/resend`, b.token, undefined)).status).toBe(404);
    expect((await post(t, "/user/notify/attempts/999999999999/resend", a.token, undefined)).status).toBe(404);

    const res = await post<NotifyResendResult>(t, `/user/notify/attempts/${first}/resend`, a.token, undefined);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      eventId: event.eventId,
      event: "delivery_report",
      batchId: "9000010",
      jobId: `${event.eventId}-resend`,
    });
    const job = await queue.getJob(res.body.data.jobId);
    expect(job?.data).toEqual({
      userId: a.id,
      event: "delivery_report",
      eventId: event.eventId,
      batchId: "9000010",
      recipientIds: ["90000100", "90000101"],
    });
    expect(job?.opts.attempts).toBe(1);
    const resends = (await queue.getJobs(["waiting", "delayed", "active"])).filter((j) =>
      j.id?.startsWith(event.eventId),
    );
    expect(resends).toHaveLength(1);

    // A second resend of the same event while the first is queued (from any of its attempts): 409, nothing added.
    const again = await post(t, `/user/notify/attempts/${attempts[1]!.id}/resend`, a.token, undefined);
    expect(again.status).toBe(409);
    expect(
      (await queue.getJobs(["waiting", "delayed", "active"])).filter((j) => j.id?.startsWith(event.eventId)),
    ).toHaveLength(1);

    // Once it has run (removed when done), the event may be re-sent again.
    await job?.remove();
    expect((await post(t, `/user/notify/attempts/${first}/resend`, a.token, undefined)).status).toBe(200);
    await (await queue.getJob(res.body.data.jobId))?.remove();

    // Two presses at the same instant: one queues it, the other answers 409 (not two 200s for one job).
    const presses = await Promise.all(
      [first, attempts[1]!.id.toString(), first].map((id) =>
        post(t, `/user/notify/attempts/${id}/resend`, a.token, undefined),
      ),
    );
    expect(presses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(
      (await queue.getJobs(["waiting", "delayed", "active"])).filter((j) => j.id?.startsWith(event.eventId)),
    ).toHaveLength(1);
    await (await queue.getJob(res.body.data.jobId))?.remove();
  });

  it("refuses a test attempt (nothing to resend) and a customer without a notify URL", async () => {
    const a = await customer();
    const test = await t.prisma.notifyAttempt.create({
      data: { userId: a.id, event: "test", attempt: 1, httpStatus: 200, durationMs: 3 },
    });
    expect((await post(t, `/user/notify/attempts/${test.id}/resend`, a.token, undefined)).status).toBe(400);
    const { attempts } = await eventWithAttempts(a, "batch_finished", 9_000_020n);
    await t.prisma.user.update({ where: { id: a.id }, data: { notifyUrl: null } });
    expect((await post(t, `/user/notify/attempts/${attempts[0]!.id}/resend`, a.token, undefined)).status).toBe(400);
  });
});
