// The hottest statements, run on the client's pg pool without Prisma. Each is one statement outside any
// transaction (autocommit), so it needs nothing of Prisma's but the connection: Prisma's client spends 0.3-0.6 ms
// of CPU on every raw statement (parameters, the query plan it interprets, each row's values), pg alone a third of
// that (docs/benchmarks.md, issue 20). Used where a statement runs per group of messages on the sending path.
//
// Same tagged-template form and the same values as `$queryRaw`: bigint (and bigint[]) in and out, Date, JSON
// objects, arrays. Text and the statement's name are the ones Prisma would use, so a statement is prepared once per
// connection whichever of the two runs it. A client not made by createPrisma (a test's own) runs it through Prisma.
import { createHash } from "node:crypto";
import pg from "pg";
import type { Prisma, PrismaClient } from "../generated/client";

interface Pools {
  pool: pg.Pool;
  /** Statements named (prepared): without, every execution is planned whatever the session says. */
  prepared: boolean;
  /** The connections for key lookups (`{ genericPlans: true }`), opened with the first such statement. */
  keyed: () => pg.Pool;
}

/** The pools under each client createPrisma made. */
const pools = new WeakMap<PrismaClient, Pools>();

/**
 * Session settings of the key-lookup connections. A named statement is planned once per connection
 * (force_generic_plan) and the plan kept; the join methods a plan made while a table was small would pick and keep
 * once it is large (a sequential scan, a hash over a whole table) are off, so every plan made there probes indexes
 * row by row, which is what a statement finding its rows by key from a group's arrays wants at any table size.
 */
export const KEYED_SESSION =
  "-c plan_cache_mode=force_generic_plan -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off";

/**
 * Records the pool under a client (createPrisma), and how to open its key-lookup connections: a second, smaller
 * pool with the same connection settings and KEYED_SESSION, ended with the first (the client's $disconnect ends it).
 */
export function notePool(client: PrismaClient, pool: pg.Pool, prepared: boolean, keyedConfig: pg.PoolConfig): void {
  let keyed: pg.Pool | undefined;
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    await keyed?.end();
    return end();
  }) as pg.Pool["end"];
  // Prisma ends the pool only if it ever connected: a client that ran only these statements is ended here.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    if (!pool.ended) await pool.end();
  };
  pools.set(client, {
    pool,
    prepared,
    keyed: () => {
      if (!keyed) {
        keyed = new pg.Pool(keyedConfig);
        // An idle connection the server closed (a restart) leaves the pool; the next statement opens another.
        keyed.on("error", () => undefined);
      }
      return keyed;
    },
  });
}

/**
 * Distinct statement texts given a name, per process; later new texts run unnamed. Each name costs every pooled
 * connection a prepared statement on the server for its lifetime, and some texts vary (a Prisma `in` list has a
 * placeholder per element), so the number is bounded: our statements are a few hundred texts.
 */
const NAMED_STATEMENTS_MAX = 2_000;
const namedStatements = new Map<string, string>();

/** The name a statement text is prepared under, or undefined once the bound is reached for a new text. */
export function statementName(sql: string): string | undefined {
  const known = namedStatements.get(sql);
  if (known !== undefined) return known;
  if (namedStatements.size >= NAMED_STATEMENTS_MAX) return undefined;
  const name = `sb_${createHash("sha1").update(sql).digest("base64url")}`;
  namedStatements.set(sql, name);
  return name;
}

const INT8 = 20;
const INT8_ARRAY = 1016;
const int8Array = (pg.types.getTypeParser as (oid: number) => (value: string) => Array<string | null>)(INT8_ARRAY);

/** Result values as Prisma's $queryRaw gives them: int8 as bigint (pg's default is a string). */
const TYPES = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === INT8) return (value: string) => BigInt(value);
    if (oid === INT8_ARRAY) return (value: string) => int8Array(value).map((v) => (v === null ? null : BigInt(v)));
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** Texts of the templates run so far: a template's text is built once. */
const texts = new WeakMap<TemplateStringsArray, string>();

function textOf(strings: TemplateStringsArray): string {
  let text = texts.get(strings);
  if (text === undefined) {
    text = strings.reduce((sql, part, i) => (i === 0 ? part : `${sql}$${i}${part}`), "");
    texts.set(strings, text);
  }
  return text;
}

/** What a statement needs of a transaction: `$queryRaw` (a Prisma transaction client has it, and rawTransaction's). */
export interface SqlRunner {
  $queryRaw<T = unknown>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T>;
}

