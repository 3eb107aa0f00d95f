// Kannel beside our figures, in the same run: a scratch copy of ../shared/bench/kannel and one run of its run.sh.
// Used by bench:batch (its DLR side and mtbatch, against our dispatch) and bench:api (its HTTP sendsms with and
// without delivery reports, against our single sends).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sharedDir } from "../../packages/channels/test/workplace";
import { fmt, log, ROOT, WORK } from "./platform";

const KANNEL_SRC = path.join(sharedDir(ROOT, "bench/kannel/run.sh") ?? path.resolve(ROOT, "../shared"), "bench/kannel");

export interface KannelResult {
  /** HTTP sendsms: requests answered ("accepted for delivery") per second. */
  http_accept_rate?: number;
  /** Delivery reports on: every DLR called back, per second from the first request. */
  dlr_e2e_rate?: number;
  dlr_all_done_s?: number;
  /** Every message at the simulator, per second from the first request (mtbatch: from its start). */
  smsc_e2e_rate?: number;
  [key: string]: unknown;
}

/** A scratch copy of the Kannel bench (it installs its npm packages and writes results beside itself). */
export function kannelCopy(): string {
  const dir = path.join(WORK, "kannel");
  if (!existsSync(path.join(dir, "run.sh"))) {
    mkdirSync(WORK, { recursive: true });
    execFileSync("cp", ["-r", KANNEL_SRC, dir]);
  }
  // A copy made before mtbatch-run.js (or proc-stats.js) existed gets them now.
  for (const f of ["mtbatch-run.js", "proc-stats.js", "run.sh", "summarize.js"]) {
    if (!existsSync(path.join(dir, f))) execFileSync("cp", [path.join(KANNEL_SRC, f), path.join(dir, f)]);
  }
  if (!existsSync(path.join(dir, "node_modules/smpp"))) {
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

/** run.sh's paths: HTTP sendsms with delivery reports on or off, or Kannel's own mtbatch tool. */
export type KannelMode = "dlr-on" | "dlr-off" | "mtbatch";

/**
 * One run of ../shared/bench/kannel/run.sh (REPS=1, N messages): "dlr-on" = HTTP sendsms -> bearerbox -> SMPP -> the
 * simulator with every DLR called back (load-driver.js); "dlr-off" = the same without receipts; "mtbatch" = Kannel's own `mtbatch` tool pushing N messages
 * straight into bearerbox (no smsbox, no HTTP, no receipts, nothing persisted), as mtbatch-run.js drives it. Both
 * send to the same smsc-sim.js; run.sh installs Debian's `kannel` package with apt-get when bearerbox is missing.
 */
export function runKannel(
  dir: string,
  n: number,
  mode: KannelMode,
  /** run.sh's settings beyond N (CONCURRENCY, SIM_LATENCY_MS, ...: its README). */
  settings: Record<string, string> = {},
): KannelResult {
  const out = path.join(dir, "results", `sb-${mode}-${Date.now()}`);
  const shown = Object.entries(settings)
    .map(([k, v]) => ` ${k}=${v}`)
    .join("");
  log(
    mode === "mtbatch"
      ? `Kannel: run.sh with N=${fmt(n)}${shown}, mtbatch (mtbatch -> bearerbox -> SMPP -> smsc-sim.js, no receipts)`
      : `Kannel: run.sh with N=${fmt(n)}${shown}, delivery reports ${mode === "dlr-on" ? "on" : "off"} ` +
          "(HTTP sendsms -> bearerbox -> SMPP -> smsc-sim.js)",
  );
  execFileSync("bash", ["run.sh"], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      OUT: out,
      ...settings,
      REPS: "1",
      SIZES: String(n),
      // run.sh reads an empty DLR_MODES as its default ("off on"): a blank one runs no HTTP path.
      DLR_MODES: mode === "mtbatch" ? " " : mode.slice(4),
      MTBATCH_SIZES: mode === "mtbatch" ? String(n) : "",
      QUIET_WAIT_S: "30",
    },
  });
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory() && !e.name.includes("noisy")) walk(p);
      else if (e.name === "result.json") files.push(p);
    }
  };
  walk(path.join(out, mode));
  if (files.length === 0) throw new Error(`Kannel's run left no result.json under ${out}`);
  return JSON.parse(readFileSync(files[0] as string, "utf8")) as KannelResult;
}
