// Channels: create/edit/list/detail/status/default per kind, credentials sealed at rest and never returned,
// "test connection" against loopback servers (an SMSC simulator, tiny node:http servers), role and tenant
// boundaries and bad input on every route.
import { generateKeyPairSync, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { channelSecretKey, decryptSecrets, encryptSecrets } from "@switchboard/channels";
import { probeHttp } from "@switchboard/channels/http";
import { probeRcs } from "@switchboard/channels/rcs";
import { type SmscSimulator, startSmscSimulator } from "@switchboard/channels/simulators";
import { probeWhatsapp } from "@switchboard/channels/whatsapp";
import { loadConfig } from "@switchboard/domain/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProduct, makeWorld, type ProductData, type World } from "./catalog-fixtures";
import { type CallOptions, call, createTestApp, type TestContext } from "./helpers";

let t: TestContext;
let w: World;
let other: World;
let smsc: SmscSimulator;
const servers: Server[] = [];

const hex = (n: number) => randomBytes(n).toString("hex");
const SMPP_PASSWORD = `P${hex(3)}`; // SMPP passwords are short (8 characters in SMPP 3.4)
const WA_TOKEN = `EAAG${hex(30)}`;
const WA_APP_SECRET = hex(16);
const WA_VERIFY = `verify-${hex(10)}`;
const HTTP_SECRET = `gw-${hex(20)}`;
const rcsKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const RCS_PEM = rcsKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const RCS_KEY = JSON.stringify({
  type: "service_account",
  client_email: "rbm-agent@example-project.iam.gserviceaccount.com",
  private_key_id: hex(20),
  private_key: RCS_PEM,
});
/** Every credential this file ever sends; none may come back in any response. */
const SECRETS = [SMPP_PASSWORD, WA_TOKEN, WA_APP_SECRET, WA_VERIFY, HTTP_SECRET, RCS_PEM, RCS_PEM.split("\n")[1]!];
const responses: string[] = [];

/** Every call of this file goes through here, so the leak scan sees every answer. */
async function channelCall<T = Record<string, unknown>>(method: "GET" | "POST", url: string, o: CallOptions) {
  const res = await call<T>(t.app, method, url, { lang: "en", ...o });
  responses.push(JSON.stringify(res.body));
  return res;
}

async function okCall<T = Channel>(method: "GET" | "POST", url: string, o: CallOptions): Promise<T> {
  const res = await channelCall<T>(method, url, o);
  if (res.body.code !== 0) throw new Error(`${method} ${url}: ${res.status} ${res.body.message}`);
  return res.body.data;
}

interface Channel {
  id: number;
  name: string;
  kind: string;
  productCode: number;
  config: Record<string, unknown>;
  secrets: Record<string, { set: boolean; last4: string | null }>;
  throughput: number;
  countryScope: number;
  countryCodes: string[];
  status: number;
  defaultFor: Array<{ id: number; name: string }>;
  routeCount: number;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A port nothing listens on (bound, read, closed). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let waUrl: string;
let rcsUrl: string;
let httpUrl: string;
let silentUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  other = await makeWorld(t);
  smsc = await startSmscSimulator({ systemId: "sbtest", password: SMPP_PASSWORD });

  // WhatsApp Cloud API: GET /{version}/{phone number id} with the bearer token
  waUrl = await listen((req, res) => {
    if (req.method !== "GET" || !req.url?.startsWith("/v21.0/1234567890?"))
      return json(res, 404, { error: { message: "Unknown path" } });
    if (req.headers.authorization !== `Bearer ${WA_TOKEN}`)
      return json(res, 401, { error: { message: "Invalid OAuth access token.", type: "OAuthException", code: 190 } });
    json(res, 200, { display_phone_number: "+1 555-0100", verified_name: "Acme Test", id: "1234567890" });
  });

  // Google OAuth token endpoint (JWT-bearer grant, RS256 signature checked) and the RBM API behind it
  rcsUrl = await listen((req, res, body) => {
    if (req.method === "POST" && req.url === "/token") {
      const form = new URLSearchParams(body);
      const [h, c, s] = (form.get("assertion") ?? "").split(".");
      const claims = JSON.parse(Buffer.from(c ?? "", "base64url").toString() || "{}");
      const signed = verify(
        "RSA-SHA256",
        Buffer.from(`${h}.${c}`),
        rcsKeys.publicKey,
        Buffer.from(s ?? "", "base64url"),
      );
      const good =
        form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
        signed &&
        claims.iss === "rbm-agent@example-project.iam.gserviceaccount.com" &&
        claims.scope === "https://www.googleapis.com/auth/rcsbusinessmessaging" &&
        claims.aud === `${rcsUrl}/token` &&
        claims.exp > claims.iat;
      if (!good) return json(res, 400, { error: "invalid_grant", error_description: "Invalid JWT Signature." });
      return json(res, 200, { access_token: "ya29.loopback", expires_in: 3600, token_type: "Bearer" });
    }
    if (req.method === "GET" && req.url === "/rbm/v1/brands")
      return json(res, 404, { error: { message: "Not Found" } });
    if (req.method === "GET" && req.url === "/v1/brands") {
      if (req.headers.authorization !== "Bearer ya29.loopback")
        return json(res, 401, { error: { message: "bad token" } });
      return json(res, 200, { brands: [] });
    }
    json(res, 404, {});
  });

  // A generic gateway: HEAD not allowed, GET without parameters is a 400, wrong credentials a 401
  httpUrl = await listen((req, res) => {
    const expected = `Basic ${Buffer.from(`gwuser:${HTTP_SECRET}`).toString("base64")}`;
    if (req.url !== "/send") return json(res, 404, {});
    if (req.method === "HEAD") {
      res.writeHead(405);
      return res.end();
    }
    if (req.headers.authorization !== expected) return json(res, 401, { error: "unauthorized" });
    json(res, 400, { error: "missing to" });
  });

  // accepts the connection, never answers
  silentUrl = await listen(() => {});
});

afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await smsc.close();
  await t.close();
});

const smppConfig = () => ({ host: "127.0.0.1", port: smsc.port, systemId: "sbtest", password: SMPP_PASSWORD });
const waConfig = () => ({
  baseUrl: waUrl,
  apiVersion: "v21.0",
  phoneNumberId: "1234567890",
  accessToken: WA_TOKEN,
  appSecret: WA_APP_SECRET,
  webhookVerifyToken: WA_VERIFY,
});
const rcsConfig = () => ({
  baseUrl: rcsUrl,
  agentId: "acme_agent",
  serviceAccountKey: RCS_KEY,
  tokenUrl: `${rcsUrl}/token`,
  webhookClientToken: "rbm-client-token-0001",
});
const httpConfig = () => ({
  url: `${httpUrl}/send`,
  method: "POST",
  authType: "basic",
  authUsername: "gwuser",
  authSecret: HTTP_SECRET,
  bodyTemplate: '{"to":"{to}","text":"{text}"}',
});

const create = (body: Record<string, unknown>, token = w.admin.token) =>
  okCall("POST", "/channel/create", { token, body: { name: `ch ${hex(3)}`, ...body } });
const secretKey = () => channelSecretKey(t.config.CHANNEL_SECRET_KEY);

describe("creating channels of every kind", () => {
  it("smpp: carries SMS, fills defaults, shows the password only as set", async () => {
    const ch = await create({
      kind: "smpp",
      throughput: 50,
      countryScope: 2,
      countryCodes: ["cn", "US"],
      config: smppConfig(),
    });
    expect(ch).toMatchObject({
      kind: "smpp",
      productCode: 3000,
      throughput: 50,
      countryScope: 2,
      countryCodes: ["CN", "US"],
      status: 1,
      defaultFor: [],
      routeCount: 0,
      secrets: { password: { set: true, last4: null } },
      config: {
        host: "127.0.0.1",
        port: smsc.port,
        systemId: "sbtest",
        systemType: "",
        sourceTon: 1,
        sourceNpi: 1,
        destTon: 1,
        destNpi: 1,
        bindMode: "transceiver",
        windowSize: 50,
        enquireLinkIntervalMs: 30000,
      },
    });
    expect(ch.config).not.toHaveProperty("password");
  });

  it("smpp: an HLR lookup for screening is optional, and its token is sealed like the password", async () => {
    const ch = await create({
      kind: "smpp",
      throughput: 50,
      countryScope: 1,
      config: {
        ...smppConfig(),
        lookupUrl: "https://hlr.example.com/lookup",
        lookupToken: "hlr-token-0123456789abcdef",
      },
    });
    expect(ch.config).toMatchObject({ lookupUrl: "https://hlr.example.com/lookup" });
    expect(ch.config).not.toHaveProperty("lookupToken");
    expect(ch.secrets.lookupToken).toEqual({ set: true, last4: null });
    const sealed = await t.prisma.channel.findUniqueOrThrow({ where: { id: ch.id } });
    expect(decryptSecrets(secretKey(), w.tenantId, sealed.secrets)).toMatchObject({
      password: expect.any(String),
      lookupToken: "hlr-token-0123456789abcdef",
    });
  });

  it("whatsapp: carries WS, long tokens show their last 4 characters", async () => {
    const ch = await create({ kind: "whatsapp", config: waConfig() });
    expect(ch.productCode).toBe(2000);
    expect(ch.secrets).toEqual({
      accessToken: { set: true, last4: `…${WA_TOKEN.slice(-4)}` },
      appSecret: { set: true, last4: `…${WA_APP_SECRET.slice(-4)}` },
      webhookVerifyToken: { set: true, last4: `…${WA_VERIFY.slice(-4)}` },
    });
    expect(Object.keys(ch.config).sort()).toEqual(["apiVersion", "baseUrl", "phoneNumberId"]);
  });

  it("rcs: carries RCS, shows the service account's e-mail, never the key", async () => {
    const ch = await create({ kind: "rcs", config: rcsConfig() });
    expect(ch.productCode).toBe(1000);
    expect(ch.secrets).toEqual({
      serviceAccountKey: { set: true, last4: null },
      webhookClientToken: { set: true, last4: null },
    });
    expect(ch.config.serviceAccountEmail).toBe("rbm-agent@example-project.iam.gserviceaccount.com");
  });

  it("http: carries SMS; without authentication it stores no secret", async () => {
    const ch = await create({ kind: "http", config: httpConfig() });
    expect(ch.productCode).toBe(3000);
    expect(ch.secrets).toEqual({ authSecret: { set: true, last4: `…${HTTP_SECRET.slice(-4)}` } });
    const open = await create({ kind: "http", config: { url: `${httpUrl}/send`, authSecret: "ignored-because-none" } });
    expect(open.secrets).toEqual({ authSecret: { set: false, last4: null } });
    const row = await t.prisma.channel.findUniqueOrThrow({ where: { id: open.id } });
    expect(decryptSecrets(secretKey(), w.tenantId, row.secrets)).toEqual({});
  });

  it("refuses a kind's missing credential, naming it, and writes nothing", async () => {
    const before = await t.prisma.channel.count({ where: { tenantId: w.tenantId } });
    const { password: _pw, ...noPassword } = smppConfig();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: "smpp", config: noPassword }, "field config.password is required"],
      [{ kind: "whatsapp", config: { ...waConfig(), appSecret: undefined } }, "field config.appSecret is required"],
      [
        { kind: "rcs", config: { ...rcsConfig(), serviceAccountKey: undefined } },
        "field config.serviceAccountKey is required",
      ],
      [{ kind: "http", config: { ...httpConfig(), authSecret: undefined } }, "field config.authSecret is required"],
    ];
    for (const [body, message] of cases) {
      const res = await channelCall("POST", "/channel/create", { token: w.admin.token, body: { name: "x", ...body } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await t.prisma.channel.count({ where: { tenantId: w.tenantId } })).toBe(before);
  });
});

