// Cursor pages for the developer API's lists (contracts: cursorParam, withNextCursor). A cursor names the row a
// page ended with by the values the list is ordered by, so the next page is "the rows after that one" (a keyset
// condition on the same order), not "skip N rows": rows arriving at the top of a newest-first list while a
// developer walks it do not repeat or hide rows as page numbers would. Every list names its order once (its sort
// keys, ending with a unique column) and gets both its ORDER BY and its cursor from it, so the two cannot differ.
//
// The cursor is base64url of the key values (opaque to callers, not a secret: it only repeats values of a row the
// caller has already read). A cursor that does not decode to the list's keys answers 400.
import { AppError } from "./errors";

export interface SortKey {
  field: string;
  dir: "asc" | "desc";
  kind: "bigint" | "int" | "date";
}

type Value = bigint | number | Date;

export interface CursorPage {
  /** A findMany's page arguments for the list's `where`: narrowed past the cursor, ordered, skipped, taken. */
  args<W extends object>(
    where: W,
  ): { where: W; orderBy: Array<Record<string, "asc" | "desc">>; skip: number; take: number };
  /** The cursor of the page after these rows (they must carry the key fields), or null when they end the list. */
  next(rows: readonly Record<string, unknown>[]): string | null;
}

function invalid(): AppError {
  return new AppError(400, "validation.cursor");
}

function encode(keys: readonly SortKey[], row: Record<string, unknown>): string {
  const values = keys.map((k) => {
    const v = row[k.field];
    if (v instanceof Date) return v.toISOString();
    if (typeof v === "bigint") return v.toString();
    return v;
  });
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

function decode(keys: readonly SortKey[], cursor: string): Value[] {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(raw) || raw.length !== keys.length) throw invalid();
  return keys.map((k, i) => {
    const v: unknown = raw[i];
    if (k.kind === "bigint" && typeof v === "string" && /^\d{1,19}$/.test(v)) return BigInt(v);
    if (k.kind === "int" && Number.isSafeInteger(v)) return v as number;
    if (k.kind === "date" && typeof v === "string") {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime())) return d;
    }
    throw invalid();
  });
}

/** (k1, k2, ...) after (v1, v2, ...) in the keys' directions: k1 beyond v1, or k1 = v1 and k2 beyond v2, ... */
function keyset(keys: readonly SortKey[], values: readonly Value[]): Record<string, unknown> {
  const beyond = (k: SortKey, v: Value) => ({ [k.field]: k.dir === "desc" ? { lt: v } : { gt: v } });
  return {
    OR: keys.map((k, i) => ({
      AND: [...keys.slice(0, i).map((e, j) => ({ [e.field]: values[j] })), beyond(k, values[i] as Value)],
    })),
  };
}

/** The page a list query asks for: by number (skip) or after a cursor (keyset), `pageSize` rows either way. */
export function cursorPage(
  keys: readonly SortKey[],
  q: { page: number; pageSize: number; cursor?: string | undefined },
): CursorPage {
  const after = q.cursor === undefined ? undefined : keyset(keys, decode(keys, q.cursor));
  const orderBy = keys.map((k) => ({ [k.field]: k.dir }));
  const skip = after ? 0 : (q.page - 1) * q.pageSize;
  return {
    // Rows after the cursor's row, in the list's own order; by page number without a cursor.
    args: (where) => ({
      where: (after ? { AND: [where, after] } : where) as typeof where,
      orderBy,
      skip,
      take: q.pageSize,
    }),
    next: (rows) => {
      const last = rows.at(-1);
      return rows.length < q.pageSize || last === undefined ? null : encode(keys, last);
    },
  };
}
