// npm run db:seed — demo data unless NODE_ENV=production (then SUPER_ADMIN_USERNAME / SUPER_ADMIN_PASSWORD).
import { createPrisma } from "./index";
import { seed } from "./seed";

const url = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/switchboard";
const prisma = createPrisma(url, { max: 2 });
const production = process.env.NODE_ENV === "production";
const channelSecretKey = process.env.CHANNEL_SECRET_KEY;
if (!production && !channelSecretKey) {
  console.error("the demo seed seals its channels' credentials with CHANNEL_SECRET_KEY: set it (npm start does)");
  process.exit(2);
}
const { SUPER_ADMIN_USERNAME: username, SUPER_ADMIN_PASSWORD: password } = process.env;
const result = await seed(
  prisma,
  production
    ? { mode: "production", superAdmin: username && password ? { username, password } : undefined }
    : { mode: "demo", channelSecretKey: channelSecretKey as string },
);
console.log(`countries: ${result.countries}; demo tenant ${result.createdDemo ? "created" : "kept as it was"}`);
for (const l of result.logins)
  console.log(`  ${l.area.padEnd(24)} ${l.username.padEnd(12)} ${l.password.padEnd(12)} ${l.note}`);
await prisma.$disconnect();
