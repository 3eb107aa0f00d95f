// npm run db:seed: the demo data unless NODE_ENV=production (then SUPER_ADMIN_USERNAME / SUPER_ADMIN_PASSWORD);
// --demo seeds the demo whatever NODE_ENV says (docker compose's demo profile runs production processes).
// The demo channels point at npm start's loopback simulators unless DEMO_SMSC_ADDRESS, DEMO_HLR_ADDRESS,
// DEMO_WHATSAPP_ADDRESS, DEMO_RBM_ADDRESS say where (host:port; compose: the simulator services).
import { createPrisma } from "@switchboard/db";
import { type DemoSimulatorAddresses, type SimulatorAddress, seed } from "./seed";

function address(name: string): SimulatorAddress | undefined {
  const value = process.env[name];
  if (!value) return undefined;
  const m = /^([A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  if (!m) {
    console.error(`${name} must be host:port, e.g. smsc:2775`);
    process.exit(2);
  }
  return { host: m[1] as string, port: Number(m[2]) };
}

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/switchboard";
const demo = process.argv.includes("--demo") || process.env.NODE_ENV !== "production";
const channelSecretKey = process.env.CHANNEL_SECRET_KEY;
if (demo && !channelSecretKey) {
  console.error("the demo seed seals its channels' credentials with CHANNEL_SECRET_KEY: set it (npm start does)");
  process.exit(2);
}
const simulators: Partial<DemoSimulatorAddresses> = {};
for (const name of ["smsc", "hlr", "whatsapp", "rbm"] as const) {
  const at = address(`DEMO_${name.toUpperCase()}_ADDRESS`);
  if (at) simulators[name] = at;
}
const prisma = createPrisma(url, { max: 2 });
const { SUPER_ADMIN_USERNAME: username, SUPER_ADMIN_PASSWORD: password } = process.env;
const result = await seed(
  prisma,
  demo
    ? { mode: "demo", channelSecretKey: channelSecretKey as string, simulators }
    : { mode: "production", superAdmin: username && password ? { username, password } : undefined },
);
console.log(`countries: ${result.countries}; demo tenant ${result.createdDemo ? "created" : "kept as it was"}`);
for (const l of result.logins)
  console.log(`  ${l.area.padEnd(24)} ${l.username.padEnd(12)} ${l.password.padEnd(12)} ${l.note}`);
await prisma.$disconnect();
