// Findings of the outside security review (issue 12) that live in the platform layer: session tokens without
// an expiry, NUL characters, answers outside the envelope (router and HTTP parser), security headers and CORS,
// lenient number forms, and forwarded client addresses.
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { ConfigError, loadConfig } from "@switchboard/domain/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, handMadeToken, signIn, type TestContext, uniqueName } from "./helpers";

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: "https://app.example.com" });
});
afterAll(async () => {
  await t.close();
});

describe("session tokens", () => {
  it("refuses a correctly signed token that has no expiry", async () => {
    const good = await signIn(t.app, "customer", "customer", "Customer123");
    const claims = JSON.parse(Buffer.from(good.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
    const { exp: _exp, ...forever } = claims;
    const res = await call(t.app, "GET", "/user/info", { token: handMadeToken(t.config.JWT_SECRET, forever) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(401);
    // the same claims with their expiry pass: what is refused is the missing exp
    expect((await call(t.app, "GET", "/user/info", { token: good })).body.code).toBe(0);
  });
});

describe("NUL characters", () => {
  it("refuses one in a body field with a clear 400 and creates nothing (anonymous registration)", async () => {
    const username = uniqueName("nul");
    const res = await call(t.app, "POST", "/auth/register", {
      body: { username: `${username}\u0000x`, password: "Xq7!long-enough-pass" },
      headers: { "tenant-id": String((await t.prisma.tenant.findFirstOrThrow({ where: { code: "demo" } })).id) },
      lang: "en",
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1, data: null });
    expect(res.body.message).toBe("field username contains a NUL character, which is not allowed");
    expect(await t.prisma.user.count({ where: { username: { startsWith: username } } })).toBe(0);
  });

  it("refuses one nested in a body, in a query filter and in a path parameter", async () => {
    const token = await signIn(t.app, "customer", "customer", "Customer123");
    const nested = await call(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: {
        productCode: 3000,
        taskType: 2,
        submitMode: 1,
        number: "+8613800138000",
        content: { product: 3000, text: "hi\u0000" },
      },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.message).toContain("content.text");
    // In a list, the element is named by its index; in a key, the object holding it is named.
    const inList = await call(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: {
        taskType: 2,
        submitMode: 2,
        numbers: ["+8613800138000", "+86138\u000000138001"],
        content: { text: "hi" },
      },
    });
    expect(inList.status).toBe(400);
    expect(inList.body.message).toBe("field numbers.1 contains a NUL character, which is not allowed");
    const inKey = await call(t.app, "POST", "/batch/submit", {
      token,
      lang: "en",
      body: { taskType: 2, submitMode: 1, content: { product: 3000, "te\u0000xt": "hi" } },
    });
    expect(inKey.status).toBe(400);
    expect(inKey.body.message).toBe("field content contains a NUL character, which is not allowed");
    const query = await call(t.app, "GET", "/batch/list", { token, lang: "zh", query: { keyword: "a\u0000b" } });
    expect(query.status).toBe(400);
    expect(query.body.message).toBe("字段 keyword 含有不允许的空字符（NUL）");
    const res = await t.app.inject({ method: "GET", url: "/website/logo/1/a%00b.png", headers: { lang: "en" } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1, data: null });
  });
});

describe("every answer is the envelope", () => {
  it("a path parameter over the router's limit: 414 in the envelope, the path not echoed", async () => {
    const long = "a".repeat(150);
    const res = await t.app.inject({ method: "GET", url: `/website/logo/1/${long}`, headers: { lang: "en" } });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 1, message: "request URL too long", data: null });
    expect(res.body).not.toContain(long);
  });

  it("headers or a query over Node's limit (431) and a malformed request (400): the envelope, from the socket", async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const big = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path: `/user/info?q=${"x".repeat(20_000)}` }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(big.status).toBe(431);
      expect(JSON.parse(big.body)).toEqual({ code: 1, message: "请求头或地址过长", data: null });

      const garbage = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write("NOT HTTP AT ALL\r\n\r\n"));
        let raw = "";
        socket.on("data", (c) => (raw += c.toString()));
        socket.on("close", () => resolve(raw));
        socket.on("error", reject);
      });
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: 1, data: null });
    } finally {
      await t.app.close();
      t = await createTestApp({ CORS_ORIGINS: "https://app.example.com" });
    }
  });
});

