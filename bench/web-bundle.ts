// Web client bundle size per route (issue 6: the login page's JavaScript at most 250 kB gzip).
// Builds apps/web with vite into a temporary folder, reads the build manifest (build.manifest is on in
// apps/web/vite.config.ts) and sums, for a route, the JavaScript a browser loads for it: the entry chunk with
// everything it imports statically (transitively), plus the route's lazy chunks (layout, page) with their
// static imports. Sizes are gzip level 9 (node:zlib); 1 kB = 1000 bytes. Exits 1 when the login route is over
// the budget. Bounded: one build, then file reads.
// Run: node --import tsx bench/web-bundle.ts [--keep]   (--keep leaves the build folder in place)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";

const LOGIN_BUDGET = 250_000; // bytes of gzip, issue 6

const root = path.resolve(import.meta.dirname, "..");
const webDir = path.join(root, "apps/web");
const keep = process.argv.includes("--keep");

/** Routes to measure: the source modules a browser loads lazily on top of the entry for that URL. */
const ROUTES: Array<{ name: string; url: string; lazy: string[] }> = [
  // What every URL loads before its lazy chunks: the shell (router, session, providers).
  { name: "entry only", url: "every URL", lazy: [] },
  { name: "login", url: "/login", lazy: ["src/features/auth/pages/LoginPage.tsx"] },
  {
    name: "customer dashboard",
    url: "/app/dashboard",
    // AreaRoute loads the area's layout lazily, then RoutePage loads the page.
    lazy: ["src/layouts/SidebarLayout.tsx", "src/features/dashboard/pages/CustomerDashboardPage.tsx"],
  },
];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

function build(outDir: string) {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--logLevel",
      "warn",
      "--outDir",
      outDir,
      "--emptyOutDir",
    ],
    { cwd: webDir, stdio: "inherit" },
  );
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status})`);
  return (performance.now() - t0) / 1000;
}

function sizes(outDir: string, file: string) {
  const bytes = readFileSync(path.join(outDir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

type Sized = ReturnType<typeof sizes>;

/** Manifest keys of the entry and the given lazy modules, each with its static imports, transitively. */
function closure(manifest: Manifest, starts: string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`not in the build manifest: ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of starts) visit(key);
  return [...seen];
}

function total(rows: Sized[]) {
  return rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip }), { raw: 0, gzip: 0 });
}

function printTable(title: string, rows: Sized[]) {
  const sorted = [...rows].sort((a, b) => b.gzip - a.gzip);
  console.log(`\n${title}`);
  console.log(`${"gzip kB".padStart(9)} ${"raw kB".padStart(9)}  file`);
  for (const row of sorted) console.log(`${kB(row.gzip).padStart(9)} ${kB(row.raw).padStart(9)}  ${row.file}`);
  const sum = total(rows);
  console.log(`${kB(sum.gzip).padStart(9)} ${kB(sum.raw).padStart(9)}  total (${rows.length} files)`);
  return sum;
}

function filesUnder(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full, ext));
    else if (name.endsWith(ext)) out.push(full);
  }
  return out;
}

const outDir = mkdtempSync(path.join(tmpdir(), "switchboard-web-bundle-"));
let loginGzip = 0;
try {
  const seconds = build(outDir);
  const manifest: Manifest = JSON.parse(readFileSync(path.join(outDir, ".vite/manifest.json"), "utf8"));
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length !== 1) throw new Error(`expected one entry in the manifest, found ${entries.length}`);
  const entry = entries[0] as string;
  console.log(`vite build of apps/web in ${seconds.toFixed(1)} s into ${outDir}`);
  console.log("sizes: gzip level 9 (node:zlib), 1 kB = 1000 bytes");

  const summary: Array<{ name: string; js: { raw: number; gzip: number }; css: { raw: number; gzip: number } }> = [];
  for (const route of ROUTES) {
    const keys = closure(manifest, [entry, ...route.lazy]);
    const js = keys.map((key) => sizes(outDir, (manifest[key] as ManifestChunk).file));
    const cssFiles = [...new Set(keys.flatMap((key) => manifest[key]?.css ?? []))];
    const jsSum = printTable(`${route.name} (${route.url}): ${["entry", ...route.lazy].join(" + ")}`, js);
    const cssSum = total(cssFiles.map((file) => sizes(outDir, file)));
    console.log(`${kB(cssSum.gzip).padStart(9)} ${kB(cssSum.raw).padStart(9)}  CSS (${cssFiles.length} files)`);
    summary.push({ name: `${route.name} (${route.url})`, js: jsSum, css: cssSum });
    if (route.name === "login") loginGzip = jsSum.gzip;
  }

  const relative = (files: string[]) => files.map((file) => path.relative(outDir, file));
  const allJs = relative(filesUnder(outDir, ".js")).map((file) => sizes(outDir, file));
  const allCss = relative(filesUnder(outDir, ".css")).map((file) => sizes(outDir, file));
  const allJsSum = total(allJs);
  const allCssSum = total(allCss);
  const largest = [...allJs].sort((a, b) => b.gzip - a.gzip).slice(0, 5);
  console.log("\nwhole app: largest JavaScript files");
  for (const row of largest) console.log(`${kB(row.gzip).padStart(9)} ${kB(row.raw).padStart(9)}  ${row.file}`);
  summary.push({ name: `whole app (${allJs.length} JS, ${allCss.length} CSS files)`, js: allJsSum, css: allCssSum });

  console.log("\nsummary (kB, 1 kB = 1000 bytes)");
  console.log(`${"".padEnd(44)} ${"JS gzip".padStart(9)} ${"JS raw".padStart(9)} ${"CSS gzip".padStart(9)}`);
  for (const row of summary)
    console.log(
      `${row.name.padEnd(44)} ${kB(row.js.gzip).padStart(9)} ${kB(row.js.raw).padStart(9)} ${kB(row.css.gzip).padStart(9)}`,
    );
} finally {
  if (keep) console.log(`build kept in ${outDir}`);
  else rmSync(outDir, { recursive: true, force: true });
}

const ok = loginGzip <= LOGIN_BUDGET;
console.log(
  `\nlogin route JavaScript: ${kB(loginGzip)} kB gzip, budget ${kB(LOGIN_BUDGET)} kB: ${ok ? "within budget" : "OVER BUDGET"}`,
);
process.exit(ok ? 0 : 1);
