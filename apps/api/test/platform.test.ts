// The envelope, request ids, languages, errors, health checks, website config and OpenAPI.
import { execFile } from "node:child_process";
import path from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { ConfigError, loadConfig } from "@switchboard/domain/config";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { call, createTestApp, demoTenantId, type TestContext } from "./helpers";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("envelope", () => {
  it("wraps data in { code: 0, message, data } and sends a request id", async () => {
    const res = await call(t.app, "GET", "/website/config");
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.message).toBe("成功");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a caller's well-formed X-Request-Id", async () => {
    const res = await call(t.app, "GET", "/website/config", { headers: { "x-request-id": "trace-abc-12345" } });
    expect(res.headers["x-request-id"]).toBe("trace-abc-12345");
    const bad = await call(t.app, "GET", "/website/config", { headers: { "x-request-id": "<script>" } });
    expect(bad.headers["x-request-id"]).not.toBe("<script>");
  });

  it("answers unknown routes 404 with code 1", async () => {
    const res = await call(t.app, "GET", "/no/such/route", { lang: "en" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 1, message: "no such route", data: null });
  });

  it("answers malformed JSON 400 with code 1", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/json", lang: "en" },
      payload: "{bad",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 1, message: "request body is not valid JSON", data: null });
  });

  it("answers an oversized body 413", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ username: "x", password: "y".repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(1);
  });

  it("answers unexpected failures 500 with the request id and no internals, and logs them", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (c, _e, cb) => {
        lines.push(String(c));
        cb();
      },
    });
    const redis = new Redis(t.config.REDIS_URL, { lazyConnect: true });
    const app = await buildApp({ config: t.config, prisma: t.prisma, redis }, { logStream: stream, logLevel: "info" });
    app.get("/boom", async () => {
      throw new Error("SELECT secret FROM internals");
    });
    const res = await app.inject({ method: "GET", url: "/boom", headers: { lang: "en" } });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({ code: 1, message: `server error (${res.headers["x-request-id"]})`, data: null });
    expect(JSON.stringify(body)).not.toContain("SELECT");
    expect(lines.some((l) => l.includes("SELECT secret") && l.includes(String(res.headers["x-request-id"])))).toBe(
      true,
    );
    await app.close();
    redis.disconnect();
  });
});

describe("logs", () => {
  it("never carry passwords, tokens, phone numbers or query strings", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write: (c, _e, cb) => {
        lines.push(String(c));
        cb();
      },
    });
    const ctx = await createTestApp({}, { logStream: stream, logLevel: "trace" });
    try {
      const login = await call<{ token: string }>(ctx.app, "POST", "/auth/login", {
        body: { username: "customer", password: "Customer123" },
      });
      const token = login.body.data.token;
      await call(ctx.app, "GET", "/user/info", { token, query: { keyword: "+8613800138000" } });
      await call(ctx.app, "POST", "/auth/register", {
        body: { username: "logcheck", password: "Secr3tPass", phone: "+8613900139000" },
      });
      const all = lines.join("\n");
      expect(all.length).toBeGreaterThan(0);
      for (const secret of ["Customer123", "Secr3tPass", token, "8613800138000", "8613900139000"])
        expect(all).not.toContain(secret);
    } finally {
      await ctx.close();
    }
  });
});

describe("health", () => {
  it("/healthz answers plain JSON", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: "ok" });
  });

  it("/readyz checks PostgreSQL and Redis", async () => {
    const res = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(res.json()).toEqual({ status: "ok", postgres: "ok", redis: "ok" });
  });

  it("/readyz answers 503 when Redis does not answer", async () => {
    const dead = new Redis("redis://127.0.0.1:1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const connectErrors: Error[] = [];
    dead.on("error", (e) => connectErrors.push(e));
    const app = await buildApp({ config: t.config, prisma: t.prisma, redis: dead }, { logLevel: "silent" });
    const res = await app.inject({ method: "GET", url: "/readyz" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: "unavailable", postgres: "ok", redis: "down" });
    expect(connectErrors.length).toBeGreaterThan(0);
    await app.close();
    dead.disconnect();
  });
});

describe("GET /website/config", () => {
  it("gives the tenant's branding for its host with absolute logo URLs", async () => {
    const tenantId = await demoTenantId(t.prisma);
    await t.prisma.websiteConfig.update({
      where: { host: "127.0.0.1" },
      data: { logo: "/uploads/logo.png", logoSmall: "https://cdn.example/s.png" },
    });
    const res = await call<Record<string, unknown>>(t.app, "GET", "/website/config", {
      headers: { host: "127.0.0.1:3000" },
    });
    expect(res.body.data).toMatchObject({
      title: "Switchboard",
      tenantId,
      agentId: null,
      logo: "http://127.0.0.1:3000/uploads/logo.png",
      logoSmall: "https://cdn.example/s.png",
    });
  });

  it("prefers the agent's branding on the agent's host", async () => {
    const res = await call<Record<string, unknown>>(t.app, "GET", "/website/config", {
      headers: { host: "agent.localhost" },
    });
    expect(res.body.data.title).toBe("Demo Agent Messaging");
    expect(res.body.data.agentId).toEqual(expect.any(Number));
  });

  it("falls back to 'RCS message platform' for an unknown host", async () => {
    const res = await call(t.app, "GET", "/website/config", { headers: { host: "nobody.example" } });
    expect(res.body.data).toEqual({
      title: "RCS message platform",
      logo: null,
      logoSmall: null,
      description: null,
      agentId: null,
      tenantId: null,
      shortLinkLength: expect.any(Number),
    });
  });
});

describe("configuration", () => {
  it("has no default secret in any mode: a missing or short JWT secret or channel key refuses to start", () => {
    for (const NODE_ENV of ["production", "development", "test"]) {
      const base = { NODE_ENV, DATABASE_URL: "postgresql://x/y" };
      const key = { CHANNEL_SECRET_KEY: "ab".repeat(32) };
      expect(() => loadConfig({ ...base, ...key })).toThrow(/JWT_SECRET/);
      expect(() => loadConfig({ ...base, ...key, JWT_SECRET: "short" })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, JWT_SECRET: "a".repeat(40) })).toThrow(/CHANNEL_SECRET_KEY/);
      expect(loadConfig({ ...base, ...key, JWT_SECRET: "a".repeat(40) }).NODE_ENV).toBe(NODE_ENV);
    }
  });
});

describe("OpenAPI", () => {
  it("documents every route with the envelope", async () => {
    const doc = t.app.swagger();
    for (const p of [
      "/auth/login",
      "/auth/staff/login",
      "/auth/register",
      "/auth/logout",
      "/user/info",
      "/user/password/mod",
      "/website/config",
    ]) {
      expect(doc.paths?.[p], p).toBeDefined();
    }
    expect(doc.paths?.["/healthz"]).toBeUndefined();
  });

  it("`npm run openapi` prints the document without PostgreSQL or Redis", async () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const env = {
      ...process.env,
      DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none",
      REDIS_URL: "redis://127.0.0.1:1",
    };
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "apps/api/src/openapi.ts"], {
      cwd: root,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const doc = JSON.parse(stdout);
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/user/info");
  });
});
