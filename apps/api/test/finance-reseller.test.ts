// The reseller money rules (docs/finance.md, "Agents: the reseller model"): an agent may take back from its
// customer only what it paid in and the customer has not spent; spending takes the platform's money first and a
// refund gives the agent's part back first; moving a customer to another agent forfeits the old agent's part.
// Each path (recharge, deduct, gift, remittance, consume, refund, reassignment) by each role, then random
// sequences of all of them run concurrently, checked against the invariants: nobody ends up with spendable
// balance nobody paid for, and every ledger replays.
import { BalanceLogType, UserType } from "@switchboard/contracts";
import { applyBalanceChange, LEDGER_TX_OPTIONS } from "@switchboard/domain/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, multiple, post } from "./batch-fixtures";
import { call, createTestApp, type TestContext } from "./helpers";

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

/** users.balance and users.agentFunded, in money units. */
async function money(userId: number) {
  return t.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { balance: true, agentFunded: true } });
}

/** An agent of the world's tenant with an opening balance recharged by the admin. */
async function agentWith(balance: string): Promise<Account> {
  const ag = await fx.account(UserType.AGENT, w.tenantId);
  expect((await post(t, "/finance/recharge", w.admin.token, { userId: ag.id, amount: balance })).status).toBe(200);
  return ag;
}

/** A customer of `agent`, authenticated, with no money. */
function customerOf(agent: Account): Promise<Account> {
  return fx.account(UserType.USER, w.tenantId, { agentId: agent.id });
}

const staff = (by: Account, path: "recharge" | "deduct" | "gift", userId: number, amount: string, lang?: "zh") =>
  post(
    t,
    path === "gift" ? "/user/gift/send" : `/finance/${path}`,
    by.token,
    { userId, amount, remark: path },
    {
      ...(lang ? { lang } : {}),
    },
  );

async function remit(c: Account, amount: string, confirmer: Account) {
  const created = await post<{ id: number }>(t, "/finance/remit/create", c.token, { amount, payer: "Payer" });
  expect(created.status).toBe(200);
  return post(t, "/finance/remit/confirm", confirmer.token, { id: created.body.data.id });
}

/** Distinct CN numbers: CN costs 350 units (0.0350) a message in the world. */
let nextNumber = 0;
const cnNumbers = (n: number) =>
  Array.from({ length: n }, () => `+86138${String(10_000_000 + (nextNumber++ % 90_000_000)).slice(0, 8)}`);

async function submit(c: Account, numbers: string[]) {
  return post<{ batch: { id: string; cost: string } }>(t, "/batch/submit", c.token, multiple(w, numbers));
}

/** Gives back part of a batch's cost as the workers' settle does: the batch first (conditionally), then the ledger. */
async function refundPart(batchId: bigint, units: bigint): Promise<bigint> {
  return t.prisma.$transaction(async (tx) => {
    const b = await tx.messageBatch.findUniqueOrThrow({
      where: { id: batchId },
      select: { tenantId: true, userId: true, cost: true, refunded: true },
    });
    const r = units < b.cost - b.refunded ? units : b.cost - b.refunded;
    if (r <= 0n) return 0n;
    const { count } = await tx.messageBatch.updateMany({
      where: { id: batchId, refunded: b.refunded },
      data: { refunded: b.refunded + r },
    });
    if (count === 0) return 0n;
    await applyBalanceChange(tx, {
      tenantId: b.tenantId,
      userId: b.userId,
      type: BalanceLogType.REFUND,
      amount: r,
      batchId,
    });
    return r;
  }, LEDGER_TX_OPTIONS);
}