describe("credentials at rest", () => {
  it("are sealed with AES-256-GCM in the v1 format, with a fresh IV each time and the tenant bound in", async () => {
    const ch = await create({ kind: "whatsapp", config: waConfig() });
    const row = await t.prisma.channel.findUniqueOrThrow({ where: { id: ch.id } });
    expect(row.secrets).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    for (const s of SECRETS) expect(row.secrets).not.toContain(s);
    expect(JSON.stringify(row.config)).not.toContain(WA_TOKEN);
    const key = secretKey();
    expect(decryptSecrets(key, w.tenantId, row.secrets)).toEqual({
      accessToken: WA_TOKEN,
      appSecret: WA_APP_SECRET,
      webhookVerifyToken: WA_VERIFY,
    });
    // another tenant's AAD, a flipped byte, another key: all refuse to open
    expect(() => decryptSecrets(key, other.tenantId, row.secrets)).toThrow();
    const parts = row.secrets.split(":");
    const data = Buffer.from(parts[3]!, "base64url");
    data[0] = data[0]! ^ 1;
    expect(() =>
      decryptSecrets(key, w.tenantId, [...parts.slice(0, 3), data.toString("base64url")].join(":")),
    ).toThrow();
    expect(() => decryptSecrets(randomBytes(32), w.tenantId, row.secrets)).toThrow();
    expect(() => decryptSecrets(key, w.tenantId, "v2:a:b:c")).toThrow(/v1 format/);
    // the same secrets sealed twice differ
    expect(encryptSecrets(key, 1, { a: "b" })).not.toBe(encryptSecrets(key, 1, { a: "b" }));
  });

  it("CHANNEL_SECRET_KEY: hex or base64 of 32 bytes, required in every mode", () => {
    const base = { DATABASE_URL: "postgresql://x/y", JWT_SECRET: hex(32) };
    expect(channelSecretKey(loadConfig({ ...base, CHANNEL_SECRET_KEY: hex(32) }).CHANNEL_SECRET_KEY)).toHaveLength(32);
    const b64 = randomBytes(32).toString("base64");
    expect(channelSecretKey(loadConfig({ ...base, CHANNEL_SECRET_KEY: b64 }).CHANNEL_SECRET_KEY)).toHaveLength(32);
    expect(() => loadConfig({ ...base, CHANNEL_SECRET_KEY: "too-short" })).toThrow(/CHANNEL_SECRET_KEY/);
    expect(() => loadConfig(base)).toThrow(/CHANNEL_SECRET_KEY/);
    expect(() => loadConfig({ ...base, NODE_ENV: "production" })).toThrow(/CHANNEL_SECRET_KEY/);
  });
});

