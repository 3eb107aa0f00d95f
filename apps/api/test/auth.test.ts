import { AccountStatus, UserType } from "@switchboard/contracts";
import { hashPassword } from "@switchboard/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
      balance: "1000.0000",
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
    await t.redis.del(`${t.config.REDIS_PREFIX}login:fail:customer:${tenantId}:customer`);
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
      body: { oldPassword: u.password, newPassword: "N3wPassword" },
    });
    expect(res.body.code).toBe(0);
    expect((await call(t.app, "GET", "/user/info", { token: old })).status).toBe(401);
    expect((await call(t.app, "GET", "/user/info", { token: other })).status).toBe(401);
    expect((await call(t.app, "GET", "/user/info", { token: res.body.data.token })).body.code).toBe(0);
    await signIn(t.app, "customer", u.username, "N3wPassword");
    expect(
      (await call(t.app, "POST", "/auth/login", { body: { username: u.username, password: u.password } })).status,
    ).toBe(401);
  });

  it.each([
    [{ oldPassword: "Wrong0000", newPassword: "N3wPassword" }, 400, "the old password is wrong"],
    [{ oldPassword: "Passw0rd!", newPassword: "Passw0rd!" }, 400, "the new password must differ from the old one"],
    [
      { oldPassword: "Passw0rd!", newPassword: "onlyletters" },
      400,
      "the password needs at least 8 characters with both letters and digits",
    ],
    [{ oldPassword: "Passw0rd!", newPassword: "short1" }, 400, "field newPassword must be at least 8 long"],
    [{ oldPassword: "Passw0rd!" }, 400, "field newPassword is required"],
    [{ oldPassword: "Passw0rd!", newPassword: "x1".repeat(100) }, 400, "field newPassword must be at most 128 long"],
    [{ oldPassword: 12345678, newPassword: "N3wPassword" }, 400, "field oldPassword must be a string"],
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
      (await call(t.app, "POST", "/user/password/mod", { body: { oldPassword: "a", newPassword: "N3wPassword" } }))
        .status,
    ).toBe(401);
  });
});
