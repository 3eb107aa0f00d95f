// docs/permissions.md, cell by cell: for every route built for accounts, authentication and developer
// settings, each role is allowed (200) or refused (403), and a row out of its reach (another tenant's,
// another agent's customer) answers 404 exactly like an id that does not exist.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { AuthStatus, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Account,
  get,
  makeAccount,
  makeWorld,
  multipart,
  NEW_PASSWORD,
  OTHER_NEW_PASSWORD,
  PASSWORD,
  post,
  SAMPLE,
  superAdminToken,
  type World,
} from "./accounts";
import { type CallOptions, createTestApp, type Envelope, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let uploadDir: string;
let sa: { id: number; token: string };
let a: World;
let b: World;

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(tmpdir(), "sb-perm-"));
  t = await createTestApp({ UPLOAD_DIR: uploadDir });
  sa = await superAdminToken(t);
  a = await makeWorld(t);
  b = await makeWorld(t);
});
afterAll(async () => {
  await t.close();
  await rm(uploadDir, { recursive: true, force: true });
});

type Role = "superAdmin" | "admin" | "agent" | "customer";
const ROLES: Role[] = ["superAdmin", "admin", "agent", "customer"];
/** Whose row a call acts on, seen from the caller. */
type Reach = "own" | "otherAgent" | "otherTenant" | "missing";
type Res = { status: number; body: Envelope };

const MISSING = 99_999_999;

/** The caller of each role, in tenant A (a fresh customer each time, so self-changes never collide). */
async function caller(role: Role): Promise<{ token: string; id: number; headers?: Record<string, string> }> {
  switch (role) {
    case "superAdmin":
      return sa;
    case "admin":
      return a.admin;
    case "agent":
      return a.agent1;
    case "customer":
      return makeAccount(t, UserType.USER, a.tenantId, { agentId: a.agent1.id });
  }
}

/**
 * A fresh customer at the given reach from the role: "own" is one the role manages (for a customer: itself is
 * not a target of these calls, so the customer's "own" customer does not exist and is never asked for).
 */
async function customerAt(role: Role, reach: Reach): Promise<Account | { id: number }> {
  switch (reach) {
    case "own":
      return makeAccount(t, UserType.USER, a.tenantId, { agentId: role === "agent" ? a.agent1.id : null });
    case "otherAgent":
      return makeAccount(t, UserType.USER, a.tenantId, { agentId: a.agent2.id });
    case "otherTenant":
      return makeAccount(t, UserType.USER, b.tenantId);
    case "missing":
      return { id: MISSING };
  }
}

/** A submission waiting for review, of a customer at that reach. */
async function submissionAt(role: Role, reach: Reach): Promise<{ id: number; customer: Account | null }> {
  if (reach === "missing") return { id: MISSING, customer: null };
  const customer = (await customerAt(role, reach)) as Account;
  const tenantId = reach === "otherTenant" ? b.tenantId : a.tenantId;
  await t.prisma.user.update({ where: { id: customer.id }, data: { authStatus: AuthStatus.AUTHENTICATING } });
  const row = await t.prisma.authentication.create({
    data: { tenantId, userId: customer.id, subjectType: 1, name: "Wang Wu", idNumber: "110101199001011234" },
  });
  return { id: row.id, customer };
}

