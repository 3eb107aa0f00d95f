// The egress policy at the API: "test connection" refuses what the policy refuses before connecting (one
// translated answer, the same for an open and a closed port), a peer's bytes never come back in a detail, the
// notify-URL test obeys the allow list's ports, and a bad EGRESS_ALLOW stops the start.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { type NotifyModResult, UserType } from "@switchboard/contracts";
import { ConfigError, loadConfig } from "@switchboard/domain/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAccount, post } from "./accounts";
import { makeWorld, type World } from "./catalog-fixtures";
import { call, createTestApp, type TestContext } from "./helpers";

/** A TCP server on loopback that counts connections and does what `onConnection` says with each. */
async function tcpServer(onConnection: (socket: Socket) => void = () => {}) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type TcpServer = Awaited<ReturnType<typeof tcpServer>>;

// PostgreSQL's answer to a client that does not speak its protocol (an ErrorResponse): what the SMPP test of a
// channel aimed at port 5432 used to quote back ("PDU length was too large (1157627904, ...").
const POSTGRES_REPLY = Buffer.concat([
  Buffer.from("E"),
  Buffer.from([0, 0, 0, 0x58]),
  Buffer.from("SFATAL\0VFATAL\0C0A000\0Munsupported frontend protocol 1234.5678\0Fpostmaster.c\0L2188\0\0"),
]);

let t: TestContext;
let w: World;
let open: TcpServer;
let postgres: TcpServer;
let closedPort: number;

beforeAll(async () => {
  open = await tcpServer();
  postgres = await tcpServer((socket) => socket.write(POSTGRES_REPLY));
  const closed = await tcpServer();
  await closed.close();
  closedPort = closed.port;
  // Only the "PostgreSQL" peer is allowed: everything else on loopback is refused, as in a deployment.
  t = await createTestApp({ EGRESS_ALLOW: `127.0.0.1:${postgres.port}` });
  w = await makeWorld(t);
});
afterAll(async () => {
  await open.close();
  await postgres.close();
  await t.close();
});

async function channelWith(body: Record<string, unknown>): Promise<number> {
  const res = await call<{ id: number }>(t.app, "POST", "/channel/create", {
    token: w.admin.token,
    lang: "en",
    body: { name: `egress ${randomBytes(3).toString("hex")}`, ...body },
  });
  if (res.body.code !== 0) throw new Error(`channel/create: ${res.body.message}`);
  return res.body.data.id;
}

const smpp = (host: string, port: number) => ({
  kind: "smpp",
  config: { host, port, systemId: "sbtest", password: "secret" },
});

function testChannel(id: number, lang: "en" | "zh" = "en") {
  return call<{ ok: boolean; detail: string; latencyMs: number }>(t.app, "POST", "/channel/test", {
    token: w.admin.token,
    lang,
    body: { id },
  });
}

