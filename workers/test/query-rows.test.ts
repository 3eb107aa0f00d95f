// queryRows (prisma/src/sql.ts): a hot statement run on the client's pg pool gives the rows $queryRaw gives, with
// the same values in (bigint and bigint[], Date, JSON, arrays with NULLs) and out (int8 as bigint, int8[] as
// bigint[], jsonb parsed, timestamptz as Date), and runs inside a transaction when given one. rawTransaction: a
// transaction on one pooled connection, committed when its work returns, rolled back when it throws.
import { Prisma, queryRows, querySql, rawTransaction, type SqlRunner } from "@switchboard/db";
import { afterAll, describe, expect, it } from "vitest";
import { testPrisma } from "./helpers";

const prisma = testPrisma();
afterAll(async () => {
  await prisma.$disconnect();
});

describe("queryRows", () => {
  it("gives what $queryRaw gives, values in and out", async () => {
    const ids = [1n, 9007199254740993n, 3n];
    const texts = ["a", null, 'quote " and \\ and 中文'];
    const at = new Date("2026-11-27T10:20:30.456Z");
    const doc = { name: "Ana", list: [1, 2] };
    const run = <T>(tag: (strings: TemplateStringsArray, ...values: unknown[]) => Promise<T>) =>
      tag`
        SELECT t.id, t.txt, t.ord::int AS ord, ${at}::timestamptz AS at, ${doc}::jsonb AS doc,
               ${ids}::bigint[] AS ids, count(*) OVER ()::bigint AS n, ${7n}::bigint + 1 AS big,
               ${true}::boolean AS yes, ${null}::text AS nothing
        FROM unnest(${ids}::bigint[], ${texts}::text[]) WITH ORDINALITY AS t(id, txt, ord)
        ORDER BY t.ord`;
    const ours = await run(queryRows(prisma));
    const prismas = await run((strings, ...values) => prisma.$queryRaw(strings, ...values));
    expect(ours).toEqual(prismas);
    expect(ours).toEqual(
      ids.map((id, i) => ({
        id,
        txt: texts[i],
        ord: i + 1,
        at,
        doc,
        ids,
        n: 3n,
        big: 8n,
        yes: true,
        nothing: null,
      })),
    );
  });

  it("querySql: a statement composed with Prisma.sql and raw fragments gives what $queryRaw gives", async () => {
    const columns = Prisma.raw(`t.id, t.ord::int AS ord, json_build_object('id', t.id::text) AS doc`);
    const ids = [5n, 9007199254740993n];
    const statement = () =>
      Prisma.sql`SELECT ${columns}, ${"x"}::text AS x FROM unnest(${ids}::bigint[]) WITH ORDINALITY AS t(id, ord)
                 WHERE t.id > ${0n} ORDER BY t.ord`;
    const ours = await querySql(prisma, statement());
    expect(ours).toEqual(await prisma.$queryRaw(statement()));
    expect(ours).toEqual(ids.map((id, i) => ({ id, ord: i + 1, doc: { id: id.toString() }, x: "x" })));
    // A transaction client runs it in its transaction (through Prisma).
    expect(await prisma.$transaction((tx) => querySql(tx, statement()))).toEqual(ours);
  });

  it("runs in the transaction it is given", async () => {
    const seen = await prisma
      .$transaction(async (tx) => {
        await tx.$executeRaw`CREATE TEMP TABLE query_rows_probe (id int) ON COMMIT DROP`;
        await tx.$executeRaw`INSERT INTO query_rows_probe VALUES (1)`;
        const rows = await queryRows(tx)<Array<{ n: bigint }>>`SELECT count(*) AS n FROM query_rows_probe`;
        throw Object.assign(new Error("rolled back"), { rows });
      })
      .catch((err: { rows?: unknown }) => err.rows);
    expect(seen).toEqual([{ n: 1n }]);
  });
});

