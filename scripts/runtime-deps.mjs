// The runtime image's node_modules: production dependencies only, chosen from package-lock.json.
//
//   node scripts/runtime-deps.mjs prune [dir]      after `npm ci --omit=dev` in dir (the Dockerfile's deps stage)
//   node scripts/runtime-deps.mjs copy <target>    the same tree laid out from this checkout's node_modules, with
//                                                  the workspace manifests and dist/ (CI's production start, the
//                                                  size budget in docs/operations.md): no network, a few seconds
//
// `npm ci --omit=dev` keeps every package the lock file flags devOptional: reachable both from a dev dependency
// and as an optional dependency of a production one. Here that is the prisma CLI (an optional peer of
// @prisma/client, our dev dependency for `prisma generate`) with its ~200 packages (Prisma Studio, pglite,
// effect...) and typescript (an optional peer of valibot): ~170 MB nothing at run time imports. npm drops them
// only if optional dependencies are omitted too, which would also drop the prebuilt binaries @node-rs/argon2 and
// msgpackr load. Removing exactly the devOptional ones is safe by npm's own rules: a production package that
// needed one would have it as a non-optional dependency, and then the lock would not flag it devOptional.
//
// Also removed: @prisma/client's query compilers for the databases we do not use (MySQL, SQLite, SQL Server,
// CockroachDB; ~60 MB): the generated client loads the PostgreSQL one only (prisma/generated/internal/class.ts).
// And the AWS SDK's (STORAGE=s3) ES-module and type-declaration copies, dist-es/ and dist-types/ of every
// @aws-sdk/* and @smithy/* package (~19 MB): Node loads their dist-cjs/ (their "main", and the "node" condition
// of their exports, which comes before "import"), dist-es/ is for bundlers and dist-types/ for the compiler.
//
// Plain JavaScript: it runs in the deps stage, which has no dev dependencies (no tsx).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const UNUSED_QUERY_COMPILERS = /^query_compiler_\w+_bg\.(mysql|sqlite|sqlserver|cockroachdb)\./;
const SDK_SCOPES = ["@aws-sdk", "@smithy"];
const SDK_UNUSED_FOLDERS = ["dist-es", "dist-types"];

function lockOf(dir) {
  return JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8"));
}

function pruneUnusedQueryCompilers(dir) {
  const runtime = path.join(dir, "node_modules/@prisma/client/runtime");
  if (!existsSync(runtime)) return 0;
  let removed = 0;
  for (const f of readdirSync(runtime)) {
    if (UNUSED_QUERY_COMPILERS.test(f)) {
      rmSync(path.join(runtime, f), { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** The AWS SDK packages' dist-es/ and dist-types/ (see the top); answers how many folders went. */
function pruneSdkCopies(dir) {
  let removed = 0;
  for (const scope of SDK_SCOPES) {
    const at = path.join(dir, "node_modules", scope);
    if (!existsSync(at)) continue;
    for (const name of readdirSync(at)) {
      for (const folder of SDK_UNUSED_FOLDERS) {
        const p = path.join(at, name, folder);
        if (existsSync(p)) {
          rmSync(p, { recursive: true, force: true });
          removed += 1;
        }
      }
    }
  }
  return removed;
}

function prune(dir) {
  const lock = lockOf(dir);
  let removed = 0;
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith("node_modules/") || !entry.devOptional) continue;
    const p = path.join(dir, key);
    if (existsSync(p)) {
      rmSync(p, { recursive: true, force: true });
      removed += 1;
    }
  }
  const compilers = pruneUnusedQueryCompilers(dir);
  const sdk = pruneSdkCopies(dir);
  process.stdout.write(
    `runtime-deps: removed ${removed} devOptional packages, ${compilers} unused query compiler files, ` +
      `${sdk} AWS SDK dist-es/dist-types folders\n`,
  );
}

function copy(target) {
  if (existsSync(target) && readdirSync(target).length > 0) throw new Error(`${target} is not empty`);
  const lock = lockOf(ROOT);
  mkdirSync(target, { recursive: true });
  for (const f of ["package.json", "package-lock.json"]) cpSync(path.join(ROOT, f), path.join(target, f));
  let copied = 0;
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === "") continue;
    const from = path.join(ROOT, key);
    const to = path.join(target, key);
    if (!key.startsWith("node_modules/") && !key.includes("/node_modules/")) {
      // A workspace: its manifest (npm ci links it; the bundles in dist/ contain its code).
      mkdirSync(to, { recursive: true });
      cpSync(path.join(from, "package.json"), path.join(to, "package.json"));
      continue;
    }
    if (entry.dev || entry.devOptional) continue;
    if (entry.link) {
      mkdirSync(path.dirname(to), { recursive: true });
      symlinkSync(path.relative(path.dirname(to), path.join(target, entry.resolved)), to);
      continue;
    }
    // An optional package for another platform is in the lock but not on disk: npm ci would skip it too.
    if (!existsSync(from)) continue;
    // Nested node_modules are entries of their own (one may be dev-only).
    const nested = path.join(from, "node_modules");
    cpSync(from, to, { recursive: true, filter: (src) => src !== nested, verbatimSymlinks: true });
    copied += 1;
  }
  const compilers = pruneUnusedQueryCompilers(target);
  pruneSdkCopies(target);
  const dist = path.join(ROOT, "dist");
  if (existsSync(dist)) cpSync(dist, path.join(target, "dist"), { recursive: true });
  process.stdout.write(
    `runtime-deps: ${copied} production packages copied to ${target}` +
      `${existsSync(dist) ? " with dist/" : ""}, ${compilers} unused query compiler files left out\n`,
  );
}

const [mode, arg] = process.argv.slice(2);
if (mode === "prune") prune(path.resolve(arg ?? "."));
else if (mode === "copy" && arg) copy(path.resolve(arg));
else {
  process.stderr.write("usage: runtime-deps.mjs prune [dir] | copy <target>\n");
  process.exit(2);
}