describe("security headers and CORS", () => {
  it("JSON answers are not cached or sniffed; the docs page cannot be framed", async () => {
    const res = await t.app.inject({ method: "GET", url: "/website/config" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d+; includeSubDomains$/);
    expect(res.headers["cross-origin-resource-policy"]).toBe("cross-origin");
    // headers only legacy browsers read are not sent
    for (const legacy of ["x-xss-protection", "x-download-options", "x-permitted-cross-domain-policies"])
      expect(res.headers[legacy]).toBeUndefined();
    const docs = await t.app.inject({ method: "GET", url: "/docs/static/index.html" });
    expect(docs.headers["x-frame-options"]).toBe("DENY");
    expect(String(docs.headers["content-security-policy"])).toContain("default-src");
  });

  it("reflects only the configured origins", async () => {
    const allowed = await t.app.inject({
      method: "OPTIONS",
      url: "/auth/login",
      headers: { origin: "https://app.example.com", "access-control-request-method": "POST" },
    });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://app.example.com");
    const foreign = await t.app.inject({
      method: "GET",
      url: "/website/config",
      headers: { origin: "https://evil.example.net" },
    });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("configuration refuses an origin that is not one (no wildcard)", () => {
    const base = { DATABASE_URL: "postgresql://x/y", JWT_SECRET: "a".repeat(40), CHANNEL_SECRET_KEY: "ab".repeat(32) };
    expect(() => loadConfig({ ...base, CORS_ORIGINS: "*" })).toThrow(ConfigError);
    expect(loadConfig({ ...base, CORS_ORIGINS: "" }).CORS_ORIGINS).toEqual([]);
  });
});

describe("numbers only in their canonical form", () => {
  it.each([
    ["hex id", { id: "0x10" }],
    ["padded id", { id: " 7 " }],
    ["leading zero", { id: "016" }],
    ["exponent", { id: "1e1" }],
  ])("refuses a %s in a query", async (_name, query) => {
    const token = await signIn(t.app, "staff", "admin", "Admin12345");
    const res = await call(t.app, "GET", "/batch/detail", { token, query, lang: "en" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1);
  });

  it("refuses a boolean task type and a padded amount; a bigint id past PostgreSQL's range is a 400, not a 500", async () => {
    const token = await signIn(t.app, "customer", "customer", "Customer123");
    const bool = await call(t.app, "POST", "/user/submit/pre", {
      token,
      body: { productCode: 3000, taskType: true, numbers: ["+8613800138000"], content: { product: 3000, text: "hi" } },
    });
    expect(bool.status).toBe(400);
    const staff = await signIn(t.app, "staff", "admin", "Admin12345");
    const customer = await t.prisma.user.findFirstOrThrow({ where: { username: "customer" } });
    const padded = await call(t.app, "POST", "/finance/recharge", {
      token: staff,
      body: { userId: customer.id, amount: " 7 ", remark: "padded" },
    });
    expect(padded.status).toBe(400);
    const huge = await call(t.app, "GET", "/batch/detail", { token, query: { id: "99999999999999999999" } });
    expect(huge.status).toBe(400);
    const beyond = await call(t.app, "GET", "/batch/detail", { token, query: { id: "9223372036854775808" } });
    expect(beyond.status).toBe(400);
  });
});

describe("forwarded client addresses", () => {
  async function loggedIp(ctx: TestContext, forwardedFor: string): Promise<string> {
    const username = "customer";
    await call(ctx.app, "POST", "/auth/login", {
      body: { username, password: "Customer123" },
      headers: { "x-forwarded-for": forwardedFor },
    });
    const row = await ctx.prisma.loginLog.findFirstOrThrow({ where: { username }, orderBy: { id: "desc" } });
    return row.ip;
  }

  it("ignores X-Forwarded-For unless the connection comes from a configured proxy", async () => {
    expect(await loggedIp(t, "198.51.100.7")).toBe("127.0.0.1");
    const behindProxy = await createTestApp({ TRUST_PROXY: "127.0.0.1" });
    try {
      expect(await loggedIp(behindProxy, "198.51.100.8")).toBe("198.51.100.8");
    } finally {
      await behindProxy.close();
    }
    const elsewhere = await createTestApp({ TRUST_PROXY: "10.0.0.0/8" });
    try {
      expect(await loggedIp(elsewhere, "198.51.100.9")).toBe("127.0.0.1");
    } finally {
      await elsewhere.close();
    }
  });

  it("configuration refuses trusting every proxy", () => {
    const base = { DATABASE_URL: "postgresql://x/y", JWT_SECRET: "a".repeat(40), CHANNEL_SECRET_KEY: "ab".repeat(32) };
    expect(() => loadConfig({ ...base, TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ ...base, TRUST_PROXY: "10.0.0.0/8, 192.168.1.10" }).TRUST_PROXY).toEqual([
      "10.0.0.0/8",
      "192.168.1.10",
    ]);
  });
});

describe("races between a find and a write", () => {
  it("ten parallel deletes of one SMS template: one succeeds, the others answer 404, none 500", async () => {
    const token = await signIn(t.app, "staff", "admin", "Admin12345");
    const created = await call<{ id: number }>(t.app, "POST", "/setting/sms/template/create", {
      token,
      body: { scene: "verify_code", name: uniqueName("race"), content: "Your code is {code}." },
    });
    expect(created.body.code).toBe(0);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(t.app, "POST", "/setting/sms/template/delete", { token, body: { id: created.body.data.id } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect(await t.prisma.smsTemplate.count({ where: { id: created.body.data.id } })).toBe(0);
  });
});
