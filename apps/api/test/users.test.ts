// Account management: list, search, tenants, create, edit (freeze), delete, password reset, login log.
import { AccountStatus, BatchStatus, type UserRow, UserType } from "@switchboard/contracts";
import { verifyPassword } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Account,
  get,
  makeAccount,
  makeTenant,
  makeWorld,
  NEW_PASSWORD,
  OTHER_NEW_PASSWORD,
  PASSWORD,
  post,
  superAdminToken,
  type World,
} from "./accounts";
import { call, createTestApp, signIn, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let w: World;
let sa: { id: number; token: string };

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  sa = await superAdminToken(t);
});
afterAll(() => t.close());

type List<T> = { list: T[]; total: number };
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);
const live = async (token: string) => (await call(t.app, "GET", "/user/info", { token })).status;

describe("GET /user/list", () => {
  it("shows an admin every account of its tenant, newest first, with the row fields", async () => {
    const res = await get<List<UserRow>>(t, "/user/list", w.admin.token);
    expect(res.status).toBe(200);
    const all = [w.admin, w.agent1, w.agent2, w.customer1, w.customer2, w.direct];
    expect(res.body.data.total).toBe(all.length);
    expect(res.body.data.list.map((r) => r.id)).toEqual(all.map((a) => a.id).reverse());
    const row = res.body.data.list.find((r) => r.id === w.customer1.id)!;
    expect(row).toEqual({
      id: w.customer1.id,
      tenantId: w.tenantId,
      user: w.customer1.username,
      type: UserType.USER,
      status: 1,
      nickname: null,
      company: null,
      email: null,
      phone: null,
      remark: null,
      agentId: w.agent1.id,
      agentUser: w.agent1.username,
      balance: "0.0000",
      authStatus: 0,
      authRequirement: 0,
      authExemptUntil: null,
      apiEnabled: false,
      createdAt: expect.any(String),
      lastLoginAt: null,
    });
  });

  it("shows an agent only the customers it owns", async () => {
    const res = await get<List<UserRow>>(t, "/user/list", w.agent1.token);
    expect(ids(res.body.data.list)).toEqual([w.customer1.id]);
    expect(res.body.data.total).toBe(1);
  });

  it("shows a super admin every tenant, or the tenant-id header's, and never super admins", async () => {
    const all = await get<List<UserRow>>(t, "/user/list", sa.token, { query: { pageSize: "200" } });
    expect(all.body.data.total).toBeGreaterThan(6);
    expect(all.body.data.list.some((r) => r.type === UserType.SUPER_ADMIN)).toBe(false);
    const one = await get<List<UserRow>>(t, "/user/list", sa.token, { headers: { "tenant-id": String(w.tenantId) } });
    expect(one.body.data.total).toBe(6);
    expect(one.body.data.list.every((r) => r.tenantId === w.tenantId)).toBe(true);
  });

  it("filters by keyword (username, nickname, company, email, phone; any case), type, status, agent, auth status", async () => {
    const tag = uniqueName("kw").toLowerCase();
    const a = await makeAccount(t, UserType.USER, w.tenantId, { company: `ACME ${tag.toUpperCase()}` });
    const b = await makeAccount(t, UserType.USER, w.tenantId, { email: `${tag}@example.com`, authStatus: 2 });
    const c = await makeAccount(t, UserType.USER, w.tenantId, { phone: `+86${tag.length}99`, nickname: tag });
    const d = await makeAccount(t, UserType.USER, w.tenantId, {
      agentId: w.agent2.id,
      status: AccountStatus.FROZEN,
      nickname: tag,
    });
    const q = async (query: Record<string, string>) =>
      ids((await get<List<UserRow>>(t, "/user/list", w.admin.token, { query })).body.data.list);
    expect(await q({ keyword: tag })).toEqual(ids([a, b, c, d]));
    expect(await q({ keyword: tag, authStatus: "2" })).toEqual([b.id]);
    expect(await q({ keyword: tag, status: "2" })).toEqual([d.id]);
    expect(await q({ keyword: tag, agentId: String(w.agent2.id) })).toEqual([d.id]);
    expect(await q({ type: "2" })).toEqual(ids([w.agent1, w.agent2]));
    expect(await q({ keyword: a.username.toUpperCase() })).toEqual([a.id]);
  });

  it("filters by created range and pages", async () => {
    const tenant = await makeTenant(t);
    const admin = await makeAccount(t, UserType.ADMIN, tenant.id);
    const older = await makeAccount(t, UserType.USER, tenant.id);
    await t.prisma.user.update({ where: { id: older.id }, data: { createdAt: new Date("2020-01-01T00:00:00Z") } });
    const q = (query: Record<string, string>) => get<List<UserRow>>(t, "/user/list", admin.token, { query });
    expect(ids((await q({ to: "2020-06-01T00:00:00Z" })).body.data.list)).toEqual([older.id]);
    expect(ids((await q({ from: "2021-01-01T00:00:00+08:00" })).body.data.list)).toEqual([admin.id]);
    const p1 = await q({ page: "1", pageSize: "1" });
    const p2 = await q({ page: "2", pageSize: "1" });
    expect(p1.body.data).toMatchObject({ total: 2, list: [{ id: admin.id }] });
    expect(p2.body.data).toMatchObject({ total: 2, list: [{ id: older.id }] });
    expect((await q({ page: "3", pageSize: "1" })).body.data.list).toEqual([]);
  });

  it.each([
    [{ type: "9" }, "field type must be one of: 1, 2, 3"],
    [{ type: "x" }, "field type must be one of: 1, 2, 3"],
    [{ status: "3" }, "field status must be one of: 1, 2"],
    [{ authStatus: "7" }, "field authStatus must be one of: 0, 1, 2, 3"],
    [{ agentId: "abc" }, "field agentId must be a number"],
    [{ agentId: "-4" }, "field agentId must be greater than 0"],
    [{ pageSize: "201" }, "field pageSize must be at most 200"],
    [{ page: "0" }, "field page must be at least 1"],
    [{ from: "yesterday" }, "field from has an invalid format"],
    [{ keyword: "k".repeat(101) }, "field keyword must be at most 100 long"],
  ])("refuses the query %j with 400", async (query, message) => {
    const res = await get(t, "/user/list", w.admin.token, { query });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 1, message, data: null });
  });

  it("refuses customers (403) and callers without a session (401)", async () => {
    expect((await get(t, "/user/list", w.customer1.token)).status).toBe(403);
    expect((await get(t, "/user/list", undefined)).status).toBe(401);
  });
});

