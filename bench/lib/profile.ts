// A CPU profile of this process around one phase of a benchmark (node:inspector's sampling profiler), summed
// by self time per package (or per project folder) and per function: where the time goes, in a few lines.
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  /** Self time by where the code lives: an npm package, a project folder, node internals, GC, idle. */
  byOwner: Array<{ owner: string; ms: number; share: number }>;
  /** The hottest functions by self time. */
  byFunction: Array<{ fn: string; owner: string; ms: number; share: number }>;
}

/** "(idle)", "node:internal", "pg", "apps/api/src/modules/batches", ... */
function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  const project =
    /\/(apps\/[^/]+\/src\/modules\/[^/]+|apps\/[^/]+|packages\/[^/]+|workers\/src\/[^/]+|prisma|bench)\//.exec(url);
  return project?.[1] ?? url;
}

export function summarize(profile: Profile, top = 12): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  const owners = new Map<string, number>();
  const fns = new Map<string, { owner: string; ms: number }>();
  let total = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const owner = ownerOf(url, functionName);
    owners.set(owner, (owners.get(owner) ?? 0) + ms);
    const key = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*\/(node_modules|work\/main)\//, "")}:${lineNumber + 1}` : ""}`;
    const entry = fns.get(key) ?? { owner, ms: 0 };
    entry.ms += ms;
    fns.set(key, entry);
    total += ms;
  }
  const share = (ms: number) => Math.round((ms / total) * 1000) / 10;
  return {
    totalMs: Math.round(total),
    byOwner: [...owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([owner, ms]) => ({ owner, ms: Math.round(ms), share: share(ms) })),
    byFunction: [...fns]
      .filter(([key]) => !key.startsWith("(idle)") && !key.startsWith("(program)"))
      .sort((a, b) => b[1].ms - a[1].ms)
      .slice(0, top)
      .map(([fn, { owner, ms }]) => ({ fn, owner, ms: Math.round(ms), share: share(ms) })),
  };
}

/** Runs `work` under the sampling profiler; writes the raw .cpuprofile when `savePath` is given. */
export async function profiled<T>(
  enabled: boolean,
  work: () => Promise<T>,
  savePath?: string,
): Promise<{ result: T; profile: ProfileSummary | null }> {
  if (!enabled) return { result: await work(), profile: null };
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  try {
    const result = await work();
    const { profile } = (await session.post("Profiler.stop")) as { profile: Profile };
    if (savePath) await writeFile(savePath, JSON.stringify(profile));
    return { result, profile: summarize(profile) };
  } finally {
    session.disconnect();
  }
}

/** Prints a profile's summary: self time by owner (ours, Prisma, node...) and the hottest functions. */
export function printProfile(title: string, p: ProfileSummary | null, log = defaultLog) {
  if (!p) return;
  log(`profile of ${title} (self time of this process, ${p.totalMs.toLocaleString("en-US")} ms sampled):`);
  for (const o of p.byOwner) log(`  ${String(o.share).padStart(5)} %  ${o.owner}`);
  log("  hottest functions:");
  for (const f of p.byFunction.slice(0, 8)) log(`  ${String(f.share).padStart(5)} %  ${f.fn}`);
}

function defaultLog(msg: string) {
  process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
