// npm run db:migrate (deploy) / db:migrate:dev <name> [--force-reset]: the migrations of src/migrate.ts from the
// command line. A file of its own, so bundling migrate.ts into the API or the workers never runs a migration.
import { migrate } from "./migrate";

const [cmd, name = "migration"] = process.argv.slice(2);
const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/switchboard";
const mode = cmd === "dev" ? { dev: name, forceReset: process.argv.includes("--force-reset") } : "deploy";
const t0 = performance.now();
const r = await migrate(url, mode, console.log);
console.log(
  `applied: ${r.applied.length ? r.applied.join(", ") : "none (up to date)"} in ${Math.round(performance.now() - t0)} ms`,
);
process.exit(0);