describe("GET /user/search", () => {
  it("returns at most 20 {id, user, nickname, type} of the caller's accounts, with the total", async () => {
    const tenant = await makeTenant(t);
    const admin = await makeAccount(t, UserType.ADMIN, tenant.id);
    for (let i = 0; i < 22; i++) await makeAccount(t, UserType.USER, tenant.id, { nickname: `shop ${i}` });
    const res = await get<List<Record<string, unknown>>>(t, "/user/search", admin.token, {
      query: { keyword: "SHOP" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(22);
    expect(res.body.data.list).toHaveLength(20);
    expect(Object.keys(res.body.data.list[0]!).sort()).toEqual(["id", "nickname", "type", "user"]);
    const agents = await get<List<{ type: number }>>(t, "/user/search", admin.token, { query: { type: "1" } });
    expect(agents.body.data.list).toEqual([{ id: admin.id, user: admin.username, nickname: null, type: 1 }]);
  });

  it("is scoped like the list: an agent finds only its customers", async () => {
    const own = await get<List<{ id: number }>>(t, "/user/search", w.agent2.token, {
      query: { keyword: w.customer2.username },
    });
    expect(ids(own.body.data.list)).toEqual([w.customer2.id]);
    const others = await get<List<{ id: number }>>(t, "/user/search", w.agent2.token, {
      query: { keyword: w.customer1.username },
    });
    expect(others.body.data).toEqual({ list: [], total: 0 });
  });

  it("refuses bad input and customers", async () => {
    expect((await get(t, "/user/search", w.admin.token, { query: { type: "4" } })).status).toBe(400);
    expect((await get(t, "/user/search", w.admin.token, { query: { keyword: "x".repeat(101) } })).status).toBe(400);
    expect((await get(t, "/user/search", w.customer1.token)).status).toBe(403);
  });
});

describe("GET /user/tenant", () => {
  type Tenants = List<{ id: number; code: string; userCounts: Record<string, number> | null }>;

  it("lists every tenant with user counts for a super admin (the tenant-id header does not narrow it)", async () => {
    const res = await get<Tenants>(t, "/user/tenant", sa.token, { headers: { "tenant-id": String(w.tenantId) } });
    expect(res.status).toBe(200);
    const mine = res.body.data.list.find((r) => r.id === w.tenantId);
    expect(mine?.userCounts).toEqual({ admins: 1, agents: 2, customers: expect.any(Number) });
    expect(res.body.data.list.some((r) => r.code === "demo")).toBe(true);
  });

  it("shows the others only their own tenant; counts for admins only", async () => {
    const admin = await get<Tenants>(t, "/user/tenant", w.admin.token);
    expect(admin.body.data.list.map((r) => r.id)).toEqual([w.tenantId]);
    expect(admin.body.data.list[0]!.userCounts).toMatchObject({ admins: 1, agents: 2 });
    for (const who of [w.agent1, w.customer1]) {
      const res = await get<Tenants>(t, "/user/tenant", who.token);
      expect(res.body.data).toMatchObject({ total: 1, list: [{ id: w.tenantId, userCounts: null }] });
    }
  });
});

describe("POST /user/tenant/create", () => {
  it("creates a tenant with its settings and its first admin, who can sign in", async () => {
    const code = uniqueName("t").toLowerCase().slice(0, 32);
    const adminName = uniqueName("first");
    const res = await post<{ tenant: { id: number }; admin: UserRow }>(t, "/user/tenant/create", sa.token, {
      code,
      name: "Acme Messaging",
      currency: "USD",
      admin: { username: adminName, password: NEW_PASSWORD, nickname: "Boss" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      tenant: { code, name: "Acme Messaging", currency: "USD", status: 1, userCounts: { admins: 1 } },
      admin: { user: adminName, type: UserType.ADMIN, nickname: "Boss" },
    });
    const tenantId = res.body.data.tenant.id;
    expect(await t.prisma.tenantSetting.findUnique({ where: { tenantId } })).not.toBeNull();
    await signIn(t.app, "staff", adminName, NEW_PASSWORD, { "tenant-id": String(tenantId) });
  });

  it("creates a tenant without an admin, and refuses a taken code with 409", async () => {
    const code = uniqueName("t").toLowerCase().slice(0, 32);
    const first = await post(t, "/user/tenant/create", sa.token, { code, name: "One" });
    expect(first.body).toMatchObject({ code: 0, data: { admin: null, tenant: { currency: "CNY" } } });
    const again = await post(t, "/user/tenant/create", sa.token, { code, name: "Two" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("this tenant code is already taken");
  });

  it.each([
    [{ name: "x" }, "field code is required"],
    [{ code: "Bad Code", name: "x" }, "field code has an invalid format"],
    [{ code: "ok-code", name: "" }, "field name is required"],
    [{ code: "ok-code", name: "x", currency: "usd" }, "field currency has an invalid format"],
    [
      { code: "ok-code", name: "x", admin: { username: "boss1", password: "lettersonly" } },
      "this password is too easy to guess; make it longer, for example a few unrelated words",
    ],
    [{ code: "c".repeat(33), name: "x" }, "field code must be at most 32 long"],
  ])("refuses %j with 400", async (body, message) => {
    const res = await post(t, "/user/tenant/create", sa.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("is for super admins only", async () => {
    for (const who of [w.admin, w.agent1, w.customer1]) {
      expect((await post(t, "/user/tenant/create", who.token, { code: "zz-top", name: "x" })).status).toBe(403);
    }
  });
});

describe("POST /user/create", () => {
  const body = (type: number, extra: Record<string, unknown> = {}) => ({
    username: uniqueName("n"),
    password: NEW_PASSWORD,
    type,
    ...extra,
  });

  it("lets an admin create admins, agents and customers (optionally under one of its agents)", async () => {
    for (const type of [UserType.ADMIN, UserType.AGENT, UserType.USER]) {
      const res = await post<UserRow>(t, "/user/create", w.admin.token, body(type, { nickname: "N", email: "a@b.co" }));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        type,
        tenantId: w.tenantId,
        agentId: null,
        nickname: "N",
        email: "a@b.co",
      });
    }
    const owned = await post<UserRow>(
      t,
      "/user/create",
      w.admin.token,
      body(UserType.USER, { agentId: w.agent2.id, authRequirement: 1, company: "Co" }),
    );
    expect(owned.body.data).toMatchObject({ agentId: w.agent2.id, agentUser: w.agent2.username, authRequirement: 1 });
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: owned.body.data.id } });
    expect(row.createdById).toBe(w.admin.id);
    expect(await verifyPassword(row.passwordHash, NEW_PASSWORD)).toBe(true);
  });

  it("makes an agent's customer its own, and the customer can sign in", async () => {
    const b = body(UserType.USER);
    const res = await post<UserRow>(t, "/user/create", w.agent1.token, b);
    expect(res.body.data).toMatchObject({ agentId: w.agent1.id, type: UserType.USER });
    await signIn(t.app, "customer", b.username, b.password, { "tenant-id": String(w.tenantId) });
    const explicit = await post<UserRow>(
      t,
      "/user/create",
      w.agent1.token,
      body(UserType.USER, { agentId: w.agent1.id }),
    );
    expect(explicit.body.data.agentId).toBe(w.agent1.id);
  });

  it("lets a super admin create a tenant's admin, naming the tenant in the body or the header", async () => {
    const tenant = await makeTenant(t);
    const viaBody = await post<UserRow>(t, "/user/create", sa.token, body(UserType.ADMIN, { tenantId: tenant.id }));
    expect(viaBody.body.data).toMatchObject({ tenantId: tenant.id, type: UserType.ADMIN });
    const viaHeader = await post<UserRow>(t, "/user/create", sa.token, body(UserType.ADMIN), {
      headers: { "tenant-id": String(tenant.id) },
    });
    expect(viaHeader.body.data.tenantId).toBe(tenant.id);
    const none = await post(t, "/user/create", sa.token, body(UserType.ADMIN));
    expect(none.status).toBe(400);
    expect(none.body.message).toBe("name the tenant with the tenant-id header");
    expect((await post(t, "/user/create", sa.token, body(UserType.ADMIN, { tenantId: 99_999_999 }))).status).toBe(404);
  });

  it("keeps usernames unique inside a tenant (409), not across tenants", async () => {
    const b = body(UserType.USER);
    expect((await post(t, "/user/create", w.admin.token, b)).status).toBe(200);
    const again = await post(t, "/user/create", w.admin.token, { ...b, type: UserType.AGENT });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("this username is already taken");
    const other = await makeTenant(t);
    expect((await post(t, "/user/create", sa.token, { ...b, tenantId: other.id })).status).toBe(200);
  });

  it("refuses what the caller's role may not create", async () => {
    const agentMakesAgent = await post(t, "/user/create", w.agent1.token, body(UserType.AGENT));
    expect(agentMakesAgent.status).toBe(403);
    expect(agentMakesAgent.body.message).toBe("you may not create accounts of this type");
    expect((await post(t, "/user/create", w.agent1.token, body(UserType.ADMIN))).status).toBe(403);
    expect((await post(t, "/user/create", w.customer1.token, body(UserType.USER))).status).toBe(403);
    // another agent, another tenant's agent, a customer's id as agent: all answer like a missing agent
    const other = await makeWorld(t);
    for (const [token, agentId] of [
      [w.agent1.token, w.agent2.id],
      [w.admin.token, other.agent1.id],
      [w.admin.token, w.customer1.id],
      [w.admin.token, 99_999_999],
    ] as const) {
      const res = await post(t, "/user/create", token, body(UserType.USER, { agentId }));
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("agent not found");
    }
    expect(
      (await post(t, "/user/create", w.admin.token, body(UserType.ADMIN, { tenantId: other.tenantId }))).status,
    ).toBe(404);
  });

  it.each([
    [{ password: NEW_PASSWORD, type: 3 }, "field username is required"],
    [{ username: "ab", password: NEW_PASSWORD, type: 3 }, "field username must be at least 3 long"],
    [{ username: "has space", password: NEW_PASSWORD, type: 3 }, "field username has an invalid format"],
    [{ username: "u".repeat(65), password: NEW_PASSWORD, type: 3 }, "field username must be at most 64 long"],
    [
      { username: "okname", password: "lettersonly", type: 3 },
      "this password is too easy to guess; make it longer, for example a few unrelated words",
    ],
    [{ username: "okname", password: "Sh0rt", type: 3 }, "field password must be at least 8 long"],
    [{ username: "okname", password: NEW_PASSWORD, type: 9 }, "field type must be one of: 1, 2, 3"],
    [{ username: "okname", password: NEW_PASSWORD, type: "3" }, "field type must be one of: 1, 2, 3"],
    [{ username: "okname", password: NEW_PASSWORD, type: 3, email: "not-mail" }, "field email has an invalid format"],
    [
      { username: "okname", password: NEW_PASSWORD, type: 3, remark: "r".repeat(501) },
      "field remark must be at most 500 long",
    ],
    [{ username: "okname", password: NEW_PASSWORD, type: 2, agentId: 1 }, "only customers belong to an agent"],
    [
      { username: "okname", password: NEW_PASSWORD, type: 1, authRequirement: 1 },
      "only customers have an authentication requirement",
    ],
    [
      { username: "okname", password: NEW_PASSWORD, type: 3, authRequirement: 2 },
      "field authRequirement must be one of: 0, 1",
    ],
  ])("refuses %j with 400 and creates nothing", async (b, message) => {
    const before = await t.prisma.user.count({ where: { tenantId: w.tenantId } });
    const res = await post(t, "/user/create", w.admin.token, b);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 1, message, data: null });
    expect(await t.prisma.user.count({ where: { tenantId: w.tenantId } })).toBe(before);
  });
});

describe("POST /user/edit", () => {
  it("edits contact fields and clears them with null or an empty string", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { email: "old@example.com", phone: "123456" });
    const res = await post<UserRow>(t, "/user/edit", w.admin.token, {
      id: c.id,
      nickname: "Neo",
      company: "Matrix Ltd",
      remark: "VIP",
      email: "",
      phone: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      nickname: "Neo",
      company: "Matrix Ltd",
      remark: "VIP",
      email: null,
      phone: null,
    });
    const untouched = await post<UserRow>(t, "/user/edit", w.admin.token, { id: c.id });
    expect(untouched.body.data).toMatchObject({ nickname: "Neo", company: "Matrix Ltd" });
  });

  it("freezes (sessions end at once, sign-in refused) and unfreezes", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const frozen = await post<UserRow>(t, "/user/edit", w.agent1.token, { id: c.id, status: 2 });
    expect(frozen.body.data.status).toBe(2);
    expect(await live(c.token)).toBe(401);
    const login = await call(t.app, "POST", "/auth/login", {
      body: { username: c.username, password: PASSWORD },
      headers: { "tenant-id": String(w.tenantId) },
    });
    expect(login.status).toBe(403);
    expect((await post(t, "/user/edit", w.agent1.token, { id: c.id, status: 1 })).body.code).toBe(0);
    await signIn(t.app, "customer", c.username, PASSWORD, { "tenant-id": String(w.tenantId) });
  });

  it("sets a customer's authentication requirement", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const res = await post<UserRow>(t, "/user/edit", w.agent1.token, { id: c.id, authRequirement: 1 });
    expect(res.body.data.authRequirement).toBe(1);
    const staff = await post(t, "/user/edit", w.admin.token, { id: w.agent1.id, authRequirement: 1 });
    expect(staff.status).toBe(400);
    expect(staff.body.message).toBe("only customers have an authentication requirement");
  });

  it("lets an admin move a customer to another agent of its tenant, or to none", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    const moved = await post<UserRow>(t, "/user/edit", w.admin.token, { id: c.id, agentId: w.agent2.id });
    expect(moved.body.data).toMatchObject({ agentId: w.agent2.id, agentUser: w.agent2.username });
    expect((await get<List<UserRow>>(t, "/user/list", w.agent2.token)).body.data.list.some((r) => r.id === c.id)).toBe(
      true,
    );
    const none = await post<UserRow>(t, "/user/edit", w.admin.token, { id: c.id, agentId: null });
    expect(none.body.data.agentId).toBeNull();
  });

  it("refuses agent changes by agents, to other tenants' agents, and for non-customers", async () => {
    const other = await makeWorld(t);
    const byAgent = await post(t, "/user/edit", w.agent1.token, { id: w.customer1.id, agentId: w.agent2.id });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.message).toBe("only admins may move a customer to another agent");
    const foreign = await post(t, "/user/edit", w.admin.token, { id: w.customer1.id, agentId: other.agent1.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("agent not found");
    const notCustomer = await post(t, "/user/edit", w.admin.token, { id: w.agent1.id, agentId: w.agent2.id });
    expect(notCustomer.status).toBe(400);
    expect((await get<List<UserRow>>(t, "/user/list", w.agent1.token)).body.data.list.map((r) => r.id)).toContain(
      w.customer1.id,
    );
  });

  it("refuses freezing oneself, and answers 404 for accounts out of reach", async () => {
    const self = await post(t, "/user/edit", w.admin.token, { id: w.admin.id, status: 2 });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe("you cannot freeze or unfreeze your own account");
    expect((await post(t, "/user/edit", w.admin.token, { id: w.admin.id, nickname: "Me" })).status).toBe(200);
    const other = await makeWorld(t);
    for (const [token, id] of [
      [w.admin.token, other.customer1.id],
      [w.agent1.token, w.customer2.id],
      [w.agent1.token, w.admin.id],
      [w.admin.token, sa.id],
      [w.admin.token, 99_999_999],
    ] as const) {
      const res = await post(t, "/user/edit", token, { id, nickname: "x" });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("user not found");
    }
  });

  it.each([
    [{}, "field id is required"],
    [{ id: "abc" }, "field id must be a number"],
    [{ id: 1, status: 3 }, "field status must be one of: 1, 2"],
    [{ id: 1, email: "nope" }, "field email has an invalid format"],
    [{ id: 1, nickname: "n".repeat(101) }, "field nickname must be at most 100 long"],
    [{ id: 1, authRequirement: "1" }, "field authRequirement must be one of: 0, 1"],
  ])("refuses %j with 400", async (b, message) => {
    const res = await post(t, "/user/edit", w.admin.token, b);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });
});

