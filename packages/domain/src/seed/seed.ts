// Reference data for every start, demo data only for the demo start. Above the database package (it writes
// channel rows with the channels package's sealing and the simulators' templates): the domain layer.
// - always: countries (upserted, so library updates land).
// - demo: a super admin, a demo tenant with an admin, an agent, two customers (one authenticated, one not),
//   the three products with demo default prices, website configs for localhost, and an SMPP channel to the
//   SMSC simulator `npm start` runs (127.0.0.1:2775) as the SMS product's default channel, so a demo batch is
//   sent all the way. Created once; later starts leave them as users changed them.
// - production: no known password anywhere; the first super admin comes from the environment.
// The API's own sealing, so the API and the workers open the demo channel's credentials like any other.
import { createHmac, generateKeyPairSync, randomBytes } from "node:crypto";
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { DEMO_TEMPLATES } from "@switchboard/channels/simulators";
import { storedNeeds } from "@switchboard/channels/whatsapp";
import {
  AuthRequirement,
  AuthStatus,
  BalanceLogType,
  ProductCode,
  SenderIdStatus,
  senderIdKind,
  smppChannelConfig,
  UserType,
} from "@switchboard/contracts";
import { hashPassword, type Prisma, type PrismaClient, seedCountries } from "@switchboard/db";

export interface DemoLogin {
  area: string;
  username: string;
  password: string;
  note: string;
}

export interface SeedResult {
  countries: number;
  logins: DemoLogin[];
  createdDemo: boolean;
}

export const DEMO_TENANT_CODE = "demo";

/** The demo customer's approved sender id (every country). */
export const DEMO_SENDER_ID = "Switchboard";

export const DEMO_LOGINS: DemoLogin[] = [
  { area: "staff (/system/login)", username: "superadmin", password: "Super12345", note: "super admin, all tenants" },
  { area: "staff (/system/login)", username: "admin", password: "Admin12345", note: "admin of the demo tenant" },
  {
    area: "staff (/system/login)",
    username: "agent",
    password: "Agent12345",
    note: "agent of the demo tenant, balance 10,000.00 to recharge its customers from",
  },
  { area: "customer (/login)", username: "customer", password: "Customer123", note: "authenticated, balance 1,000.00" },
  { area: "customer (/login)", username: "newcustomer", password: "Customer123", note: "not authenticated yet" },
];

/**
 * The demo agent's own balance: a reseller's customers are recharged from it (docs/finance.md), so an agent that
 * starts at 0 could recharge no one until an admin funded it. 10,000.00, credited once like an admin's recharge.
 */
export const DEMO_AGENT_OPENING_BALANCE_UNITS = 10_000n * 10_000n;
/** The remark of the demo's opening recharges; the agent's also tells a re-seed that it was funded already. */
const DEMO_OPENING_REMARK = "demo opening balance";

/** Where the demo SMS channel connects: the SMSC simulator `npm start` runs. */
export const DEMO_SMSC = { host: "127.0.0.1", port: 2775 } as const;

/** The demo SMS channel's HLR lookup for screening: the lookup simulator `npm start` runs. */
export const DEMO_HLR = { host: "127.0.0.1", port: 8789 } as const;

/** The demo WS channel: the WhatsApp Cloud API simulator `npm start` runs, with its approved demo templates. */
export const DEMO_WHATSAPP = {
  host: "127.0.0.1",
  port: 8788,
  name: "Demo WhatsApp (local simulator)",
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
} as const;

/**
 * The demo simulators' credentials, derived from this installation's CHANNEL_SECRET_KEY (generated at the first
 * `npm start`): the seed seals them in the channel, `npm start` hands them to the simulator, and none is written
 * in the code.
 */
export function demoSimulatorSecret(secretKey: string, purpose: string): string {
  return createHmac("sha256", channelSecretKey(secretKey)).update(`demo-simulator:${purpose}`).digest("hex");
}

/** The demo RCS channel: the RBM simulator `npm start` runs (some numbers not RCS-capable, SMS fallback). */
export const DEMO_RBM = {
  host: "127.0.0.1",
  port: 8787,
  name: "Demo RCS (local RBM simulator)",
  agentId: "switchboard-demo-agent",
} as const;

/** Where a demo simulator listens, when not where `npm start` runs it (docker compose: its service name). */
export interface SimulatorAddress {
  host: string;
  port: number;
}

