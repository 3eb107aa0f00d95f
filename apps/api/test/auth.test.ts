import { AccountStatus, UserType } from "@switchboard/contracts";
import { hashPassword, verifyPassword } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { VerifiedTokens } from "../src/plugins/auth";
import { NEW_PASSWORD } from "./accounts";
import { call, createTestApp, demoTenantId, handMadeToken, signIn, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
let tenantId: number;
beforeAll(async () => {
  t = await createTestApp();
  tenantId = await demoTenantId(t.prisma);
});
afterAll(() => t.close());

async function makeUser(data: {
  type: number;
  tenantId: number | null;
  password?: string;
  status?: number;
  agentId?: number;
}) {
  const username = uniqueName("t");
  const user = await t.prisma.user.create({
    data: {
      username,
      type: data.type,
      tenantId: data.tenantId,
      status: data.status ?? AccountStatus.NORMAL,
      agentId: data.agentId ?? null,
      passwordHash: await hashPassword(data.password ?? "Passw0rd!"),
    },
  });
  return { ...user, password: data.password ?? "Passw0rd!" };
}

describe("customer sign-in", () => {
  it("signs in a seeded customer and returns the spec's user info", async () => {
    const res = await call<{ token: string; expiresAt: string; user: Record<string, unknown> }>(
      t.app,
      "POST",
      "/auth/login",
      {
        body: { username: "customer", password: "Customer123" },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.token).toMatch(/^ey/);
    expect(res.body.data.user).toMatchObject({
      user: "customer",
      type: UserType.USER,
      tenantId,
      // other test files send as the seeded customer at the same time: its balance is whatever they left
      balance: expect.stringMatching(/^\d+\.\d{4}$/),
      authStatus: 2,
    });
    expect(new Date(res.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now());
  });

  it("refuses a wrong password with code 1, HTTP 401 and a translated message, and logs the attempt", async () => {
    const zh = await call(t.app, "POST", "/auth/login", { body: { username: "customer", password: "nope-wrong1" } });
    expect(zh.status).toBe(401);
    expect(zh.body).toEqual({ code: 1, message: "用户名或密码错误", data: null });
    const en = await call(t.app, "POST", "/auth/login", {
      body: { username: "customer", password: "nope-wrong1" },
      lang: "en",
    });
    expect(en.body.message).toBe("wrong username or password");
    const log = await t.prisma.loginLog.findFirst({
      where: { username: "customer", success: false },
      orderBy: { id: "desc" },
    });
    expect(log).toMatchObject({ reason: "bad_credentials", area: "customer", tenantId });
    // the wrong-password tests above must not lock the demo customer for other tests
    const customer = await t.prisma.user.findFirstOrThrow({ where: { tenantId, username: "customer" } });
    await t.redis.del(`${t.config.REDIS_PREFIX}login:fail:user:${customer.id}`);
  });

  it("answers an unknown username exactly like a wrong password", async () => {
    const res = await call(t.app, "POST", "/auth/login", { body: { username: "nobody-here", password: "Whatever1" } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("用户名或密码错误");
  });

  it("does not let staff sign in through the customer route, nor customers through the staff route", async () => {
    expect(
      (await call(t.app, "POST", "/auth/login", { body: { username: "admin", password: "Admin12345" } })).status,
    ).toBe(401);
    expect(
      (await call(t.app, "POST", "/auth/staff/login", { body: { username: "customer", password: "Customer123" } }))
        .status,
    ).toBe(401);
  });

  it("refuses a frozen account after checking the password, and logs why", async () => {
    const u = await makeUser({ type: UserType.USER, tenantId, status: AccountStatus.FROZEN });
    const res = await call(t.app, "POST", "/auth/login", {
      body: { username: u.username, password: u.password },
      lang: "en",
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain("frozen");
    expect(await t.prisma.loginLog.findFirst({ where: { userId: u.id }, orderBy: { id: "desc" } })).toMatchObject({
      success: false,
      reason: "frozen",
    });
  });

  it("needs a tenant: an unknown host and no tenant-id header is a clear error", async () => {
    const res = await call(t.app, "POST", "/auth/login", {
      body: { username: "customer", password: "Customer123" },
      headers: { host: "unknown.example" },
      lang: "en",
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("unknown platform (tenant)");
  });

  it("takes the tenant from the tenant-id header, and another tenant's customer answers like a missing one", async () => {
    const other = await t.prisma.tenant.create({ data: { code: uniqueName("tn").slice(0, 32), name: "Other" } });
    const u = await makeUser({ type: UserType.USER, tenantId: other.id });
    const ok = await call(t.app, "POST", "/auth/login", {
      body: { username: u.username, password: u.password },
      headers: { "tenant-id": String(other.id) },
    });
    expect(ok.body.code).toBe(0);
    // same user through the demo tenant's host: not found, same answer as a wrong password
    const cross = await call(t.app, "POST", "/auth/login", { body: { username: u.username, password: u.password } });
    expect(cross.status).toBe(401);
    expect(cross.body.message).toBe("用户名或密码错误");
    // a malformed or unknown tenant-id is refused
    expect(
      (
        await call(t.app, "POST", "/auth/login", {
          body: { username: "customer", password: "x1234567" },
          headers: { "tenant-id": "abc" },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(t.app, "POST", "/auth/login", {
          body: { username: "customer", password: "x1234567" },
          headers: { "tenant-id": "99999999" },
        })
      ).status,
    ).toBe(400);
  });
});

describe("staff sign-in", () => {
  it.each([
    ["superadmin", "Super12345", UserType.SUPER_ADMIN],
    ["admin", "Admin12345", UserType.ADMIN],
    ["agent", "Agent12345", UserType.AGENT],
  ])("signs in %s", async (username, password, type) => {
    const res = await call<{ user: { type: number } }>(t.app, "POST", "/auth/staff/login", {
      body: { username, password },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data.user.type).toBe(type);
  });

  it("lets a super admin sign in from any host, without a tenant", async () => {
    const token = await signIn(t.app, "staff", "superadmin", "Super12345", { host: "ops.internal" });
    const info = await call<{ tenantId: number | null }>(t.app, "GET", "/user/info", { token });
    expect(info.body.data.tenantId).toBeNull();
  });
});

describe("sign-in limits", () => {
  it("locks an account after repeated failures, even for the right password, then logs 'locked'", async () => {
    const ctx = await createTestApp({ LOGIN_ACCOUNT_MAX_FAILURES: "3" });
    try {
      const u = await makeUser({ type: UserType.USER, tenantId });
      for (let i = 0; i < 3; i++) {
        expect(
          (await call(ctx.app, "POST", "/auth/login", { body: { username: u.username, password: "Wrong1234" } }))
            .status,
        ).toBe(401);
      }
      const locked = await call(ctx.app, "POST", "/auth/login", {
        body: { username: u.username, password: u.password },
        lang: "en",
      });
      expect(locked.status).toBe(429);
      expect(locked.body.message).toMatch(/too many failed sign-ins/);
      expect(locked.headers["retry-after"]).toBeDefined();
      expect(
        await t.prisma.loginLog.findFirst({ where: { username: u.username }, orderBy: { id: "desc" } }),
      ).toMatchObject({ reason: "locked" });
    } finally {
      await ctx.close();
    }
  });

  it("limits sign-in attempts per IP address", async () => {
    const ctx = await createTestApp({ LOGIN_IP_PER_MINUTE: "3" });
    try {
      const ip = "203.0.113.77";
      for (let i = 0; i < 3; i++) {
        await call(ctx.app, "POST", "/auth/login", { body: { username: "nobody", password: "Wrong1234" }, ip });
      }
      const limited = await call(ctx.app, "POST", "/auth/login", {
        body: { username: "customer", password: "Customer123" },
        ip,
        lang: "en",
      });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe(1);
      expect(limited.body.message).toMatch(/too many requests/);
      // another address is not affected
      const other = await call(ctx.app, "POST", "/auth/login", {
        body: { username: "customer", password: "Customer123" },
        ip: "203.0.113.78",
      });
      expect(other.body.code).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});

describe("sign-in limits across routes, tenants and logs", () => {
  it("counts one per-IP budget over every sign-in route, registration and password change", async () => {
    const ctx = await createTestApp({ LOGIN_IP_PER_MINUTE: "4" });
    try {
      const ip = "203.0.113.90";
      const u = await makeUser({ type: UserType.USER, tenantId });
      const { token } = ctx.app.signToken(u);
      const tries = [
        ["/auth/login", { username: "nobody", password: "Wrong1234" }, undefined],
        ["/auth/staff/login", { username: "nobody", password: "Wrong1234" }, undefined],
        ["/auth/register", { username: uniqueName("r"), password: "x" }, undefined],
        ["/user/password/mod", { oldPassword: "Wrong1234", newPassword: NEW_PASSWORD }, token],
      ] as const;
      for (const [url, body, tok] of tries) {
        expect((await call(ctx.app, "POST", url, { body, ip, token: tok })).status, url).not.toBe(429);
      }
      // the fifth attempt from the address is refused on any of the routes, even with the right password
      for (const url of ["/auth/login", "/auth/staff/login"]) {
        const res = await call(ctx.app, "POST", url, {
          body: { username: u.username, password: u.password },
          ip,
          lang: "en",
        });
        expect(res.status, url).toBe(429);
        expect(res.body.message).toMatch(/too many requests/);
        expect(res.headers["retry-after"]).toBeDefined();
      }
    } finally {
      await ctx.close();
    }
  });

  it("locks a super admin once, whatever tenant-id header the guesses came with", async () => {
    const ctx = await createTestApp({ LOGIN_ACCOUNT_MAX_FAILURES: "3" });
    try {
      const sa = await makeUser({ type: UserType.SUPER_ADMIN, tenantId: null });
      const tenants = await Promise.all(
        [1, 2, 3, 4].map((i) =>
          t.prisma.tenant.create({ data: { code: uniqueName(`lk${i}`).slice(0, 32), name: `Lock ${i}` } }),
        ),
      );
      for (const tenant of tenants.slice(0, 3)) {
        const res = await call(ctx.app, "POST", "/auth/staff/login", {
          body: { username: sa.username, password: "Wrong1234" },
          headers: { "tenant-id": String(tenant.id) },
        });
        expect(res.status).toBe(401);
      }
      const headerSets: Array<Record<string, string>> = [{ "tenant-id": String(tenants[3]!.id) }, {}];
      for (const headers of headerSets) {
        const res = await call(ctx.app, "POST", "/auth/staff/login", {
          body: { username: sa.username, password: sa.password },
          headers,
        });
        expect(res.status).toBe(429);
      }
    } finally {
      await ctx.close();
    }
  });

  it("never writes a super admin's attempts into the log of the tenant named by the header", async () => {
    const sa = await makeUser({ type: UserType.SUPER_ADMIN, tenantId: null });
    const headers = { "tenant-id": String(tenantId) };
    const wrong = await call(t.app, "POST", "/auth/staff/login", {
      body: { username: sa.username, password: "Wrong1234" },
      headers,
    });
    expect(wrong.status).toBe(401);
    await signIn(t.app, "staff", sa.username, sa.password, headers);
    const rows = await t.prisma.loginLog.findMany({ where: { username: sa.username }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.success, r.tenantId, r.userId])).toEqual([
      [false, null, sa.id],
      [true, null, sa.id],
    ]);
    // and the tenant's admin does not see them in the tenant's login log
    const admin = await signIn(t.app, "staff", "admin", "Admin12345");
    const log = await call<{ list: Array<{ username: string }> }>(t.app, "GET", "/user/login/log", {
      token: admin,
      query: { username: sa.username },
    });
    expect(log.body.data.list).toEqual([]);
  });

  it("logs a staff guess at a name both a super admin and a tenant admin have once per account, each in its own log", async () => {
    const name = uniqueName("twin");
    const sa = await makeUser({ type: UserType.SUPER_ADMIN, tenantId: null });
    await t.prisma.user.update({ where: { id: sa.id }, data: { username: name } });
    const admin = await makeUser({ type: UserType.ADMIN, tenantId });
    await t.prisma.user.update({ where: { id: admin.id }, data: { username: name } });
    await call(t.app, "POST", "/auth/staff/login", {
      body: { username: name, password: "Wrong1234" },
      headers: { "tenant-id": String(tenantId) },
    });
    const rows = await t.prisma.loginLog.findMany({ where: { username: name }, orderBy: { userId: "asc" } });
    // the super admin was made first: its row comes first
    expect(rows.map((r) => [r.tenantId, r.userId, r.reason])).toEqual([
      [null, sa.id, "bad_credentials"],
      [tenantId, admin.id, "bad_credentials"],
    ]);
  });

  it("counts wrong old passwords of a password change against the account's sign-in lock", async () => {
    const ctx = await createTestApp({ LOGIN_ACCOUNT_MAX_FAILURES: "3" });
    try {
      const u = await makeUser({ type: UserType.USER, tenantId });
      const token = await signIn(ctx.app, "customer", u.username, u.password);
      for (let i = 0; i < 3; i++) {
        const res = await call(ctx.app, "POST", "/user/password/mod", {
          token,
          body: { oldPassword: `Wrong${i}guess`, newPassword: NEW_PASSWORD },
        });
        expect(res.status).toBe(400);
      }
      // locked now: the right old password waits, and so does a sign-in with the right password
      const change = await call(ctx.app, "POST", "/user/password/mod", {
        token,
        body: { oldPassword: u.password, newPassword: NEW_PASSWORD },
        lang: "en",
      });
      expect(change.status).toBe(429);
      expect(change.body.message).toMatch(/too many failed sign-ins/);
      const login = await call(ctx.app, "POST", "/auth/login", {
        body: { username: u.username, password: u.password },
      });
      expect(login.status).toBe(429);
      const row = await t.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
      expect(await verifyPassword(row.passwordHash, u.password)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});

describe("sessions", () => {
  it("answers /user/info with id, user, type, tenantId for a valid token", async () => {
    const token = await signIn(t.app, "staff", "agent", "Agent12345");
    const res = await call<Record<string, unknown>>(t.app, "GET", "/user/info", { token });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ user: "agent", type: UserType.AGENT, tenantId });
    expect(typeof res.body.data.id).toBe("number");
  });

  it.each([
    ["missing", undefined],
    ["malformed", "not-a-jwt"],
  ])("answers 401 with code 401 for a %s token", async (_name, token) => {
    const res = await call(t.app, "GET", "/user/info", { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
    expect(res.body.data).toBeNull();
  });

  it("answers 401 for a tampered, a foreign-secret and an expired token", async () => {
    const good = await signIn(t.app, "customer", "customer", "Customer123");
    const [h, p, s] = good.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, typ: 1 })).toString("base64url")}.${s}`;
    const foreign = handMadeToken("someone-elses-secret-0123456789abcdef", claims);
    const expired = handMadeToken(t.config.JWT_SECRET, { ...claims, iat: 1_000, exp: 2_000 });
    for (const token of [tampered, foreign, expired]) {
      const res = await call(t.app, "GET", "/user/info", { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(401);
    }
  });

  it("refuses a token it has accepted once it expires (verified tokens are held only until then)", async () => {
    const good = await signIn(t.app, "customer", "customer", "Customer123");
    const claims = JSON.parse(Buffer.from(good.split(".")[1]!, "base64url").toString());
    const now = Math.floor(Date.now() / 1000);
    const shortLived = handMadeToken(t.config.JWT_SECRET, { ...claims, iat: now, exp: now + 30 });
    expect((await call(t.app, "GET", "/user/info", { token: shortLived })).body.code).toBe(0);
    vi.useFakeTimers({ toFake: ["Date"], now: (now + 31) * 1000 });
    try {
      const res = await call(t.app, "GET", "/user/info", { token: shortLived });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(401);
    } finally {
      vi.useRealTimers();
    }
    // A token held as verified is the exact string: one character changed in its signature is checked anew. The
    // signature's first character, not its last: the last carries 4 bits and 2 ignored ones, so A -> B decodes to
    // the same bytes (and was accepted, rightly, once in 16 runs).
    expect((await call(t.app, "GET", "/user/info", { token: good })).body.code).toBe(0);
    const at = good.lastIndexOf(".") + 1;
    const tampered = `${good.slice(0, at)}${good[at] === "A" ? "B" : "A"}${good.slice(at + 1)}`;
    expect((await call(t.app, "GET", "/user/info", { token: tampered })).status).toBe(401);
  });

  it.each([
    ["bearer (any case)", (tk: string) => `bearer ${tk}`, 0],
    ["two spaces", (tk: string) => `Bearer  ${tk}`, 401],
    ["another scheme", (tk: string) => `Basic ${tk}`, 401],
    ["no scheme", (tk: string) => tk, 401],
    ["a trailing word", (tk: string) => `Bearer ${tk} x`, 401],
  ])("reads the Authorization header's bearer token: %s", async (_name, header, code) => {
    const good = await signIn(t.app, "customer", "customer", "Customer123");
    const res = await call(t.app, "GET", "/user/info", { headers: { authorization: header(good) } });
    expect(res.body.code).toBe(code);
  });

  it("holds a bounded number of verified tokens, the oldest going first", () => {
    const held = new VerifiedTokens(2);
    const claims = { sub: "1", tid: 1, typ: 3, ver: 0, jti: "j", exp: Math.floor(Date.now() / 1000) + 60 };
    held.add("a", claims);
    held.add("b", claims);
    held.add("c", claims);
    expect([held.get("a"), held.get("b"), held.get("c")]).toEqual([undefined, claims, claims]);
    held.add("d", { ...claims, exp: Math.floor(Date.now() / 1000) - 1 });
    expect(held.get("d")).toBeUndefined();
  });

  it("revokes the token at logout: it answers 401 afterwards, other sessions live on", async () => {
    const a = await signIn(t.app, "customer", "customer", "Customer123");
    const b = await signIn(t.app, "customer", "customer", "Customer123");
    expect((await call(t.app, "POST", "/auth/logout", { token: a })).body.code).toBe(0);
    expect((await call(t.app, "GET", "/user/info", { token: a })).status).toBe(401);
    expect((await call(t.app, "POST", "/auth/logout", { token: a })).status).toBe(401);
    expect((await call(t.app, "GET", "/user/info", { token: b })).body.code).toBe(0);
  });

  it("ends sessions of a user frozen or deleted after sign-in", async () => {
    const u = await makeUser({ type: UserType.USER, tenantId });
    const token = await signIn(t.app, "customer", u.username, u.password);
    await t.prisma.user.update({ where: { id: u.id }, data: { status: AccountStatus.FROZEN } });
    expect((await call(t.app, "GET", "/user/info", { token })).status).toBe(401);
    await t.prisma.user.update({ where: { id: u.id }, data: { status: AccountStatus.NORMAL, deletedAt: new Date() } });
    expect((await call(t.app, "GET", "/user/info", { token })).status).toBe(401);
  });
});

describe("POST /user/password/mod", () => {
  it("changes the password with the old one, ends old sessions and returns a working token", async () => {
    const u = await makeUser({ type: UserType.USER, tenantId });
    const old = await signIn(t.app, "customer", u.username, u.password);
    const other = await signIn(t.app, "customer", u.username, u.password);
    const res = await call<{ token: string }>(t.app, "POST", "/user/password/mod", {
      token: old,
      body: { oldPassword: u.password, newPassword: NEW_PASSWORD },
    });
    expect(res.body.code).toBe(0);
    expect((await call(t.app, "GET", "/user/info", { token: old })).status).toBe(401);
    expect((await call(t.app, "GET", "/user/info", { token: other })).status).toBe(401);
    expect((await call(t.app, "GET", "/user/info", { token: res.body.data.token })).body.code).toBe(0);
    await signIn(t.app, "customer", u.username, NEW_PASSWORD);
    expect(
      (await call(t.app, "POST", "/auth/login", { body: { username: u.username, password: u.password } })).status,
    ).toBe(401);
  });

  it.each([
    [{ oldPassword: "Wrong0000", newPassword: NEW_PASSWORD }, 400, "the old password is wrong"],
    [{ oldPassword: "Passw0rd!", newPassword: "Passw0rd!" }, 400, "the new password must differ from the old one"],
    [
      { oldPassword: "Passw0rd!", newPassword: "onlyletters" },
      400,
      "this password is too easy to guess; make it longer, for example a few unrelated words",
    ],
    [
      { oldPassword: "Passw0rd!", newPassword: "password1" },
      400,
      "this password is too common (it or a variant of it is on lists of popular passwords); choose another",
    ],
    [{ oldPassword: "Passw0rd!", newPassword: "short1" }, 400, "field newPassword must be at least 8 long"],
    [{ oldPassword: "Passw0rd!" }, 400, "field newPassword is required"],
    [{ oldPassword: "Passw0rd!", newPassword: "x1".repeat(100) }, 400, "field newPassword must be at most 128 long"],
    [{ oldPassword: 12345678, newPassword: NEW_PASSWORD }, 400, "field oldPassword must be a string"],
  ])("refuses %j and changes nothing", async (body, status, message) => {
    const u = await makeUser({ type: UserType.USER, tenantId });
    const token = await signIn(t.app, "customer", u.username, u.password);
    const before = await t.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    const res = await call(t.app, "POST", "/user/password/mod", { token, body, lang: "en" });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ code: 1, message, data: null });
    const after = await t.prisma.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(after.passwordHash).toBe(before.passwordHash);
    expect(after.tokenVersion).toBe(before.tokenVersion);
  });

  it("needs a session", async () => {
    expect(
      (await call(t.app, "POST", "/user/password/mod", { body: { oldPassword: "a", newPassword: NEW_PASSWORD } }))
        .status,
    ).toBe(401);
  });
});
