// A super admin who names no tenant reads every tenant's rows in one list: each row carries its tenant's name
// (customers, batches, recharge and consume records, remittances, authentications, login logs, channels). With
// the tenant-id header, and for everybody else, lists stay one tenant's and carry no name.
import { channelSecretKey, encryptSecrets } from "@switchboard/channels";
import { UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let fx: BatchFixtures;
let superToken: string;
// A tag no other test file uses: the channels of this file are found by it (other files' channels are not listed).
const TAG = `salists${Date.now().toString(36)}`;

interface Row {
  tenantName?: string;
}

interface Tenant {
  world: BatchWorld;
  customer: Account;
  name: string;
}
const tenants: Tenant[] = [];

async function seed(name: string): Promise<Tenant> {
  const w = await fx.world();
  await t.prisma.tenant.update({ where: { id: w.tenantId }, data: { name } });
  // The fixture's channel, with credentials sealed as the API seals them, under this file's tag.
  await t.prisma.channel.update({
    where: { id: w.channelId },
    data: {
      name: `${TAG} ${name}`,
      secrets: encryptSecrets(channelSecretKey(t.config.CHANNEL_SECRET_KEY), w.tenantId, {}),
    },
  });
  const c = await fx.customer(w, "10.00");
  // A recharge by the admin, a batch (its consume row), a remittance, an authentication and a sign-in.
  expect((await post(t, "/finance/recharge", w.admin.token, { userId: c.id, amount: "5" })).status).toBe(200);
  expect((await post(t, "/batch/submit", c.token, multiple(w, ["+12025550123"]))).status).toBe(200);
  await t.prisma.remittance.create({ data: { tenantId: w.tenantId, userId: c.id, amount: 10_000n, payer: "Payer" } });
  await t.prisma.authentication.create({
    data: { tenantId: w.tenantId, userId: c.id, subjectType: 1, name: "Someone", idNumber: "110101199003070011" },
  });
  await t.prisma.loginLog.create({
    data: {
      tenantId: w.tenantId,
      userId: c.id,
      username: c.username,
      area: "customer",
      ip: "127.0.0.1",
      success: true,
    },
  });
  return { world: w, customer: c, name };
}

beforeAll(async () => {
  t = await createTestApp();
  fx = new BatchFixtures(t);
  tenants.push(await seed("Alpha Telecom"), await seed("Beta Messaging"));
  const sa = await t.prisma.user.findFirstOrThrow({ where: { type: UserType.SUPER_ADMIN, deletedAt: null } });
  superToken = t.app.signToken(sa).token;
});

afterAll(async () => {
  await fx.close();
  await t.close();
});

/**
 * Every list of the back office a super admin may read across tenants, narrowed to one tenant's rows of this
 * file (other test files write to the same database meanwhile).
 */
const LISTS: Array<[string, (x: Tenant) => Record<string, string>]> = [
  ["/user/list", (x) => ({ keyword: x.customer.username })],
  ["/batch/list", (x) => ({ userId: String(x.customer.id) })],
  ["/finance/recharge/list", (x) => ({ type: "add", userId: String(x.customer.id) })],
  ["/finance/consume/list", (x) => ({ userId: String(x.customer.id) })],
  ["/finance/remit/list", (x) => ({ userId: String(x.customer.id) })],
  ["/user/authentication/list", (x) => ({ userId: String(x.customer.id) })],
  ["/user/login/log", (x) => ({ userId: String(x.customer.id) })],
  ["/channel/list", (x) => ({ keyword: `${TAG} ${x.name}` })],
];

async function rows(path: string, query: Record<string, string>, token: string, headers = {}) {
  const res = await get<{ list: Row[] }>(t, path, token, query, { headers });
  expect(res.status, `${path}: ${res.body.message}`).toBe(200);
  expect(res.body.data.list.length, path).toBeGreaterThan(0);
  return res.body.data.list;
}

describe("lists across every tenant name each row's tenant", () => {
  it.each(LISTS)("%s: a super admin without a tenant reads each row with its tenant's name", async (path, q) => {
    for (const x of tenants) {
      const list = await rows(path, q(x), superToken);
      expect(
        list.map((r) => r.tenantName),
        path,
      ).toEqual(list.map(() => x.name));
    }
  });

  it.each(LISTS)("%s: with the tenant-id header, and for the tenant's admin, rows carry no name", async (path, q) => {
    for (const x of tenants) {
      const one = await rows(path, q(x), superToken, { "tenant-id": String(x.world.tenantId) });
      expect(
        one.filter((r) => "tenantName" in r),
        path,
      ).toEqual([]);
      const own = await rows(path, q(x), x.world.admin.token);
      expect(
        own.filter((r) => "tenantName" in r),
        path,
      ).toEqual([]);
    }
  });
});
