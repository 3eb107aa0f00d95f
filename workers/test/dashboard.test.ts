// The Grafana dashboard (ops/grafana/switchboard.json) asks only for metrics the API and the workers export, and
// Prometheus (ops/prometheus.yml) scrapes them where compose runs them: no panel silently empty after a rename.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkerMetrics } from "../src/lib/metrics";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Series names a metric exports: a histogram's _bucket, _count and _sum, anything else its own name. */
function seriesOf(name: string, type: string): string[] {
  return type === "histogram" ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name];
}

describe("ops/grafana/switchboard.json", () => {
  it("queries only metrics the API and the workers export", async () => {
    const workers = new WorkerMetrics();
    workers.watch({ queueNames: () => [], counts: async () => ({}) }, { smppWindows: () => [] });
    const exported = new Set<string>();
    for (const m of await workers.registry.getMetricsAsJSON())
      for (const s of seriesOf(m.name, String(m.type))) exported.add(s);
    // The API's metrics plugin: its names as declared (name + type), without building an app.
    const api = read("apps/api/src/plugins/metrics.ts");
    for (const [, type, name] of api.matchAll(/new (Histogram|Counter)\(\{\s*name: "([a-z_]+)"/g)) {
      for (const s of seriesOf(name as string, (type as string).toLowerCase())) exported.add(s);
    }
    const dashboard = JSON.parse(read("ops/grafana/switchboard.json")) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    };
    const asked = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const t of panel.targets ?? []) for (const [m] of t.expr.matchAll(/switchboard_[a-z_]+/g)) asked.add(m);
    }
    expect(asked.size).toBeGreaterThan(10);
    expect([...asked].filter((m) => !exported.has(m))).toEqual([]);
  });

  it("is scraped where compose runs the API and the workers, with the metrics token", () => {
    const config = read("ops/prometheus.yml");
    expect(config).toMatch(/names: \[api\]\s+type: A\s+port: 3000/);
    expect(config).toMatch(/names: \[workers\]\s+type: A\s+port: 9464/);
    expect(config.match(/credentials_file: \/prometheus\/metrics-token/g)).toHaveLength(2);
    const compose = read("docker-compose.yml");
    expect(compose).toContain("./ops/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
    expect(compose).toContain("./ops/grafana/switchboard.json:/etc/grafana/dashboards/switchboard.json:ro");
  });
});