/** A submission with a real stored document (made through the route by its customer). */
async function documentAt(role: Role, reach: Reach): Promise<number> {
  if (reach === "missing") return MISSING;
  const customer = (await customerAt(role, reach)) as Account;
  const { payload, contentType } = multipart(
    {
      subjectType: "1",
      name: "Wang Wu",
      idNumber: "110101199001011234",
      contactName: "Wang",
      contactPhone: "13800000000",
    },
    [{ name: "id.png", data: SAMPLE.png }],
  );
  const res = await t.app.inject({
    method: "POST",
    url: "/user/authentication/save",
    headers: { authorization: `Bearer ${customer.token}`, "content-type": contentType },
    payload,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.id;
}

async function send(
  method: "GET" | "POST",
  url: string,
  token: string,
  data: unknown,
  o: CallOptions = {},
): Promise<Res> {
  if (method === "POST") return post(t, url, token, data, o);
  // GETs may answer a file (documents): the envelope is read only from JSON answers.
  const res = await t.app.inject({
    method,
    url,
    query: data as Record<string, string>,
    headers: { authorization: `Bearer ${token}`, lang: "en", ...o.headers },
  });
  const json = String(res.headers["content-type"]).startsWith("application/json");
  return { status: res.statusCode, body: json ? res.json() : { code: 0, message: "file", data: null } };
}

/**
 * A call on a row: `make` prepares the target at a reach and returns the request; the table says the status
 * per role and reach. Every 404 must equal the answer for a missing id, byte for byte.
 */
interface RowRoute {
  method: "GET" | "POST";
  url: string;
  make: (role: Role, reach: Reach) => Promise<unknown>;
  cells: Record<Role, Partial<Record<Reach, number>>>;
}

const staffOnRows = (own = 200): RowRoute["cells"] => ({
  superAdmin: { own, otherTenant: 404, missing: 404 },
  admin: { own, otherAgent: own, otherTenant: 404, missing: 404 },
  agent: { own, otherAgent: 404, otherTenant: 404, missing: 404 },
  customer: { own: 403 },
});

const rowRoutes: RowRoute[] = [
  {
    method: "POST",
    url: "/user/edit",
    make: async (role, reach) => ({ id: (await customerAt(role, reach)).id, nickname: "x" }),
    cells: staffOnRows(),
  },
  {
    method: "POST",
    url: "/user/delete",
    make: async (role, reach) => ({ id: (await customerAt(role, reach)).id }),
    cells: staffOnRows(),
  },
  {
    method: "POST",
    url: "/user/password/mod",
    make: async (role, reach) => ({ userId: (await customerAt(role, reach)).id, newPassword: NEW_PASSWORD }),
    cells: staffOnRows(),
  },
  {
    method: "POST",
    url: "/user/seven/day/authenticate",
    make: async (role, reach) => ({ userId: (await customerAt(role, reach)).id }),
    cells: staffOnRows(),
  },
  {
    method: "POST",
    url: "/user/authentication/pass",
    make: async (role, reach) => ({ id: (await submissionAt(role, reach)).id }),
    cells: staffOnRows(),
  },
  {
    method: "POST",
    url: "/user/authentication/reject",
    make: async (role, reach) => ({ id: (await submissionAt(role, reach)).id, reason: "blurred" }),
    cells: staffOnRows(),
  },
  {
    method: "GET",
    url: "/user/authentication/document",
    make: async (role, reach) => ({ id: String(await documentAt(role, reach)), index: "0" }),
    cells: {
      ...staffOnRows(),
      // a customer's "own" document is its own submission; another agent's customer's is out of reach
      customer: { own: 200, otherAgent: 404, otherTenant: 404, missing: 404 },
    },
  },
];

/** For the customer row of the document route, "own" means a submission of the caller itself. */
async function customerDocument(reach: Reach, me: Account): Promise<unknown> {
  if (reach !== "own") return { id: String(await documentAt("customer", reach)), index: "0" };
  const { payload, contentType } = multipart(
    { subjectType: "1", name: "Me", idNumber: "110101199001011234", contactName: "Me", contactPhone: "13800000000" },
    [{ name: "id.pdf", data: SAMPLE.pdf }],
  );
  const res = await t.app.inject({
    method: "POST",
    url: "/user/authentication/save",
    headers: { authorization: `Bearer ${me.token}`, "content-type": contentType },
    payload,
  });
  return { id: String(res.json().data.id), index: "0" };
}

describe.each(rowRoutes)("$method $url", (route) => {
  const cases = ROLES.flatMap((role) =>
    Object.entries(route.cells[role]).map(([reach, status]) => ({ role, reach: reach as Reach, status: status! })),
  );

  it.each(cases)("$role on a row at reach $reach: $status", async ({ role, reach, status }) => {
    const who = await caller(role);
    const data =
      route.url === "/user/authentication/document" && role === "customer"
        ? await customerDocument(reach, who as Account)
        : await route.make(role, reach);
    // A super admin reaches another tenant's row only when acting in that tenant: acting in A, B's rows are out.
    const o: CallOptions =
      role === "superAdmin" && reach === "otherTenant" ? { headers: { "tenant-id": String(a.tenantId) } } : {};
    const res = await send(route.method, route.url, who.token, data, o);
    expect(res.status).toBe(status);
    if (status === 404) {
      const missingData = { ...(data as Record<string, unknown>) };
      for (const key of ["id", "userId"])
        if (key in missingData) missingData[key] = route.method === "GET" ? String(MISSING) : MISSING;
      const missing = await send(route.method, route.url, who.token, missingData, o);
      expect(missing.status).toBe(404);
      expect(res.body).toEqual(missing.body);
    }
  });
});

/** Routes without a row: the role alone decides (and, for lists, what the role sees is checked below). */
const roleRoutes: Array<{
  method: "GET" | "POST";
  url: string;
  data: (role: Role) => unknown;
  allowed: Role[];
  /** Status of an allowed role when it is not 200 (the call gets past the role check and fails on its input). */
  allowedStatus?: Partial<Record<Role, number>>;
}> = [
  { method: "GET", url: "/user/list", data: () => ({}), allowed: ["superAdmin", "admin", "agent"] },
  { method: "GET", url: "/user/search", data: () => ({ keyword: "c" }), allowed: ["superAdmin", "admin", "agent"] },
  { method: "GET", url: "/user/tenant", data: () => ({}), allowed: ROLES },
  {
    method: "POST",
    url: "/user/tenant/create",
    data: () => ({ code: uniqueName("p").toLowerCase().slice(0, 32), name: "Perm tenant" }),
    allowed: ["superAdmin"],
  },
  {
    method: "POST",
    url: "/user/create",
    data: (role) => ({
      username: uniqueName("pc"),
      password: NEW_PASSWORD,
      type: role === "agent" ? UserType.USER : UserType.AGENT,
      tenantId: a.tenantId,
    }),
    allowed: ["superAdmin", "admin", "agent"],
  },
  {
    method: "POST",
    url: "/user/password/mod",
    data: (role) => ({ oldPassword: role === "superAdmin" ? "Wrong0000" : PASSWORD, newPassword: OTHER_NEW_PASSWORD }),
    allowed: ROLES,
    // The seeded super admin is shared by every test file: its own password is not changed here. Being
    // allowed, it gets as far as the old-password check.
    allowedStatus: { superAdmin: 400 },
  },
  { method: "GET", url: "/user/login/log", data: () => ({}), allowed: ["superAdmin", "admin"] },
  { method: "GET", url: "/user/authentication/list", data: () => ({}), allowed: ROLES },
  {
    method: "POST",
    url: "/user/authentication/save",
    data: () => undefined,
    allowed: ["customer"],
  },
  { method: "GET", url: "/user/developer/info", data: () => ({}), allowed: ["customer"] },
  { method: "POST", url: "/user/sk/refresh", data: () => undefined, allowed: ["customer"] },
  { method: "POST", url: "/user/ip/mod", data: () => ({ ips: ["192.0.2.0/24"] }), allowed: ["customer"] },
  {
    method: "POST",
    url: "/user/notify/mod",
    data: () => ({ notifyUrl: "https://hooks.example.com/" }),
    allowed: ["customer"],
  },
  { method: "POST", url: "/user/api/toggle", data: () => ({ enabled: true }), allowed: ["customer"] },
];

async function saveAs(token: string) {
  const { payload, contentType } = multipart(
    {
      subjectType: "2",
      name: "Perm Co",
      idNumber: "91310000MA1FL8XX3K",
      contactName: "P",
      contactPhone: "13800000000",
    },
    [{ name: "l.png", data: SAMPLE.png }],
  );
  const res = await t.app.inject({
    method: "POST",
    url: "/user/authentication/save",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() as Envelope };
}

describe.each(roleRoutes)("$method $url", (route) => {
  it.each(
    ROLES.map((role) => ({
      role,
      status: route.allowed.includes(role) ? (route.allowedStatus?.[role] ?? 200) : 403,
    })),
  )("$role: $status", async ({ role, status }) => {
    // self-changes (password) use a fresh account of the role, so the shared callers keep their sessions
    const fresh = route.url === "/user/password/mod";
    const who =
      fresh && role !== "superAdmin"
        ? await makeAccount(
            t,
            { admin: UserType.ADMIN, agent: UserType.AGENT, customer: UserType.USER }[role],
            a.tenantId,
          )
        : await caller(role);
    const res =
      route.url === "/user/authentication/save"
        ? await saveAs(who.token)
        : await send(route.method, route.url, who.token, route.data(role));
    expect(res.status).toBe(status);
  });

  it("answers 401 without a session", async () => {
    const res = await (route.method === "GET"
      ? get(t, route.url, undefined, { query: route.data("customer") as Record<string, string> })
      : post(t, route.url, undefined, route.data("customer")));
    expect(res.status).toBe(401);
  });
});

describe("what each role sees in lists", () => {
  type List = { list: Array<{ id: number; userId?: number | null; tenantId?: number | null }>; total: number };
  const seen = async (
    url: string,
    token: string,
    query: Record<string, string> = {},
    headers?: Record<string, string>,
  ) =>
    (await get<List>(t, url, token, { query: { pageSize: "200", ...query }, ...(headers ? { headers } : {}) })).body
      .data;

  it("/user/list and /user/search: another tenant's and another agent's accounts never appear", async () => {
    for (const url of ["/user/list", "/user/search"]) {
      const admin = await seen(url, a.admin.token, { keyword: b.customer1.username });
      expect(admin.total).toBe(0);
      const agent = await seen(url, a.agent1.token, { keyword: a.customer2.username });
      expect(agent.total).toBe(0);
      const own = await seen(url, a.agent1.token, { keyword: a.customer1.username });
      expect(own.list.map((r) => r.id)).toEqual([a.customer1.id]);
      const superInA = await seen(
        url,
        sa.token,
        { keyword: b.customer1.username },
        { "tenant-id": String(a.tenantId) },
      );
      expect(superInA.total).toBe(0);
      const superAll = await seen(url, sa.token, { keyword: b.customer1.username });
      expect(superAll.list.map((r) => r.id)).toEqual([b.customer1.id]);
    }
  });

  it("/user/tenant: only the caller's own tenant, all of them for a super admin", async () => {
    for (const who of [a.admin, a.agent1, a.customer1]) {
      expect((await seen("/user/tenant", who.token)).list.map((r) => r.id)).toEqual([a.tenantId]);
    }
    const all = (await seen("/user/tenant", sa.token)).list.map((r) => r.id);
    expect(all).toEqual(expect.arrayContaining([a.tenantId, b.tenantId]));
  });

  it("/user/authentication/list: admin its tenant's, agent its customers', customer its own", async () => {
    const world = await makeWorld(t);
    const other = await makeWorld(t);
    const mine = await saveAs(world.customer1.token);
    const agent2s = await saveAs(world.customer2.token);
    const foreign = await saveAs(other.customer1.token);
    const ids = async (token: string, headers?: Record<string, string>) =>
      (await seen("/user/authentication/list", token, {}, headers)).list.map((r) => r.id);
    const all = [mine, agent2s, foreign].map((r) => (r.body.data as { id: number }).id);
    expect(await ids(world.admin.token)).toEqual([all[1], all[0]]);
    expect(await ids(world.agent1.token)).toEqual([all[0]]);
    expect(await ids(world.customer1.token)).toEqual([all[0]]);
    expect(await ids(world.customer2.token)).toEqual([all[1]]);
    expect(await ids(sa.token, { "tenant-id": String(other.tenantId) })).toEqual([all[2]]);
  });

  it("/user/login/log: an admin sees its tenant's attempts only", async () => {
    const world = await makeWorld(t);
    await post(
      t,
      "/auth/login",
      undefined,
      { username: world.customer1.username, password: "Wrong0000" },
      {
        headers: { "tenant-id": String(world.tenantId) },
      },
    );
    const mine = await seen("/user/login/log", world.admin.token);
    expect(mine.total).toBe(1);
    expect(mine.list.every((r) => r.tenantId === world.tenantId)).toBe(true);
    expect((await seen("/user/login/log", a.admin.token, { userId: String(world.customer1.id) })).total).toBe(0);
  });
});

describe("role rules inside allowed routes", () => {
  it("/user/create: an agent creates only customers, only its own; admins only in their tenant", async () => {
    const mk = (type: number, extra: Record<string, unknown> = {}) => ({
      username: uniqueName("r"),
      password: NEW_PASSWORD,
      type,
      ...extra,
    });
    expect((await post(t, "/user/create", a.agent1.token, mk(UserType.AGENT))).status).toBe(403);
    expect((await post(t, "/user/create", a.agent1.token, mk(UserType.ADMIN))).status).toBe(403);
    const stolen = await post(t, "/user/create", a.agent1.token, mk(UserType.USER, { agentId: a.agent2.id }));
    const missingAgent = await post(t, "/user/create", a.agent1.token, mk(UserType.USER, { agentId: MISSING }));
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual(missingAgent.body);
    const foreign = await post(t, "/user/create", a.admin.token, mk(UserType.USER, { tenantId: b.tenantId }));
    const missingTenant = await post(t, "/user/create", sa.token, mk(UserType.USER, { tenantId: MISSING }));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missingTenant.body);
    const foreignAgent = await post(t, "/user/create", a.admin.token, mk(UserType.USER, { agentId: b.agent1.id }));
    expect(foreignAgent.status).toBe(404);
    expect(foreignAgent.body).toEqual(missingAgent.body);
  });

  it("/user/edit: only admins move customers between agents; nobody freezes itself", async () => {
    expect((await post(t, "/user/edit", a.agent1.token, { id: a.customer1.id, agentId: a.agent2.id })).status).toBe(
      403,
    );
    expect((await post(t, "/user/edit", a.admin.token, { id: a.admin.id, status: 2 })).status).toBe(400);
  });

  it("/user/delete: nobody deletes itself", async () => {
    expect((await post(t, "/user/delete", a.admin.token, { id: a.admin.id })).status).toBe(400);
  });

  it("/user/password/mod: admins reset admins and agents of their tenant; agents none of them; super admins are out of reach", async () => {
    const admin2 = await makeAccount(t, UserType.ADMIN, a.tenantId);
    expect(
      (await post(t, "/user/password/mod", a.admin.token, { userId: admin2.id, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
    expect(
      (await post(t, "/user/password/mod", a.admin.token, { userId: a.agent2.id, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
    const onAdmin = await post(t, "/user/password/mod", a.agent1.token, {
      userId: admin2.id,
      newPassword: NEW_PASSWORD,
    });
    const onMissing = await post(t, "/user/password/mod", a.agent1.token, {
      userId: MISSING,
      newPassword: NEW_PASSWORD,
    });
    expect(onAdmin.status).toBe(404);
    expect(onAdmin.body).toEqual(onMissing.body);
    expect(
      (await post(t, "/user/password/mod", a.admin.token, { userId: sa.id, newPassword: NEW_PASSWORD })).status,
    ).toBe(404);
  });

  it("staff on row routes never reach a non-customer where only customers are meant (seven-day grant)", async () => {
    const res = await post(t, "/user/seven/day/authenticate", a.admin.token, { userId: a.agent1.id });
    expect(res.status).toBe(404);
  });
});
