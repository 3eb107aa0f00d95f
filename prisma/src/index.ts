// The database client every workspace uses: Prisma 7 with the node-postgres driver adapter
// (no native query engine, nothing downloaded at run time).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/client";
import { copyablePool } from "./copy";
import { KEYED_SESSION, notePool, statementName } from "./sql";

export { Prisma, PrismaClient } from "../generated/client";

import type { Prisma } from "../generated/client";

export type * from "../generated/models";

export interface DbOptions {
  /** Pool size; the API and the workers each open their own pool. */
  max?: number;
  /**
   * Statements prepared once per connection and executed by name afterwards (default on). Off behind a pooler
   * that does not keep a session's prepared statements (PgBouncer in transaction mode before 1.21).
   */
  preparedStatements?: boolean;
}

export function createPrisma(databaseUrl: string, opts: DbOptions = {}): PrismaClient {
  // JIT off for every session: our statements are short OLTP ones, and a bulk statement over a few thousand
  // rows has an estimated cost above jit_above_cost, so PostgreSQL spent ~30 ms compiling each one (more than
  // running it: seen in the dispatch benchmark's plans).
  // Named statements: PostgreSQL parses and analyses a statement once per connection instead of on every
  // execution (a single send's statements cost it 20 % less CPU: docs/benchmarks.md). Every execution is still
  // planned for its own values (plan_cache_mode): a plan cached for average values could scan a whole table for
  // a rare status or a short time range, where the value's own plan uses an index.
  const prepared = opts.preparedStatements ?? true;
  const max = opts.max ?? 10;
  const pool = copyablePool({
    connectionString: databaseUrl,
    max,
    options: prepared ? "-c jit=off -c plan_cache_mode=force_custom_plan" : "-c jit=off",
  });
  const adapter = new PrismaPg(pool, {
    // Ours, but ended with the client ($disconnect), as the pool the adapter would have made itself.
    disposeExternalPool: true,
    // The adapter passes the name to pg's query config as is, where undefined means unnamed.
    ...(prepared ? { statementNameGenerator: (query) => statementName(query.sql) as string } : {}),
  });
  const client = new PrismaClient({ adapter });
  // The sending path's key lookups ({ genericPlans: true }) have connections of their own, whose statements are
  // planned once: half the pool's size more, opened only if such a statement runs.
  notePool(client, pool, prepared, {
    connectionString: databaseUrl,
    max: Math.max(2, Math.ceil(max / 2)),
    options: `-c jit=off ${KEYED_SESSION}`,
  });
  return client;
}

/** A transaction client or the client itself: data-access functions take either. */
export type Db = PrismaClient | Prisma.TransactionClient;

export { batchJobKeys } from "./batch-job-keys";
export { copyInto, copyText } from "./copy";
export { seedCountries } from "./countries";
export { type Listener, type ListenHandlers, listen } from "./listen";
export { migrate } from "./migrate";
export { hashPassword, verifyPassword } from "./passwords";
export { queryRows, querySql, rawTransaction, type SqlRunner, type StatementOptions } from "./sql";
