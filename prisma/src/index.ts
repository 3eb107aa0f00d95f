// The database client every workspace uses: Prisma 7 with the node-postgres driver adapter
// (no native query engine, nothing downloaded at run time).
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/client";

export { Prisma, PrismaClient } from "../generated/client";

import type { Prisma } from "../generated/client";

export type * from "../generated/models";

export interface DbOptions {
  /** Pool size; the API and the workers each open their own pool. */
  max?: number;
}

export function createPrisma(databaseUrl: string, opts: DbOptions = {}): PrismaClient {
  // JIT off for every session: our statements are short OLTP ones, and a bulk statement over a few thousand
  // rows has an estimated cost above jit_above_cost, so PostgreSQL spent ~30 ms compiling each one (more than
  // running it: seen in the dispatch benchmark's plans).
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.max ?? 10, options: "-c jit=off" });
  return new PrismaClient({ adapter });
}

/** A transaction client or the client itself: data-access functions take either. */
export type Db = PrismaClient | Prisma.TransactionClient;

export { batchJobKeys } from "./batch-job-keys";
export { seedCountries } from "./countries";
export { type Listener, type ListenHandlers, listen } from "./listen";
export { migrate } from "./migrate";
export { hashPassword, verifyPassword } from "./passwords";