describe("rawTransaction", () => {
  const table = `raw_tx_${process.pid}`;
  const ids = async () =>
    (await prisma.$queryRawUnsafe<Array<{ id: bigint }>>(`SELECT id FROM ${table} ORDER BY id`)).map((r) => r.id);
  /** Inserts ids through the runner (the table's name is this test's own: a fixed text per run). */
  const insert = async (tx: SqlRunner, values: bigint[]) => {
    const text = [`INSERT INTO ${table} SELECT unnest(`, "::bigint[]) RETURNING id"];
    const strings = Object.assign([...text], { raw: text }) as TemplateStringsArray;
    return (await tx.$queryRaw<Array<{ id: bigint }>>(strings, values)).map((r) => r.id);
  };

  it("commits what its work wrote and answers its result; rolls all of it back when the work or a statement fails", async () => {
    await prisma.$executeRawUnsafe(`CREATE TABLE ${table} (id bigint PRIMARY KEY)`);
    try {
      expect(await rawTransaction(prisma, (tx) => insert(tx, [1n, 9007199254740993n]))).toEqual([
        1n,
        9007199254740993n,
      ]);
      const thrown = await rawTransaction(prisma, async (tx) => {
        await insert(tx, [2n]);
        throw new Error("the work changed its mind");
      }).catch((err: Error) => err.message);
      expect(thrown).toBe("the work changed its mind");
      // A statement that fails (a duplicate key) after one that wrote: neither stays.
      const failed = await rawTransaction(prisma, async (tx) => {
        await insert(tx, [3n]);
        return insert(tx, [1n]);
      }).catch((err: Error) => err.message);
      expect(failed).toMatch(/duplicate key/);
      expect(await ids()).toEqual([1n, 9007199254740993n]);
      // The pool's connections are fine afterwards (the one rolled back was handed back clean).
      expect(await Promise.all([1, 2, 3, 4].map(() => rawTransaction(prisma, (tx) => insert(tx, []))))).toEqual([
        [],
        [],
        [],
        [],
      ]);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
    }
  });

  it("closes a transaction that outlives its timeout: rolled back, and the pool goes on", async () => {
    await prisma.$executeRawUnsafe(`CREATE TABLE ${table} (id bigint PRIMARY KEY)`);
    try {
      const slow = await rawTransaction(
        prisma,
        async (tx) => {
          await insert(tx, [5n]);
          await tx.$queryRaw`SELECT pg_sleep(2)`;
          return "finished";
        },
        300,
      ).catch((err: Error) => `failed: ${err.message}`);
      expect(slow).toMatch(/^failed/);
      // Left waiting on its caller (no statement running): the connection is closed under it.
      const idle = await rawTransaction(
        prisma,
        async (tx) => {
          await insert(tx, [7n]);
          await new Promise((resolve) => setTimeout(resolve, 600));
          return insert(tx, [8n]);
        },
        300,
      ).catch((err: Error) => `failed: ${err.message}`);
      expect(idle).toMatch(/^failed/);
      expect(await ids()).toEqual([]);
      expect(await rawTransaction(prisma, (tx) => insert(tx, [6n]))).toEqual([6n]);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
    }
  });
  it("genericPlans: the transaction's statements use a plan made once per connection; nothing else does", async () => {
    const mode = (tx: SqlRunner) => tx.$queryRaw<Array<{ m: string }>>`SELECT current_setting('plan_cache_mode') AS m`;
    // On the key-lookup connections; the pool's 3 connections still plan per execution afterwards.
    const generic = await Promise.all(
      [1, 2, 3].map(() => rawTransaction(prisma, mode, 15_000, { genericPlans: true })),
    );
    expect(generic.flat()).toEqual([1, 2, 3].map(() => ({ m: "force_generic_plan" })));
    expect(await rawTransaction(prisma, mode)).toEqual([{ m: "force_custom_plan" }]);
    const after = await Promise.all(
      [1, 2, 3].map(
        () => queryRows(prisma)<Array<{ m: string }>>`
      SELECT current_setting('plan_cache_mode') AS m, pg_sleep(0.05)::text AS s`,
      ),
    );
    expect(after.flat().map((r) => r.m)).toEqual(["force_custom_plan", "force_custom_plan", "force_custom_plan"]);
  });
});

describe("queryRows with genericPlans", () => {
  const settings = Prisma.sql`
    SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_seqscan') AS seqscan,
           current_setting('enable_hashjoin') AS hashjoin, ${"x"}::text AS x`;

  it("runs on connections of its own whose statements are planned once, by index; the pool's stay as they were", async () => {
    const db = testPrisma();
    try {
      const keyed = { mode: "force_generic_plan", seqscan: "off", hashjoin: "off", x: "x" };
      expect(await querySql(db, settings, { genericPlans: true })).toEqual([keyed]);
      expect(await queryRows(db, { genericPlans: true })`SELECT current_setting('plan_cache_mode') AS mode`).toEqual([
        { mode: "force_generic_plan" },
      ]);
      // Everything else still plans each execution for its values.
      expect(await querySql(db, settings)).toEqual([
        { mode: "force_custom_plan", seqscan: "on", hashjoin: "on", x: "x" },
      ]);
      expect(await db.$queryRaw`SELECT current_setting('plan_cache_mode') AS mode`).toEqual([
        { mode: "force_custom_plan" },
      ]);
      // The same rows either way, and a transaction client runs it in its transaction (through Prisma).
      const ids = [3n, 9007199254740993n];
      const byKey = (tag: (strings: TemplateStringsArray, ...values: unknown[]) => Promise<unknown>) =>
        tag`SELECT t.id, t.ord::int AS ord FROM unnest(${ids}::bigint[]) WITH ORDINALITY AS t(id, ord) ORDER BY t.ord`;
      const expected = ids.map((id, i) => ({ id, ord: i + 1 }));
      expect(await byKey(queryRows(db, { genericPlans: true }))).toEqual(expected);
      expect(await db.$transaction((tx) => byKey(queryRows(tx, { genericPlans: true })))).toEqual(expected);
    } finally {
      await db.$disconnect();
    }
  });

  it("closes its connections with the client's", async () => {
    const db = testPrisma();
    const name = `keyed-${process.pid}-${Date.now()}`;
    await querySql(db, Prisma.sql`SELECT set_config('application_name', ${name}, false)`, { genericPlans: true });
    const open = () =>
      prisma.$queryRaw<
        Array<{ n: number }>
      >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${name}`;
    expect(await open()).toEqual([{ n: 1 }]);
    await db.$disconnect();
    for (let i = 0; i < 50 && (await open())[0]?.n !== 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await open()).toEqual([{ n: 0 }]);
  });
});