describe("an agent takes back only what it paid in (issue 12, finding 5)", () => {
  it("refuses an agent's deduct of a gift the admin gave its customer: 409, nothing written, the agent gains nothing", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(w.admin, "gift", c.id, "100")).status).toBe(200);
    const logs = { agent: (await fx.logs(ag.id)).length, customer: (await fx.logs(c.id)).length };

    const res = await staff(ag, "deduct", c.id, "100");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 1,
      message:
        "you can take back at most 0.00: what you paid into this customer's balance and it has not spent; " +
        "balance the platform gave stays with the customer",
      data: null,
    });
    const zh = await staff(ag, "deduct", c.id, "1", "zh");
    expect(zh.body.message).toBe(
      "最多可扣回 0.00：即您为该客户充入且尚未消费的金额；平台充值或赠送的余额不能由代理商扣回",
    );
    expect(await money(ag.id)).toEqual({ balance: 100_000n, agentFunded: 0n });
    expect(await money(c.id)).toEqual({ balance: 1_000_000n, agentFunded: 0n });
    expect({ agent: (await fx.logs(ag.id)).length, customer: (await fx.logs(c.id)).length }).toEqual(logs);
  });

  it("refuses it for an admin's recharge and an admin-confirmed remittance too", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(w.admin, "recharge", c.id, "5")).status).toBe(200);
    expect((await remit(c, "7", w.admin)).status).toBe(200);
    expect((await staff(ag, "deduct", c.id, "0.01")).status).toBe(409);
    expect(await money(ag.id)).toEqual({ balance: 100_000n, agentFunded: 0n });
    expect(await money(c.id)).toEqual({ balance: 120_000n, agentFunded: 0n });
  });

  it("lets an agent take back what it recharged, gave and confirmed, and not a unit more", async () => {
    const ag = await agentWith("100");
    const c = await customerOf(ag);
    expect((await staff(w.admin, "gift", c.id, "50")).status).toBe(200);
    expect((await staff(ag, "recharge", c.id, "30")).status).toBe(200);
    expect((await staff(ag, "gift", c.id, "5")).status).toBe(200);
    expect((await remit(c, "10", ag)).status).toBe(200);
    expect(await money(ag.id)).toEqual({ balance: 550_000n, agentFunded: 0n });
    expect(await money(c.id)).toEqual({ balance: 950_000n, agentFunded: 450_000n });

    const over = await staff(ag, "deduct", c.id, "45.01");
    expect(over.status).toBe(409);
    expect(over.body.message).toContain("at most 45.00");
    const res = await staff(ag, "deduct", c.id, "45");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "50.0000", agentBalance: "100.0000" });
    expect(await money(c.id)).toEqual({ balance: 500_000n, agentFunded: 0n });
    expect((await staff(ag, "deduct", c.id, "0.01")).status).toBe(409);
  });

  it("lets an admin deduct a customer of an agent for the platform: the platform's money first, the agent gets nothing", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(w.admin, "gift", c.id, "2")).status).toBe(200);
    expect((await staff(ag, "recharge", c.id, "5")).status).toBe(200);
    const res = await staff(w.admin, "deduct", c.id, "3");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ balance: "4.0000", agentBalance: null });
    // 2 of the platform's, then 1 of the agent's
    expect(await money(c.id)).toEqual({ balance: 40_000n, agentFunded: 40_000n });
    expect(await money(ag.id)).toEqual({ balance: 50_000n, agentFunded: 0n });
  });

  it("answers 402 (not 409) when the customer's whole balance is short, and rolls the agent's side back", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(ag, "recharge", c.id, "1")).status).toBe(200);
    const res = await staff(ag, "deduct", c.id, "2");
    expect(res.status).toBe(402);
    expect(res.body.message).toBe("insufficient balance (current balance 1.00)");
    expect(await money(ag.id)).toEqual({ balance: 90_000n, agentFunded: 0n });
  });
});

