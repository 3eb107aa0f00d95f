// The one egress policy for every outbound connection whose address someone outside the operators typed: a
// channel's host or URLs (tenant admins), a notify URL (customers). Without it those settings turn our servers
// into a scanner of our own network: loopback services, the cloud metadata endpoint, private subnets.
//
// Refused by default: every address that is not ordinary public unicast (loopback, RFC 1918, CGNAT, link-local,
// multicast, broadcast, documentation, benchmarking, reserved, and their IPv6 counterparts). EGRESS_ALLOW names
// the exceptions of a deployment (an on-premises SMSC, the demo's loopback simulators), each an address or a
// CIDR range, optionally limited to one port.
//
// The check runs on the address actually connected to: a lookup function handed to the socket refuses when any
// resolved address is refused, so a name pointing at a private address, or answering differently on the second
// query (DNS rebinding), is caught. A literal IP skips the lookup in node's net, hence precheck() for those.
// Either way the refusal comes before any packet is sent, so it reads the same whether the port is open or not.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";

export const EGRESS_REFUSED = "EGRESS_REFUSED";
export const EGRESS_REFUSED_DETAIL = "address not allowed by the egress policy";

/** The error a refused connection fails with (code EGRESS_REFUSED); it names nothing about the target. */
export class EgressRefused extends Error {
  readonly code = EGRESS_REFUSED;
  constructor() {
    super(EGRESS_REFUSED_DETAIL);
    this.name = "EgressRefused";
  }
}

/** Whether an error (or its cause, as fetch wraps it) is an egress refusal. */
export function isEgressRefused(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    if (e.code === EGRESS_REFUSED) return true;
    e = e.cause as typeof e;
  }
  return false;
}

type Family = "ipv4" | "ipv6";

const REFUSED_V4 = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  REFUSED_V4.addSubnet(net, prefix, "ipv4");
}

// IPv6 outside global unicast (2000::/3) is refused as a whole: ::, ::1, the IPv4-compatible ::/96, 100::/64
// (discard), fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10, ff00::/8 (multicast), 5f00::/16...
// IPv4-mapped (::ffff:0:0/96) and NAT64 (64:ff9b::/96) addresses are judged by the IPv4 address inside them.
const GLOBAL_UNICAST_V6 = new BlockList();
GLOBAL_UNICAST_V6.addSubnet("2000::", 3, "ipv6");
const REFUSED_V6 = new BlockList();
for (const [net, prefix] of [
  ["2001::", 32], // Teredo: tunnels to any IPv4, private ones included
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
] as const) {
  REFUSED_V6.addSubnet(net, prefix, "ipv6");
}

