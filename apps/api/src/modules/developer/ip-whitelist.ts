// IP whitelist entries of a customer's secret key: single IPv4/IPv6 addresses and CIDR ranges.
// Entries are stored in one canonical form (lower-case compressed IPv6, the network address of a range, a
// full-length range written as a plain address), so duplicates are found whatever way they were typed.
import { BlockList, isIP } from "node:net";

export interface IpEntry {
  family: 4 | 6;
  /** Canonical text: "10.0.0.0/8", "2001:db8::/32", "192.0.2.7", "2001:db8::1". */
  text: string;
  network: string;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

function v4ToBig(address: string): bigint {
  return address.split(".").reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function bigToV4(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 0xffn)).join(".");
}

/** A canonical (URL-normalised) IPv6 text, which never contains an embedded dotted IPv4 part. */
function v6ToBig(canonical: string): bigint {
  const [head, tail] = canonical.includes("::") ? canonical.split("::") : [canonical, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

function bigToV6(n: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - i * 16)) & 0xffffn).toString(16));
  // Let the URL parser compress it (longest zero run, lower case), exactly like any other input.
  return canonicalV6(groups.join(":"));
}

function canonicalV6(address: string): string {
  return new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/** Parses one entry ("192.0.2.7", "10.0.0.0/8", "2001:DB8::/32"), or null when it is not a valid one. */
export function parseIpEntry(raw: string): IpEntry | null {
  const input = raw.trim();
  const slash = input.indexOf("/");
  const address = slash === -1 ? input : input.slice(0, slash);
  const prefixText = slash === -1 ? undefined : input.slice(slash + 1);
  // Zone ids (fe80::1%eth0) name an interface of one machine: meaningless in a whitelist.
  if (address.includes("%")) return null;
  const family = isIP(address);
  if (family !== 4 && family !== 6) return null;
  const bits: number = BITS[family];
  let prefix = bits;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > bits) return null;
  }
  const value = family === 4 ? v4ToBig(address) : v6ToBig(canonicalV6(address));
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  const network = family === 4 ? bigToV4(value & mask) : bigToV6(value & mask);
  return { family, network, prefix, text: prefix === bits ? network : `${network}/${prefix}` };
}

export type IpListResult = { ok: true; entries: string[] } | { ok: false; index: number; value: string };

/** Validates and canonicalises a whitelist, dropping duplicates (first occurrence kept, order kept). */
export function normalizeIpList(raw: readonly string[]): IpListResult {
  const seen = new Set<string>();
  for (const [index, value] of raw.entries()) {
    const entry = parseIpEntry(value);
    if (!entry) return { ok: false, index, value };
    seen.add(entry.text);
  }
  return { ok: true, entries: [...seen] };
}

/** Whether a caller's address may use the key: an empty whitelist allows any address. */
export function ipAllowed(whitelist: readonly string[], ip: string): boolean {
  if (whitelist.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const text of whitelist) {
    const entry = parseIpEntry(text);
    if (entry) list.addSubnet(entry.network, entry.prefix, entry.family === 4 ? "ipv4" : "ipv6");
  }
  return list.check(ip, family === 4 ? "ipv4" : "ipv6");
}
