// The single-send lane (modules/batch-submit/single-lane.ts): single sends of one customer that arrive together are
// written in groups, one transaction each, and every batch is what the usual path would have written (its own
// recipient, exact charge, one consume row, the agent's share of the money as if charged one by one); a group the
// balance does not cover, or holding an opted-out number, still answers each send on its own; what the lane holds
// in memory is forgotten as soon as a price or the account changes.
import { randomBytes } from "node:crypto";
import { BalanceLogType, BatchStatus, dispatchSinglesJob, parseMoney, singlesListKey } from "@switchboard/contracts";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { applyBalanceChange } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SingleSendLane } from "../src/modules/batch-submit/single-lane";
import { SubmitMemory } from "../src/modules/batch-submit/submit-memory";
import { type Account, BatchFixtures, type BatchWorld, multiple, PRICES, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

interface SubmitData {
  batch: { id: string; status: number; cost: string };
}

let t: TestContext;
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.expectLedgersReplay();
  await fx.close();
  await t.close();
});

let seq = 0;
/** A US number of its own for every send (US: 80 units a segment). */
const usNumber = () => `+1212555${String(1000 + (seq++ % 9000)).padStart(4, "0")}`;

const sendOne = (c: Account, number = usNumber(), on: TestContext = t) =>
  post<SubmitData>(on, "/batch/submit", c.token, multiple(w, [number]));

/** Sends all at once (the lane sees them while a group is being written). */
const sendAll = (c: Account, numbers: string[]) => Promise.all(numbers.map((n) => sendOne(c, n)));

describe("single sends written in groups", () => {
  it("each send is its own batch, recipient and consume row, charged exactly, and groups share transactions", async () => {
    const c = await fx.customer(w, "100.00");
    const answers = await sendAll(
      c,
      Array.from({ length: 60 }, () => usNumber()),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const ids = answers.map((a) => a.body.data.batch.id);
    expect(new Set(ids).size).toBe(60);
    for (const id of ids) {
      const batch = await fx.expectExactCharge(id);
      expect(batch).toMatchObject({ status: BatchStatus.PENDING_SEND, validCount: 1, totalCount: 1, cost: PRICES.US });
      expect(batch.recipientIdFrom! < batch.recipientIdTo!).toBe(true);
    }
    // They wait for the workers in groups on the singles list (dispatch-singles): each batch in exactly one, with
    // its creation time and its recipient, and fewer groups than sends. (Mode 2 answers before the hand-over.)
    await t.app.batchDeps.lane.handedOver();
    const jobs = (await t.redis.lrange(singlesListKey(t.config.REDIS_PREFIX), 0, -1)).map((entry) =>
      dispatchSinglesJob.parse(JSON.parse(entry)),
    );
    const named = jobs.flatMap((j) => j.batches).filter((b) => ids.includes(b.batchId));
    expect(named.map((b) => b.batchId).sort()).toEqual([...ids].sort());
    for (const b of named) {
      const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(b.batchId) } });
      expect(b.createdAt).toBe(batch.createdAt.toISOString());
      expect(BigInt(b.recipientId)).toBe(batch.recipientIdFrom! + 1n);
    }
    const ours = jobs.filter((j) => j.batches.some((b) => ids.includes(b.batchId)));
    expect(ours.length).toBeLessThan(60);
    expect(await fx.balance(c.id)).toBe(parseMoney("100.00")! - 60n * PRICES.US!);
    // Rows written by one transaction share its id: 60 sends took fewer transactions than sends.
    const [row] = await t.prisma.$queryRaw<Array<{ txs: number }>>`
      SELECT count(DISTINCT xmin::text)::int AS txs FROM message_batches WHERE "userId" = ${c.id}`;
    expect(row?.txs).toBeLessThan(60);
  });

  it("takes the agent's money in each batch's share exactly as one charge after another would", async () => {
    const c = await fx.customer(w, "0.5000"); // the platform's money: 5,000 units
    // 2,000 units paid in by the agent: spending takes the platform's money first, then the agent's.
    await t.prisma.$transaction((tx) =>
      applyBalanceChange(tx, {
        tenantId: w.tenantId,
        userId: c.id,
        type: BalanceLogType.RECHARGE,
        amount: 2_000n,
        fundingAgentId: w.agent.id,
      }),
    );
    const answers = await sendAll(
      c,
      Array.from({ length: 80 }, () => usNumber()), // 6,400 units: the last 1,400 are the agent's
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const logs = (await fx.logs(c.id)).filter((l) => l.type === BalanceLogType.CONSUME);
    expect(logs).toHaveLength(80);
    let agentsBefore = 2_000n;
    for (const log of logs) {
      const agentsAfter = agentsBefore < log.balanceAfter ? agentsBefore : log.balanceAfter;
      const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: log.batchId! } });
      expect(batch.agentFunded, `batch ${batch.id}`).toBe(agentsBefore - agentsAfter);
      agentsBefore = agentsAfter;
    }
    const user = await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } });
    expect(user).toMatchObject({ balance: 600n, agentFunded: 600n });
  });

  it("a group the balance does not cover answers each send on its own: those that fit are sent, the others 402", async () => {
    const c = await fx.customer(w, "0.0400"); // 400 units: five sends
    const answers = await sendAll(
      c,
      Array.from({ length: 8 }, () => usNumber()),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual([402, 402, 402]);
    expect(await fx.balance(c.id)).toBe(0n);
    expect(await fx.batchCount(c.id)).toBe(5);
  });

  it("an opted-out number among the group is refused as it always is; the others are written", async () => {
    const c = await fx.customer(w, "10.00");
    const numbers = Array.from({ length: 6 }, () => usNumber());
    await t.prisma.optOut.create({ data: { tenantId: w.tenantId, userId: c.id, phone: numbers[2]!, source: 1 } });
    const answers = await sendAll(c, numbers);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 200, 200, 200]);
    expect(answers[2]!.body.message).toMatch(/opt/i);
    expect(await fx.batchCount(c.id)).toBe(5);
  });
});

