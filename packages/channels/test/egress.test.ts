// The egress policy: which addresses are refused, the allow list (with and without ports), the check on what a
// name resolves to, and every connection path that obeys it (the SMPP probe and live link, the HTTP probes,
// the undici agent) refusing before a single packet, and never quoting what a peer sent.
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { fetch } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { probeHttp } from "../src/http/index";
import {
  createEgressPolicy,
  createSmppAdapter,
  EGRESS_REFUSED,
  type EgressPolicy,
  egressAgent,
  isEgressRefused,
  isReservedAddress,
  parseEgressAllow,
  probeSmpp,
  smppConfigSchema,
} from "../src/index";
import { probeRcs } from "../src/rcs/index";
import { startSmscSimulator } from "../src/simulators/index";
import { probeWhatsapp } from "../src/whatsapp/index";

describe("reserved addresses", () => {
  it.each([
    ["0.0.0.0", "this network"],
    ["0.255.1.2", "this network"],
    ["10.1.2.3", "RFC 1918"],
    ["172.16.0.1", "RFC 1918"],
    ["172.31.255.254", "RFC 1918"],
    ["192.168.1.1", "RFC 1918"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.10", "TEST-NET-1"],
    ["198.51.100.7", "TEST-NET-2"],
    ["203.0.113.5", "TEST-NET-3"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.1", "benchmarking"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["224.0.0.251", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "IPv6 unspecified"],
    ["::1", "IPv6 loopback"],
    ["::7f00:1", "IPv4-compatible"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation (RFC 9637)"],
    ["2001:0:4136:e378::1", "Teredo"],
    ["2001:2::1", "benchmarking"],
    ["2001:10::1", "ORCHID"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:7f00:1", "IPv4-mapped loopback, hex"],
    ["::ffff:169.254.169.254", "IPv4-mapped metadata"],
    ["::ffff:10.0.0.1", "IPv4-mapped RFC 1918"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of the metadata address"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["2002:a00:1::1", "6to4 of 10.0.0.1"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["[::1]", "a bracketed literal"],
    ["localhost", "a name (only resolved addresses are judged)"],
    ["not-an-address", "not an address"],
  ])("%s is refused (%s)", (address) => {
    expect(isReservedAddress(address)).toBe(true);
    expect(createEgressPolicy().allows(address, 443)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255", // just below CGNAT
    "100.128.0.0", // just above CGNAT
    "172.32.0.1", // just above 172.16/12
    "192.0.1.1",
    "198.17.255.255",
    "198.20.0.1",
    "223.255.255.254",
    "2606:4700::1111",
    "2a00:1450:4001::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808", // NAT64 of a public address: how IPv6-only hosts reach IPv4
    "2002:808:808::1", // 6to4 of a public address
  ])("%s is allowed", (address) => {
    expect(isReservedAddress(address)).toBe(false);
    expect(createEgressPolicy().allows(address, 443)).toBe(true);
  });
});

describe("EGRESS_ALLOW", () => {
  it("parses addresses, ranges and ports, IPv6 in brackets, mapped IPv6 as IPv4", () => {
    expect(
      parseEgressAllow(" 127.0.0.1:2775, 10.0.0.0/8,,[::1]:8080,[fd00::/8],[fd00::]/16:443,[::ffff:192.168.1.0/120]"),
    ).toEqual([
      { address: "127.0.0.1", prefix: 32, family: "ipv4", port: 2775 },
      { address: "10.0.0.0", prefix: 8, family: "ipv4" },
      { address: "::1", prefix: 128, family: "ipv6", port: 8080 },
      { address: "fd00::", prefix: 8, family: "ipv6" },
      { address: "fd00::", prefix: 16, family: "ipv6", port: 443 },
      { address: "192.168.1.0", prefix: 24, family: "ipv4" },
    ]);
    expect(parseEgressAllow("")).toEqual([]);
  });

  it.each([
    ["::1", /write IPv6 in brackets/],
    ["fd00::/8", /write IPv6 in brackets/],
    ["localhost", /expected an IP address or CIDR range/],
    ["10.0.0.0/33", /prefix length is at most 32/],
    ["[fd00::/129]", /prefix length is at most 128/],
    ["[fd00::/8]/8", /two prefix lengths/],
    ["300.1.1.1", /not an IPv4 address/],
    ["127.0.0.1:0", /a port is 1-65535/],
    ["127.0.0.1:70000", /a port is 1-65535/],
    ["[zz::1]", /expected an IP address/],
  ])("refuses %s and names it", (entry, why) => {
    expect(() => parseEgressAllow(`8.8.8.8,${entry}`)).toThrow(why);
    expect(() => parseEgressAllow(entry)).toThrow(`EGRESS_ALLOW entry "${entry}"`);
  });

  it("an entry without a port allows every port of its addresses; with one, only that port", () => {
    const policy = createEgressPolicy("127.0.0.1:2775,10.20.0.0/16,[fd00::5]:443,[fe80::/64]");
    expect(policy.allows("127.0.0.1", 2775)).toBe(true);
    expect(policy.allows("::ffff:127.0.0.1", 2775)).toBe(true);
    expect(policy.allows("127.0.0.1", 2776)).toBe(false);
    expect(policy.allows("127.0.0.2", 2775)).toBe(false);
    expect(policy.allows("10.20.7.8", 1)).toBe(true);
    expect(policy.allows("10.20.7.8", 65535)).toBe(true);
    expect(policy.allows("10.21.0.1", 80)).toBe(false);
    expect(policy.allows("fd00::5", 443)).toBe(true);
    expect(policy.allows("fd00::5", 80)).toBe(false);
    expect(policy.allows("fe80::1234", 22)).toBe(true);
    expect(policy.allows("169.254.169.254", 80)).toBe(false);
    expect(policy.allows("8.8.8.8", 53)).toBe(true);
  });

  it("precheck judges literals (bracketed too) and leaves names to the lookup", () => {
    const policy = createEgressPolicy("127.0.0.1:2775");
    expect(policy.precheck("127.0.0.1", 2775)).toBe(true);
    expect(policy.precheck("127.0.0.1", 5432)).toBe(false);
    expect(policy.precheck("[::1]", 2775)).toBe(false);
    expect(policy.precheck("169.254.169.254", 80)).toBe(false);
    expect(policy.precheck("localhost", 5432)).toBe(true);
  });
});

function lookup(policy: EgressPolicy, host: string, port: number, all: boolean) {
  return new Promise<{ err: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
    policy.lookup(port)(host, { all }, (err, address) => resolve({ err, address })),
  );
}

describe("the lookup judges what a name resolves to", () => {
  it.each([false, true])("localhost (all: %s) is refused, allowed only when every answer is listed", async (all) => {
    const refused = await lookup(createEgressPolicy(), "localhost", 80, all);
    expect(refused.err?.code).toBe(EGRESS_REFUSED);
    // localhost may resolve to ::1 as well as 127.0.0.1: one refused answer refuses the name
    const allowed = await lookup(createEgressPolicy("127.0.0.1,[::1]"), "localhost", 80, all);
    expect(allowed.err).toBeNull();
    expect(JSON.stringify(allowed.address)).toMatch(/127\.0\.0\.1|::1/);
  });

  it("passes resolver errors through", async () => {
    const { err } = await lookup(createEgressPolicy(), "no-such-host.invalid", 80, false);
    expect(err?.code).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });
});

// ---------------------------------------------------------------- connections

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

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = await tcpServer();
  await s.close();
  return s.port;
}

// What PostgreSQL answers a client that does not speak its protocol: an ErrorResponse. Its first four bytes,
// read as an SMPP command_length, are 1157627904; the smpp package's error quoted that number.
const POSTGRES_REPLY = Buffer.concat([
  Buffer.from("E"),
  Buffer.from([0, 0, 0, 0x58]),
  Buffer.from("SFATAL\0VFATAL\0C0A000\0Munsupported frontend protocol 1234.5678\0Fpostmaster.c\0L2188\0\0"),
]);

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function smppConfig(host: string, port: number) {
  return smppConfigSchema.parse({ host, port, systemId: "sbtest", password: "secret", bindTimeoutMs: 2_000 });
}

describe("SMPP probe", () => {
  it("refuses loopback before connecting: an open and a closed port read the same", async () => {
    const open = await tcpServer();
    cleanups.push(open.close);
    const closed = await closedPort();
    const egress = createEgressPolicy();
    const onOpen = await probeSmpp(smppConfig("127.0.0.1", open.port), { egress });
    const onClosed = await probeSmpp(smppConfig("127.0.0.1", closed), { egress });
    expect(onOpen).toEqual({
      ok: false,
      reason: "address_not_allowed",
      detail: `address not allowed by the egress policy (127.0.0.1:${open.port})`,
      egressRefused: `127.0.0.1:${open.port}`,
    });
    expect(onClosed).toEqual({
      ok: false,
      reason: "address_not_allowed",
      detail: `address not allowed by the egress policy (127.0.0.1:${closed})`,
      egressRefused: `127.0.0.1:${closed}`,
    });
    expect(open.connections()).toBe(0);
  });

  it("refuses a name that resolves to loopback, and the metadata address", async () => {
    const open = await tcpServer();
    cleanups.push(open.close);
    const egress = createEgressPolicy();
    const byName = await probeSmpp(smppConfig("localhost", open.port), { egress });
    expect(byName).toMatchObject({ ok: false, egressRefused: `localhost:${open.port}` });
    expect(open.connections()).toBe(0);
    const started = performance.now();
    const metadata = await probeSmpp(smppConfig("169.254.169.254", 80), { egress });
    expect(metadata).toMatchObject({ ok: false, egressRefused: "169.254.169.254:80" });
    expect(performance.now() - started).toBeLessThan(1_000); // refused, not timed out
  });

  it("an allowed peer that does not speak SMPP is described, never quoted", async () => {
    const postgres = await tcpServer((socket) => socket.write(POSTGRES_REPLY));
    cleanups.push(postgres.close);
    const result = await probeSmpp(smppConfig("127.0.0.1", postgres.port), {
      egress: createEgressPolicy(`127.0.0.1:${postgres.port}`),
    });
    expect(result).toEqual({
      ok: false,
      reason: "not_smpp",
      detail: `the peer at 127.0.0.1:${postgres.port} did not speak SMPP`,
    });
    expect(postgres.connections()).toBe(1);
  });

  it("binds to an allowed SMSC", async () => {
    const sim = await startSmscSimulator({ systemId: "sbtest", password: "secret" });
    cleanups.push(() => sim.close());
    const result = await probeSmpp(smppConfig("127.0.0.1", sim.port), {
      egress: createEgressPolicy(`127.0.0.1:${sim.port}`),
    });
    expect(result.ok).toBe(true);
    expect(result.detail).toContain("bound as transceiver");
  });
});

describe("SMPP live link", () => {
  it("never connects to a refused host, literal or name; binds when the allow list names it", async () => {
    const sim = await startSmscSimulator({ systemId: "sbtest", password: "secret" });
    cleanups.push(() => sim.close());
    for (const host of ["127.0.0.1", "localhost"]) {
      const refused = createSmppAdapter(
        { ...smppConfig(host, sim.port), reconnectInitialMs: 10, reconnectMaxMs: 20 },
        { egress: createEgressPolicy() },
      );
      cleanups.push(() => refused.close());
      await new Promise((resolve) => setTimeout(resolve, 300)); // a dozen reconnect rounds
      expect(refused.stats().bound).toBe(false);
      expect(sim.stats()).toMatchObject({ binds: 0, sessions: 0 });
    }

    const allowed = createSmppAdapter(
      { ...smppConfig("127.0.0.1", sim.port), reconnectInitialMs: 10, reconnectMaxMs: 20 },
      { egress: createEgressPolicy(`127.0.0.1:${sim.port}`) },
    );
    cleanups.push(() => allowed.close());
    const deadline = Date.now() + 5_000;
    while (!allowed.stats().bound && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(allowed.stats().bound).toBe(true);
    expect(sim.stats().binds).toBe(1);
  });
});

describe("HTTP probes and the undici agent", () => {
  let server: HttpServer;
  let port: number;
  const requests: string[] = [];
  let answer: (url: string) => { status: number; body: string } = () => ({ status: 200, body: "{}" });

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      requests.push(req.url ?? "");
      const { status, body } = answer(req.url ?? "");
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ["a loopback literal", () => `http://127.0.0.1:${port}/send`, () => `127.0.0.1:${port}`],
    ["a name resolving to loopback", () => `http://localhost:${port}/send`, () => `localhost:${port}`],
    ["the metadata address", () => "http://169.254.169.254/latest/meta-data", () => "169.254.169.254"],
    ["a bracketed IPv6 loopback", () => `http://[::1]:${port}/send`, () => `[::1]:${port}`],
  ])("http: %s is refused before any request", async (_name, url, where) => {
    const before = requests.length;
    const result = await probeHttp({ url: url(), authType: "none" }, { egress: createEgressPolicy() });
    expect(result).toMatchObject({
      ok: false,
      reason: "address_not_allowed",
      detail: `address not allowed by the egress policy (${where()})`,
      egressRefused: where(),
    });
    expect(requests.length).toBe(before);
  });

  it("http: the allowed address and port is reached; the same address on another port is not", async () => {
    answer = () => ({ status: 200, body: "{}" });
    const good = await probeHttp(
      { url: `http://127.0.0.1:${port}/send`, authType: "none" },
      { egress: createEgressPolicy(`127.0.0.1:${port}`) },
    );
    expect(good).toMatchObject({ ok: true, detail: "the gateway answered HTTP 200" });
    const other = await probeHttp(
      { url: `http://127.0.0.1:${port}/send`, authType: "none" },
      { egress: createEgressPolicy(`127.0.0.1:${port + 1}`) },
    );
    expect(other).toMatchObject({ ok: false, egressRefused: `127.0.0.1:${port}` });
  });

  it("rcs: a refused token URL or base URL is refused; the token endpoint's words are its OAuth fields only", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const pem = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const serviceAccountKey = JSON.stringify({ client_email: "a@b.iam.gserviceaccount.com", private_key: pem });
    const base = `http://127.0.0.1:${port}`;
    const refusedToken = await probeRcs(
      { baseUrl: "https://rcsbusinessmessaging.googleapis.com", tokenUrl: `${base}/token`, serviceAccountKey },
      { egress: createEgressPolicy() },
    );
    expect(refusedToken).toMatchObject({ ok: false, egressRefused: `127.0.0.1:${port}` });

    answer = (url) =>
      url === "/token" ? { status: 200, body: JSON.stringify({ access_token: "tok" }) } : { status: 200, body: "{}" };
    const refusedBase = await probeRcs(
      { baseUrl: "http://169.254.169.254", tokenUrl: `${base}/token`, serviceAccountKey },
      { egress: createEgressPolicy(`127.0.0.1:${port}`) },
    );
    expect(refusedBase).toMatchObject({ ok: false, egressRefused: "169.254.169.254" });

    // A service that is not an OAuth endpoint: its "error" is not an error code, so it is not quoted.
    answer = () => ({ status: 400, body: JSON.stringify({ error: "relation users: SELECT password FROM users" }) });
    const foreign = await probeRcs(
      { baseUrl: base, tokenUrl: `${base}/token`, serviceAccountKey },
      { egress: createEgressPolicy(`127.0.0.1:${port}`) },
    );
    expect(foreign.detail).toBe("the token endpoint refused the service-account key (HTTP 400 no OAuth error code)");
  });

  it("whatsapp: a refused base URL is refused; an error's code is shown only when it is the Graph API's number", async () => {
    const config = { baseUrl: `http://127.0.0.1:${port}`, apiVersion: "v21.0", phoneNumberId: "1", accessToken: "t" };
    expect(await probeWhatsapp(config, { egress: createEgressPolicy() })).toMatchObject({
      ok: false,
      egressRefused: `127.0.0.1:${port}`,
    });
    answer = () => ({ status: 500, body: JSON.stringify({ error: { code: "internal: db password=hunter2" } }) });
    const odd = await probeWhatsapp(config, { egress: createEgressPolicy(`127.0.0.1:${port}`) });
    expect(odd.detail).toBe("the Graph API answered HTTP 500: no Graph API error message");
  });

  it("a peer that does not answer HTTP is described, never quoted", async () => {
    const banner = await tcpServer((socket) => socket.end("SSH-2.0-OpenSSH_9.6p1 internal-bastion-7\r\n"));
    cleanups.push(banner.close);
    const result = await probeHttp(
      { url: `http://127.0.0.1:${banner.port}/`, authType: "none" },
      { egress: createEgressPolicy(`127.0.0.1:${banner.port}`) },
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(`127.0.0.1:${banner.port} did not answer like an HTTP server`);
    expect(result.detail).not.toMatch(/SSH|OpenSSH|bastion/);
  });

  it("egressAgent: refused literal and name fail with EGRESS_REFUSED; an allowed target is fetched", async () => {
    const agent = egressAgent(createEgressPolicy(`127.0.0.1:${port}`));
    cleanups.push(() => agent.close());
    const before = requests.length;
    // localhost on the allowed port resolves to the allowed address; on another port the lookup refuses it
    for (const url of [`http://127.0.0.1:${port + 1}/`, `http://localhost:${port + 1}/`, "http://10.0.0.1/"]) {
      const err = await fetch(url, { dispatcher: agent }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isEgressRefused(err)).toBe(true);
    }
    expect(requests.length).toBe(before);
    answer = () => ({ status: 204, body: "" });
    expect((await fetch(`http://127.0.0.1:${port}/ok`, { dispatcher: agent })).status).toBe(204);
    expect(requests.at(-1)).toBe("/ok");
  });
});