describe("editing", () => {
  it("keeps every credential unless a new value is given", async () => {
    const ch = await create({ kind: "smpp", config: smppConfig() });
    const read = async () =>
      decryptSecrets(
        secretKey(),
        w.tenantId,
        (await t.prisma.channel.findUniqueOrThrow({ where: { id: ch.id } })).secrets,
      );

    const renamed = await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "smpp", name: "Renamed", throughput: 7, countryScope: 3, countryCodes: ["KP"] },
    });
    expect(renamed).toMatchObject({ name: "Renamed", throughput: 7, countryScope: 3, countryCodes: ["KP"] });
    expect(await read()).toEqual({ password: SMPP_PASSWORD });

    const { password: _pw, ...withoutPassword } = smppConfig();
    const reconfigured = await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: {
        id: ch.id,
        kind: "smpp",
        config: { ...withoutPassword, windowSize: 10, bindMode: "transmitter_receiver", receiverBinds: 3 },
      },
    });
    expect(reconfigured.config).toMatchObject({ windowSize: 10, bindMode: "transmitter_receiver", receiverBinds: 3 });
    // Receiver binds: 1 to 8 (each one counts toward the SMSC account's bind limit).
    const tooMany = await channelCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: {
        id: ch.id,
        kind: "smpp",
        config: { ...withoutPassword, bindMode: "transmitter_receiver", receiverBinds: 9 },
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toContain("receiverBinds");
    expect(reconfigured.name).toBe("Renamed");
    expect(await read()).toEqual({ password: SMPP_PASSWORD });

    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "smpp", config: { ...withoutPassword, password: "n3wPass" } },
    });
    expect(await read()).toEqual({ password: "n3wPass" });
  });

  it("drops a credential the settings no longer need, and asks for it again when they do", async () => {
    const ch = await create({ kind: "http", config: httpConfig() });
    const none = await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "http", config: { url: `${httpUrl}/send`, authType: "none" } },
    });
    expect(none.secrets).toEqual({ authSecret: { set: false, last4: null } });
    const res = await channelCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "http", config: { url: `${httpUrl}/send`, authType: "bearer" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("field config.authSecret is required");
  });

  it("never changes a channel's kind", async () => {
    const ch = await create({ kind: "smpp", config: smppConfig() });
    const res = await channelCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "http", name: "x" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("a channel's kind cannot change (this one is smpp)");
  });
});