describe("POST /user/delete", () => {
  it("soft-deletes: sessions end, sign-in fails, the account leaves the lists, the row stays", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    await t.prisma.user.update({ where: { id: c.id }, data: { secretKeyHash: "a".repeat(64), apiEnabled: true } });
    const res = await post(t, "/user/delete", w.agent1.token, { id: c.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, message: "OK", data: null });
    expect(await live(c.token)).toBe(401);
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.deletedAt).not.toBeNull();
    expect(row).toMatchObject({ secretKeyHash: null, apiEnabled: false });
    expect((await get<List<UserRow>>(t, "/user/list", w.agent1.token)).body.data.list.some((r) => r.id === c.id)).toBe(
      false,
    );
    expect((await post(t, "/user/delete", w.agent1.token, { id: c.id })).status).toBe(404);
    const login = await call(t.app, "POST", "/auth/login", {
      body: { username: c.username, password: PASSWORD },
      headers: { "tenant-id": String(w.tenantId) },
    });
    expect(login.status).toBe(401);
  });

  it("refuses while the account has balance (409, with the amount)", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId, { balance: 12_3400n });
    const res = await post(t, "/user/delete", w.admin.token, { id: c.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("the account still has a balance of 12.34; deduct it before deleting");
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).deletedAt).toBeNull();
  });

  it("refuses while a batch is under review, passed, pending or sending; finished ones do not count", async () => {
    const product = await t.prisma.product.create({
      data: { tenantId: w.tenantId, code: 3000, name: "SMS", category: "sms" },
    });
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const batch = await t.prisma.messageBatch.create({
      data: {
        tenantId: w.tenantId,
        userId: c.id,
        productId: product.id,
        productCode: 3000,
        taskType: 2,
        submitMode: 1,
        status: BatchStatus.SENDING,
        content: {},
      },
    });
    const res = await post(t, "/user/delete", w.admin.token, { id: c.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain("1 batches in progress");
    await t.prisma.messageBatch.update({ where: { id: batch.id }, data: { status: BatchStatus.SEND_FINISHED } });
    expect((await post(t, "/user/delete", w.admin.token, { id: c.id })).status).toBe(200);
  });

  it("refuses an agent that still owns customers or brands a website", async () => {
    const agent = await makeAccount(t, UserType.AGENT, w.tenantId);
    const c = await makeAccount(t, UserType.USER, w.tenantId, { agentId: agent.id });
    const res = await post(t, "/user/delete", w.admin.token, { id: agent.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("the agent still owns 1 customers; move or delete them first");
    expect((await post(t, "/user/delete", w.admin.token, { id: c.id })).status).toBe(200);
    await t.prisma.websiteConfig.create({
      data: { host: `${uniqueName("h")}.example`, tenantId: w.tenantId, agentId: agent.id, title: "Agent site" },
    });
    expect((await post(t, "/user/delete", w.admin.token, { id: agent.id })).status).toBe(409);
    await t.prisma.websiteConfig.deleteMany({ where: { agentId: agent.id } });
    expect((await post(t, "/user/delete", w.admin.token, { id: agent.id })).status).toBe(200);
  });

  it("refuses deleting oneself and accounts out of reach", async () => {
    const self = await post(t, "/user/delete", w.admin.token, { id: w.admin.id });
    expect(self.status).toBe(400);
    expect(self.body.message).toBe("you cannot delete your own account");
    const other = await makeWorld(t);
    for (const [token, id] of [
      [w.admin.token, other.direct.id],
      [w.agent1.token, w.customer2.id],
      [w.agent1.token, w.agent2.id],
      [w.admin.token, sa.id],
    ] as const) {
      expect((await post(t, "/user/delete", token, { id })).status).toBe(404);
    }
    expect((await post(t, "/user/delete", w.customer1.token, { id: w.customer2.id })).status).toBe(403);
    expect((await post(t, "/user/delete", w.admin.token, {})).status).toBe(400);
    expect((await post(t, "/user/delete", w.admin.token, { id: 0 })).status).toBe(400);
  });
});

describe("POST /user/password/mod by an admin or agent (reset)", () => {
  async function resetAs(caller: Account, target: Account, newPassword = NEW_PASSWORD) {
    return post<{ userId: number }>(t, "/user/password/mod", caller.token, { userId: target.id, newPassword });
  }

  it("lets an admin reset any account of its tenant: the new password works, the target's sessions end", async () => {
    for (const type of [UserType.USER, UserType.AGENT, UserType.ADMIN]) {
      const target = await makeAccount(t, type, w.tenantId);
      const res = await resetAs(w.admin, target);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ userId: target.id });
      expect(await live(target.token)).toBe(401);
      await signIn(t.app, type === UserType.USER ? "customer" : "staff", target.username, NEW_PASSWORD, {
        "tenant-id": String(w.tenantId),
      });
    }
    expect(await live(w.admin.token)).toBe(200);
  });

  it("lets an agent reset its own customers only", async () => {
    const mine = await makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
    expect((await resetAs(w.agent1, mine)).status).toBe(200);
    expect((await resetAs(w.agent1, w.customer2)).status).toBe(404);
    expect((await resetAs(w.agent1, w.admin)).status).toBe(404);
    expect((await resetAs(w.agent1, w.agent2)).status).toBe(404);
  });

  it("lifts a sign-in lock left by earlier failures", async () => {
    const c = await makeAccount(t, UserType.USER, w.tenantId);
    const key = `${t.config.REDIS_PREFIX}login:fail:user:${c.id}`;
    await t.redis.set(key, "99", "EX", 600);
    expect((await resetAs(w.admin, c)).status).toBe(200);
    expect(await t.redis.exists(key)).toBe(0);
  });

  it("refuses customers, other tenants, super admins and weak passwords; changes nothing", async () => {
    const other = await makeWorld(t);
    const before = await t.prisma.user.findUniqueOrThrow({ where: { id: w.customer2.id } });
    const byCustomer = await resetAs(w.customer1, w.customer2);
    expect(byCustomer.status).toBe(403);
    expect((await resetAs(w.admin, other.customer1)).status).toBe(404);
    const saRes = await post(t, "/user/password/mod", w.admin.token, { userId: sa.id, newPassword: NEW_PASSWORD });
    expect(saRes.status).toBe(404);
    const weak = await resetAs(w.admin, w.customer2, "lettersonly");
    expect(weak.status).toBe(400);
    expect(
      (await post(t, "/user/password/mod", w.admin.token, { userId: "x", newPassword: NEW_PASSWORD })).status,
    ).toBe(400);
    const after = await t.prisma.user.findUniqueOrThrow({ where: { id: w.customer2.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.tokenVersion).toBe(before.tokenVersion);
  });

  it("treats the caller's own id as a self-change: the old password is required", async () => {
    const me = await makeAccount(t, UserType.ADMIN, w.tenantId);
    const missing = await post(t, "/user/password/mod", me.token, { userId: me.id, newPassword: OTHER_NEW_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("field oldPassword is required");
    const ok = await post<{ token: string }>(t, "/user/password/mod", me.token, {
      userId: me.id,
      oldPassword: PASSWORD,
      newPassword: OTHER_NEW_PASSWORD,
    });
    expect(ok.body.data.token).toMatch(/^ey/);
  });

  it("lets a super admin reset any tenant's account", async () => {
    const target = await makeAccount(t, UserType.ADMIN, w.tenantId);
    expect(
      (await post(t, "/user/password/mod", sa.token, { userId: target.id, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
  });
});

describe("GET /user/login/log", () => {
  type Logs = List<{
    id: string;
    username: string;
    success: boolean;
    ip: string;
    reason: string | null;
    userId: number | null;
  }>;

  it("shows an admin the sign-in attempts of its tenant, newest first, with filters", async () => {
    const tenant = await makeTenant(t);
    const admin = await makeAccount(t, UserType.ADMIN, tenant.id);
    const c = await makeAccount(t, UserType.USER, tenant.id);
    const h = { "tenant-id": String(tenant.id) };
    await call(t.app, "POST", "/auth/login", {
      body: { username: c.username, password: "Wrong0000" },
      headers: h,
      ip: "10.1.1.1",
    });
    await call(t.app, "POST", "/auth/login", {
      body: { username: c.username, password: PASSWORD },
      headers: h,
      ip: "10.2.2.2",
    });
    const all = await get<Logs>(t, "/user/login/log", admin.token);
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((r) => [r.success, r.ip, r.reason])).toEqual([
      [true, "10.2.2.2", null],
      [false, "10.1.1.1", "bad_credentials"],
    ]);
    const q = async (query: Record<string, string>) =>
      (await get<Logs>(t, "/user/login/log", admin.token, { query })).body.data;
    expect((await q({ success: "0" })).list.map((r) => r.ip)).toEqual(["10.1.1.1"]);
    expect((await q({ success: "true" })).list.map((r) => r.ip)).toEqual(["10.2.2.2"]);
    expect((await q({ ip: "10.2." })).total).toBe(1);
    expect((await q({ username: c.username.toUpperCase() })).total).toBe(2);
    expect((await q({ username: "nobody-like-this" })).total).toBe(0);
    expect((await q({ userId: String(c.id) })).total).toBe(2);
    expect((await q({ from: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await q({ to: new Date(Date.now() + 60_000).toISOString(), pageSize: "1" })).list).toHaveLength(1);
    // another tenant's admin sees none of it
    expect(
      (await get<Logs>(t, "/user/login/log", w.admin.token, { query: { userId: String(c.id) } })).body.data.total,
    ).toBe(0);
    // a super admin sees it across tenants or through the header
    expect((await get<Logs>(t, "/user/login/log", sa.token, { query: { userId: String(c.id) } })).body.data.total).toBe(
      2,
    );
    expect(
      (
        await get<Logs>(t, "/user/login/log", sa.token, {
          query: { userId: String(c.id) },
          headers: { "tenant-id": String(w.tenantId) },
        })
      ).body.data.total,
    ).toBe(0);
  });

  it("is for admins and super admins only", async () => {
    expect((await get(t, "/user/login/log", w.agent1.token)).status).toBe(403);
    expect((await get(t, "/user/login/log", w.customer1.token)).status).toBe(403);
    expect((await get(t, "/user/login/log", undefined)).status).toBe(401);
  });

  it.each([
    [{ success: "maybe" }, 400],
    [{ userId: "x" }, 400],
    [{ ip: "1".repeat(46) }, 400],
    [{ to: "2020-13-45" }, 400],
  ])("refuses the query %j", async (query, status) => {
    expect((await get(t, "/user/login/log", w.admin.token, { query })).status).toBe(status);
  });
});
