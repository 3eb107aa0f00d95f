// COPY ... FROM STDIN inside a Prisma interactive transaction. Prisma's client cannot COPY, and a file batch's
// recipients written with COPY cost PostgreSQL less than the INSERT ... SELECT that wrote them before
// (docs/benchmarks.md, issue 19). The transaction's statements run on one pooled pg connection the adapter holds;
// this finds that connection and runs the COPY on it, so the rows are in the same transaction as everything else
// (the charge, the batch's counts) and leave with its rollback.
//
// Finding it: the transaction runs a statement carrying a random marker, and the pool's connections (whose query
// method notes a marker going through it) say which one sent it. Not by pg_backend_pid(): behind PgBouncer the
// server's process id is not the one the connection was told.
//
// Safe because a transaction's connection runs one statement at a time: pg queues whatever Prisma sends on it
// while the COPY runs, and the adapter does not hand it to anyone else until the transaction ends.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Prisma } from "../generated/client";

const MARKER = "switchboard-copy:";
/** Connections that sent a marker, until copyInto takes them. */
const marked = new Map<string, pg.PoolClient>();

/** A pg pool whose connections say which one sent a marker (createPrisma hands it to the adapter). */
export function copyablePool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // The adapter sends each statement as one config object with its values.
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const values = (args[0] as { values?: unknown[] } | undefined)?.values;
      const first = values?.length === 1 ? values[0] : undefined;
      if (typeof first === "string" && first.startsWith(MARKER)) marked.set(first, client);
      return query(...args);
    };
  });
  return pool;
}

const connectionOf = new WeakMap<Prisma.TransactionClient, pg.PoolClient>();

async function transactionConnection(tx: Prisma.TransactionClient): Promise<pg.PoolClient> {
  const known = connectionOf.get(tx);
  if (known) return known;
  const marker = `${MARKER}${randomUUID()}`;
  let client: pg.PoolClient | undefined;
  try {
    await tx.$queryRaw`SELECT ${marker}::text AS marker`;
    client = marked.get(marker);
  } finally {
    // Also when the statement failed after the connection noted it: nothing is left behind.
    marked.delete(marker);
  }
  if (client === undefined) {
    throw new Error("COPY: the transaction's connection is not one of this process's pools (createPrisma's)");
  }
  connectionOf.set(tx, client);
  return client;
}

/**
 * Runs `COPY <table> (<columns>) FROM STDIN` (text format) with `data` on the transaction's connection; `data` is
 * whole rows, each ending in a newline, fields tab-separated and escaped as copyText does. Resolves once the
 * server has taken every row.
 */
export async function copyInto(tx: Prisma.TransactionClient, statement: string, data: string): Promise<void> {
  const client = await transactionConnection(tx);
  const stream = client.query(copyFrom(statement));
  const done = once(stream, "finish");
  stream.end(data);
  await done;
}

/** A value as COPY's text format reads it: NULL as \N; backslash, tab, newline and carriage return escaped. */
export function copyText(value: string | number | bigint | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  const text = typeof value === "string" ? value : value.toString();
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, escapeChar) : text;
}

function escapeChar(c: string): string {
  return c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r";
}
