// What PostgreSQL spends on the rows of single sends, with nothing else running: the floor under bench:api's
// PostgreSQL figure (issues 20 and 19). On the real schema (its indexes, foreign keys and partitions), groups of
// --group single sends go through the row changes the platform makes for each, one phase at a time over every group,
// each statement prepared once and finding its rows by their ids alone (the platform's also recheck each row's
// status, which a generic plan must not turn into a scan of an index on status: see dispatch-singles.ts):
//   written    its batch (20) and recipient inserted, the customer charged (balance and one log row per batch)
//   started    its batch 20 -> 21
//   sent       its recipient's outcome, its batch's counters and 22
//   delivered  its recipient's receipt, its batch's delivered count
// and, for comparison, the same sends written once in their final state (batch 22 with its counters, recipient sent
// and delivered, the charge): what one row write per send would cost. Each phase commits per group, as the
// platform's transactions do. Printed: CPU per send of the server's processes (backend, WAL writer and the rest).
//
//   npm run bench:single-send-rows [-- --groups 400 --group 50 --keep]
//
// It makes its own database (migrated, seeded; dropped at the end unless --keep). Run it on a quiet server: every postgres
// process's CPU is counted.
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { BalanceLogType, BatchStatus, ReceiveResult, SendResult, TaskType } from "@switchboard/contracts";
import { createPrisma, migrate } from "@switchboard/db";
import { seed } from "@switchboard/domain/seed";
import pg from "pg";
import { arg, cpuSecondsOf, fmt, log, postgresPids, scratchDatabase } from "./lib/platform";

const GROUPS = arg("groups", 400);
const GROUP = arg("group", 50);
const KEEP = process.argv.includes("--keep");
const adminUrl = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

interface Owner {
  tenantId: number;
  userId: number;
  agentId: number;
  productId: number;
  productCode: number;
  channelId: number;
}

/** One group's ids, as `written` returns them. */
interface Written {
  batchIds: string[];
  recipientIds: string[];
}

// $1 customer, $2 tenant, $3 agent, $4 product, $5 product code, $6 channel, $7 group size, $8 status,
// $9 sent (the final state's outcome fields filled), $10 price
const INSERT = `
  WITH v AS (
    SELECT nextval(pg_get_serial_sequence('message_batches', 'id')) AS bid,
           nextval(pg_get_serial_sequence('recipients', 'id')) AS rid,
           '+1212' || lpad((3000000 + g)::text, 7, '0') AS phone
    FROM generate_series(1, $7::int) g
  ), b AS (
    INSERT INTO message_batches (id, "tenantId", "userId", "agentId", "productId", "productCode", "taskType",
                                 "submitMode", source, status, content, segments, "totalCount", "validCount",
                                 "ingestedCount", cost, "recipientIdFrom", "recipientIdTo", "updatedAt",
                                 "sentCount", "successCount", "deliveredCount", "startedAt", "finishedAt")
    SELECT bid, $2::int, $1::int, $3::int, $4::int, $5::int, ${TaskType.MESSAGE}, 2, 2, $8::smallint,
           '{"product":3000,"text":"Your code is 123456"}'::jsonb, 1, 1, 1, 1, $10::bigint, rid - 1, rid + 1, now(),
           $9::int, $9::int, $9::int, CASE WHEN $9::int = 1 THEN now() END, CASE WHEN $9::int = 1 THEN now() END
    FROM v
  ), r AS (
    INSERT INTO recipients (id, "batchId", phone, "countryCode", "channelId", segments, price, "sendResult",
                            "providerMessageId", "sentAt", "receiveResult", "receivedAt")
    SELECT rid, bid, phone, 'US', $6::int, 1, $10::bigint,
           CASE WHEN $9::int = 1 THEN ${SendResult.SUCCESS} ELSE ${SendResult.NOT_SENT} END,
           CASE WHEN $9::int = 1 THEN md5(rid::text) END, CASE WHEN $9::int = 1 THEN now() END,
           CASE WHEN $9::int = 1 THEN ${ReceiveResult.RECEIVED} ELSE ${ReceiveResult.UNKNOWN} END,
           CASE WHEN $9::int = 1 THEN now() END
    FROM v
  )
  SELECT array_agg(bid::text) AS "batchIds", array_agg(rid::text) AS "recipientIds" FROM v`;

// $1 customer, $2 tenant, $3 the group's batch ids, $4 price each
const CHARGE = `
  WITH u AS (
    UPDATE users SET balance = balance - $4::bigint * cardinality($3::bigint[])
    WHERE id = $1::int AND "tenantId" = $2::int RETURNING balance
  )
  INSERT INTO balance_logs ("tenantId", "userId", type, amount, "balanceAfter", "operatorId", "batchId")
  SELECT $2::int, $1::int, ${BalanceLogType.CONSUME}, -$4::bigint, (SELECT balance FROM u), $1::int, b
  FROM unnest($3::bigint[]) b`;

const START = `
  UPDATE message_batches SET status = ${BatchStatus.SENDING}, "startedAt" = now(), "updatedAt" = now()
  WHERE id = ANY ($1::bigint[])`;

const SENT_RECIPIENTS = `
  UPDATE recipients SET "sendResult" = ${SendResult.SUCCESS}, "providerMessageId" = md5(id::text), "sentAt" = now()
  WHERE id = ANY ($1::bigint[])`;

const SENT_BATCHES = `
  UPDATE message_batches SET "sentCount" = "sentCount" + 1, "successCount" = "successCount" + 1,
         status = ${BatchStatus.SEND_FINISHED}, "finishedAt" = now(), "updatedAt" = now()
  WHERE id = ANY ($1::bigint[])`;