interface Runner {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

function run<T>(on: Runner, prepared: boolean, strings: TemplateStringsArray, values: unknown[]): Promise<T> {
  const text = textOf(strings);
  const name = prepared ? statementName(text) : undefined;
  return on
    .query({ text, values, types: TYPES, ...(name !== undefined ? { name } : {}) })
    .then((result) => result.rows as T);
}

/**
 * A tag that runs one statement on the client's pool (autocommit) and gives its rows, typed as `$queryRaw<T>` would:
 * `await queryRows(db)<Row[]>\`SELECT ...\``. Given a transaction client, the statement runs in that transaction,
 * through Prisma.
 */
export function queryRows(db: PrismaClient | Prisma.TransactionClient, options: StatementOptions = {}) {
  const under = pools.get(db as PrismaClient);
  return <T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T> =>
    under ? run<T>(poolFor(under, options), under.prepared, strings, values) : db.$queryRaw<T>(strings, ...values);
}

export interface StatementOptions {
  /**
   * The statement finds its rows by key (ids, provider message ids) from arrays, whatever they hold: it runs on
   * the key-lookup connections (KEYED_SESSION), planned once per connection instead of on every execution (the
   * sending path's statements spent ~100 us of PostgreSQL's time per single send planning: docs/benchmarks.md).
   * Not for a statement whose best plan depends on a value (a status, a time range): planned once, it would keep
   * the plan for whichever value came first. With unnamed statements (preparedStatements off) nothing changes.
   */
  genericPlans?: boolean;
}

function poolFor(under: Pools, { genericPlans = false }: StatementOptions): pg.Pool {
  return genericPlans && under.prepared ? under.keyed() : under.pool;
}

/**
 * queryRows for a statement composed with `Prisma.sql` (its fragments, such as a `Prisma.raw` column list, already
 * flattened into its text): `await querySql<Row[]>(db, Prisma.sql\`SELECT ${COLUMNS} ...\`)`.
 */
export function querySql<T>(
  db: PrismaClient | Prisma.TransactionClient,
  statement: Prisma.Sql,
  options: StatementOptions = {},
): Promise<T> {
  const under = pools.get(db as PrismaClient);
  return under
    ? run<T>(
        poolFor(under, options),
        under.prepared,
        statement.strings as unknown as TemplateStringsArray,
        statement.values,
      )
    : db.$queryRaw<T>(statement);
}

/**
 * A transaction of a few statements on one of the client's pooled connections, without Prisma's interactive
 * transaction (the single-send lane's group write: its statements and BEGIN/COMMIT cost Prisma more CPU than
 * PostgreSQL). `work` runs its statements with the runner's `$queryRaw`; whatever it throws rolls everything back.
 * READ COMMITTED, as Prisma's. Bounded by `timeoutMs` as Prisma's is: each statement by statement_timeout (set with
 * BEGIN, in the same round trip), and a transaction left waiting on its caller by closing the connection, which
 * rolls it back. A client not made by createPrisma runs it as a Prisma transaction.
 *
 * `genericPlans` (StatementOptions): the transaction runs on a key-lookup connection, its statements planned once
 * per connection (the lane's insert and charge: their planning was ~40 % of their PostgreSQL time,
 * docs/benchmarks.md). Only for statements that find their rows by key, whatever their arrays hold.
 */
export async function rawTransaction<T>(
  db: PrismaClient,
  work: (tx: SqlRunner) => Promise<T>,
  timeoutMs = 15_000,
  options: StatementOptions = {},
): Promise<T> {
  const under = pools.get(db);
  if (!under) return db.$transaction((tx) => work(tx), { maxWait: timeoutMs, timeout: timeoutMs });
  const client = await poolFor(under, options).connect();
  let broken: Error | undefined;
  // A checked-out connection has no listener of the pool's: its end (ours below, or the server's) is noted here.
  const onError = (err: Error) => {
    broken ??= err;
  };
  client.on("error", onError);
  const timer = setTimeout(() => {
    broken ??= new Error(`transaction longer than ${timeoutMs} ms: connection closed`);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }, timeoutMs);
  try {
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
    const result = await work({
      $queryRaw: <R>(strings: TemplateStringsArray, ...values: unknown[]) =>
        run<R>(client, under.prepared, strings, values),
    });
    if (broken) throw broken;
    await client.query("COMMIT");
    return result;
  } catch (err) {
    if (!broken) await client.query("ROLLBACK").catch((e: unknown) => (broken = e as Error));
    throw err;
  } finally {
    clearTimeout(timer);
    client.off("error", onError);
    client.release(broken ?? false);
  }
}