/** The demo channels' simulators: `npm start`'s loopback addresses unless given (docker compose's demo profile). */
export interface DemoSimulatorAddresses {
  smsc: SimulatorAddress;
  hlr: SimulatorAddress;
  whatsapp: SimulatorAddress;
  rbm: SimulatorAddress;
}

export const DEMO_SIMULATOR_ADDRESSES: DemoSimulatorAddresses = {
  smsc: { host: DEMO_SMSC.host, port: DEMO_SMSC.port },
  hlr: { host: DEMO_HLR.host, port: DEMO_HLR.port },
  whatsapp: { host: DEMO_WHATSAPP.host, port: DEMO_WHATSAPP.port },
  rbm: { host: DEMO_RBM.host, port: DEMO_RBM.port },
};

/** The demo RBM webhook's clientToken (key of X-Goog-Signature), derived like the WhatsApp credentials. */
export const demoRbmClientToken = (secretKey: string) => demoSimulatorSecret(secretKey, "rbm-client-token");

/** A service-account key file of the demo agent: a fresh RSA key, as Google would issue one. */
function demoServiceAccountKey(rbm: SimulatorAddress): string {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return JSON.stringify({
    type: "service_account",
    project_id: "switchboard-demo",
    private_key_id: randomBytes(20).toString("hex"),
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: "rbm-demo@switchboard-demo.iam.gserviceaccount.com",
    client_id: "100000000000000000000",
    token_uri: `http://${rbm.host}:${rbm.port}/token`,
  });
}

export function demoWhatsappSecrets(secretKey: string) {
  return {
    accessToken: demoSimulatorSecret(secretKey, "whatsapp-access-token"),
    appSecret: demoSimulatorSecret(secretKey, "whatsapp-app-secret"),
    webhookVerifyToken: demoSimulatorSecret(secretKey, "whatsapp-verify-token"),
  };
}

/** Demo default prices in money units (1/10,000): SMS per segment, WS and RCS per message. */
const DEMO_PRICES: Record<number, { default: bigint; overrides: Record<string, bigint> }> = {
  [ProductCode.SMS]: { default: 450n, overrides: { CN: 350n, US: 80n, GB: 400n, IN: 120n } },
  [ProductCode.WS]: { default: 600n, overrides: { CN: 500n, US: 250n, IN: 90n } },
  [ProductCode.RCS]: { default: 800n, overrides: { CN: 600n, US: 300n } },
};

/** Screening (task type 1) per number, per product: a lookup costs a fraction of a message. */
const DEMO_SCREENING_PRICES: Record<number, bigint> = {
  [ProductCode.SMS]: 40n,
  [ProductCode.WS]: 30n,
  [ProductCode.RCS]: 20n,
};

/**
 * Demo WS template prices by category where the demo sells most (money units per message), as WhatsApp bills
 * them: marketing above the message price, utility and authentication below. Elsewhere the message price.
 */
const DEMO_WS_CATEGORY_PRICES: Record<string, { marketing: bigint; utility: bigint; authentication: bigint }> = {
  CN: { marketing: 700n, utility: 300n, authentication: 250n },
  US: { marketing: 350n, utility: 120n, authentication: 100n },
  IN: { marketing: 120n, utility: 40n, authentication: 35n },
};

async function ensureSuperAdmin(prisma: PrismaClient, username: string, password: string) {
  const existing = await prisma.user.findFirst({ where: { type: UserType.SUPER_ADMIN, deletedAt: null } });
  if (existing) return false;
  await prisma.user.create({
    data: {
      type: UserType.SUPER_ADMIN,
      tenantId: null,
      username,
      passwordHash: await hashPassword(password),
      lang: "zh",
    },
  });
  return true;
}

/**
 * The demo customer's approved sender id ("Switchboard", every country), so the SMS editor has one to offer
 * (docs/sender-ids.md). A demo database seeded before sender ids gets it on its next start; one the demo's users
 * revoked or put back in review is left as it is (a withdrawn one comes back).
 */
