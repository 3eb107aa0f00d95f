import path from "node:path";
import { defineConfig } from "prisma/config";

// Every `prisma` CLI command first tries to download the native schema engine, which fails offline.
// Pointing PRISMA_SCHEMA_ENGINE_BINARY at an existing file skips the download; generate/validate/format
// never execute it. Migrations run through src/migrate.ts with the Wasm schema engine instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, "tools/no-schema-engine.sh");

export default defineConfig({
  schema: "schema.prisma",
  migrations: { path: "migrations" },
  // env("DATABASE_URL") would throw when the variable is unset and break `prisma generate` in a fresh clone.
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
