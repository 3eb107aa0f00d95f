// Developer settings: secret key, IP whitelist, notify URL with a signed test delivery, API switch; and the
// pure pieces the batch workers reuse (callback signature, IP entries). The addresses a callback may not reach
// are the egress policy's (packages/channels/test/egress.test.ts); here, that the notify URL obeys it.
import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createEgressPolicy } from "@switchboard/channels";
import {
  type DeveloperInfo,
  type NotifyModResult,
  type SecretKeyRefreshResult,
  UserType,
} from "@switchboard/contracts";
import { secretKeyHash, signCallback, verifyCallbackSignature } from "@switchboard/domain/callback-signature";
import { postCallback } from "@switchboard/domain/callbacks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipAllowed, normalizeIpList, parseIpEntry } from "../src/modules/developer/ip-whitelist";
import { type Account, get, makeAccount, makeWorld, post, type World } from "./accounts";
import { createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let w: World;

// A loopback receiver for callbacks: records what arrives; the path chooses how it answers.
interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let base: string;

beforeAll(async () => {
  // This machine's receiver is on loopback, which the test setup's EGRESS_ALLOW lets through; the refusal of
  // private addresses is tested below with an empty allow list.
  t = await createTestApp();
  w = await makeWorld(t);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (req.url === "/hang") return; // never answers: the sender's timeout must end it
      if (req.url === "/fail") return res.writeHead(500).end("boom");
      if (req.url === "/redirect") return res.writeHead(302, { location: "/ok" }).end();
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await t.close();
});

async function customer(): Promise<Account> {
  return makeAccount(t, UserType.USER, w.tenantId, { agentId: w.agent1.id });
}

async function refreshKey(c: Account) {
  const res = await post<SecretKeyRefreshResult>(t, "/user/sk/refresh", c.token, undefined);
  expect(res.status).toBe(200);
  return res.body.data.secretKey;
}

describe("callback signature", () => {
  const keyHash = secretKeyHash("sk_example");
  const body = '{"event":"test"}';

  it("is t=<unix>,v1=<hex hmac-sha256 of '<t>.<body>'> keyed with the sha256 hex of the secret key", () => {
    const expectedKey = createHash("sha256").update("sk_example").digest("hex");
    expect(keyHash).toBe(expectedKey);
    const mac = createHmac("sha256", expectedKey).update(`1700000000.${body}`).digest("hex");
    expect(signCallback(keyHash, body, 1_700_000_000)).toBe(`t=1700000000,v1=${mac}`);
  });

  it("verifies its own signature and refuses a changed body, another key, an old timestamp, junk", () => {
    const header = signCallback(keyHash, body, 1_700_000_000);
    expect(verifyCallbackSignature(header, body, keyHash, 1_700_000_100)).toBe(true);
    expect(verifyCallbackSignature(header, `${body} `, keyHash, 1_700_000_100)).toBe(false);
    expect(verifyCallbackSignature(header, body, secretKeyHash("sk_other"), 1_700_000_100)).toBe(false);
    expect(verifyCallbackSignature(header, body, keyHash, 1_700_000_301)).toBe(false);
    expect(verifyCallbackSignature("t=abc,v1=00", body, keyHash, 1_700_000_000)).toBe(false);
    expect(verifyCallbackSignature("", body, keyHash, 1_700_000_000)).toBe(false);
    expect(verifyCallbackSignature(`${header},v1=${"0".repeat(64)}`, body, keyHash, 1_700_000_000)).toBe(true);
  });

  it("refuses a timestamp that is not unix seconds", () => {
    expect(() => signCallback(keyHash, body, 1.5)).toThrow(RangeError);
    expect(() => signCallback(keyHash, body, -1)).toThrow(RangeError);
  });
});

describe("IP whitelist entries", () => {
  it.each([
    ["192.0.2.7", "192.0.2.7"],
    [" 10.0.0.0/8 ", "10.0.0.0/8"],
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["192.0.2.7/32", "192.0.2.7"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["2001:DB8:0:0::1", "2001:db8::1"],
    ["2001:db8::/32", "2001:db8::/32"],
    ["2001:db8:ffff::1/32", "2001:db8::/32"],
    ["::1/128", "::1"],
    ["::/0", "::/0"],
    ["::ffff:192.0.2.1", "::ffff:c000:201"],
  ])("accepts %j as %j", (raw, text) => {
    expect(parseIpEntry(raw)?.text).toBe(text);
  });

  it.each([
    "10.0.0.0/33",
    "2001:db8::/129",
    "10.0.0.0/",
    "10.0.0.0/-1",
    "10.0.0.0/8/8",
    "10.0.0.0/1e1",
    "256.0.0.1",
    "01.2.3.4",
    "1.2.3",
    "fe80::1%eth0",
    "example.com",
    "",
    "*",
  ])("refuses %j", (raw) => {
    expect(parseIpEntry(raw)).toBeNull();
  });

  it("deduplicates by canonical form, keeping the first occurrence and the order", () => {
    expect(
      normalizeIpList(["10.0.0.1", "10.0.0.0/8", "10.9.9.9/8", "2001:DB8::1", "2001:db8:0::1", "10.0.0.1/32"]),
    ).toEqual({
      ok: true,
      entries: ["10.0.0.1", "10.0.0.0/8", "2001:db8::1"],
    });
    expect(normalizeIpList(["1.1.1.1", "nope"])).toEqual({ ok: false, index: 1, value: "nope" });
  });

  it("matches addresses against the whitelist (empty = any; IPv4-mapped IPv6 as IPv4)", () => {
    const list = ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7"];
    expect(ipAllowed([], "203.0.113.9")).toBe(true);
    expect(ipAllowed(list, "10.200.1.1")).toBe(true);
    expect(ipAllowed(list, "::ffff:10.1.1.1")).toBe(true);
    expect(ipAllowed(list, "2001:db8:1::5")).toBe(true);
    expect(ipAllowed(list, "192.0.2.7")).toBe(true);
    expect(ipAllowed(list, "192.0.2.8")).toBe(false);
    expect(ipAllowed(list, "11.0.0.1")).toBe(false);
    expect(ipAllowed(list, "not-an-ip")).toBe(false);
  });
});

describe("POST /user/sk/refresh", () => {
  it("shows a new key once, stores only its sha256 and prefix, and kills the previous key", async () => {
    const c = await customer();
    const res = await post<SecretKeyRefreshResult>(t, "/user/sk/refresh", c.token, undefined);
    expect(res.status).toBe(200);
    const { secretKey, secretKeyPrefix, secretKeyCreatedAt } = res.body.data;
    expect(secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(secretKeyPrefix).toBe(secretKey.slice(0, 8));
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.secretKeyHash).toBe(createHash("sha256").update(secretKey).digest("hex"));
    expect(row.secretKeyPrefix).toBe(secretKeyPrefix);
    expect(row.secretKeyCreatedAt?.toISOString()).toBe(secretKeyCreatedAt);
    expect(JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(secretKey);

    const second = await refreshKey(c);
    expect(second).not.toBe(secretKey);
    const after = await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } });
    expect(after.secretKeyHash).toBe(secretKeyHash(second));
    expect(await t.prisma.user.count({ where: { secretKeyHash: secretKeyHash(secretKey) } })).toBe(0);
  });
});

