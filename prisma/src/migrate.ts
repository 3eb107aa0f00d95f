// Prisma 7 migrations without the native schema engine (it cannot be downloaded offline):
// the Wasm schema engine, driven through @prisma/adapter-pg, reads and writes Prisma's own migration
// format (migrations/<timestamp>_<name>/migration.sql and the _prisma_migrations table), so the
// ordinary `prisma migrate` CLI stays compatible wherever it can run.
//
// CLI: src/migrate-cli.ts (npm run db:migrate, db:migrate:dev)
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import pg from "pg";

const here = path.resolve(import.meta.dirname, "..");
const schemaPath = path.join(here, "schema.prisma");
const migrationsDir = path.join(here, "migrations");

// biome-ignore lint/suspicious/noExplicitAny: the Wasm bindings are untyped
type Any = any;

/**
 * Process-wide state. The Wasm engine's JS glue is one module instance per process, but this file may be
 * instantiated more than once in a process (vitest loads workspace sources once per test project), so the
 * instantiated engine and the lock below live on globalThis rather than in module variables.
 */
interface MigrateState {
  wasmReady?: Promise<void>;
  running: Promise<unknown>;
}
const STATE_KEY = Symbol.for("switchboard.migrate");
const global = globalThis as Any;
if (!global[STATE_KEY]) global[STATE_KEY] = { running: Promise.resolve() } satisfies MigrateState;
const state: MigrateState = global[STATE_KEY];

function loadWasm(): Promise<void> {
  state.wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = path.join(
      path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")),
      "schema_engine_bg.wasm",
    );
    const { instance } = await (globalThis as Any).WebAssembly.instantiate(readFileSync(wasmPath), {
      "./schema_engine_bg.js": bg as Any,
    });
    (bg as Any).__wbg_set_wasm(instance.exports);
    (instance.exports as Any).__wbindgen_start?.();
  })();
  return state.wasmReady;
}

function migrationsList() {
  mkdirSync(migrationsDir, { recursive: true });
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const dirs = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => {
      const f = path.join(migrationsDir, name, "migration.sql");
      return {
        path: name,
        migrationFile: {
          path: "migration.sql",
          content: existsSync(f) ? { tag: "ok", value: readFileSync(f, "utf8") } : { tag: "error", value: "missing" },
        },
      };
    }),
  };
}

// Two workarounds for @prisma/adapter-pg 7.10 under the Wasm engine (the CLI never takes this path):
// 1. Postgres' internal "char" type (OID 18), used by the schema describer's catalogue queries, is rejected
//    by the adapter; such columns are reported as text (OID 25).
// 2. Its shadow database is dropped before its pool is closed; we create and drop the shadow ourselves.
function fixFields<T>(r: T): T {
  for (const f of (r as Any)?.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
  return r;
}
function patchedPool(cfg: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(cfg);
  const query = pool.query.bind(pool) as Any;
  (pool as Any).query = async (...a: Any[]) => fixFields(await query(...a));
  const connect = pool.connect.bind(pool) as Any;
  (pool as Any).connect = (...a: Any[]) => {
    if (typeof a.at(-1) === "function") return connect(...a); // callback style, used inside pool.query()
    return connect().then((client: Any) => {
      if (!client.__charFix) {
        const cq = client.query.bind(client);
        client.query = async (...b: Any[]) => fixFields(await cq(...b));
        client.__charFix = true;
      }
      return client;
    });
  };
  return pool;
}

async function adminQuery(cfg: pg.ClientConfig, sql: string) {
  const c = new pg.Client(cfg);
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

export interface MigrateResult {
  applied: string[];
  created?: string;
}

/*
 * The Wasm engine is not re-entrant: two migrations interleaving (e.g. several test projects' global setups)
 * corrupt each other. Calls run one after the other (state.running).
 */

/** Applies committed migrations (deploy), or first creates one from the schema's changes (dev). */
export function migrate(
  databaseUrl: string,
  mode: "deploy" | { dev: string; forceReset?: boolean },
  log: (m: string) => void = () => {},
): Promise<MigrateResult> {
  const run = state.running.then(() => migrateNow(databaseUrl, mode, log));
  // The next call waits for this one to settle, whatever its outcome; the caller still sees the error.
  state.running = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

async function migrateNow(
  databaseUrl: string,
  mode: "deploy" | { dev: string; forceReset?: boolean },
  log: (m: string) => void,
): Promise<MigrateResult> {
  await loadWasm();
  const u = new URL(databaseUrl);
  const cfg: pg.PoolConfig = {
    host: u.hostname,
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username) || undefined,
    password: decodeURIComponent(u.password) || undefined,
    database: u.pathname.slice(1),
  };
  const pools: pg.Pool[] = [];
  const mainPool = patchedPool(cfg);
  pools.push(mainPool);
  const base = new PrismaPg(mainPool);
  const factory = {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    async connectToShadowDb() {
      const name = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
      await adminQuery(cfg, `CREATE DATABASE "${name}"`);
      const pool = patchedPool({ ...cfg, database: name });
      const shadow: Any = await new PrismaPg(pool).connect();
      shadow.dispose = async () => {
        await pool.end();
        await adminQuery(cfg, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      };
      return shadow;
    },
  };
  const adapter = bindMigrationAwareSqlAdapterFactory(factory as Any);
  const files: [string, string][] = [[schemaPath, readFileSync(schemaPath, "utf8")]];
  const engine: Any = await (bg as Any).SchemaEngine.new({ datamodels: files }, () => {}, adapter);
  const filters = { externalTables: [], externalEnums: [] };
  const result: MigrateResult = { applied: [] };
  try {
    if (mode !== "deploy") {
      // devDiagnostic first: it fills the migration-schema cache that createMigration needs.
      const diag = await engine.devDiagnostic({ migrationsList: migrationsList(), filters });
      if (diag.action.tag === "reset") {
        if (!mode.forceReset)
          throw new Error(`Drift detected, reset needed: ${diag.action.reason} (use --force-reset)`);
        await engine.reset({ filter: filters });
      }
      const out = await engine.createMigration({
        draft: false,
        migrationName: mode.dev,
        migrationsList: migrationsList(),
        schema: { files: files.map(([p, c]) => ({ path: p, content: c })) },
        filters,
      });
      if (out.migrationScript != null) {
        const dir = path.join(migrationsDir, out.generatedMigrationName);
        mkdirSync(dir, { recursive: true });
        writeFileSync(path.join(dir, "migration.sql"), out.migrationScript);
        writeFileSync(
          path.join(migrationsDir, "migration_lock.toml"),
          `# Please do not edit this file manually\nprovider = "${out.connectorType}"\n`,
        );
        result.created = out.generatedMigrationName;
        log(`created migration ${out.generatedMigrationName}`);
      } else log("no schema changes");
    }
    const applied = await engine.applyMigrations({ migrationsList: migrationsList(), filters });
    result.applied = applied.appliedMigrationNames;
    return result;
  } finally {
    engine.free();
    await Promise.all(pools.map((p) => p.end().catch(() => {})));
  }
}
