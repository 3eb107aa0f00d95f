// npm run build: the production build in dist/, run by plain `node` (no tsx) in the image and in CI.
//
//   dist/api/main.js                  the API            (apps/api/src/main.ts)
//   dist/workers/main.js              the workers        (workers/src/main.ts)
//   dist/prisma/bin/migrate.js        migrations         (prisma/src/migrate-cli.ts), schema.prisma and migrations/
//   dist/prisma/bin/seed.js           the seed           (packages/domain/src/seed/seed-cli.ts) beside them
//   dist/web/server.js, dist/web/dist the web server     (apps/web/server.ts) and the built client (vite), its text
//                                     files also stored .br and .gz for the server to send as they are
//   dist/simulators/*.js              the demo's SMSC, RBM, WhatsApp and HLR simulators and dist/demo/ their launcher
//   dist/start.js                     npm run start:prod (scripts/start-prod.ts): all of the above, outside Docker
//   dist/healthcheck.js               the containers' healthchecks (scripts/healthcheck.ts)
//
// Why esbuild bundles rather than tsc: the sources import without extensions (moduleResolution "bundler") and the
// workspace packages export their .ts sources, neither of which plain node runs. One bundle per entry inlines our
// own code (every @switchboard/* package, Prisma's generated client, JSON data) and leaves every npm package
// external, loaded from node_modules as in development: the runtime image needs `npm ci --omit=dev` and dist/,
// nothing else. Type checking stays with `npm run typecheck` (esbuild only strips types).
//
// Paths that code finds from its own file (import.meta.url / dirname) are laid out as in the sources:
// - prisma/src/migrate.ts reads ../schema.prisma and ../migrations: dist/prisma/bin/ + dist/prisma/{schema.prisma,
//   migrations}.
// - apps/web/server.ts serves ./dist: dist/web/server.js + dist/web/dist.
// - worker threads are files beside the module that starts them (the API's file-summary.worker.js and
//   password-strength.worker.mjs, the workers' redis-thread.worker.js): written beside every bundle that contains
//   that module.
//
// Options: --server (skip the web client's vite build; dist/web/dist must then exist from an earlier build).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const DIST = path.join(ROOT, "dist");
const serverOnly = process.argv.includes("--server");

function say(line: string) {
  process.stdout.write(`[build] ${line}\n`);
}

/** npm packages stay external (node_modules at run time); our workspaces, relative files and JSON are bundled. */
const externalPackages: Plugin = {
  name: "external-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@switchboard/") || args.path.endsWith(".json")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const common: BuildOptions = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: "node",
  target: "node24",
  format: "esm",
  sourcemap: "linked",
  // Stack traces name our source files (node --enable-source-maps in every start command).
  sourcesContent: false,
  logLevel: "warning",
  legalComments: "none",
  plugins: [externalPackages],
  metafile: true,
};

/** Entry points: output path under dist/ (without .js) and the source. */
const ENTRIES: Record<string, string> = {
  "api/main": "apps/api/src/main.ts",
  "workers/main": "workers/src/main.ts",
  "prisma/bin/migrate": "prisma/src/migrate-cli.ts",
  "prisma/bin/seed": "packages/domain/src/seed/seed-cli.ts",
  "web/server": "apps/web/server.ts",
  "simulators/smsc-cli": "packages/channels/src/simulators/smsc-cli.ts",
  "simulators/rbm-cli": "packages/channels/src/simulators/rbm-cli.ts",
  "simulators/whatsapp-cli": "packages/channels/src/simulators/whatsapp-cli.ts",
  "simulators/hlr-cli": "packages/channels/src/simulators/hlr-cli.ts",
  "demo/simulator": "scripts/demo-simulator.ts",
  start: "scripts/start-prod.ts",
  healthcheck: "scripts/healthcheck.ts",
};

/**
 * Worker-thread files, started by `new Worker(new URL("./<file>", import.meta.url))` from the module named: once
 * bundled, import.meta.url is the bundle's, so the thread's file goes beside each bundle containing that module.
 */
