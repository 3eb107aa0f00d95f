// Posts one callback to a customer's notify URL and reports how it went, without throwing for the receiver's
// failures (they are the result). Shared by the API's "send test" and the batch workers.
//
// The URL is the customer's input, so the request must not become a way into our own network (SSRF): unless
// allowPrivateTargets is set, addresses that are loopback, private, link-local, carrier-grade NAT, multicast
// or reserved are refused, checked on the address actually connected to (the lookup of the socket itself, so
// a DNS answer that changes between a check and the connection cannot slip through). Redirects are not
// followed, for the same reason.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv6");
}

/** Whether an address is one a callback may not be sent to (IPv4-mapped IPv6 is checked as IPv4). */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return REFUSED.check(address, family === 4 ? "ipv4" : "ipv6");
}

export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface CallbackOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

export interface CallbackOutcome {
  delivered: boolean;
  httpStatus: number | null;
  durationMs: number;
  /** Short machine-readable reason when not delivered: timeout, address_not_allowed, ECONNREFUSED, http_500... */
  error: string | null;
}

class AddressNotAllowed extends Error {
  readonly code = "address_not_allowed";
}

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, "", 0);
    if (addresses.some((a) => isRefusedAddress(a.address))) return callback(new AddressNotAllowed(), "", 0);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "", 0);
    return callback(null, first.address, first.family);
  });
};

function reasonOf(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === "TimeoutError" || e.name === "AbortError") return "timeout";
  if (e.code) return e.code.slice(0, 64);
  return (e.message ?? "request failed").slice(0, 200);
}

/** One POST; never follows redirects; reads (and discards) the answer within the same time limit. */
export async function postCallback(req: CallbackRequest, opts: CallbackOptions): Promise<CallbackOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(req.url);
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  if (!opts.allowPrivateTargets && isIP(literal) && isRefusedAddress(literal)) {
    return { delivered: false, httpStatus: null, durationMs: elapsed(), error: "address_not_allowed" };
  }
  const client = url.protocol === "https:" ? https : http;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: "POST",
          headers: { ...req.headers, "content-length": Buffer.byteLength(req.body) },
          signal,
          ...(opts.allowPrivateTargets ? {} : { lookup: guardedLookup }),
        },
        (res) => {
          res.on("error", reject);
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      request.on("error", reject);
      request.end(req.body);
    });
    const delivered = status >= 200 && status < 300;
    return { delivered, httpStatus: status, durationMs: elapsed(), error: delivered ? null : `http_${status}` };
  } catch (err) {
    return { delivered: false, httpStatus: null, durationMs: elapsed(), error: reasonOf(err) };
  }
}