const DELIVERED_RECIPIENTS = `
  UPDATE recipients SET "receiveResult" = ${ReceiveResult.RECEIVED}, "receivedAt" = now()
  WHERE id = ANY ($1::bigint[])`;

const DELIVERED_BATCHES = `
  UPDATE message_batches SET "deliveredCount" = "deliveredCount" + 1 WHERE id = ANY ($1::bigint[])`;

async function main() {
  const { databaseUrl, drop } = await scratchDatabase(adminUrl, `bench_rows_${randomBytes(4).toString("hex")}`);
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    await migrate(databaseUrl, "deploy");
    const prisma = createPrisma(databaseUrl, { max: 1 });
    await seed(prisma, { mode: "demo", channelSecretKey: randomBytes(32).toString("hex") });
    const customer = await prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    const product = await prisma.product.findFirstOrThrow({ where: { code: 3000 } });
    const channel = await prisma.channel.findFirstOrThrow({ where: { kind: "smpp" } });
    await prisma.user.update({ where: { id: customer.id }, data: { balance: 10n ** 15n } });
    await prisma.$disconnect();
    const owner: Owner = {
      tenantId: customer.tenantId as number,
      userId: customer.id,
      agentId: customer.agentId as number,
      productId: product.id,
      productCode: product.code,
      channelId: channel.id,
    };

    await db.connect();
    const backend = (await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const price = 350;
    let n = 0;
    const named = (text: string) => ({ name: `s${n++}`, text });
    const q = {
      insert: named(INSERT),
      charge: named(CHARGE),
      start: named(START),
      sentRecipients: named(SENT_RECIPIENTS),
      sentBatches: named(SENT_BATCHES),
      deliveredRecipients: named(DELIVERED_RECIPIENTS),
      deliveredBatches: named(DELIVERED_BATCHES),
    };
    const ownerArgs = [owner.userId, owner.tenantId, owner.agentId, owner.productId, owner.productCode];
    const write = async (final: boolean): Promise<Written> => {
      await db.query("BEGIN");
      const status = final ? BatchStatus.SEND_FINISHED : BatchStatus.PENDING_SEND;
      const { rows } = await db.query<Written>({
        ...q.insert,
        values: [...ownerArgs, owner.channelId, GROUP, status, final ? 1 : 0, price],
      });
      const written = rows[0]!;
      await db.query({ ...q.charge, values: [owner.userId, owner.tenantId, written.batchIds, price] });
      await db.query("COMMIT");
      return written;
    };
    const inOne = async (...steps: Array<[{ name: string; text: string }, string[]]>) => {
      await db.query("BEGIN");
      for (const [statement, ids] of steps) await db.query({ ...statement, values: [ids] });
      await db.query("COMMIT");
    };

    // Warm-up: every statement planned and the tables' first pages in place.
    for (let i = 0; i < 20; i++) {
      const w = await write(false);
      await inOne([q.start, w.batchIds]);
      await inOne([q.sentRecipients, w.recipientIds], [q.sentBatches, w.batchIds]);
      await inOne([q.deliveredRecipients, w.recipientIds], [q.deliveredBatches, w.batchIds]);
      await write(true);
    }

    // Statistics as autovacuum would have them on a running platform: without them the planner takes a fresh
    // table for a small one and updates the recipients by a sequential scan.
    const analyze = () => db.query("ANALYZE message_batches, recipients, balance_logs, users");
    await analyze();
    const sends = GROUPS * GROUP;
    const results: Array<{ phase: string; us: number; backendUs: number; perSecond: number }> = [];
    const measure = async (phase: string, run: () => Promise<void>) => {
      const pids = postgresPids();
      const cpu = () => pids.reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
      const [before, backendBefore, t0] = [cpu(), cpuSecondsOf(backend), performance.now()];
      await run();
      const seconds = (performance.now() - t0) / 1000;
      const [after, backendAfter] = [cpu(), cpuSecondsOf(backend)];
      const row = {
        phase,
        us: ((after - before) / sends) * 1e6,
        backendUs: ((backendAfter - backendBefore) / sends) * 1e6,
        perSecond: sends / seconds,
      };
      results.push(row);
      log(
        `${phase}: ${fmt(sends)} sends in groups of ${GROUP}, ${fmt(row.perSecond)} sends/s, PostgreSQL CPU per send ${fmt(row.us)} us (its backend ${fmt(row.backendUs)})`,
      );
    };

    const groups: Written[] = [];
    await measure("written", async () => {
      for (let i = 0; i < GROUPS; i++) groups.push(await write(false));
    });
    await analyze();
    await measure("started", async () => {
      for (const w of groups) await inOne([q.start, w.batchIds]);
    });
    await measure("sent", async () => {
      for (const w of groups) await inOne([q.sentRecipients, w.recipientIds], [q.sentBatches, w.batchIds]);
    });
    await measure("delivered", async () => {
      for (const w of groups) await inOne([q.deliveredRecipients, w.recipientIds], [q.deliveredBatches, w.batchIds]);
    });
    await measure("written once in the final state", async () => {
      for (let i = 0; i < GROUPS; i++) await write(true);
    });

    const life = results.slice(0, 4).reduce((sum, r) => sum + r.us, 0);
    const once = results[4]!.us;
    log(
      `a single send's rows through their life (written, started, sent, delivered): ${fmt(life)} us of PostgreSQL CPU per send; written once in their final state: ${fmt(once)} us (${fmt(life / once, 1)}x less)`,
    );
    log(
      `machine: ${cpus().length} x ${cpus()[0]?.model ?? "?"}; load ${loadavg()
        .slice(0, 2)
        .map((l) => l.toFixed(2))
        .join(" / ")} (1 / 5 min)`,
    );
  } finally {
    await db.end().catch(() => undefined);
    if (KEEP) log(`kept: ${databaseUrl}`);
    await drop(KEEP);
  }
}

await main();
