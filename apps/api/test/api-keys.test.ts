// Named developer API keys (docs/api-keys.md): create (shown once), list, revoke; scopes on /v1 (send, read);
// expired and revoked keys answer 401 like a wrong key; the single key of before (users.secretKeyHash) is the key
// named "default" and keeps working; another customer's key answers 404; a revocation ends the key in another API
// process too; the OpenAPI document declares the secret-key schemes on /v1 routes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type ApiKeyCreated, type ApiKeyList, type ApiKeyRow, BatchStatus } from "@switchboard/contracts";
import { secretKeyHash } from "@switchboard/domain/callback-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Account, BatchFixtures, type BatchWorld, get, multiple, post } from "./batch-fixtures";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let b: TestContext; // a second API process on the same database and Redis
let fx: BatchFixtures;
let w: BatchWorld;

beforeAll(async () => {
  t = await createTestApp();
  b = await createTestApp();
  fx = new BatchFixtures(t);
  w = await fx.world();
});

afterAll(async () => {
  await fx.close();
  await t.close();
  await b.close();
});

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 3_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A customer with the API turned on and some balance. */
async function developer(): Promise<Account> {
  const c = await fx.customer(w, "10.00");
  await t.prisma.user.update({ where: { id: c.id }, data: { apiEnabled: true } });
  return c;
}

async function createKey(c: Account, body: Record<string, unknown>) {
  return post<ApiKeyCreated>(t, "/user/api-keys", c.token, body);
}

const send = (key: string, app: TestContext = t) =>
  post<{ batch: { id: string; status: number } }>(app, "/v1/messages", undefined, multiple(w, ["+12025550123"]), {
    headers: { authorization: `Bearer ${key}` },
  });
/** A batch nobody has: 404 once the key is accepted, so 401/403 here is the key check's answer. */
const read = (key: string, app: TestContext = t) =>
  app.app.inject({ method: "GET", url: "/v1/batches/1", headers: { "x-api-key": key } }).then((r) => r.statusCode);