describe("POST /user/ip/mod", () => {
  it("stores the canonical, deduplicated list and clears it with an empty one", async () => {
    const c = await customer();
    const res = await post<{ ipWhitelist: string[] }>(t, "/user/ip/mod", c.token, {
      ips: ["203.0.113.5", "10.0.0.0/8", "2001:DB8::/32", "203.0.113.5/32", " 10.1.0.0/8"],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.ipWhitelist).toEqual(["203.0.113.5", "10.0.0.0/8", "2001:db8::/32"]);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).ipWhitelist).toEqual(
      res.body.data.ipWhitelist,
    );
    expect(
      (await post<{ ipWhitelist: string[] }>(t, "/user/ip/mod", c.token, { ips: [] })).body.data.ipWhitelist,
    ).toEqual([]);
  });

  it("accepts 50 entries, refuses 51", async () => {
    const c = await customer();
    const ips = Array.from({ length: 51 }, (_, i) => `192.0.2.${i + 1}`);
    expect((await post(t, "/user/ip/mod", c.token, { ips: ips.slice(0, 50) })).status).toBe(200);
    const res = await post(t, "/user/ip/mod", c.token, { ips });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("field ips must be at most 50 long");
  });

  it.each([
    [{ ips: ["1.2.3.4", "10.0.0.0/33"] }, "field ips.1: 10.0.0.0/33 is not a valid IPv4/IPv6 address or CIDR range"],
    [{ ips: ["300.1.1.1"] }, "field ips.0: 300.1.1.1 is not a valid IPv4/IPv6 address or CIDR range"],
    [{ ips: ["2001:db8::/200"] }, "field ips.0: 2001:db8::/200 is not a valid IPv4/IPv6 address or CIDR range"],
    [{ ips: "1.2.3.4" }, "field ips must be a array"],
    [{ ips: [1234] }, "field ips.0 must be a string"],
    [{ ips: [""] }, "field ips.0 is required"],
    [{ ips: ["1".repeat(65)] }, "field ips.0 must be at most 64 long"],
    [{}, "field ips is required"],
  ])("refuses %j with 400 and keeps the old list", async (body, message) => {
    const c = await customer();
    await post(t, "/user/ip/mod", c.token, { ips: ["192.0.2.1"] });
    const res = await post(t, "/user/ip/mod", c.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).ipWhitelist).toEqual(["192.0.2.1"]);
  });
});

