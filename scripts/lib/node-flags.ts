// Node's flags for the workers' process, wherever it is started: npm start (scripts/start.ts), the built start
// (scripts/start-prod.ts), docker compose's workers service (docker-compose.yml repeats them: npm run
// check:compose holds it to these) and the benchmarks' --split (bench/lib/platform.ts).
//
// --max-semi-space-size=16 (MB): V8 sizes the young generation from it, and under a file ingest's allocation rate
// grows it far past what the ingest keeps alive: without the flag the young generation was most of a 1M-number
// ingest's peak RSS above its live heap (385-438 MiB; 334-342 with it), and the dispatch rate did not move beyond
// the machine's noise (docs/benchmarks.md, 2026-11-27).
export const WORKERS_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=16"];