describe("handing single sends over to the workers", () => {
  const dispatches = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ id: BigInt(from + i), createdAt: new Date(), recipientId: BigInt(i) }));

  it("a group goes when its linger ends, or at once when it holds 100; handedOver() waits for the rest", async () => {
    const groups: number[][] = [];
    const lane = new SingleSendLane(t.prisma, t.app.batchDeps.lane.memory, t.app.log, {
      dispatchSingles: async (sends) => {
        groups.push(sends.map((s) => Number(s.id)));
      },
    });
    // A lone send goes at once (nothing went before it).
    await lane.dispatch(dispatches(1)[0]!);
    expect(groups).toEqual([[0]]);
    // 250 asked for right after it: two full groups go without waiting for the linger, the rest when it ends.
    const asked = dispatches(250, 1).map((d) => lane.dispatch(d));
    expect(groups.map((g) => g.length)).toEqual([1, 100, 100]);
    expect(groups[1]![0]).toBe(1);
    await lane.handedOver();
    expect(groups.map((g) => g.length)).toEqual([1, 100, 100, 50]);
    expect(groups.flat()).toEqual(Array.from({ length: 251 }, (_, i) => i));
    await Promise.all(asked);
  });

  it("mode 2 answers once its batch is committed, before the hand-over; the hand-over follows", async () => {
    const c = await fx.customer(w, "10.00");
    const lane = t.app.batchDeps.lane;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const original = lane.dispatch.bind(lane);
    let forwarded: Promise<void> | undefined;
    const held = vi.spyOn(lane, "dispatch").mockImplementationOnce(async (send) => {
      await gate;
      forwarded = original(send);
      return forwarded;
    });
    try {
      const answer = await sendOne(c);
      expect(answer.status).toBe(200);
      const id = answer.body.data.batch.id;
      expect(held).toHaveBeenCalledTimes(1);
      await fx.expectExactCharge(id);
      const listed = async () =>
        (await t.redis.lrange(singlesListKey(t.config.REDIS_PREFIX), 0, -1))
          .flatMap((entry) => dispatchSinglesJob.parse(JSON.parse(entry)).batches)
          .some((b) => b.batchId === id);
      expect(await listed()).toBe(false);
      release();
      await vi.waitFor(() => expect(forwarded).toBeDefined());
      await forwarded;
      expect(await listed()).toBe(true);
    } finally {
      release();
      held.mockRestore();
    }
  });
});