async function ensureDemoSenderId(prisma: PrismaClient, tenantId: number) {
  const customerLogin = DEMO_LOGINS[3];
  if (!customerLogin) return;
  const [customer, admin] = await Promise.all([
    prisma.user.findFirst({
      where: { tenantId, type: UserType.USER, username: customerLogin.username, deletedAt: null },
      select: { id: true },
    }),
    prisma.user.findFirst({
      where: { tenantId, type: UserType.ADMIN, deletedAt: null },
      orderBy: { id: "asc" },
      select: { id: true },
    }),
  ]);
  if (!customer) return;
  await prisma.senderId.createMany({
    data: [
      {
        tenantId,
        userId: customer.id,
        senderId: DEMO_SENDER_ID,
        countryCode: null,
        kind: senderIdKind(DEMO_SENDER_ID),
        status: SenderIdStatus.APPROVED,
        note: "Demo brand",
        reviewerId: admin?.id ?? null,
        reviewedAt: new Date(),
      },
    ],
    skipDuplicates: true,
  });
}

/**
 * Funds the demo agent as an admin's recharge does (POST /finance/recharge): in one transaction, its row locked,
 * the balance moved by an update and a recharge row written to its balance log with the balance after it, so the
 * ledger replays. Once: a re-seed finds that row (the agent may have spent or been recharged since) and leaves
 * the balance alone; a demo database seeded before this gets it on its next start.
 */
async function ensureDemoAgentFunded(prisma: PrismaClient, tenantId: number) {
  const staff = await prisma.user.findMany({
    where: { tenantId, deletedAt: null, OR: [{ type: UserType.ADMIN }, { type: UserType.AGENT, username: "agent" }] },
    orderBy: { id: "asc" },
    select: { id: true, type: true },
  });
  const agent = staff.find((u) => u.type === UserType.AGENT);
  const admin = staff.find((u) => u.type === UserType.ADMIN);
  if (!agent) return; // renamed or deleted in this demo: nothing to fund
  await prisma.$transaction(async (tx) => {
    // Two starts seeding at once: the second waits here, then finds the first one's row.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${agent.id} FOR NO KEY UPDATE`;
    const funded = await tx.balanceLog.findFirst({
      where: { userId: agent.id, type: BalanceLogType.RECHARGE, remark: DEMO_OPENING_REMARK },
      select: { id: true },
    });
    if (funded) return;
    const { balance } = await tx.user.update({
      where: { id: agent.id },
      data: { balance: { increment: DEMO_AGENT_OPENING_BALANCE_UNITS } },
      select: { balance: true },
    });
    await tx.balanceLog.create({
      data: {
        tenantId,
        userId: agent.id,
        type: BalanceLogType.RECHARGE,
        amount: DEMO_AGENT_OPENING_BALANCE_UNITS,
        balanceAfter: balance,
        operatorId: admin?.id ?? null,
        remark: DEMO_OPENING_REMARK,
      },
    });
  });
}

/** The demo SMPP channel, its password sealed with CHANNEL_SECRET_KEY, as the SMS product's default channel. */
async function seedDemoSmsChannel(
  prisma: PrismaClient,
  tenantId: number,
  smsProductId: number,
  secretKey: string,
  at: DemoSimulatorAddresses,
) {
  const { password, ...config } = smppChannelConfig.parse({
    ...at.smsc,
    systemId: "switchboard",
    password: "demo",
    lookupUrl: `http://${at.hlr.host}:${at.hlr.port}/lookup`,
  });
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: "Demo SMSC (local simulator)",
      kind: "smpp",
      productCode: ProductCode.SMS,
      config: config as Prisma.InputJsonObject,
      secrets: encryptSecrets(channelSecretKey(secretKey), tenantId, { password: password ?? "" }),
      throughput: 1_000,
    },
  });
  await prisma.product.update({ where: { id: smsProductId }, data: { defaultChannelId: channel.id } });
}

/** The demo WhatsApp channel as the WS product's default, unless the demo tenant has one already. */
async function ensureDemoWhatsappChannel(
  prisma: PrismaClient,
  tenantId: number,
  secretKey: string,
  at: DemoSimulatorAddresses,
) {
  if (await prisma.channel.findFirst({ where: { tenantId, kind: "whatsapp" }, select: { id: true } })) return;
  const ws = await prisma.product.findFirst({ where: { tenantId, code: ProductCode.WS }, select: { id: true } });
  if (!ws) return;
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: DEMO_WHATSAPP.name,
      kind: "whatsapp",
      productCode: ProductCode.WS,
      config: {
        baseUrl: `http://${at.whatsapp.host}:${at.whatsapp.port}`,
        apiVersion: "v21.0",
        phoneNumberId: DEMO_WHATSAPP.phoneNumberId,
        wabaId: DEMO_WHATSAPP.wabaId,
        // The simulator also answers the On-Premises contacts check, so WS screening works in the demo.
        contactsCheckUrl: `http://${at.whatsapp.host}:${at.whatsapp.port}/v1/contacts`,
      },
      secrets: encryptSecrets(channelSecretKey(secretKey), tenantId, demoWhatsappSecrets(secretKey)),
      // WhatsApp's default throughput per business number.
      throughput: 80,
    },
  });
  await prisma.product.update({ where: { id: ws.id }, data: { defaultChannelId: channel.id } });
  // Its templates as the demo simulator lists them, as an admin's sync would store them (the sync needs the
  // simulator running; the seed does not).
  const syncedAt = new Date();
  await prisma.whatsappTemplate.createMany({
    data: DEMO_TEMPLATES.map((t) => ({
      tenantId,
      channelId: channel.id,
      name: t.name,
      language: t.language,
      category: t.category,
      status: t.status,
      components: t.components as unknown as Prisma.InputJsonValue,
      ...storedNeeds(t.components),
      syncedAt,
    })),
  });
}

