// COPY inside a Prisma transaction (prisma/src/copy.ts), as a file batch's recipients are written: the rows are
// the transaction's (gone with its rollback), values of any text survive COPY's format, and statements Prisma sends
// meanwhile run after the COPY on the same connection.
import { copyInto, copyText } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPrisma } from "./helpers";

const prisma = testPrisma();
const table = `copy_test_${process.pid}`;

beforeAll(async () => {
  await prisma.$executeRawUnsafe(`CREATE TABLE ${table} (id int PRIMARY KEY, label text, doc jsonb)`);
});
afterAll(async () => {
  await prisma.$executeRawUnsafe(`DROP TABLE IF EXISTS ${table}`);
  await prisma.$disconnect();
});

const line = (...values: Array<string | number | null>) => `${values.map(copyText).join("\t")}\n`;

describe("copyInto", () => {
  it("writes rows in the transaction, any text as it was, and Prisma's statements of the transaction see them", async () => {
    const odd = 'tab\there, new\nline, cr\r, back\\slash, \\N, quote " and 中文';
    const doc = JSON.stringify({ name: "Ana\tB", note: "line\nbreak \\ done" });
    const seen = await prisma.$transaction(async (tx) => {
      await copyInto(tx, `COPY ${table} (id, label, doc) FROM STDIN`, line(1, odd, doc) + line(2, null, null));
      // A second COPY on the same transaction, and a statement sent while it runs (pg queues it behind).
      const [, rows] = await Promise.all([
        copyInto(tx, `COPY ${table} (id, label) FROM STDIN`, line(3, "")),
        tx.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM ${table}`),
      ]);
      return rows[0]?.n;
    });
    expect(seen).toBe(3n);
    const rows = await prisma.$queryRawUnsafe<Array<{ id: number; label: string | null; doc: unknown }>>(
      `SELECT id, label, doc FROM ${table} ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 1, label: odd, doc: JSON.parse(doc) },
      { id: 2, label: null, doc: null },
      { id: 3, label: "", doc: null },
    ]);
  });

  it("rows copied by a transaction that fails are not kept, and a refused COPY fails its transaction", async () => {
    await expect(
      prisma.$transaction(async (tx) => {
        await copyInto(tx, `COPY ${table} (id, label) FROM STDIN`, line(10, "kept?"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    await expect(
      prisma.$transaction(async (tx) => {
        await copyInto(tx, `COPY ${table} (id, label) FROM STDIN`, line(11, "first") + line(11, "again"));
      }),
    ).rejects.toThrow(/duplicate key/);
    const left = await prisma.$queryRawUnsafe<Array<{ id: number }>>(`SELECT id FROM ${table} WHERE id >= 10`);
    expect(left).toEqual([]);
    // The pool's connections are usable after both.
    expect(await prisma.$queryRawUnsafe<Array<{ one: number }>>("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });
});