describe("POST /channel/test and the egress policy", () => {
  it("a loopback port answers the same refusal open or closed, and nothing connects", async () => {
    const onOpen = await testChannel(await channelWith(smpp("127.0.0.1", open.port)));
    const onClosed = await testChannel(await channelWith(smpp("127.0.0.1", closedPort)));
    for (const [res, port] of [
      [onOpen, open.port],
      [onClosed, closedPort],
    ] as const) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 1,
        message: `address not allowed by the egress policy (127.0.0.1:${port})`,
        data: null,
      });
    }
    expect(open.connections()).toBe(0);
    const zh = await testChannel(await channelWith(smpp("127.0.0.1", open.port)), "zh");
    expect(zh.body.message).toBe(`出站策略不允许连接该地址（127.0.0.1:${open.port}）`);
  });

  it("the allowed address on another port is refused too (an entry with a port allows that port only)", async () => {
    const res = await testChannel(await channelWith(smpp("127.0.0.1", postgres.port + 1)));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`address not allowed by the egress policy (127.0.0.1:${postgres.port + 1})`);
  });

  it.each<[string, () => Record<string, unknown>, () => string]>([
    ["smpp to localhost", () => smpp("localhost", open.port), () => `localhost:${open.port}`],
    ["smpp to the metadata address", () => smpp("169.254.169.254", 80), () => "169.254.169.254:80"],
    ["smpp to a private address", () => smpp("10.0.0.1", 2775), () => "10.0.0.1:2775"],
    [
      "http to the metadata address",
      () => ({
        kind: "http",
        config: {
          url: "http://169.254.169.254/latest/meta-data",
          method: "POST",
          authType: "none",
          bodyTemplate: "{}",
        },
      }),
      () => "169.254.169.254",
    ],
    [
      "http to a loopback port",
      () => ({
        kind: "http",
        config: { url: `http://127.0.0.1:${open.port}/send`, method: "POST", authType: "none", bodyTemplate: "{}" },
      }),
      () => `127.0.0.1:${open.port}`,
    ],
    [
      "whatsapp to a documentation address",
      () => ({
        kind: "whatsapp",
        config: {
          baseUrl: "https://203.0.113.9",
          apiVersion: "v21.0",
          phoneNumberId: "1234567890",
          accessToken: "EAAG-token",
          appSecret: "app-secret",
          webhookVerifyToken: "verify-token",
        },
      }),
      () => "203.0.113.9",
    ],
    [
      "rcs with a loopback token URL",
      () => ({
        kind: "rcs",
        config: {
          baseUrl: "https://rcsbusinessmessaging.googleapis.com",
          agentId: "acme_agent",
          tokenUrl: `http://localhost:${open.port}/token`,
          webhookClientToken: "rbm-client-token",
          serviceAccountKey: JSON.stringify({
            client_email: "rbm@example.iam.gserviceaccount.com",
            private_key: generateKeyPairSync("rsa", { modulusLength: 2048 })
              .privateKey.export({ type: "pkcs8", format: "pem" })
              .toString(),
          }),
        },
      }),
      () => `localhost:${open.port}`,
    ],
  ])("%s is refused before connecting", async (_name, body, where) => {
    const started = performance.now();
    const res = await testChannel(await channelWith(body()));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`address not allowed by the egress policy (${where()})`);
    expect(performance.now() - started).toBeLessThan(2_000); // refused at once, not timed out
    expect(open.connections()).toBe(0);
  });

  it("an allowed peer that is not an SMSC is described, never quoted", async () => {
    const res = await testChannel(await channelWith(smpp("127.0.0.1", postgres.port)));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ok: false,
      detail: `the peer at 127.0.0.1:${postgres.port} did not speak SMPP`,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/1157627904|FATAL|postmaster|PDU length/);
    expect(postgres.connections()).toBeGreaterThan(0);
  });
});

describe("the notify-URL test and the allow list's ports", () => {
  it("delivers to an allowed address and port, refuses the same address on another port when saved", async () => {
    let received = 0;
    const receiver = createHttpServer((_req, res) => {
      received++;
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    const scoped = await createTestApp({ EGRESS_ALLOW: `127.0.0.1:${port}` });
    try {
      const c = await makeAccount(scoped, UserType.USER, w.tenantId);
      await post(scoped, "/user/sk/refresh", c.token, undefined);
      const allowed = await post<NotifyModResult>(scoped, "/user/notify/mod", c.token, {
        notifyUrl: `http://127.0.0.1:${port}/hook`,
        test: true,
      });
      expect(allowed.body.data.test).toMatchObject({ delivered: true, httpStatus: 200 });
      expect(received).toBe(1);
      const otherPort = await post<NotifyModResult>(scoped, "/user/notify/mod", c.token, {
        notifyUrl: `http://127.0.0.1:${open.port}/hook`,
        test: true,
      });
      expect({ status: otherPort.status, message: otherPort.body.message }).toEqual({
        status: 400,
        message: `the notify URL's host 127.0.0.1:${open.port} is an internal or reserved address our servers never call`,
      });
      expect(open.connections()).toBe(0);
      expect((await scoped.prisma.user.findUniqueOrThrow({ where: { id: c.id } })).notifyUrl).toBe(
        `http://127.0.0.1:${port}/hook`,
      );
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
      await scoped.close();
    }
  });
});

describe("EGRESS_ALLOW in the configuration", () => {
  const base = () => ({
    DATABASE_URL: t.config.DATABASE_URL,
    JWT_SECRET: t.config.JWT_SECRET,
    CHANNEL_SECRET_KEY: t.config.CHANNEL_SECRET_KEY,
  });

  it("takes addresses, ranges and ports; defaults to no exceptions", () => {
    expect(loadConfig(base()).EGRESS_ALLOW).toBe("");
    const text = "127.0.0.1:2775, 10.0.0.0/8,[fd00::1]:443";
    expect(loadConfig({ ...base(), EGRESS_ALLOW: text }).EGRESS_ALLOW).toBe(text);
  });

  it.each(["localhost", "::1", "10.0.0.0/40", "127.0.0.1:99999"])("refuses %s and names the entry", (entry) => {
    expect(() => loadConfig({ ...base(), EGRESS_ALLOW: `8.8.8.8,${entry}` })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), EGRESS_ALLOW: entry })).toThrow(`EGRESS_ALLOW entry "${entry}"`);
  });
});
