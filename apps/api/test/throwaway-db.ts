// A migrated database of its own for a test file whose work must not meet the run's shared database
// (the seed in both modes, the scheduler that looks at every batch). Created on the run's server.
import { randomBytes } from "node:crypto";
import { migrate } from "@switchboard/db";
import pg from "pg";
import { inject } from "vitest";

export interface ThrowawayDatabase {
  url: string;
  /** Migrations applied to it. */
  applied: string[];
  drop: () => Promise<void>;
}

async function onServer(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export async function throwawayDatabase(prefix: string): Promise<ThrowawayDatabase> {
  const base = inject("databaseUrl");
  const name = `${prefix}_${randomBytes(4).toString("hex")}`;
  const u = new URL(base);
  u.pathname = `/${name}`;
  await onServer(base, `CREATE DATABASE "${name}"`);
  const { applied } = await migrate(u.toString(), "deploy");
  return { url: u.toString(), applied, drop: () => onServer(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
