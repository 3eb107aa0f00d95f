// Who may read /metrics (the API's, and the workers' ops server's): a caller whose address is in METRICS_ALLOW
// (loopback by default: Prometheus on the same host), or one that presents METRICS_TOKEN as a bearer token
// (Prometheus in another container). Everybody else gets a plain 404, as if there were no such page: the figures
// say how much a platform sends and through what, which is nobody else's business.
import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIP } from "node:net";

export interface MetricsAccess {
  /** IPs or CIDRs (config METRICS_ALLOW). */
  allow: readonly string[];
  /** Bearer token (config METRICS_TOKEN); none: addresses only. */
  token?: string | undefined;
}

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1, how a dual-stack socket reports it) as plain IPv4. */
function plainIp(ip: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return m?.[1] ?? ip;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** (caller address, Authorization header) -> may read the metrics. */
export function metricsGuard(access: MetricsAccess): (ip: string, authorization: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of access.allow) {
    const [address = "", bits] = entry.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  const token = access.token ? digest(access.token) : undefined;
  return (ip, authorization) => {
    const addr = plainIp(ip);
    const family = isIP(addr);
    if (family !== 0 && list.check(addr, family === 6 ? "ipv6" : "ipv4")) return true;
    if (!token || !authorization?.startsWith("Bearer ")) return false;
    // Compared as digests: equal lengths, and no timing hint about the token.
    return timingSafeEqual(digest(authorization.slice("Bearer ".length).trim()), token);
  };
}
