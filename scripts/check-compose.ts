// npm run check:compose (CI, after npm run build; no Docker engine needed): docker-compose.yml and the Dockerfile
// against the build they run.
// - Every service of our image (all but postgres and redis) runs a file of the build: each dist/... its command
//   and its healthcheck name exists (the image's /app is this folder's package.json, node_modules and dist/).
// - The workers' service starts Node with the workers' flags (scripts/lib/node-flags.ts).
// - Every long-running service has a healthcheck of its own; only the one-shots (restart "no") go without, and a
//   healthcheck's port is the one its service listens on.
// - Every variable the API and the workers read (CONFIG_VARIABLES) is in .env.example and reaches the api or the
//   workers service; where compose gives a default, loadConfig reads it as it reads its own default.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CONFIG_VARIABLES, loadConfig } from "@switchboard/domain/config";
import { parse } from "yaml";
import { DEMO_SIMULATOR_PORTS, type DemoSimulator } from "./lib/demo-simulators";
import { WORKERS_NODE_FLAGS } from "./lib/node-flags";

const ROOT = path.resolve(import.meta.dirname, "..");
const problems: string[] = [];
let checked = 0;

interface Service {
  image?: string;
  build?: unknown;
  command?: string | string[];
  restart?: string;
  profiles?: string[];
  environment?: Record<string, string | number | null> | string[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
}
const compose = parse(readFileSync(path.join(ROOT, "docker-compose.yml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};

/** The dist/ files a command line names (also inside `sh -c "..."`). */
function distFiles(command: string | string[] | undefined): string[] {
  const text = Array.isArray(command) ? command.join(" ") : (command ?? "");
  return [...text.matchAll(/(?:^|[\s"'])(dist\/[^\s"'&;|]+)/g)].map((m) => m[1] as string);
}

function envOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((e) => [e.split("=")[0], e.split("=").slice(1).join("=")]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? "" : String(v)]));
}

/** The port a service of ours listens on, as its environment or its demo simulator says. */
function listenPort(name: string, service: Service): number | undefined {
  const env = envOf(service);
  const cmd = Array.isArray(service.command) ? service.command : [];
  if (cmd.includes("dist/api/main.js")) return Number(env.PORT ?? 3000);
  if (cmd.includes("dist/workers/main.js")) return Number(env.WORKERS_OPS_PORT ?? 9464);
  if (cmd.includes("dist/web/server.js")) return Number(env.WEB_PORT ?? 5173);
  if (cmd.includes("dist/demo/simulator.js")) return DEMO_SIMULATOR_PORTS[cmd.at(-1) as DemoSimulator];
  problems.push(`${name}: cannot tell which port it listens on`);
  return undefined;
}

const ours = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
for (const [name, service] of ours) {
  const commandFiles = distFiles(service.command);
  if (commandFiles.length === 0) problems.push(`${name}: its command runs no file of the build: ${service.command}`);
  // The workers' Node flags are written once (node-flags.ts); the compose file repeats them and must keep up.
  const command = Array.isArray(service.command) ? service.command : [];
  if (command.includes("dist/workers/main.js")) {
    for (const flag of WORKERS_NODE_FLAGS)
      if (!command.slice(0, command.indexOf("dist/workers/main.js")).includes(flag))
        problems.push(`${name}: its node command lacks the workers' flag ${flag} (scripts/lib/node-flags.ts)`);
  }
  const oneShot = service.restart === "no";
  const test = service.healthcheck?.disable ? undefined : service.healthcheck?.test;
  const healthFiles = distFiles(test);
  if (!oneShot && !test) problems.push(`${name}: a long-running service without a healthcheck`);
  if (test && healthFiles.length === 0) problems.push(`${name}: its healthcheck runs no file of the build`);
  for (const f of [...commandFiles, ...healthFiles]) {
    checked += 1;
    if (!existsSync(path.join(ROOT, f))) problems.push(`${name}: ${f} is not in the build (npm run build)`);
  }
  if (test) {
    const target = (Array.isArray(test) ? test : [test]).find((t) => /^(https?|tcp):\/\//.test(t));
    const port = target ? Number(new URL(target).port) : undefined;
    const listens = listenPort(name, service);
    if (!target || port !== listens) {
      problems.push(`${name}: its healthcheck asks ${target ?? "nothing"}, but it listens on port ${listens}`);
    }
  }
}

// The image's own default command and healthcheck.
for (const line of readFileSync(path.join(ROOT, "Dockerfile"), "utf8").split("\n")) {
  if (!/^\s*(CMD|HEALTHCHECK|.*\bCMD\b)/.test(line)) continue;
  for (const f of distFiles(line.replaceAll(",", " "))) {
    checked += 1;
    if (!existsSync(path.join(ROOT, f))) problems.push(`Dockerfile: ${f} is not in the build`);
  }
}

// Every configuration variable is explained in .env.example and given to the processes that read it.
const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");
const reaching = { ...envOf(compose.services.api ?? {}), ...envOf(compose.services.workers ?? {}) };
const required = {
  DATABASE_URL: "postgresql://x@y/z",
  JWT_SECRET: "x".repeat(32),
  CHANNEL_SECRET_KEY: "0".repeat(64),
};
const defaults = loadConfig(required) as Record<string, unknown>;
/** Defaults compose sets on purpose, other than the API's. */
const COMPOSE_OWN_DEFAULTS: Record<string, string> = {
  CORS_ORIGINS: "the web service's origins (the API's own default allows no browser origin)",
};
for (const variable of CONFIG_VARIABLES) {
  if (!new RegExp(`^#?\\s*${variable}=`, "m").test(example)) problems.push(`.env.example does not list ${variable}`);
  const value = reaching[variable];
  if (value === undefined) {
    problems.push(`docker-compose.yml gives ${variable} to neither the api nor the workers`);
    continue;
  }
  // "${NAME:-default}" (.env's NAME, else default): compose's default must read as loadConfig's own, unless
  // compose means another one.
  const [, name, fallback] = /^\$\{([A-Z_]+):-([^}]*)\}$/.exec(value) ?? [];
  if (name !== variable || fallback === undefined || !(variable in defaults) || variable in COMPOSE_OWN_DEFAULTS) {
    continue;
  }
  const read = (loadConfig({ ...required, [variable]: fallback }) as Record<string, unknown>)[variable];
  if (JSON.stringify(read) !== JSON.stringify(defaults[variable])) {
    problems.push(`docker-compose.yml's default ${variable}=${fallback} is not the API's (${defaults[variable]})`);
  }
}

if (problems.length) {
  process.stderr.write(`docker-compose.yml / Dockerfile against the build:\n  ${problems.join("\n  ")}\n`);
  process.exit(1);
}
process.stdout.write(
  `docker-compose.yml: ${ours.length} services of our image, ${checked} files they run are in the build; ` +
    `${CONFIG_VARIABLES.length} configuration variables in .env.example and compose\n`,
);