describe("named API keys", () => {
  it("creates a key shown once (only its sha256 kept), lists it with prefix and scopes, and revokes it", async () => {
    const c = await developer();
    const res = await createKey(c, { name: "billing server", scopes: ["read", "send", "read"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = res.body.data;
    expect(created.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: "billing server",
      prefix: created.secretKey.slice(0, 8),
      scopes: ["read", "send"],
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    const row = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.hash).toBe(secretKeyHash(created.secretKey));
    expect(JSON.stringify(row)).not.toContain(created.secretKey);

    const list = await get<ApiKeyList>(t, "/user/api-keys", c.token);
    expect(list.status).toBe(200);
    expect(list.body.data.list.map((k) => k.id)).toEqual([created.id]);
    expect(JSON.stringify(list.body.data)).not.toContain(created.secretKey);
    expect(list.body.data.list[0]).not.toHaveProperty("secretKey");

    // Used: lastUsedAt is written (once a minute at most: a second call within the minute leaves it).
    expect(await read(created.secretKey)).toBe(404);
    let first: Date | null = null;
    await eventually("lastUsedAt", async () => {
      first = (await t.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt;
      return first !== null;
    });
    expect(await read(created.secretKey)).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } })).lastUsedAt).toEqual(first);

    const revoked = await post<ApiKeyRow>(t, `/user/api-keys/${created.id}/revoke`, c.token, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect(await read(created.secretKey)).toBe(401);
    // Revoking again keeps the first time.
    const again = await post<ApiKeyRow>(t, `/user/api-keys/${created.id}/revoke`, c.token, {});
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it("refuses a bad name, an unknown scope, no scope and an expiry in the past", async () => {
    const c = await developer();
    for (const body of [
      { name: "", scopes: ["read"] },
      { name: "x".repeat(65), scopes: ["read"] },
      { name: "k", scopes: ["admin"] },
      { name: "k", scopes: [] },
      { name: "k", scopes: ["read"], expiresAt: "tomorrow" },
    ]) {
      expect((await createKey(c, body)).status, JSON.stringify(body)).toBe(400);
    }
    const past = await createKey(c, {
      name: "k",
      scopes: ["read"],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(await t.prisma.apiKey.count({ where: { userId: c.id } })).toBe(0);
  });

  it("enforces scopes on /v1: a read-only key cannot send (403), a send-only key cannot read (403)", async () => {
    const c = await developer();
    const reader = (await createKey(c, { name: "dashboard", scopes: ["read"] })).body.data.secretKey;
    const sender = (await createKey(c, { name: "sender", scopes: ["send"] })).body.data.secretKey;
    const refused = await send(reader);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("send");
    expect(await read(reader)).toBe(404);
    expect(await read(sender)).toBe(403);
    const sent = await send(sender);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data.batch.status).toBe(BatchStatus.PENDING_SEND);
    // The read-only key reads the batch the other key made.
    const status = await t.app.inject({
      method: "GET",
      url: `/v1/batches/${sent.body.data.batch.id}`,
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(status.statusCode).toBe(200);
    // Nothing was charged for the refused call: one batch only.
    expect(await t.prisma.messageBatch.count({ where: { userId: c.id } })).toBe(1);
  });

  it("answers 401 for an expired key, like a wrong one", async () => {
    const c = await developer();
    const created = (
      await createKey(c, { name: "short", scopes: ["read"], expiresAt: new Date(Date.now() + 60_000).toISOString() })
    ).body.data;
    expect(await read(created.secretKey)).toBe(404);
    await t.prisma.apiKey.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await eventually("the expired key to be refused", async () => (await read(created.secretKey)) === 401);
    const wrong = await read(`sk_${"A".repeat(43)}`);
    expect(wrong).toBe(401);
  });

  it("checks the key before the body: without a valid key, an invalid or unparsable body still answers 401", async () => {
    const send = (headers: Record<string, string>, payload: string) =>
      t.app.inject({
        method: "POST",
        url: "/v1/messages",
        headers: { "content-type": "application/json", ...headers },
        payload,
      });
    const withoutValidKey: Array<Record<string, string>> = [{}, { "x-api-key": `sk_${"A".repeat(43)}` }];
    for (const headers of withoutValidKey) {
      const invalid = await send(headers, JSON.stringify({ submitMode: 9, numbers: "nope" }));
      expect(invalid.statusCode).toBe(401);
      expect(invalid.json()).toMatchObject({ code: 401, data: null });
      expect((await send(headers, "{not json")).statusCode).toBe(401);
    }
    // With a valid key the same body is the caller's mistake: 400.
    const c = await developer();
    const key = (await createKey(c, { name: "body", scopes: ["send"] })).body.data.secretKey;
    expect((await send({ "x-api-key": key }, JSON.stringify({ submitMode: 9 }))).statusCode).toBe(400);
  });

  it("settles every route's guards before its body: 401 or 403 for a bad body without the right caller", async () => {
    const call = (url: string, headers: Record<string, string>, payload: string) =>
      t.app
        .inject({ method: "POST", url, headers: { "content-type": "application/json", ...headers }, payload })
        .then((r) => r.statusCode);
    const invalid = JSON.stringify({ submitMode: 9, numbers: "nope", phones: 7 });
    // A session route: no token, or a forged one, is 401 whatever the body; a signed-in caller of the wrong role
    // (the tenant's admin on a customer's route) 403; the right caller's bad body 400.
    const unsigned: Array<Record<string, string>> = [{}, { authorization: "Bearer not.a.token" }];
    for (const headers of unsigned) {
      expect(await call("/batch/submit", headers, invalid)).toBe(401);
      expect(await call("/batch/submit", headers, "{not json")).toBe(401);
    }
    expect(await call("/batch/submit", { authorization: `Bearer ${w.admin.token}` }, invalid)).toBe(403);
    const c = await developer();
    expect(await call("/batch/submit", { authorization: `Bearer ${c.token}` }, invalid)).toBe(400);
    // A /v1 route guarded by a key (the opt-out list): 401 without one, 400 with one.
    expect(await call("/v1/opt-outs", {}, invalid)).toBe(401);
    expect(await call("/v1/opt-outs", {}, "{not json")).toBe(401);
    const key = (await createKey(c, { name: "guards", scopes: ["manage"] })).body.data.secretKey;
    expect(await call("/v1/opt-outs", { "x-api-key": key }, invalid)).toBe(400);
  });

  it("rotates with overlap: the old and the new key both work until the old one is revoked", async () => {
    const c = await developer();
    const old = (await createKey(c, { name: "v1", scopes: ["send", "read", "manage"] })).body.data;
    const next = (await createKey(c, { name: "v2", scopes: ["send", "read", "manage"] })).body.data;
    expect([await read(old.secretKey), await read(next.secretKey)]).toEqual([404, 404]);
    await post(t, `/user/api-keys/${old.id}/revoke`, c.token, {});
    expect([await read(old.secretKey), await read(next.secretKey)]).toEqual([401, 404]);
  });

  it("answers another customer's key like a missing one (404), and leaves it working", async () => {
    const mine = await developer();
    const theirs = await developer();
    const key = (await createKey(theirs, { name: "theirs", scopes: ["read"] })).body.data;
    const res = await post(t, `/user/api-keys/${key.id}/revoke`, mine.token, {});
    expect(res.status).toBe(404);
    const missing = await post(t, "/user/api-keys/2000000000/revoke", mine.token, {});
    expect(missing.status).toBe(404);
    expect(res.body.message).toBe(missing.body.message);
    expect(await read(key.secretKey)).toBe(404);
    const list = await get<ApiKeyList>(t, "/user/api-keys", mine.token);
    expect(list.body.data.list).toEqual([]);
  });

  it("keeps the single key of before working: POST /user/sk/refresh makes it the key named default", async () => {
    const c = await developer();
    const first = (await post<{ secretKey: string }>(t, "/user/sk/refresh", c.token, undefined)).body.data.secretKey;
    expect(await read(first)).toBe(404);
    expect((await send(first)).status).toBe(200);
    const list = (await get<ApiKeyList>(t, "/user/api-keys", c.token)).body.data.list;
    expect(list).toMatchObject([{ name: "default", prefix: first.slice(0, 8), scopes: ["send", "read", "manage"] }]);
    // Refreshed: the old default is revoked, a new default works.
    const second = (await post<{ secretKey: string }>(t, "/user/sk/refresh", c.token, undefined)).body.data.secretKey;
    expect([await read(first), await read(second)]).toEqual([401, 404]);
    const after = (await get<ApiKeyList>(t, "/user/api-keys", c.token)).body.data.list;
    expect(after.map((k) => [k.name, k.revokedAt === null])).toEqual([
      ["default", true],
      ["default", false],
    ]);
  });

  it("moves a key stored before the migration into api_keys as default, with its hash (the migration's own SQL)", async () => {
    const c = await developer();
    const key = `sk_${"b".repeat(43)}`;
    await t.prisma.user.update({
      where: { id: c.id },
      data: { secretKeyHash: secretKeyHash(key), secretKeyPrefix: key.slice(0, 8) },
    });
    // As it was before the migration: the key only on the users row.
    await t.prisma.apiKey.deleteMany({ where: { userId: c.id } });
    expect(await read(key)).toBe(401);
    const sql = readFileSync(
      path.resolve(import.meta.dirname, "../../../prisma/migrations/20261126130000_api_keys/migration.sql"),
      "utf8",
    );
    const backfill = /INSERT INTO "api_keys"[^;]*;/.exec(sql)?.[0];
    expect(backfill).toBeDefined();
    await t.prisma.$executeRawUnsafe(`${backfill?.replace("WHERE", `WHERE "id" = ${c.id} AND`)}`);
    const rows = await t.prisma.apiKey.findMany({ where: { userId: c.id } });
    expect(rows).toMatchObject([
      { name: "default", prefix: key.slice(0, 8), hash: secretKeyHash(key), scopes: ["send", "read", "manage"] },
    ]);
    expect(await read(key)).toBe(404);
    expect((await send(key)).status).toBe(200);
  });

  it("ends a revoked key in another API process too (the cache there is dropped)", async () => {
    const c = await developer();
    const key = (await createKey(c, { name: "shared", scopes: ["read"] })).body.data;
    expect([await read(key.secretKey, t), await read(key.secretKey, b)]).toEqual([404, 404]);
    const held = () =>
      (b.app.sessions as unknown as { keys: Map<string, unknown> }).keys.has(secretKeyHash(key.secretKey));
    await eventually("b to hold the key", async () => (await read(key.secretKey, b)) === 404 && held());
    await post(t, `/user/api-keys/${key.id}/revoke`, c.token, {});
    expect(await read(key.secretKey, t)).toBe(401);
    await eventually("b to refuse the revoked key", async () => (await read(key.secretKey, b)) === 401, 2_000);
  });
});

describe("the OpenAPI document", () => {
  it("declares the secret-key schemes on /v1 routes and the session token elsewhere", async () => {
    const doc = t.app.swagger() as {
      components: { securitySchemes: Record<string, Record<string, string>> };
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    expect(doc.components.securitySchemes.secretKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-Api-Key",
    });
    expect(doc.components.securitySchemes.bearer).toMatchObject({
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
    });
    const v1 = Object.entries(doc.paths).filter(([p]) => p.startsWith("/v1/"));
    expect(v1.length).toBeGreaterThan(0);
    for (const [p, ops] of v1)
      for (const [method, op] of Object.entries(ops))
        expect(op.security, `${method} ${p}`).toEqual([{ secretKey: [] }, { apiKeyHeader: [] }]);
    expect(doc.paths["/v1/messages"]?.post?.security).toEqual([{ secretKey: [] }, { apiKeyHeader: [] }]);
    expect(doc.paths["/user/api-keys"]?.get?.security).toEqual([{ bearer: [] }]);
  });
});