const THREADS = [
  {
    startedBy: "apps/api/src/modules/batch-submit/file-summary.ts",
    source: "apps/api/src/modules/batch-submit/file-summary.worker.ts",
    file: "file-summary.worker.js",
    bundle: true,
  },
  {
    startedBy: "workers/src/lib/redis-thread.ts",
    source: "workers/src/lib/redis-thread.worker.ts",
    file: "redis-thread.worker.js",
    bundle: true,
  },
  {
    startedBy: "apps/api/src/modules/auth/password-policy.ts",
    source: "apps/api/src/modules/auth/password-strength.worker.mjs",
    file: "password-strength.worker.mjs",
    bundle: false,
  },
];

/** Text files of the web client sent compressed: stored once at the best ratio rather than per request. */
const COMPRESSIBLE = new Set([".js", ".css", ".html", ".svg", ".json", ".txt", ".ico", ".map", ".webmanifest"]);
const MIN_COMPRESS_BYTES = 1024;

function precompress(dir: string): { files: number; bytes: number; br: number; gz: number } {
  const total = { files: 0, bytes: 0, br: 0, gz: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = precompress(p);
      for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += sub[k];
      continue;
    }
    // index.html gets the run-time config injected per server: the server compresses it itself.
    if (entry.name === "index.html" || !COMPRESSIBLE.has(path.extname(entry.name))) continue;
    const data = readFileSync(p);
    if (data.length < MIN_COMPRESS_BYTES) continue;
    const br = brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    });
    const gz = gzipSync(data, { level: 9 });
    writeFileSync(`${p}.br`, br);
    writeFileSync(`${p}.gz`, gz);
    total.files += 1;
    total.bytes += data.length;
    total.br += br.length;
    total.gz += gz.length;
  }
  return total;
}

function inputsOf(meta: Metafile, output: string): Set<string> {
  return new Set(Object.keys(meta.outputs[output]?.inputs ?? {}));
}

const t0 = performance.now();
const webDist = path.join(ROOT, "apps/web/dist");
if (!serverOnly) {
  say("web client (vite build)");
  const vite = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: path.join(ROOT, "apps/web"),
      stdio: "inherit",
    },
  );
  if (vite.status !== 0) {
    say("the web client did not build");
    process.exit(1);
  }
} else if (!existsSync(path.join(webDist, "index.html"))) {
  say("--server: no web client in apps/web/dist; run npm run build once without --server");
  process.exit(1);
}

rmSync(DIST, { recursive: true, force: true });
say("server bundles (esbuild)");
const main = await build({
  ...common,
  entryPoints: Object.entries(ENTRIES).map(([out, source]) => ({ in: source, out })),
  outdir: DIST,
});

// Each bundle that contains a module starting a thread gets the thread's file beside it.
const meta = main.metafile;
if (!meta) throw new Error("esbuild returned no metafile");
for (const thread of THREADS) {
  const dirs = new Set<string>();
  for (const output of Object.keys(meta.outputs)) {
    if (output.endsWith(".js") && inputsOf(meta, output).has(thread.startedBy)) dirs.add(path.dirname(output));
  }
  for (const dir of dirs) {
    const target = path.join(ROOT, dir, thread.file);
    if (thread.bundle) {
      await build({ ...common, entryPoints: [thread.source], outfile: target });
    } else {
      // Plain JavaScript that imports npm packages only: used as it is.
      cpSync(path.join(ROOT, thread.source), target);
    }
  }
}

// What migrate.ts reads beside its folder.
cpSync(path.join(ROOT, "prisma/schema.prisma"), path.join(DIST, "prisma/schema.prisma"));
cpSync(path.join(ROOT, "prisma/migrations"), path.join(DIST, "prisma/migrations"), { recursive: true });

// The web client beside its server, text files precompressed.
cpSync(webDist, path.join(DIST, "web/dist"), { recursive: true });
const packed = precompress(path.join(DIST, "web/dist"));
const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
say(
  `web client: ${packed.files} text files precompressed, ${kib(packed.bytes)} -> brotli ${kib(packed.br)}, gzip ${kib(packed.gz)}`,
);

// A package.json marking dist/ as ES modules (the .js bundles are ESM whatever directory they are copied to).
writeFileSync(path.join(DIST, "package.json"), `${JSON.stringify({ type: "module", private: true }, null, 2)}\n`);

function du(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.size;
  return readdirSync(p).reduce((sum, e) => sum + du(path.join(p, e)), 0);
}
say(`dist/: ${kib(du(DIST))} in ${Math.round(performance.now() - t0)} ms`);
