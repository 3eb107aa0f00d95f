// The recipients table partitioned by id range (issue 16, docs/operations.md "The recipients table"): partitions
// are kept ahead of the id sequence by the scheduler's call, and the outcome and receipt statements, which find a
// row and then update it by its physical address (ctid, a TID scan), update that row only, although the same ctid
// exists in every partition: two fresh partitions each get one row, both at ctid (0,1).
import { BatchStatus, ReceiveResult, SendResult } from "@switchboard/contracts";
import type { PrismaClient } from "@switchboard/db";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeWorkerDeps, createWorkerDeps, recordDeliveryReports } from "../src/index";
import { ensureRecipientPartitions } from "../src/jobs/recipient-partitions";
import { recordSendOutcomes } from "../src/lib/send-outcomes";
import { createCustomer, createPendingBatch, createSmppChannel, phoneNumbers, testConfig, testPrisma } from "./helpers";

let prisma: PrismaClient;
let deps: ReturnType<typeof createWorkerDeps>;

beforeAll(() => {
  prisma = testPrisma();
  deps = createWorkerDeps({ config: testConfig(), logger: pino({ level: "silent" }) });
});
afterAll(async () => {
  await closeWorkerDeps(deps);
  await prisma.$disconnect();
});

const WIDTH = 50_000_000n;

/** The partitions of recipients with their id ranges (the first one starts at MINVALUE: from null). */
async function partitions() {
  const rows = await prisma.$queryRaw<Array<{ name: string; bound: string }>>`
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'recipients'::regclass`;
  return rows.map((r) => {
    const [from, to] = [...r.bound.matchAll(/\('?(\w+)'?\)/g)].map((m) => m[1]);
    return { name: r.name, from: from === "MINVALUE" ? null : BigInt(from!), to: BigInt(to!) };
  });
}

describe("recipients partitioned by id range", () => {
  it("is a partitioned table whose partitions run at least two widths past the id sequence", async () => {
    const [kind] = await prisma.$queryRaw<Array<{ kind: string }>>`
      SELECT relkind::text AS kind FROM pg_class WHERE oid = 'recipients'::regclass`;
    expect(kind?.kind).toBe("p");
    await ensureRecipientPartitions(deps, true);
    const [seq] = await prisma.$queryRaw<Array<{ last: bigint }>>`SELECT last_value AS last FROM recipients_id_seq`;
    const end = partitions().then((ps) => ps.reduce((max, p) => (p.to > max ? p.to : max), 0n));
    expect(await end).toBeGreaterThanOrEqual((seq!.last / WIDTH + 3n) * WIDTH);
    // nothing missing: the next call creates nothing
    expect(await ensureRecipientPartitions(deps, true)).toBe(0);
  });

  it("leaves room on each page for a row's next version: every partition, new ones too, and the batches", async () => {
    // A receipt changes no indexed column: with room on its page the update is HOT (no index entry), see
    // migration 20261128000000_hot_updates. A partition created ahead of the ids must get the same setting.
    // The sequence moved one width on (this run's database only: ids only grow), the scheduler's call creates the
    // partition two widths past it with the function the migration replaced.
    const [seq] = await prisma.$queryRaw<Array<{ last: bigint }>>`SELECT last_value AS last FROM recipients_id_seq`;
    const ahead = `recipients_p${seq!.last / WIDTH + 3n}`;
    await prisma.$executeRawUnsafe(`SELECT setval('recipients_id_seq', ${(seq!.last / WIDTH + 1n) * WIDTH})`);
    expect(await ensureRecipientPartitions(deps, true)).toBeGreaterThan(0);
    const rows = await prisma.$queryRaw<Array<{ name: string; options: string[] | null }>>`
      SELECT c.relname AS name, c.reloptions AS options FROM pg_class c
      WHERE c.oid = 'message_batches'::regclass
         OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = 'recipients'::regclass)`;
    expect(rows.map((r) => r.name)).toContain(ahead);
    expect(rows.map((r) => r.name)).toContain("message_batches");
    for (const r of rows) expect(r).toEqual({ name: r.name, options: ["fillfactor=70"] });
  });

  it("writes an outcome and a receipt to its own row only, when another partition has a row at the same ctid", async () => {
    // Two partitions far past anything the tests write, fresh and empty, so each first row sits at ctid (0,1).
    const k = 1_000n + BigInt(Math.floor(Math.random() * 1_000)) * 2n;
    const idA = k * WIDTH + 1n;
    const idB = (k + 1n) * WIDTH + 1n;
    for (const n of [k, k + 1n])
      await prisma.$executeRawUnsafe(
        `CREATE TABLE recipients_p${n} PARTITION OF recipients FOR VALUES FROM (${n * WIDTH}) TO (${(n + 1n) * WIDTH})`,
      );
    try {
      const customer = await createCustomer(prisma);
      const channelId = await createSmppChannel(prisma, { port: 1 });
      const a = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1), { status: BatchStatus.SENDING });
      const b = await createPendingBatch(prisma, customer, channelId, phoneNumbers(1), { status: BatchStatus.SENDING });
      // Row movement: each recipient leaves its partition for its fresh one.
      await prisma.$executeRaw`UPDATE recipients SET id = ${idA} WHERE "batchId" = ${BigInt(a.batchId)}`;
      await prisma.$executeRaw`UPDATE recipients SET id = ${idB} WHERE "batchId" = ${BigInt(b.batchId)}`;
      const tids = await prisma.$queryRaw<Array<{ id: bigint; tid: string }>>`
        SELECT id, ctid::text AS tid FROM recipients WHERE id IN (${idA}, ${idB}) ORDER BY id`;
      expect(tids.map((r) => r.tid)).toEqual(["(0,1)", "(0,1)"]);

      const row = (id: bigint) => prisma.recipient.findUniqueOrThrow({ where: { id } });
      // B's outcome: A, unsent at the same ctid, stays unsent.
      await recordSendOutcomes(prisma, BigInt(b.batchId), [
        { recipientId: idB, result: SendResult.SUCCESS, providerMessageId: "part-b", errorCode: null },
      ]);
      expect(await row(idB)).toMatchObject({ sendResult: SendResult.SUCCESS, providerMessageId: "part-b" });
      expect(await row(idA)).toMatchObject({ sendResult: SendResult.NOT_SENT, providerMessageId: null });

      // B's receipt: A, sent and waiting for its own receipt at the same ctid, still waits.
      await recordSendOutcomes(prisma, BigInt(a.batchId), [
        { recipientId: idA, result: SendResult.SUCCESS, providerMessageId: "part-a", errorCode: null },
      ]);
      const outcome = await recordDeliveryReports(
        deps,
        { channelId, reports: [{ providerMessageId: "part-b", status: "delivered" }] },
        { firstRun: true },
      );
      expect(outcome.recorded).toBe(1);
      expect(await row(idB)).toMatchObject({ receiveResult: ReceiveResult.RECEIVED });
      expect(await row(idA)).toMatchObject({ receiveResult: ReceiveResult.UNKNOWN, receivedAt: null });
      expect(await prisma.messageBatch.findUniqueOrThrow({ where: { id: BigInt(a.batchId) } })).toMatchObject({
        deliveredCount: 0,
      });
    } finally {
      await prisma.$executeRaw`DELETE FROM recipients WHERE id IN (${idA}, ${idB})`;
      for (const n of [k, k + 1n]) await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS recipients_p${n}`);
    }
  });
});
