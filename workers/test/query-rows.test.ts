// queryRows (prisma/src/sql.ts): a hot statement run on the client's pg pool gives the rows $queryRaw gives, with
// the same values in (bigint and bigint[], Date, JSON, arrays with NULLs) and out (int8 as bigint, int8[] as
// bigint[], jsonb parsed, timestamptz as Date), and runs inside a transaction when given one.
import { queryRows } from "@switchboard/db";
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