describe("POST /user/notify/mod", () => {
  it("saves an http(s) URL and clears it with an empty string", async () => {
    const c = await customer();
    const res = await post<NotifyModResult>(t, "/user/notify/mod", c.token, {
      notifyUrl: "https://hooks.example.com/sb?x=1",
    });
    expect(res.body.data).toEqual({ notifyUrl: "https://hooks.example.com/sb?x=1", test: null });
    const cleared = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: "" });
    expect(cleared.body.data.notifyUrl).toBeNull();
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).notifyUrl).toBeNull();
  });

  it("posts a signed test event the customer can verify from its key, and records the attempt", async () => {
    const c = await customer();
    const key = await refreshKey(c);
    const res = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: `${base}/ok`, test: true });
    expect(res.status).toBe(200);
    expect(res.body.data.test).toMatchObject({ delivered: true, httpStatus: 200, error: null, reason: "ok" });
    const got = received.findLast((r) => r.path === "/ok")!;
    const event = JSON.parse(got.body);
    expect(event).toMatchObject({ event: "test", data: { userId: c.id } });
    expect(got.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(got.headers["x-switchboard-event"]).toBe("test");
    const signature = String(got.headers["x-switchboard-signature"]);
    // what the customer does: sha256 of its key, then HMAC of "<t>.<body>"
    const customerKey = createHash("sha256").update(key).digest("hex");
    expect(verifyCallbackSignature(signature, got.body, customerKey, Math.floor(Date.now() / 1000))).toBe(true);
    const attempt = await t.prisma.notifyAttempt.findFirstOrThrow({ where: { userId: c.id }, orderBy: { id: "desc" } });
    expect(attempt).toMatchObject({ event: "test", attempt: 1, httpStatus: 200, error: null, batchId: null });
  });

  it("reports a receiver's error status, a refused connection and a redirect (not followed) as not delivered", async () => {
    const c = await customer();
    await refreshKey(c);
    const fail = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: `${base}/fail`, test: true });
    expect(fail.body.data.test).toMatchObject({
      delivered: false,
      httpStatus: 500,
      error: "http_500",
      reason: "server_error",
    });
    const redirect = await post<NotifyModResult>(t, "/user/notify/mod", c.token, {
      notifyUrl: `${base}/redirect`,
      test: true,
    });
    expect(redirect.body.data.test).toMatchObject({ delivered: false, httpStatus: 302, reason: "http_status" });
    // a port nothing listens on: bind one, note it, close it
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await post<NotifyModResult>(t, "/user/notify/mod", c.token, {
      notifyUrl: `http://127.0.0.1:${port}/x`,
      test: true,
    });
    expect(refused.body.data.test).toMatchObject({
      delivered: false,
      httpStatus: null,
      error: "ECONNREFUSED",
      reason: "connection_refused",
    });
    expect(await t.prisma.notifyAttempt.count({ where: { userId: c.id, event: "test" } })).toBe(3);
  });

  it("gives up on a receiver that does not answer within 5 seconds", async () => {
    const c = await customer();
    await refreshKey(c);
    const res = await post<NotifyModResult>(t, "/user/notify/mod", c.token, { notifyUrl: `${base}/hang`, test: true });
    expect(res.body.data.test).toMatchObject({
      delivered: false,
      httpStatus: null,
      error: "timeout",
      reason: "timeout",
    });
    expect(res.body.data.test!.durationMs).toBeGreaterThanOrEqual(4_900);
    expect(res.body.data.test!.durationMs).toBeLessThan(8_000);
  }, 15_000);

  it("refuses a test without a secret key (409) or without a URL (400), saving nothing", async () => {
    const c = await customer();
    await post(t, "/user/notify/mod", c.token, { notifyUrl: "https://before.example.com/" });
    const noKey = await post(t, "/user/notify/mod", c.token, { notifyUrl: `${base}/ok`, test: true });
    expect(noKey.status).toBe(409);
    expect(noKey.body.message).toContain("create one");
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).notifyUrl).toBe(
      "https://before.example.com/",
    );
    const noUrl = await post(t, "/user/notify/mod", c.token, { notifyUrl: "", test: true });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.message).toBe("give a notify URL to test");
  });

  it.each([
    [
      { notifyUrl: "ftp://files.example.com/x" },
      "field notifyUrl must be an http or https URL (without user name or password)",
    ],
    [
      { notifyUrl: "javascript:alert(1)" },
      "field notifyUrl must be an http or https URL (without user name or password)",
    ],
    [
      { notifyUrl: "https://user:pw@example.com/" },
      "field notifyUrl must be an http or https URL (without user name or password)",
    ],
    [{ notifyUrl: "not a url" }, "field notifyUrl must be an http or https URL (without user name or password)"],
    [
      { notifyUrl: "http://hooks.example.com:9/x" },
      "field notifyUrl: port 9 cannot receive HTTP callbacks (it belongs to another protocol); use 80, 443 or your web server's port",
    ],
    [
      { notifyUrl: "https://hooks.example.com:25/" },
      "field notifyUrl: port 25 cannot receive HTTP callbacks (it belongs to another protocol); use 80, 443 or your web server's port",
    ],
    [
      { notifyUrl: "http://hooks.example.com:0/x", test: true },
      "field notifyUrl: port 0 cannot receive HTTP callbacks (it belongs to another protocol); use 80, 443 or your web server's port",
    ],
    [{ notifyUrl: `https://example.com/${"a".repeat(1000)}` }, "field notifyUrl must be at most 1000 long"],
    [{ notifyUrl: 42 }, "field notifyUrl must be a string"],
    [{}, "field notifyUrl is required"],
    [{ notifyUrl: "https://example.com/", test: "yes" }, "field test must be a boolean"],
  ])("refuses %j with 400", async (body, message) => {
    const c = await customer();
    const res = await post(t, "/user/notify/mod", c.token, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it("says why a port is refused in Chinese too, and keeps the URL saved before", async () => {
    const c = await customer();
    await post(t, "/user/notify/mod", c.token, { notifyUrl: `${base}/ok` });
    const res = await post(t, "/user/notify/mod", c.token, { notifyUrl: "http://127.0.0.1:9/hook" }, { lang: "zh" });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "字段 notifyUrl 的端口 9 不能接收 HTTP 回调（保留给其他协议），请使用 80、443 或 Web 服务的端口",
    );
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).notifyUrl).toBe(`${base}/ok`);
  });

  it("sends nothing to a reserved port a URL saved before the rule may still name", async () => {
    const outcome = await postCallback(
      { url: "http://127.0.0.1:9/hook", body: "{}", headers: {} },
      { timeoutMs: 1_000, egress: createEgressPolicy("127.0.0.1") },
    );
    expect(outcome).toMatchObject({ delivered: false, httpStatus: null, error: "bad_port" });
  });
});

