// Sums the gzip size of the JavaScript a route loads: the entry chunk, the chunks it imports
// statically, and the lazy chunks of the given source modules with their static imports.
// Usage (after `vite build`): node scripts/route-size.mjs [src/features/auth/pages/LoginPage.tsx ...]
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const dist = path.resolve(import.meta.dirname, "../dist");
const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8"));
const lazyModules = process.argv.slice(2);
if (lazyModules.length === 0) lazyModules.push("src/features/auth/pages/LoginPage.tsx");

const seen = new Set();
function visit(key) {
  if (seen.has(key)) return;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`not in the manifest: ${key}`);
  seen.add(key);
  for (const imported of chunk.imports ?? []) visit(imported);
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
visit(entry);
for (const module of lazyModules) visit(module);

let raw = 0;
let gzip = 0;
const rows = [];
for (const key of seen) {
  const file = manifest[key].file;
  const bytes = readFileSync(path.join(dist, file));
  const size = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += size;
  rows.push([file, bytes.length, size]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const [file, r, g] of rows)
  console.log(`${(g / 1024).toFixed(1).padStart(7)} kB gzip ${(r / 1024).toFixed(1).padStart(8)} kB  ${file}`);
console.log(
  `total for ${[entry, ...lazyModules].join(" + ")}: ${(raw / 1024).toFixed(1)} kB, ${(gzip / 1024).toFixed(1)} kB gzip`,
);