describe("list, detail, status, default", () => {
  it("lists the tenant's channels with filters and paging; detail shows one", async () => {
    const tag = `flt${hex(3)}`;
    const a = await create({ name: `${tag} a`, kind: "smpp", config: smppConfig() });
    const b = await create({ name: `${tag} b`, kind: "whatsapp", config: waConfig() });
    await create({ name: `${tag} c`, kind: "http", config: httpConfig() }, other.admin.token);
    const all = await okCall<{ list: Channel[]; total: number }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { keyword: tag },
    });
    expect(all.total).toBe(2);
    expect(all.list.map((c) => c.id)).toEqual([a.id, b.id]);
    const sms = await okCall<{ list: Channel[]; total: number }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { keyword: tag, productCode: "3000" },
    });
    expect(sms.list.map((c) => c.id)).toEqual([a.id]);
    const ws = await okCall<{ list: Channel[] }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { keyword: tag, kind: "whatsapp", pageSize: "1" },
    });
    expect(ws.list.map((c) => c.id)).toEqual([b.id]);
    const page2 = await okCall<{ list: Channel[]; total: number }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { keyword: tag, page: "2", pageSize: "1" },
    });
    expect(page2).toMatchObject({ total: 2, list: [{ id: b.id }] });
    const detail = await okCall("GET", "/channel/detail", { token: w.admin.token, query: { id: String(b.id) } });
    expect(detail).toMatchObject({ id: b.id, kind: "whatsapp" });
  });

  it("pauses and enables, idempotently, with the status filter seeing it", async () => {
    const ch = await create({ kind: "smpp", config: smppConfig() });
    for (const status of [2, 2, 1, 2]) {
      const s = await okCall("POST", "/channel/status", { token: w.admin.token, body: { id: ch.id, status } });
      expect(s.status).toBe(status);
    }
    const paused = await okCall<{ list: Channel[] }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { status: "2", pageSize: "200" },
    });
    expect(paused.list.map((c) => c.id)).toContain(ch.id);
  });

  it("makes a channel its product's default only when the product codes match", async () => {
    const product = await createProduct(t, w.admin, { code: 3000 });
    const ws = await createProduct(t, w.admin, { code: 2000, category: "WhatsApp" });
    const ch = await create({ kind: "smpp", config: smppConfig() });
    const made = await okCall("POST", "/channel/default", {
      token: w.admin.token,
      body: { channelId: ch.id, productId: product.id },
    });
    expect(made.defaultFor).toEqual([{ id: product.id, name: product.name }]);
    expect((await t.prisma.product.findUniqueOrThrow({ where: { id: product.id } })).defaultChannelId).toBe(ch.id);
    const list = await call<{ list: Array<{ id: number; defaultChannelId: number; defaultChannelName: string }> }>(
      t.app,
      "GET",
      "/product/list",
      { token: w.admin.token, query: { pageSize: "200" } },
    );
    expect(list.body.data.list.find((p) => p.id === product.id)).toMatchObject({
      defaultChannelId: ch.id,
      defaultChannelName: ch.name,
    });

    const res = await channelCall("POST", "/channel/default", {
      token: w.admin.token,
      body: { channelId: ch.id, productId: ws.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`channel ${ch.name} carries product code 3000, but product ${ws.name} is 2000`);
    const foreign = await createProduct(t, other.admin);
    const res404 = await channelCall("POST", "/channel/default", {
      token: w.admin.token,
      body: { channelId: ch.id, productId: foreign.id },
    });
    expect(res404.status).toBe(404);
    expect(res404.body.message).toBe("product not found");
    expect((await t.prisma.product.findUniqueOrThrow({ where: { id: foreign.id } })).defaultChannelId).toBeNull();
  });
});