describe("spending and refunds keep the origin of the money", () => {
  it("spends the platform's money first; a cancelled batch gives the agent's part back first", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(w.admin, "gift", c.id, "0.01")).status).toBe(200); // 100 units of the platform's
    expect((await staff(ag, "recharge", c.id, "0.05")).status).toBe(200); // 500 units of the agent's
    const sent = await submit(c, cnNumbers(1));
    expect(sent.status).toBe(200);
    const batchId = BigInt(sent.body.data.batch.id);
    // 350 units: the 100 of the platform's, then 250 of the agent's
    expect(await money(c.id)).toEqual({ balance: 250n, agentFunded: 250n });
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } })).agentFunded).toBe(250n);

    expect((await staff(w.admin, "gift", c.id, "0.01")).status).toBe(200);
    const over = await staff(ag, "deduct", c.id, "0.03");
    expect(over.status).toBe(409);
    expect(over.body.message).toContain("at most 0.02");
    expect((await staff(ag, "deduct", c.id, "0.02")).status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 150n, agentFunded: 50n });

    const cancelled = await post(t, "/batch/cancel", c.token, { id: sent.body.data.batch.id });
    expect(cancelled.status).toBe(200);
    // 350 back: the agent's 250 first, then 100 of the platform's
    expect(await money(c.id)).toEqual({ balance: 500n, agentFunded: 300n });
    expect((await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } })).agentFunded).toBe(0n);
    expect((await staff(ag, "deduct", c.id, "0.03")).status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 200n, agentFunded: 0n });
    expect((await staff(ag, "deduct", c.id, "0.01")).status).toBe(409);
    // the agent got back exactly what it paid in, less what the customer spent of it (nothing, in the end)
    expect(await money(ag.id)).toEqual({ balance: 100_000n, agentFunded: 0n });
  });

  it("gives partial refunds (the workers' settle) to the agent's part only up to what the batch took of it", async () => {
    const ag = await agentWith("10");
    const c = await customerOf(ag);
    expect((await staff(ag, "recharge", c.id, "0.04")).status).toBe(200); // 400 of the agent's
    expect((await staff(w.admin, "gift", c.id, "0.05")).status).toBe(200); // 500 of the platform's
    const sent = await submit(c, cnNumbers(2)); // 700: 500 of the platform's, 200 of the agent's
    expect(sent.status).toBe(200);
    const batchId = BigInt(sent.body.data.batch.id);
    expect(await money(c.id)).toEqual({ balance: 200n, agentFunded: 200n });
    expect(await refundPart(batchId, 150n)).toBe(150n);
    expect(await money(c.id)).toEqual({ balance: 350n, agentFunded: 350n });
    expect(await refundPart(batchId, 350n)).toBe(350n); // 50 more of the agent's, then 300 of the platform's
    expect(await money(c.id)).toEqual({ balance: 700n, agentFunded: 400n });
    // the rest was delivered: paid with the platform's money, as if charged 200 at once
    const batch = await t.prisma.messageBatch.findUniqueOrThrow({ where: { id: batchId } });
    expect({ cost: batch.cost, refunded: batch.refunded, agentFunded: batch.agentFunded }).toEqual({
      cost: 700n,
      refunded: 500n,
      agentFunded: 0n,
    });
  });

  it("a customer of no agent: its money is all the platform's, spending and refunds change nothing else", async () => {
    const c = await fx.account(UserType.USER, w.tenantId);
    expect((await staff(w.admin, "recharge", c.id, "1")).status).toBe(200);
    const sent = await submit(c, cnNumbers(1));
    expect(sent.status).toBe(200);
    expect((await post(t, "/batch/cancel", c.token, { id: sent.body.data.batch.id })).status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 10_000n, agentFunded: 0n });
  });
});

describe("moving a customer to another agent", () => {
  const editAgent = (id: number, agentId: number | null) =>
    call(t.app, "POST", "/user/edit", { token: w.admin.token, body: { id, agentId }, lang: "en" });

  it("forfeits the old agent's part: the new agent cannot deduct it, the old one no longer reaches the customer", async () => {
    const a = await agentWith("10");
    const b = await agentWith("10");
    const c = await customerOf(a);
    expect((await staff(a, "recharge", c.id, "5")).status).toBe(200);
    expect((await editAgent(c.id, b.id)).status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 50_000n, agentFunded: 0n });
    expect((await staff(b, "deduct", c.id, "0.01")).status).toBe(409);
    expect((await staff(a, "deduct", c.id, "0.01")).status).toBe(404);
    // what the new agent pays in is its own to take back
    expect((await staff(b, "recharge", c.id, "1")).status).toBe(200);
    expect((await staff(b, "deduct", c.id, "1")).status).toBe(200);
    expect(await money(b.id)).toEqual({ balance: 100_000n, agentFunded: 0n });
    expect(await money(a.id)).toEqual({ balance: 50_000n, agentFunded: 0n });
  });

  it("gives a batch's agent part back to the platform's money once the customer has moved", async () => {
    const a = await agentWith("10");
    const b = await agentWith("10");
    const c = await customerOf(a);
    expect((await staff(a, "recharge", c.id, "0.05")).status).toBe(200);
    const sent = await submit(c, cnNumbers(1));
    expect(sent.status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 150n, agentFunded: 150n });
    expect((await editAgent(c.id, b.id)).status).toBe(200);
    expect((await post(t, "/batch/cancel", c.token, { id: sent.body.data.batch.id })).status).toBe(200);
    expect(await money(c.id)).toEqual({ balance: 500n, agentFunded: 0n });
    expect((await staff(b, "deduct", c.id, "0.01")).status).toBe(409);
  });

  it("refuses an agent's movement on a customer that left it between the scope check and the update (404)", async () => {
    const a = await agentWith("10");
    const b = await agentWith("10");
    const c = await customerOf(b);
    const before = await money(c.id);
    for (const amount of [100n, -100n]) {
      await expect(
        t.prisma.$transaction((tx) =>
          applyBalanceChange(tx, {
            tenantId: w.tenantId,
            userId: c.id,
            type: amount > 0n ? BalanceLogType.RECHARGE : BalanceLogType.DEDUCT,
            amount,
            operatorId: a.id,
            fundingAgentId: a.id,
          }),
        ),
      ).rejects.toMatchObject({ status: 404, key: "error.not_found", params: { entity: "entity.user" } });
    }
    expect(await money(c.id)).toEqual(before);
  });
});