/** The demo RCS channel as the RCS product's default, unless the demo tenant has one already. */
async function ensureDemoRcsChannel(
  prisma: PrismaClient,
  tenantId: number,
  secretKey: string,
  at: DemoSimulatorAddresses,
) {
  if (await prisma.channel.findFirst({ where: { tenantId, kind: "rcs" }, select: { id: true } })) return;
  const rcs = await prisma.product.findFirst({ where: { tenantId, code: ProductCode.RCS }, select: { id: true } });
  if (!rcs) return;
  const base = `http://${at.rbm.host}:${at.rbm.port}`;
  const channel = await prisma.channel.create({
    data: {
      tenantId,
      name: DEMO_RBM.name,
      kind: "rcs",
      productCode: ProductCode.RCS,
      config: { baseUrl: base, agentId: DEMO_RBM.agentId, tokenUrl: `${base}/token`, capabilityCheck: "batch" },
      secrets: encryptSecrets(channelSecretKey(secretKey), tenantId, {
        serviceAccountKey: demoServiceAccountKey(at.rbm),
        webhookClientToken: demoRbmClientToken(secretKey),
      }),
      throughput: 300,
    },
  });
  await prisma.product.update({ where: { id: rcs.id }, data: { defaultChannelId: channel.id } });
}

async function seedDemoTenant(
  prisma: PrismaClient,
  countryCodes: string[],
  channelSecret: string,
  at: DemoSimulatorAddresses,
) {
  const h = async (pw: string) => hashPassword(pw);
  const [superLogin, adminLogin, agentLogin, customerLogin, newCustomerLogin] = DEMO_LOGINS as [
    DemoLogin,
    DemoLogin,
    DemoLogin,
    DemoLogin,
    DemoLogin,
  ];
  await ensureSuperAdmin(prisma, superLogin.username, superLogin.password);

  const tenant = await prisma.tenant.create({
    data: {
      code: DEMO_TENANT_CODE,
      name: "Demo Platform",
      currency: "CNY",
      setting: {
        create: { reviewMode: 2, reviewThreshold: 10_000, sensitiveWords: ["casino", "赌博"], international: true },
      },
    },
  });
  const admin = await prisma.user.create({
    data: {
      tenantId: tenant.id,
      type: UserType.ADMIN,
      username: adminLogin.username,
      passwordHash: await h(adminLogin.password),
      nickname: "Demo Admin",
    },
  });
  const agent = await prisma.user.create({
    data: {
      tenantId: tenant.id,
      type: UserType.AGENT,
      username: agentLogin.username,
      passwordHash: await h(agentLogin.password),
      nickname: "Demo Agent",
      createdById: admin.id,
    },
  });
  await prisma.user.create({
    data: {
      tenantId: tenant.id,
      type: UserType.USER,
      username: customerLogin.username,
      passwordHash: await h(customerLogin.password),
      nickname: "Demo Customer",
      company: "Demo Trading Co.",
      agentId: agent.id,
      createdById: agent.id,
      authStatus: AuthStatus.AUTHENTICATED,
      authRequirement: AuthRequirement.REQUIRED,
      balance: 1_000n * 10_000n,
      // The ledger replays to the balance: the opening balance is a recharge row.
      balanceLogs: {
        create: {
          tenantId: tenant.id,
          type: BalanceLogType.RECHARGE,
          amount: 1_000n * 10_000n,
          balanceAfter: 1_000n * 10_000n,
          operatorId: agent.id,
          remark: DEMO_OPENING_REMARK,
        },
      },
    },
  });
  await prisma.user.create({
    data: {
      tenantId: tenant.id,
      type: UserType.USER,
      username: newCustomerLogin.username,
      passwordHash: await h(newCustomerLogin.password),
      nickname: "New Customer",
      agentId: agent.id,
      createdById: agent.id,
      authStatus: AuthStatus.NOT_AUTHENTICATED,
      authRequirement: AuthRequirement.REQUIRED,
    },
  });

  // Approved: the seed plays the super admin who assigns hosts (a tenant's own claim waits for approval).
  const hostApprovedAt = new Date();
  await prisma.websiteConfig.createMany({
    data: [
      {
        host: "localhost",
        tenantId: tenant.id,
        title: "Switchboard",
        description: "Business messaging over RCS, WhatsApp and SMS",
        hostApprovedAt,
      },
      {
        host: "127.0.0.1",
        tenantId: tenant.id,
        title: "Switchboard",
        description: "Business messaging over RCS, WhatsApp and SMS",
        hostApprovedAt,
      },
      {
        host: "agent.localhost",
        tenantId: tenant.id,
        agentId: agent.id,
        title: "Demo Agent Messaging",
        hostApprovedAt,
      },
    ],
  });

  const products = [
    { code: ProductCode.RCS, name: "RCS Business Messaging", category: "RCS" },
    { code: ProductCode.WS, name: "WhatsApp Business", category: "WhatsApp" },
    { code: ProductCode.SMS, name: "International SMS", category: "SMS" },
  ];
  for (const p of products) {
    const product = await prisma.product.create({ data: { tenantId: tenant.id, ...p } });
    const plan = DEMO_PRICES[p.code]!;
    await prisma.price.createMany({
      data: countryCodes.map((countryCode) => ({
        productId: product.id,
        countryCode,
        unitPrice: plan.overrides[countryCode] ?? plan.default,
        screeningPrice: DEMO_SCREENING_PRICES[p.code] ?? null,
        ...(p.code === ProductCode.WS && DEMO_WS_CATEGORY_PRICES[countryCode]
          ? {
              marketingPrice: DEMO_WS_CATEGORY_PRICES[countryCode].marketing,
              utilityPrice: DEMO_WS_CATEGORY_PRICES[countryCode].utility,
              authenticationPrice: DEMO_WS_CATEGORY_PRICES[countryCode].authentication,
            }
          : {}),
        updatedById: admin.id,
      })),
    });
    if (p.code === ProductCode.SMS) await seedDemoSmsChannel(prisma, tenant.id, product.id, channelSecret, at);
  }
}

