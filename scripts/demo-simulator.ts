// docker compose --profile demo: one of the demo world's simulators, `node dist/demo/simulator.js <name>` with
// name smsc | rbm | whatsapp | hlr, run with npm start's options (scripts/lib/demo-simulators.ts) on every interface
// of its container. RBM and WhatsApp push status webhooks to the API (DEMO_API_URL, default http://api:3000) for the
// demo channels the demo seed made: their ids and the RBM key come from the database (DATABASE_URL,
// CHANNEL_SECRET_KEY), waited for while the seed has not made them yet.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma } from "@switchboard/db";
import {
  DEMO_SIMULATORS,
  type DemoChannels,
  type DemoSimulator,
  demoSimulatorArgs,
  findDemoChannels,
} from "./lib/demo-simulators";

const WAIT_FOR_SEED_MS = 5 * 60_000;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const name = process.argv[2] as DemoSimulator;
if (!DEMO_SIMULATORS.includes(name)) fail(`usage: simulator.js <${DEMO_SIMULATORS.join(" | ")}>`);
const channelSecretKey = process.env.CHANNEL_SECRET_KEY ?? "";
const apiUrl = (process.env.DEMO_API_URL ?? "http://api:3000").replace(/\/+$/, "");

let channels: DemoChannels = { whatsapp: null, rcs: null };
if (name === "rbm" || name === "whatsapp") {
  if (!process.env.DATABASE_URL || !channelSecretKey)
    fail(`the ${name} simulator needs DATABASE_URL and CHANNEL_SECRET_KEY`);
  const prisma = createPrisma(process.env.DATABASE_URL, { max: 1 });
  const deadline = Date.now() + WAIT_FOR_SEED_MS;
  for (;;) {
    channels = await findDemoChannels(prisma, channelSecretKey);
    if ((name === "rbm" ? channels.rcs : channels.whatsapp) || Date.now() > deadline) break;
    process.stdout.write(`waiting for the demo seed's ${name} channel\n`);
    await new Promise((r) => setTimeout(r, 2_000));
  }
  await prisma.$disconnect();
}

// The RBM simulator reads the key the demo channel holds from a file: an owner-only one in a private folder.
const rbmKeyFile = path.join(mkdtempSync(path.join(tmpdir(), "demo-rbm-")), "service-account.json");
if (channels.rcs) writeFileSync(rbmKeyFile, channels.rcs.serviceAccountKey, { mode: 0o600 });

const args = demoSimulatorArgs(name, { channelSecretKey, apiUrl, channels, rbmKeyFile, host: "0.0.0.0" });
if (!args) fail(`no demo ${name} channel in the database: run the demo seed (node dist/prisma/bin/seed.js --demo)`);

const cli = path.join(import.meta.dirname, "..", "simulators", `${name}-cli.js`);
const child = spawn(process.execPath, ["--enable-source-maps", cli, ...args], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