describe("test connection", () => {
  const test = async (id: number) =>
    okCall<{ ok: boolean; reason: string; httpStatus: number | null; detail: string; latencyMs: number }>(
      "POST",
      "/channel/test",
      {
        token: w.admin.token,
        body: { id },
      },
    );

  it("smpp: binds against the SMSC simulator; a wrong password and a dead port are reported", async () => {
    const ch = await create({ kind: "smpp", config: smppConfig() });
    const good = await test(ch.id);
    expect(good).toMatchObject({ ok: true, reason: "ok", httpStatus: null });
    expect(good.detail).toContain("bound as transceiver");
    expect(good.latencyMs).toBeGreaterThanOrEqual(0);

    const { password: _pw, ...rest } = smppConfig();
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "smpp", config: { ...rest, password: "wrong" } },
    });
    const refusedBind = await test(ch.id);
    expect(refusedBind).toMatchObject({ ok: false, reason: "credentials_refused" });
    expect(refusedBind.detail).toContain("refused");

    const dead = await create({ kind: "smpp", config: { ...smppConfig(), port: await deadPort() } });
    const down = await test(dead.id);
    expect(down).toMatchObject({ ok: false, reason: "connection_refused" });
    expect(down.detail).toContain("connection refused");
    // the outcome is reported, not stored as the channel's status
    expect((await t.prisma.channel.findUniqueOrThrow({ where: { id: dead.id } })).status).toBe(1);
  });

  it("whatsapp: reads the phone number with the token; a wrong token is the Graph API's own error", async () => {
    const ch = await create({ kind: "whatsapp", config: waConfig() });
    const good = await test(ch.id);
    expect(good).toMatchObject({ ok: true });
    expect(good.detail).toContain('1234567890 +1 555-0100 "Acme Test"');
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "whatsapp", config: { ...waConfig(), accessToken: `EAAG${hex(30)}` } },
    });
    const bad = await test(ch.id);
    expect(bad).toMatchObject({
      ok: false,
      detail: "the Graph API answered HTTP 401: Invalid OAuth access token. (code 190)",
    });
  });

  it("rcs: signs a JWT with the service-account key, gets a token, calls the API; a foreign key is refused", async () => {
    const ch = await create({ kind: "rcs", config: rcsConfig() });
    const good = await test(ch.id);
    expect(good).toMatchObject({ ok: true });
    expect(good.detail).toContain("authenticated as rbm-agent@example-project.iam.gserviceaccount.com");

    // a host without a brands listing (the real RBM messaging API) answered but did not refuse the token
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: {
        id: ch.id,
        kind: "rcs",
        config: { ...rcsConfig(), baseUrl: `${rcsUrl}/rbm`, serviceAccountKey: undefined },
      },
    });
    const noListing = await test(ch.id);
    expect(noListing).toMatchObject({ ok: true });
    expect(noListing.detail).toContain("did not refuse the access token (no brands listing there, HTTP 404)");

    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    const foreignKey = JSON.stringify({ ...JSON.parse(RCS_KEY), private_key: stranger.toString() });
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "rcs", config: { ...rcsConfig(), serviceAccountKey: foreignKey } },
    });
    const bad = await test(ch.id);
    expect(bad).toMatchObject({ ok: false });
    expect(bad.detail).toBe(
      "the token endpoint refused the service-account key (HTTP 400 invalid_grant: Invalid JWT Signature.)",
    );
  });

  it("http: HEAD, then GET when HEAD is not allowed, with the configured authentication", async () => {
    const ch = await create({ kind: "http", config: httpConfig() });
    const good = await test(ch.id);
    expect(good).toMatchObject({
      ok: true,
      reason: "ok",
      httpStatus: 400,
      detail: "the gateway answered HTTP 400 to an empty request: reachable, credentials not refused",
    });
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "http", config: { ...httpConfig(), authSecret: "wrong-secret" } },
    });
    expect(await test(ch.id)).toMatchObject({
      ok: false,
      reason: "credentials_refused",
      httpStatus: 401,
      detail: "the gateway refused the credentials (HTTP 401)",
    });
    await okCall("POST", "/channel/edit", {
      token: w.admin.token,
      body: { id: ch.id, kind: "http", config: { ...httpConfig(), url: `${httpUrl}/nowhere` } },
    });
    expect(await test(ch.id)).toMatchObject({
      ok: false,
      reason: "not_found",
      httpStatus: 404,
      detail: "the gateway has no such URL (HTTP 404)",
    });
  });

  it("http: a port kept for another protocol (9, discard) is named as such, and nothing is sent", async () => {
    const ch = await create({ kind: "http", config: { ...httpConfig(), url: "http://127.0.0.1:9/send" } });
    expect(await test(ch.id)).toMatchObject({ ok: false, reason: "bad_port", httpStatus: null });
  });

  it("reports a deadline and a refused connection instead of hanging or throwing", async () => {
    const slow = await probeHttp({ url: `${silentUrl}/x`, authType: "none" }, { timeoutMs: 200 });
    expect(slow.ok).toBe(false);
    expect(slow.detail).toBe(`no answer from ${new URL(silentUrl).host} within 200 ms`);
    expect(slow.reason).toBe("timeout");
    expect(slow.latencyMs).toBeGreaterThanOrEqual(150);
    const port = await deadPort();
    const refusedConn = await probeWhatsapp({
      baseUrl: `http://127.0.0.1:${port}`,
      apiVersion: "v21.0",
      phoneNumberId: "1",
      accessToken: "x",
    });
    expect(refusedConn).toMatchObject({ ok: false, reason: "connection_refused" });
    expect(refusedConn.detail).toContain("connection refused");
    const badPem = JSON.stringify({
      client_email: "x@example.com",
      private_key: "-----BEGIN PRIVATE KEY-----\nnot-a-key\n-----END PRIVATE KEY-----\n",
    });
    const unsignable = await probeRcs({ baseUrl: rcsUrl, tokenUrl: `${rcsUrl}/token`, serviceAccountKey: badPem });
    expect(unsignable).toMatchObject({ ok: false, reason: "invalid_key" });
    expect(unsignable.detail).toMatch(/^the service-account private key cannot sign \(/);
    expect(unsignable.detail).not.toContain("not-a-key");
  });
});