export async function seed(
  prisma: PrismaClient,
  opts:
    | {
        mode: "demo";
        /** CHANNEL_SECRET_KEY of the API and workers that will open the demo channels. */
        channelSecretKey: string;
        /** Where the demo channels' simulators listen (default: where `npm start` runs them). */
        simulators?: Partial<DemoSimulatorAddresses>;
      }
    | { mode: "production"; superAdmin?: { username: string; password: string } },
): Promise<SeedResult> {
  const countries = await seedCountries(prisma);
  if (opts.mode === "production") {
    if (opts.superAdmin) await ensureSuperAdmin(prisma, opts.superAdmin.username, opts.superAdmin.password);
    return { countries, logins: [], createdDemo: false };
  }
  const at: DemoSimulatorAddresses = { ...DEMO_SIMULATOR_ADDRESSES, ...opts.simulators };
  const exists = await prisma.tenant.findUnique({ where: { code: DEMO_TENANT_CODE } });
  if (!exists) {
    const codes = (await prisma.country.findMany({ select: { code: true } })).map((c) => c.code);
    await seedDemoTenant(prisma, codes, opts.channelSecretKey, at);
  }
  // Channels added to the demo since its tenant was first made (an existing demo database gets them too).
  const tenant = await prisma.tenant.findUniqueOrThrow({ where: { code: DEMO_TENANT_CODE }, select: { id: true } });
  await ensureDemoWhatsappChannel(prisma, tenant.id, opts.channelSecretKey, at);
  await ensureDemoRcsChannel(prisma, tenant.id, opts.channelSecretKey, at);
  await ensureDemoAgentFunded(prisma, tenant.id);
  await ensureDemoSenderId(prisma, tenant.id);
  return { countries, logins: DEMO_LOGINS, createdDemo: !exists };
}