describe("notify URLs on refused addresses (the egress policy without exceptions)", () => {
  let strict: TestContext;
  beforeAll(async () => {
    strict = await createTestApp({ EGRESS_ALLOW: "" });
  });
  afterAll(() => strict.close());

  it.each([
    ["a loopback literal", () => `${base}/ok`],
    ["a name that resolves to loopback", () => `${base.replace("127.0.0.1", "localhost")}/ok`],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data"],
    ["a documentation address", () => "http://203.0.113.5/hook"],
    ["a benchmarking address", () => "http://198.18.0.1/hook"],
    ["an IPv4-mapped loopback", () => `${base.replace("127.0.0.1", "[::ffff:127.0.0.1]")}/ok`],
  ])("refuses %s when saved (400, translated), changing nothing and sending nothing", async (_name, url) => {
    const c = await makeAccount(strict, UserType.USER, w.tenantId);
    await post(strict, "/user/sk/refresh", c.token, undefined);
    await strict.prisma.user.update({ where: { id: c.id }, data: { notifyUrl: "https://before.example.com/" } });
    const count = received.length;
    const res = await post<NotifyModResult>(strict, "/user/notify/mod", c.token, { notifyUrl: url(), test: true });
    expect(res.status).toBe(400);
    const host = new URL(url()).host;
    expect(res.body.message).toBe(
      `the notify URL's host ${host} is an internal or reserved address our servers never call`,
    );
    expect(received.length).toBe(count);
    expect((await strict.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).notifyUrl).toBe(
      "https://before.example.com/",
    );
    expect(await strict.prisma.notifyAttempt.count({ where: { userId: c.id } })).toBe(0);
    const zh = await post(strict, "/user/notify/mod", c.token, { notifyUrl: url() }, { lang: "zh" });
    expect(zh.body.message).toBe(`回调地址 ${host} 指向内部或保留地址，平台不会向其发送回调`);
  });

  it("still refuses at delivery a URL that reaches a refused address (saved before, or a name re-pointed since)", async () => {
    const outcome = await postCallback(
      { url: `${base}/ok`, body: "{}", headers: {} },
      { timeoutMs: 1_000, egress: createEgressPolicy("") },
    );
    expect(outcome).toMatchObject({ delivered: false, httpStatus: null, error: "address_not_allowed" });
  });
});