/** The eight 16-bit groups of a valid IPv6 address (zone id dropped, an embedded dotted quad converted). */
function groupsOf(address: string): number[] {
  const bare = address.replace(/%.*$/, "");
  const toGroups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [Number.parseInt(g, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = g.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = bare.split("::");
  const left = toGroups(head);
  if (tail === undefined) return left;
  const right = toGroups(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

interface Ip {
  address: string;
  family: Family;
  /** The IPv4 address a 6to4 or NAT64 address leads to. */
  embedded?: string;
}

/** An address as the policy judges it: IPv4-mapped IPv6 becomes its IPv4 address; undefined when not an IP. */
function ipOf(text: string): Ip | undefined {
  const address = text.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(address);
  if (family === 4) return { address, family: "ipv4" };
  if (family !== 6) return undefined;
  const g = groupsOf(address);
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return { address: v4Of(g[6] ?? 0, g[7] ?? 0), family: "ipv4" };
  const bare = address.replace(/%.*$/, "");
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0)
    return { address: bare, family: "ipv6", embedded: v4Of(g[6] ?? 0, g[7] ?? 0) };
  if (g[0] === 0x2002) return { address: bare, family: "ipv6", embedded: v4Of(g[1] ?? 0, g[2] ?? 0) };
  return { address: bare, family: "ipv6" };
}

function reserved(ip: Ip): boolean {
  if (ip.family === "ipv4") return REFUSED_V4.check(ip.address, "ipv4");
  if (ip.embedded !== undefined) return REFUSED_V4.check(ip.embedded, "ipv4");
  return !GLOBAL_UNICAST_V6.check(ip.address, "ipv6") || REFUSED_V6.check(ip.address, "ipv6");
}

/** Whether the policy refuses this address unless the allow list names it; anything that is not an IP is. */
export function isReservedAddress(address: string): boolean {
  const ip = ipOf(address);
  return ip === undefined || reserved(ip);
}

// ---------------------------------------------------------------- the allow list

export interface EgressAllowEntry {
  address: string;
  prefix: number;
  family: Family;
  /** Only this port; undefined: any port. */
  port?: number;
}

export class EgressAllowError extends Error {}

const V4_ENTRY = /^([\d.]+)(?:\/(\d{1,2}))?(?::(\d{1,5}))?$/;
const V6_ENTRY = /^\[([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?\](?:\/(\d{1,3}))?(?::(\d{1,5}))?$/;

function parseEntry(entry: string): EgressAllowEntry {
  const bad = (why: string) => new EgressAllowError(`EGRESS_ALLOW entry "${entry}": ${why}`);
  const v4 = V4_ENTRY.exec(entry);
  const v6 = v4 ? undefined : V6_ENTRY.exec(entry);
  if (!v4 && !v6) {
    throw bad(
      isIP(entry.replace(/\/\d+$/, "")) === 6
        ? "write IPv6 in brackets ([fd00::1], [fd00::/8]:443)"
        : "expected an IP address or CIDR range, optionally with :port (10.0.0.5, 10.0.0.0/8, 127.0.0.1:2775)",
    );
  }
  let address: string;
  let prefixText: string | undefined;
  let portText: string | undefined;
  let family: Family;
  if (v4) {
    [, address = "", prefixText, portText] = v4;
    family = "ipv4";
    if (isIP(address) !== 4) throw bad("not an IPv4 address");
  } else {
    const [, a = "", inner, outer, p] = v6 as RegExpExecArray;
    if (inner !== undefined && outer !== undefined) throw bad("two prefix lengths");
    address = a;
    prefixText = inner ?? outer;
    portText = p;
    family = "ipv6";
    if (isIP(address) !== 6) throw bad("not an IPv6 address");
  }
  const max = family === "ipv4" ? 32 : 128;
  let prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) throw bad(`a prefix length is at most ${max}`);
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) throw bad("a port is 1-65535");
  // Connections to IPv4-mapped addresses are judged as IPv4, so an entry written that way is too.
  const ip = ipOf(address);
  if (family === "ipv6" && ip?.family === "ipv4" && prefix >= 96) {
    address = ip.address;
    family = "ipv4";
    prefix -= 96;
  }
  return { address, prefix, family, ...(port === undefined ? {} : { port }) };
}

/** EGRESS_ALLOW's text (comma-separated entries) as entries; throws EgressAllowError naming a bad entry. */
export function parseEgressAllow(text: string): EgressAllowEntry[] {
  return text
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "")
    .map(parseEntry);
}

// ---------------------------------------------------------------- the policy

export interface EgressPolicy {
  /** Whether a connection to this IP address and port may be opened; anything that is not an IP is refused. */
  allows(address: string, port: number): boolean;
  /**
   * The check before connecting: false when host is a literal IP (brackets allowed) the policy refuses. Names
   * pass here: lookup() judges what they resolve to.
   */
  precheck(host: string, port: number): boolean;
  /**
   * A dns.lookup for net.connect / tls.connect / http.request (their `lookup` option) that fails with
   * EgressRefused when any address the name resolves to is refused for this port.
   */
  lookup(port: number): LookupFunction;
}

class Policy implements EgressPolicy {
  private readonly anyPort = new BlockList();
  private readonly byPort = new Map<number, BlockList>();

  constructor(entries: readonly EgressAllowEntry[]) {
    for (const e of entries) {
      let list = this.anyPort;
      if (e.port !== undefined) {
        list = this.byPort.get(e.port) ?? new BlockList();
        this.byPort.set(e.port, list);
      }
      list.addSubnet(e.address, e.prefix, e.family);
    }
  }

  private listed(address: string, family: Family, port: number): boolean {
    return this.anyPort.check(address, family) || (this.byPort.get(port)?.check(address, family) ?? false);
  }

  allows(address: string, port: number): boolean {
    const ip = ipOf(address);
    if (ip === undefined) return false;
    if (this.listed(ip.address, ip.family, port)) return true;
    if (ip.embedded !== undefined && this.listed(ip.embedded, "ipv4", port)) return true;
    return !reserved(ip);
  }

  precheck(host: string, port: number): boolean {
    const literal = host.replace(/^\[(.*)\]$/, "$1");
    return isIP(literal) === 0 || this.allows(literal, port);
  }

  lookup(port: number): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, "", 0);
        // One refused answer refuses the name: a mixed answer is how rebinding tries its luck.
        if (addresses.some((a) => !this.allows(a.address, port))) return callback(new EgressRefused(), "", 0);
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "", 0);
        return callback(null, first.address, first.family);
      });
    };
  }
}

/** The policy with these exceptions: EGRESS_ALLOW's text, or entries already parsed. */
export function createEgressPolicy(allow: string | readonly EgressAllowEntry[] = ""): EgressPolicy {
  return new Policy(typeof allow === "string" ? parseEgressAllow(allow) : allow);
}

export interface EgressAgentOptions extends Omit<Agent.Options, "connect"> {
  /** Socket settings of the connector (no lookup or socketPath: the policy owns where it connects). */
  connect?: {
    timeout?: number | null;
    keepAlive?: boolean | null;
    keepAliveInitialDelay?: number | null;
    maxCachedSessions?: number | null;
    allowH2?: boolean;
  };
}

/**
 * An undici Agent (the dispatcher the HTTP-based channel adapters and probes take) whose every connection obeys
 * the policy: a refused literal fails before connecting, a name through the policy's lookup.
 */
export function egressAgent(policy: EgressPolicy, opts: EgressAgentOptions = {}): Agent {
  const { connect: socketOptions, ...agentOptions } = opts;
  // The lookup is per port (allow entries may name one), so one connector per port.
  const connectors = new Map<number, buildConnector.connector>();
  const connect: buildConnector.connector = (options, callback) => {
    const port = Number(options.port) || (options.protocol === "https:" ? 443 : 80);
    if (!policy.precheck(options.hostname, port)) {
      queueMicrotask(() => callback(new EgressRefused(), null));
      return;
    }
    let connector = connectors.get(port);
    if (connector === undefined) {
      // undici fills in host and port per connection; the options type insists on a port up front.
      connector = buildConnector({ ...socketOptions, lookup: policy.lookup(port) } as buildConnector.BuildOptions);
      connectors.set(port, connector);
    }
    connector(options, callback);
  };
  return new Agent({ ...agentOptions, connect });
}