describe("boundaries", () => {
  let mine: Channel;
  let foreign: Channel;
  let product: ProductData;
  beforeAll(async () => {
    mine = await create({ kind: "smpp", config: smppConfig() });
    foreign = await create({ kind: "smpp", config: smppConfig() }, other.admin.token);
    product = await createProduct(t, w.admin);
  });

  const routes = (id: number, productId: number): Array<["GET" | "POST", string, CallOptions]> => [
    ["POST", "/channel/create", { body: { name: "x", kind: "smpp", config: smppConfig() } }],
    ["POST", "/channel/edit", { body: { id, kind: "smpp", name: "hijacked" } }],
    ["GET", "/channel/list", {}],
    ["GET", "/channel/detail", { query: { id: String(id) } }],
    ["POST", "/channel/status", { body: { id, status: 2 } }],
    ["POST", "/channel/default", { body: { channelId: id, productId } }],
    ["POST", "/channel/test", { body: { id } }],
    ["POST", "/channel/route", { body: { userId: w.customer.id, productId, action: 1, channelId: id } }],
    ["GET", "/channel/route/list", {}],
    ["POST", "/channel/transfer", { body: { fromChannelId: id, toChannelId: id } }],
    ["GET", "/channel/stats", {}],
  ];

  it("refuses agents and customers (403) and the signed-out (401) on every channel route", async () => {
    for (const [method, url, o] of routes(mine.id, product.id)) {
      for (const who of [w.agent, w.customer]) {
        const res = await channelCall(method, url, { ...o, token: who.token });
        expect({ url, status: res.status }).toEqual({ url, status: 403 });
      }
      const res = await channelCall(method, url, o);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 401, code: 401 });
    }
    const row = await t.prisma.channel.findUniqueOrThrow({ where: { id: mine.id } });
    expect(row).toMatchObject({ name: mine.name, status: 1 });
  });

  it("answers another tenant's channel exactly like a missing one", async () => {
    const otherProduct = await createProduct(t, other.admin);
    for (const id of [foreign.id, 999_999_999]) {
      for (const [method, url, o] of routes(id, product.id)) {
        if (
          ["/channel/create", "/channel/list", "/channel/route/list", "/channel/stats", "/channel/transfer"].includes(
            url,
          )
        )
          continue;
        const res = await channelCall(method, url, { ...o, token: w.admin.token });
        expect({ url, status: res.status, message: res.body.message }).toEqual({
          url,
          status: 404,
          message: "channel not found",
        });
      }
    }
    const transfer = await channelCall("POST", "/channel/transfer", {
      token: w.admin.token,
      body: { fromChannelId: foreign.id, toChannelId: mine.id },
    });
    expect(transfer.status).toBe(404);
    const stats = await channelCall("GET", "/channel/stats", {
      token: w.admin.token,
      query: { channelId: String(foreign.id) },
    });
    expect(stats.status).toBe(404);
    const list = await okCall<{ list: Channel[] }>("GET", "/channel/list", {
      token: w.admin.token,
      query: { pageSize: "200" },
    });
    expect(list.list.map((c) => c.id)).not.toContain(foreign.id);
    // nothing of the other tenant changed
    expect(await t.prisma.channel.findUniqueOrThrow({ where: { id: foreign.id } })).toMatchObject({
      name: foreign.name,
      status: 1,
    });
    expect((await t.prisma.product.findUniqueOrThrow({ where: { id: otherProduct.id } })).defaultChannelId).toBeNull();
  });

  it("refuses bad input on every route, naming the field, and writes nothing", async () => {
    const before = await t.prisma.channel.count({ where: { tenantId: w.tenantId } });
    const cases: Array<["GET" | "POST", string, CallOptions, string]> = [
      ["POST", "/channel/create", { body: { name: "x", kind: "sms", config: {} } }, "kind"],
      ["POST", "/channel/create", { body: { kind: "smpp", config: smppConfig() } }, "name"],
      ["POST", "/channel/create", { body: { name: "x", kind: "smpp" } }, "config"],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", config: { ...smppConfig(), port: 70000 } } },
        "config.port",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", config: { ...smppConfig(), host: "bad host!" } } },
        "config.host",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", config: { ...smppConfig(), systemId: "s".repeat(16) } } },
        "config.systemId",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", config: { ...smppConfig(), bindMode: "receiver" } } },
        "config.bindMode",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", config: { ...smppConfig(), sourceTon: 9 } } },
        "config.sourceTon",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", throughput: 0, config: smppConfig() } },
        "throughput",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", throughput: 10_001, config: smppConfig() } },
        "throughput",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", countryScope: 2, config: smppConfig() } },
        "countryCodes",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "smpp", countryScope: 3, countryCodes: ["XX"], config: smppConfig() } },
        "unknown country codes: XX",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "whatsapp", config: { ...waConfig(), baseUrl: "ftp://x" } } },
        "config.baseUrl",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "whatsapp", config: { ...waConfig(), phoneNumberId: "abc" } } },
        "config.phoneNumberId",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "whatsapp", config: { ...waConfig(), apiVersion: "21" } } },
        "config.apiVersion",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "rcs", config: { ...rcsConfig(), serviceAccountKey: "{}" } } },
        "config.serviceAccountKey must be a Google service-account key",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "rcs", config: { ...rcsConfig(), agentId: "" } } },
        "config.agentId",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "http", config: { ...httpConfig(), authUsername: undefined } } },
        "config.authUsername",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "http", config: { ...httpConfig(), authType: "header" } } },
        "config.authHeader",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "http", config: { ...httpConfig(), method: "DELETE" } } },
        "config.method",
      ],
      [
        "POST",
        "/channel/create",
        { body: { name: "x", kind: "http", config: { ...httpConfig(), bodyTemplate: "x".repeat(4001) } } },
        "config.bodyTemplate",
      ],
      ["POST", "/channel/edit", { body: { kind: "smpp", name: "x" } }, "id"],
      ["POST", "/channel/edit", { body: { id: mine.id, name: "x" } }, "kind"],
      ["POST", "/channel/edit", { body: { id: mine.id, kind: "smpp", countryCodes: ["US"] } }, "countryScope"],
      ["POST", "/channel/edit", { body: { id: mine.id, kind: "smpp", countryScope: 2 } }, "countryCodes"],
      ["GET", "/channel/list", { query: { kind: "fax" } }, "kind"],
      ["GET", "/channel/list", { query: { status: "3" } }, "status"],
      ["GET", "/channel/detail", { query: {} }, "id"],
      ["GET", "/channel/detail", { query: { id: "-1" } }, "id"],
      ["POST", "/channel/status", { body: { id: mine.id, status: 0 } }, "status"],
      ["POST", "/channel/default", { body: { channelId: mine.id } }, "productId"],
      ["POST", "/channel/test", { body: {} }, "id"],
      ["POST", "/channel/route", { body: { userId: w.customer.id, productId: product.id, action: 1 } }, "channelId"],
      ["POST", "/channel/route", { body: { userId: w.customer.id, productId: product.id, action: 3 } }, "action"],
      [
        "POST",
        "/channel/route",
        { body: { userId: w.customer.id, productId: product.id, action: 2, countryCodes: [] } },
        "countryCodes",
      ],
      ["GET", "/channel/route/list", { query: { channelId: "x" } }, "channelId"],
      ["POST", "/channel/transfer", { body: { fromChannelId: mine.id } }, "toChannelId"],
      [
        "POST",
        "/channel/transfer",
        { body: { fromChannelId: mine.id, toChannelId: mine.id } },
        "the source and target channels must differ",
      ],
      ["GET", "/channel/stats", { query: { from: "yesterday" } }, "from"],
      ["GET", "/channel/stats", { query: { timeZone: "Mars/Olympus" } }, "timeZone"],
      ["GET", "/channel/stats", { query: { productCode: "9" } }, "productCode"],
      [
        "GET",
        "/channel/stats",
        { query: { from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" } },
        "the statistics range must start before it ends",
      ],
      [
        "GET",
        "/channel/stats",
        { query: { from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" } },
        "at most 366 days",
      ],
    ];
    for (const [method, url, o, text] of cases) {
      const res = await channelCall(method, url, { ...o, token: w.admin.token });
      expect({ url, status: res.status, body: o.body ?? o.query }).toEqual({
        url,
        status: 400,
        body: o.body ?? o.query,
      });
      expect(res.body.message, `${url} ${JSON.stringify(o)}`).toContain(text);
    }
    expect(await t.prisma.channel.count({ where: { tenantId: w.tenantId } })).toBe(before);
    expect(await t.prisma.channel.findUniqueOrThrow({ where: { id: mine.id } })).toMatchObject({
      name: mine.name,
      status: 1,
    });
  });
});

it("never returns a credential in any response of this file (scan of every answer)", () => {
  expect(responses.length).toBeGreaterThan(100);
  for (const body of responses) {
    for (const secret of SECRETS) expect(body.includes(secret), `leaked in ${body.slice(0, 200)}`).toBe(false);
    expect(body).not.toContain("PRIVATE KEY");
  }
});
