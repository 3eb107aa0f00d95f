// The session check's memory (plugins/session-cache.ts): a signed-in request reads neither PostgreSQL nor Redis,
// yet every way a session ends still ends it at once, in this process and in another API process, whichever
// code path changed the user (a route, another process, SQL by hand), and after a lost connection.
import { AccountStatus, UserType } from "@switchboard/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionCache, type SessionUser } from "../src/plugins/session-cache";
import { makeAccount } from "./accounts";
import { call, createTestApp, demoTenantId, type TestContext } from "./helpers";

let a: TestContext;
let b: TestContext; // a second API process on the same database and Redis
let tenantId: number;

beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp();
  tenantId = await demoTenantId(a.prisma);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const info = (t: TestContext, token: string) => call(t.app, "GET", "/user/info", { token }).then((r) => r.status);

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Until both processes listen for user changes and hold the signed-out tokens (they start in the background). */
async function settled(...caches: SessionCache[]) {
  await eventually("the session caches to be live", async () =>
    caches.every((c) => (c as unknown as { usersLive: boolean; revokedLive: boolean }).usersLive),
  );
  await eventually("the sign-out sets to be live", async () =>
    caches.every((c) => (c as unknown as { revokedLive: boolean }).revokedLive),
  );
}

describe("the session check's memory", () => {
  it("serves a user from memory, and reads the row again once it changes, by any code path", async () => {
    const cache = new SessionCache({
      databaseUrl: a.config.DATABASE_URL,
      redis: a.redis,
      redisPrefix: a.config.REDIS_PREFIX,
    });
    cache.start();
    try {
      await settled(cache);
      const user = await makeAccount(a, UserType.USER, tenantId);
      let loads = 0;
      const load = async (id: number) => {
        loads++;
        return (await a.prisma.user.findUnique({ where: { id } })) as SessionUser | null;
      };
      expect((await cache.user(user.id, load))?.status).toBe(AccountStatus.NORMAL);
      for (let i = 0; i < 5; i++) await cache.user(user.id, load);
      expect(loads).toBe(1);
      // Another column (a balance change, every charge) is not session state: the entry stays.
      await a.prisma.$executeRaw`UPDATE users SET balance = balance + 1 WHERE id = ${user.id}`;
      await new Promise((r) => setTimeout(r, 100));
      await cache.user(user.id, load);
      expect(loads).toBe(1);
      // Frozen by SQL by hand: the trigger's notification drops the entry.
      await a.prisma.$executeRaw`UPDATE users SET status = ${AccountStatus.FROZEN} WHERE id = ${user.id}`;
      await eventually(
        "the freeze to be seen",
        async () => (await cache.user(user.id, load))?.status === AccountStatus.FROZEN,
      );
      expect(loads).toBe(2);

      // The LISTEN connection lost: nothing is trusted until it is back, then a change made meanwhile is seen.
      await a.prisma.$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'switchboard-listen' AND pid <> pg_backend_pid()`;
      await settled(cache);
      await cache.user(user.id, load);
      const before = loads;
      await a.prisma.$executeRaw`UPDATE users SET "tokenVersion" = "tokenVersion" + 1 WHERE id = ${user.id}`;
      await eventually("the new token version", async () => (await cache.user(user.id, load))?.tokenVersion === 1);
      expect(loads).toBeGreaterThan(before);
    } finally {
      await cache.close();
    }
  });

  it("ends sessions at once in this process and in another one: freeze, delete, password change, sign-out", async () => {
    await settled(a.app.sessions, b.app.sessions);
    const admin = await makeAccount(a, UserType.ADMIN, tenantId);

    // Frozen through process a's route: a refuses the next request; b as soon as the database tells it.
    const frozen = await makeAccount(a, UserType.USER, tenantId);
    expect([await info(a, frozen.token), await info(b, frozen.token)]).toEqual([200, 200]);
    const edit = await call(a.app, "POST", "/user/edit", {
      token: admin.token,
      body: { id: frozen.id, status: AccountStatus.FROZEN },
    });
    expect(edit.body.code).toBe(0);
    expect(await info(a, frozen.token)).toBe(401);
    await eventually("b to refuse the frozen user", async () => (await info(b, frozen.token)) === 401, 2_000);

    // Deleted through process b: a hears of it.
    const gone = await makeAccount(a, UserType.USER, tenantId);
    expect([await info(a, gone.token), await info(b, gone.token)]).toEqual([200, 200]);
    const del = await call(b.app, "POST", "/user/delete", { token: admin.token, body: { id: gone.id } });
    expect(del.body.code).toBe(0);
    expect(await info(b, gone.token)).toBe(401);
    await eventually("a to refuse the deleted user", async () => (await info(a, gone.token)) === 401, 2_000);

    // Signed out on a: b refuses the token as soon as the message arrives; a process started later refuses it too.
    const leaving = await makeAccount(a, UserType.USER, tenantId);
    expect([await info(a, leaving.token), await info(b, leaving.token)]).toEqual([200, 200]);
    expect((await call(a.app, "POST", "/auth/logout", { token: leaving.token })).status).toBe(200);
    expect(await info(a, leaving.token)).toBe(401);
    await eventually("b to refuse the signed-out token", async () => (await info(b, leaving.token)) === 401, 2_000);
    const c = await createTestApp();
    try {
      await settled(c.app.sessions);
      expect(await info(c, leaving.token)).toBe(401);
    } finally {
      await c.close();
    }
  });

  it("holds developer API keys in memory, and a new key, the API switched off or a whitelist ends the old one everywhere", async () => {
    await settled(a.app.sessions, b.app.sessions);
    const dev = await makeAccount(a, UserType.USER, tenantId);
    expect((await call(a.app, "POST", "/user/api/toggle", { token: dev.token, body: { enabled: true } })).status).toBe(
      200,
    );
    const keyOf = async () =>
      (await call<{ secretKey: string }>(a.app, "POST", "/user/sk/refresh", { token: dev.token, body: {} })).body.data
        .secretKey;
    // A batch the user does not have: 404 once the key is taken, so a 401 or 403 here is the key check's answer.
    const v1 = (t: TestContext, key: string) =>
      t.app
        .inject({ method: "GET", url: "/v1/batches/1", headers: { authorization: `Bearer ${key}` } })
        .then((r) => r.statusCode);
    const first = await keyOf();
    expect([await v1(a, first), await v1(b, first)]).toEqual([404, 404]);
    // Held in memory once checked (a read that raced with a change's notification is not kept: the next one is).
    const held = () => (a.app.sessions as unknown as { keys: Map<string, unknown> }).keys.size;
    await eventually("a to hold the key", async () => (await v1(a, first)) === 404 && held() > 0, 2_000);

    // A new key on a: the old one is refused by a at once, by b as soon as the database tells it.
    const second = await keyOf();
    expect(await v1(a, first)).toBe(401);
    await eventually("b to refuse the replaced key", async () => (await v1(b, first)) === 401, 2_000);
    expect([await v1(a, second), await v1(b, second)]).toEqual([404, 404]);

    // The API switched off through b: a refuses the key.
    expect((await call(b.app, "POST", "/user/api/toggle", { token: dev.token, body: { enabled: false } })).status).toBe(
      200,
    );
    expect(await v1(b, second)).toBe(403);
    await eventually("a to refuse the switched-off key", async () => (await v1(a, second)) === 403, 2_000);

    // Switched on again, then an IP whitelist that does not hold the caller: refused on both.
    await call(a.app, "POST", "/user/api/toggle", { token: dev.token, body: { enabled: true } });
    await eventually("b to take the key again", async () => (await v1(b, second)) === 404, 2_000);
    const ip = await call(a.app, "POST", "/user/ip/mod", { token: dev.token, body: { ips: ["203.0.113.7"] } });
    expect(ip.status, JSON.stringify(ip.body)).toBe(200);
    expect(await v1(a, second)).toBe(403);
    await eventually("b to apply the whitelist", async () => (await v1(b, second)) === 403, 2_000);
  });
});
