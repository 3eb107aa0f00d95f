// The arrows between workspaces (docs/architecture.md), checked over the TypeScript import graph; part of
// `npm run typecheck`. Apps (apps/api, apps/web, workers) may import the domain package and the base packages,
// never another app; the domain package imports only base packages; a base package imports only the base
// packages listed for it. Every import and export of every source file counts, type-only ones too; so do the
// workspaces' package.json dependencies.
//
// What is checked: each workspace's src/ (what ships) and the packages' tests. Not checked: the apps' own tests
// and e2e harnesses, scripts/ and bench/: they start the API and the workers together, which is their job.
//
// Exits 1 with one line per wrong arrow (file, import, why).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "..");

type Layer = "app" | "domain" | "base";
interface Workspace {
  name: string;
  dir: string;
  layer: Layer;
  /** Other workspaces it may import (by package name); apps may import every non-app. */
  may?: readonly string[];
  /** Folders whose files are checked. */
  checked: readonly string[];
}

const WORKSPACES: readonly Workspace[] = [
  { name: "@switchboard/api", dir: "apps/api", layer: "app", checked: ["src"] },
  { name: "@switchboard/web", dir: "apps/web", layer: "app", checked: ["src"] },
  { name: "@switchboard/workers", dir: "workers", layer: "app", checked: ["src"] },
  {
    name: "@switchboard/domain",
    dir: "packages/domain",
    layer: "domain",
    may: ["@switchboard/contracts", "@switchboard/db", "@switchboard/channels", "@switchboard/numbers"],
    checked: ["src", "test"],
  },
  {
    name: "@switchboard/db",
    dir: "prisma",
    layer: "base",
    may: ["@switchboard/contracts"],
    checked: ["src"],
  },
  {
    name: "@switchboard/channels",
    dir: "packages/channels",
    layer: "base",
    may: ["@switchboard/contracts"],
    checked: ["src", "test", "bench"],
  },
  { name: "@switchboard/contracts", dir: "packages/contracts", layer: "base", may: [], checked: ["src", "test"] },
  { name: "@switchboard/numbers", dir: "packages/numbers", layer: "base", may: [], checked: ["src", "test"] },
  { name: "@switchboard/sdk", dir: "packages/sdk", layer: "base", may: [], checked: ["src", "test", "scripts"] },
];

/**
 * Arrows that are wrong but still there, each with the issue that removes it: `from` is a file (or a
 * package.json), `to` the import as written. Nothing else is let through.
 */
const KNOWN: ReadonlyArray<{ from: string; to: string; why: string }> = [
  // None: every arrow runs one way (the last ones, the workers' file ingest and the demo seed, moved to the domain
  // package under issue 21). A new entry names the issue that removes it.
];

const byName = new Map(WORKSPACES.map((w) => [w.name, w]));
/** Every workspace of the root package.json, checked or not: a folder not in WORKSPACES is an error too. */
const rootPackage = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { workspaces: string[] };

function workspaceDirs(): string[] {
  const dirs: string[] = [];
  for (const pattern of rootPackage.workspaces) {
    if (pattern.endsWith("/*")) {
      const parent = pattern.slice(0, -2);
      for (const e of readdirSync(path.join(ROOT, parent), { withFileTypes: true })) {
        if (e.isDirectory() && statSafe(path.join(ROOT, parent, e.name, "package.json")))
          dirs.push(`${parent}/${e.name}`);
      }
    } else dirs.push(pattern);
  }
  return dirs;
}

function statSafe(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  if (!statSafe(dir)?.isDirectory()) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name === "generated" || e.name === "dist") continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|tsx|mts|cts|js|mjs)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** The workspace a path lies in (longest folder match), or undefined outside every workspace. */
function ownerOf(file: string): Workspace | undefined {
  const rel = path.relative(ROOT, file);
  let best: Workspace | undefined;
  for (const w of WORKSPACES) {
    if ((rel === w.dir || rel.startsWith(`${w.dir}/`)) && (!best || w.dir.length > best.dir.length)) best = w;
  }
  return best;
}

/** The workspace a bare specifier names ("@switchboard/api/batches" -> @switchboard/api). */
function namedWorkspace(spec: string): Workspace | undefined {
  const m = /^(@switchboard\/[^/]+)/.exec(spec);
  return m ? byName.get(m[1] as string) : undefined;
}

/** Why `from` may not import `to`, or null when it may. */
function refusal(from: Workspace, to: Workspace): string | null {
  if (from === to) return null;
  if (to.layer === "app") {
    return from.layer === "app" ? "an app imports another app" : `a ${from.layer} package imports an app`;
  }
  if (from.layer === "app") return null;
  if (from.may?.includes(to.name)) return null;
  if (to.layer === "domain") return "a base package imports the domain package (arrows run apps -> domain -> base)";
  return `${from.name} may import only ${from.may?.length ? from.may.join(", ") : "no other workspace"}`;
}

const known = (from: string, to: string) => KNOWN.some((k) => k.from === from && k.to === to);
const problems: string[] = [];
const used = new Set<string>();

for (const dir of workspaceDirs()) {
  if (!WORKSPACES.some((w) => w.dir === dir)) {
    problems.push(`${dir}: a workspace scripts/check-arrows.ts does not know (give it a layer)`);
  }
}

for (const w of WORKSPACES) {
  // package.json dependencies
  const pkgFile = `${w.dir}/package.json`;
  const pkg = JSON.parse(readFileSync(path.join(ROOT, pkgFile), "utf8")) as Record<string, Record<string, string>>;
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies })) {
    const to = byName.get(dep);
    const why = to && refusal(w, to);
    if (!why) continue;
    if (known(pkgFile, dep)) used.add(`${pkgFile} ${dep}`);
    else problems.push(`${pkgFile}: depends on ${dep}: ${why}`);
  }
  // imports of its source files
  for (const folder of w.checked) {
    for (const file of sourceFiles(path.join(ROOT, w.dir, folder))) {
      const rel = path.relative(ROOT, file);
      const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      for (const ref of info.importedFiles) {
        const spec = ref.fileName;
        let to: Workspace | undefined;
        if (spec.startsWith(".")) {
          to = ownerOf(path.resolve(path.dirname(file), spec));
          if (to !== w) {
            const why = to && refusal(w, to);
            problems.push(`${rel}: imports ${spec}: ${why ?? "another workspace is imported by its package name"}`);
            continue;
          }
        } else {
          to = namedWorkspace(spec);
        }
        if (!to) continue;
        const why = refusal(w, to);
        if (!why) continue;
        if (known(rel, spec)) used.add(`${rel} ${spec}`);
        else problems.push(`${rel}: imports ${spec}: ${why}`);
      }
    }
  }
}

// An exception whose import is gone is taken out of the list, so the list stays the truth.
for (const k of KNOWN) {
  if (!used.has(`${k.from} ${k.to}`)) problems.push(`scripts/check-arrows.ts: ${k.from} no longer imports ${k.to}`);
}

if (problems.length > 0) {
  process.stderr.write(`Wrong arrows between workspaces (docs/architecture.md):\n${problems.join("\n")}\n`);
  process.exit(1);
}
process.stdout.write(
  `arrows: ${WORKSPACES.length} workspaces, apps -> domain -> base; ${KNOWN.length} known exceptions\n`,
);