describe("POST /user/api/toggle and GET /user/developer/info", () => {
  it("switches the API and reports the settings, never the key or its hash", async () => {
    const c = await customer();
    const empty = await get<DeveloperInfo>(t, "/user/developer/info", c.token);
    expect(empty.body.data).toEqual({
      apiEnabled: false,
      secretKeyPrefix: null,
      secretKeyCreatedAt: null,
      ipWhitelist: [],
      notifyUrl: null,
    });
    const on = await post<{ apiEnabled: boolean }>(t, "/user/api/toggle", c.token, { enabled: true });
    expect(on.body.data).toEqual({ apiEnabled: true });
    const key = await refreshKey(c);
    await post(t, "/user/ip/mod", c.token, { ips: ["198.51.100.0/24"] });
    await post(t, "/user/notify/mod", c.token, { notifyUrl: "https://hooks.example.com/" });
    const info = await get<DeveloperInfo>(t, "/user/developer/info", c.token);
    expect(info.body.data).toEqual({
      apiEnabled: true,
      secretKeyPrefix: key.slice(0, 8),
      secretKeyCreatedAt: expect.any(String),
      ipWhitelist: ["198.51.100.0/24"],
      notifyUrl: "https://hooks.example.com/",
    });
    const raw = JSON.stringify(info.body);
    expect(raw).not.toContain(key);
    expect(raw).not.toContain(secretKeyHash(key));
    expect((await post(t, "/user/api/toggle", c.token, { enabled: false })).body.data).toEqual({ apiEnabled: false });
  });

  it.each([[{}], [{ enabled: "true" }], [{ enabled: 1 }], [{ enabled: null }]])("refuses %j with 400", async (body) => {
    const c = await customer();
    expect((await post(t, "/user/api/toggle", c.token, body)).status).toBe(400);
  });
});

describe("who may use developer settings", () => {
  const routes: Array<[string, "GET" | "POST", unknown]> = [
    ["/user/developer/info", "GET", undefined],
    ["/user/sk/refresh", "POST", undefined],
    ["/user/ip/mod", "POST", { ips: [] }],
    ["/user/notify/mod", "POST", { notifyUrl: "" }],
    ["/user/api/toggle", "POST", { enabled: true }],
  ];

  it.each(routes)(
    "%s: customers only (403 for staff, 401 for frozen customers and no session)",
    async (url, method, body) => {
      const send = (token: string | undefined) => (method === "GET" ? get(t, url, token) : post(t, url, token, body));
      for (const staff of [w.admin, w.agent1]) expect((await send(staff.token)).status).toBe(403);
      const frozen = await makeAccount(t, UserType.USER, w.tenantId, { status: 2 });
      expect((await send(frozen.token)).status).toBe(401);
      expect((await send(undefined)).status).toBe(401);
      expect((await send((await customer()).token)).status).toBe(200);
    },
  );
});