// ---------------------------------------------------------------- random sequences, run concurrently

/** A small seeded generator (mulberry32): a failing sequence can be replayed from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

interface Outcome {
  op: string;
  status: number;
}

async function runSequence(seed: number, rounds: number, parallel: number) {
  const rnd = random(seed);
  const agents = [await agentWith("1"), await agentWith("1")];
  const customers: Account[] = [];
  for (const ag of agents) for (let i = 0; i < 3; i++) customers.push(await customerOf(ag));
  customers.push(await fx.account(UserType.USER, w.tenantId)); // a customer of no agent
  const agentIds = agents.map((a) => a.id);
  const owner = new Map<number, number | null>(
    customers.map((c, i) => [c.id, i < 6 ? agents[i < 3 ? 0 : 1]!.id : null]),
  );
  const batches: Array<{ id: string; customer: Account }> = [];
  const amount = () => (rnd.pick([1, 2, 3, 5, 8, 13, 21, 40]) / 100).toFixed(2);

  const ops: Array<() => Promise<Outcome>> = [
    async () => ({
      op: "admin recharges an agent",
      status: (await staff(w.admin, "recharge", rnd.pick(agents).id, amount())).status,
    }),
    async () => ({
      op: "admin deducts an agent",
      status: (await staff(w.admin, "deduct", rnd.pick(agents).id, amount())).status,
    }),
    async () => ({
      op: "admin recharges a customer",
      status: (await staff(w.admin, "recharge", rnd.pick(customers).id, amount())).status,
    }),
    async () => ({
      op: "admin gives a gift",
      status: (await staff(w.admin, "gift", rnd.pick(customers).id, amount())).status,
    }),
    async () => ({
      op: "admin deducts a customer",
      status: (await staff(w.admin, "deduct", rnd.pick(customers).id, amount())).status,
    }),
    async () => {
      const c = rnd.pick(customers);
      const ag = agents.find((a) => a.id === owner.get(c.id)) ?? rnd.pick(agents);
      const path = rnd.pick(["recharge", "gift", "deduct", "deduct"] as const);
      return { op: `agent ${path}`, status: (await staff(ag, path, c.id, amount())).status };
    },
    async () => {
      const c = rnd.pick(customers);
      const ag = agents.find((a) => a.id === owner.get(c.id));
      const confirmer = ag && rnd.int(2) === 0 ? ag : w.admin;
      return {
        op: `remittance confirmed by ${confirmer === w.admin ? "admin" : "agent"}`,
        status: (await remit(c, amount(), confirmer)).status,
      };
    },
    async () => {
      const c = rnd.pick(customers);
      const res = await submit(c, cnNumbers(1 + rnd.int(3)));
      if (res.status === 200) batches.push({ id: res.body.data.batch.id, customer: c });
      return { op: "customer submits a batch", status: res.status };
    },
    async () => {
      const b = batches.length ? rnd.pick(batches) : null;
      if (!b) return { op: "cancel (none yet)", status: 200 };
      return {
        op: "customer cancels a batch",
        status: (await post(t, "/batch/cancel", b.customer.token, { id: b.id })).status,
      };
    },
    async () => {
      const b = batches.length ? rnd.pick(batches) : null;
      if (!b) return { op: "partial refund (none yet)", status: 200 };
      await refundPart(BigInt(b.id), BigInt(50 + rnd.int(400)));
      return { op: "partial refund", status: 200 };
    },
    async () => {
      const c = rnd.pick(customers.slice(0, 6));
      const to = rnd.pick([...agentIds, null]);
      const res = await call(t.app, "POST", "/user/edit", { token: w.admin.token, body: { id: c.id, agentId: to } });
      if (res.status === 200) owner.set(c.id, to);
      return { op: "admin moves a customer", status: res.status };
    },
  ];
  // Agents' and customers' own movements are the ones that could create money: they come up more often.
  const weights = [1, 1, 2, 2, 1, 8, 2, 3, 1, 1, 1];

  const outcomes: Outcome[] = [];
  for (let r = 0; r < rounds; r++) {
    const chosen = Array.from({ length: parallel }, () => {
      let k = rnd.int(weights.reduce((s, x) => s + x, 0));
      let i = 0;
      while (k >= weights[i]!) k -= weights[i++]!;
      return ops[i]!;
    });
    outcomes.push(...(await Promise.all(chosen.map((op) => op()))));
  }
  return { agents, customers, outcomes };
}

async function expectNoFreeMoney(agents: Account[], customers: Account[], seed: number) {
  const ids = [...agents, ...customers].map((u) => u.id);
  const users = await t.prisma.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, type: true, agentId: true, balance: true, agentFunded: true },
  });
  const logs = await t.prisma.balanceLog.findMany({ where: { userId: { in: ids } } });
  const batches = await t.prisma.messageBatch.findMany({
    where: { userId: { in: customers.map((c) => c.id) } },
    select: { userId: true, agentId: true, cost: true, refunded: true, agentFunded: true },
  });
  const sum = (xs: bigint[]) => xs.reduce((s, x) => s + x, 0n);
  const why = `seed ${seed}`;

  for (const u of users) {
    expect(u.agentFunded >= 0n && u.agentFunded <= u.balance, `${why}: 0 <= agentFunded <= balance of ${u.id}`).toBe(
      true,
    );
    if (u.type === UserType.AGENT) expect(u.agentFunded, why).toBe(0n);
  }
  for (const ag of agents) {
    // What the platform put into the agent (the admin's recharges less its deducts).
    const paidIn = sum(logs.filter((l) => l.userId === ag.id && l.operatorId === w.admin.id).map((l) => l.amount));
    const own = users.find((u) => u.id === ag.id)!;
    const stillOwned = new Set(users.filter((u) => u.agentId === ag.id).map((u) => u.id));
    // The agent's money everywhere: its balance, its part of its customers' balances, its part of their batches.
    const stake =
      own.balance +
      sum(users.filter((u) => stillOwned.has(u.id)).map((u) => u.agentFunded)) +
      sum(batches.filter((b) => b.agentId === ag.id && stillOwned.has(b.userId)).map((b) => b.agentFunded));
    expect(own.balance <= paidIn, `${why}: agent ${ag.id} holds ${own.balance}, the platform put in ${paidIn}`).toBe(
      true,
    );
    expect(stake <= paidIn, `${why}: agent ${ag.id}'s stake ${stake} exceeds what the platform put in, ${paidIn}`).toBe(
      true,
    );
  }
  // What each agent took back from each customer never exceeds what it paid into that customer.
  for (const ag of agents)
    for (const c of customers) {
      const paidIn = sum(logs.filter((l) => l.userId === c.id && l.operatorId === ag.id).map((l) => l.amount));
      expect(paidIn >= 0n, `${why}: agent ${ag.id} took back ${-paidIn} more than it paid into ${c.id}`).toBe(true);
    }
  // Every movement by an agent is a transfer between it and its customer: its rows sum to zero.
  expect(sum(logs.filter((l) => agents.some((a) => a.id === l.operatorId)).map((l) => l.amount)), why).toBe(0n);
  // So the group holds exactly what the platform put in, less what batches kept.
  const platform = sum(logs.filter((l) => l.operatorId === w.admin.id).map((l) => l.amount));
  const consumed = -sum(logs.filter((l) => l.type === BalanceLogType.CONSUME).map((l) => l.amount));
  const refunded = sum(logs.filter((l) => l.type === BalanceLogType.REFUND).map((l) => l.amount));
  expect(consumed, why).toBe(sum(batches.map((b) => b.cost)));
  expect(refunded, why).toBe(sum(batches.map((b) => b.refunded)));
  expect(sum(users.map((u) => u.balance)), why).toBe(platform - consumed + refunded);
}

describe("random sequences of every movement by every role, concurrently", () => {
  const seeds = [20_261_123, Date.now() % 1_000_000_007];
  it.each(seeds)(
    "seed %i: nobody ends up with money nobody paid for; every ledger replays",
    async (seed) => {
      const { agents, customers, outcomes } = await runSequence(seed, 40, 8);
      const unexpected = outcomes.filter((o) => ![200, 402, 404, 409].includes(o.status));
      expect(unexpected, `seed ${seed}`).toEqual([]);
      await expectNoFreeMoney(agents, customers, seed);
      await fx.expectLedgersReplay();
      // The sequence exercised the movements that could create money, and the refusals.
      const seen = (op: string, status: number) => outcomes.some((o) => o.op === op && o.status === status);
      expect(seen("agent deduct", 200), `seed ${seed}`).toBe(true);
      expect(seen("agent deduct", 409), `seed ${seed}`).toBe(true);
      expect(seen("customer submits a batch", 200), `seed ${seed}`).toBe(true);
    },
    120_000,
  );
});
