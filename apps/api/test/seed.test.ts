// The seed in both modes, each on a database of its own.
import { channelSecretKey, decryptSecrets } from "@switchboard/channels";
import { BalanceLogType, UserType } from "@switchboard/contracts";
import { createPrisma, verifyPassword } from "@switchboard/db";
import { DEMO_AGENT_OPENING_BALANCE_UNITS, DEMO_LOGINS, seed } from "@switchboard/domain/seed";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ThrowawayDatabase, throwawayDatabase } from "./throwaway-db";

let db: ThrowawayDatabase;
let url: string;
beforeAll(async () => {
  db = await throwawayDatabase("seedtest");
  url = db.url;
  expect(db.applied.length).toBeGreaterThan(0);
});
afterAll(() => db?.drop());

describe("seed", () => {
  it("in production mode creates countries and only the super admin from the environment, no known password", async () => {
    const prisma = createPrisma(url, { max: 2 });
    try {
      const r = await seed(prisma, { mode: "production", superAdmin: { username: "root", password: "From-Env-123" } });
      expect(r).toEqual({ countries: expect.any(Number), logins: [], createdDemo: false });
      expect(r.countries).toBeGreaterThan(240);
      const users = await prisma.user.findMany();
      expect(users.map((u) => [u.username, u.type])).toEqual([["root", UserType.SUPER_ADMIN]]);
      expect(await verifyPassword(users[0]!.passwordHash, "From-Env-123")).toBe(true);
      expect(await prisma.tenant.count()).toBe(0);
      // a second run changes nothing (the first super admin is not replaced)
      await seed(prisma, { mode: "production", superAdmin: { username: "other", password: "Another-123" } });
      expect(await prisma.user.count()).toBe(1);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("in demo mode adds the demo tenant once, with countries carrying dial codes and zh/en names", async () => {
    const prisma = createPrisma(url, { max: 2 });
    try {
      const first = await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
      expect(first.createdDemo).toBe(true);
      expect((await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") })).createdDemo).toBe(
        false,
      );
      const tenant = await prisma.tenant.findUniqueOrThrow({
        where: { code: "demo" },
        include: { users: true, products: true },
      });
      expect(tenant.users.map((u) => u.username).sort()).toEqual(["admin", "agent", "customer", "newcustomer"]);
      expect(tenant.products.map((p) => p.code).sort()).toEqual([1000, 2000, 3000]);
      expect(await prisma.country.findUnique({ where: { code: "CN" } })).toEqual({
        code: "CN",
        dialCode: "86",
        nameEn: "China",
        nameZh: "中国",
      });
      expect(await prisma.country.findUnique({ where: { code: "US" } })).toMatchObject({
        dialCode: "1",
        nameZh: "美国",
      });
      const countries = await prisma.country.count();
      expect(await prisma.price.count()).toBe(countries * 3);
      // The SMS product sends through the SMSC simulator `npm start` runs, credentials sealed with the default key.
      const sms = tenant.products.find((p) => p.code === 3000)!;
      const channel = await prisma.channel.findUniqueOrThrow({ where: { id: sms.defaultChannelId! } });
      expect(channel).toMatchObject({ kind: "smpp", productCode: 3000, config: { host: "127.0.0.1", port: 2775 } });
      const key = channelSecretKey(inject("channelSecretKey"));
      expect(decryptSecrets(key, tenant.id, channel.secrets)).toEqual({ password: "demo" });
      const customer = tenant.users.find((u) => u.username === "customer")!;
      const logs = await prisma.balanceLog.findMany({ where: { userId: customer.id } });
      expect(logs.reduce((s, l) => s + l.amount, 0n)).toBe(customer.balance);
    } finally {
      await prisma.$disconnect();
    }
  });

  it("funds the demo agent once through its ledger, as an admin's recharge would", async () => {
    const prisma = createPrisma(url, { max: 2 });
    try {
      const tenant = await prisma.tenant.findUniqueOrThrow({ where: { code: "demo" }, select: { id: true } });
      const agent = await prisma.user.findFirstOrThrow({ where: { tenantId: tenant.id, username: "agent" } });
      const admin = await prisma.user.findFirstOrThrow({ where: { tenantId: tenant.id, username: "admin" } });
      const agentLogs = () => prisma.balanceLog.findMany({ where: { userId: agent.id }, orderBy: { id: "asc" } });
      // The two demo seeds of the test above ran already: one recharge row, by the admin, and the balance it left.
      expect(agent.balance).toBe(DEMO_AGENT_OPENING_BALANCE_UNITS);
      expect(await agentLogs()).toEqual([
        expect.objectContaining({
          tenantId: tenant.id,
          type: BalanceLogType.RECHARGE,
          amount: 10_000n * 10_000n,
          balanceAfter: 10_000n * 10_000n,
          operatorId: admin.id,
          remark: "demo opening balance",
        }),
      ]);
      expect(DEMO_LOGINS.find((l) => l.username === "agent")?.note).toContain("10,000.00");

      // The agent spends some; a later start leaves its balance as it is.
      await prisma.user.update({ where: { id: agent.id }, data: { balance: { decrement: 2_500n * 10_000n } } });
      await seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") });
      expect((await prisma.user.findUniqueOrThrow({ where: { id: agent.id } })).balance).toBe(7_500n * 10_000n);
      expect(await agentLogs()).toHaveLength(1);

      // A demo database seeded before the agent was funded (no such row) gets it on its next start, once, even
      // with two starts at the same moment.
      await prisma.balanceLog.deleteMany({ where: { userId: agent.id } });
      await prisma.user.update({ where: { id: agent.id }, data: { balance: 0n } });
      await Promise.all([
        seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") }),
        seed(prisma, { mode: "demo", channelSecretKey: inject("channelSecretKey") }),
      ]);
      const funded = await prisma.user.findUniqueOrThrow({ where: { id: agent.id } });
      expect(funded.balance).toBe(DEMO_AGENT_OPENING_BALANCE_UNITS);
      const logs = await agentLogs();
      expect(logs).toHaveLength(1);
      expect(logs.reduce((s, l) => s + l.amount, 0n)).toBe(funded.balance);
    } finally {
      await prisma.$disconnect();
    }
  });
});