describe("closing the API", () => {
  it("waits for the hand-overs of sends it has answered before its queues close", async () => {
    const c = await fx.customer(w, "10.00");
    const other = await createTestApp();
    // The lane's push to the singles list, held back until released.
    const jobs = (other.app.batchDeps.lane as unknown as { jobs: { dispatchSingles: (s: unknown[]) => Promise<void> } })
      .jobs;
    const push = jobs.dispatchSingles.bind(jobs);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    jobs.dispatchSingles = async (sends) => {
      await gate;
      return push(sends);
    };
    const answer = await sendOne(c, usNumber(), other);
    expect(answer.status).toBe(200);
    const id = answer.body.data.batch.id;
    let closed = false;
    const closing = other.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(false);
    release();
    await closing;
    const listed = (await t.redis.lrange(singlesListKey(t.config.REDIS_PREFIX), 0, -1))
      .flatMap((entry) => dispatchSinglesJob.parse(JSON.parse(entry)).batches)
      .some((b) => b.batchId === id);
    expect(listed).toBe(true);
  });
});

describe("single sends with an Idempotency-Key", () => {
  it("20 parallel single sends under one key make one batch and one charge, and all answer it", async () => {
    const c = await fx.customer(w, "10.00");
    const key = `sk_${randomBytes(32).toString("base64url")}`;
    await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: secretKeyHash(key), apiEnabled: true } });
    const body = multiple(w, [usNumber()]);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post<SubmitData>(t, "/v1/messages", undefined, body, {
          headers: { authorization: `Bearer ${key}`, "idempotency-key": "otp-7731" },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.body.data.batch.id)).size).toBe(1);
    expect(await fx.batchCount(c.id)).toBe(1);
    await fx.expectExactCharge(answers[0]!.body.data.batch.id);
    expect(await fx.balance(c.id)).toBe(parseMoney("10.00")! - PRICES.US!);
  });
});

describe("what the lane holds in memory", () => {
  it("is not trusted while its notifications cannot arrive: every send reads again", async () => {
    // A memory whose LISTEN connection never comes up (nothing listens on that port).
    const blind = new SubmitMemory({ prisma: t.prisma, databaseUrl: "postgresql://postgres@127.0.0.1:1/none" });
    blind.start();
    try {
      const world = await fx.world();
      const c = await fx.customer(world, "10.00");
      expect((await blind.quote(c.id, world.productId, 1, "US"))?.price).toBe(80n);
      await t.prisma.price.updateMany({
        where: { productId: world.productId, countryCode: "US" },
        data: { unitPrice: 70n },
      });
      expect((await blind.quote(c.id, world.productId, 1, "US"))?.price).toBe(70n);
    } finally {
      await blind.close();
    }
  });

  /** Sends until `check` holds of an answer (the notification reaches the API within moments), at most 5 s. */
  async function sendUntil(c: Account, check: (a: Awaited<ReturnType<typeof sendOne>>) => boolean) {
    const deadline = Date.now() + 5_000;
    for (;;) {
      const answer = await sendOne(c);
      if (check(answer) || Date.now() > deadline) return answer;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it("a price changed by hand is the next sends' price", async () => {
    const world = await fx.world();
    const c = await fx.customer(world, "10.00");
    const send = () => post<SubmitData>(t, "/batch/submit", c.token, multiple(world, [usNumber()]));
    expect((await send()).body.data.batch.cost).toBe("0.0080");
    await t.prisma.price.updateMany({
      where: { productId: world.productId, countryCode: "US" },
      data: { unitPrice: 95n },
    });
    const deadline = Date.now() + 5_000;
    let cost = "";
    while (Date.now() < deadline && cost !== "0.0095") {
      cost = (await send()).body.data.batch.cost;
    }
    expect(cost).toBe("0.0095");
  });

  it("a customer whose identity check is withdrawn by hand cannot send", async () => {
    const c = await fx.customer(w, "10.00");
    expect((await sendOne(c)).status).toBe(200);
    await t.prisma.user.update({ where: { id: c.id }, data: { authStatus: 0, authRequirement: 0 } });
    const refused = await sendUntil(c, (a) => a.status === 403);
    expect(refused.status).toBe(403);
  });
});
