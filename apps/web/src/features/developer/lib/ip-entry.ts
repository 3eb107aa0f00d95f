// Client-side check of IP whitelist entries, accepting what the API accepts (apps/api/src/modules/developer/
// ip-whitelist.ts): a single IPv4 or IPv6 address or a CIDR range, no zone id, at most 64 characters.
import { IP_WHITELIST_MAX } from "@switchboard/contracts";

const OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
export const IP_ENTRY_MAX_LENGTH = 64;

function isIpv6(address: string): boolean {
  if (!address.includes(":") || /[%[\]/]/.test(address)) return false;
  // The URL parser implements the IPv6 address syntax (compression, embedded IPv4).
  return URL.canParse(`http://[${address}]`);
}

/** Whether one entry ("192.0.2.7", "10.0.0.0/8", "2001:db8::/32") is valid. */
export function isValidIpEntry(raw: string): boolean {
  const input = raw.trim();
  if (input === "" || input.length > IP_ENTRY_MAX_LENGTH) return false;
  const slash = input.indexOf("/");
  const address = slash === -1 ? input : input.slice(0, slash);
  const prefix = slash === -1 ? undefined : input.slice(slash + 1);
  const bits = IPV4.test(address) ? 32 : isIpv6(address) ? 128 : 0;
  if (bits === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bits;
}

export type IpListProblem =
  | { kind: "invalid"; line: number; value: string }
  | { kind: "tooLong"; line: number }
  | { kind: "tooMany"; count: number; max: number };

/** The entries of a textarea (one per line, blank lines ignored). */
export function splitIpLines(text: string): { line: number; value: string }[] {
  return text
    .split(/\r?\n/)
    .map((value, i) => ({ line: i + 1, value: value.trim() }))
    .filter((entry) => entry.value !== "");
}

/** Every problem of a whitelist as typed: bad lines, then the count. */
export function checkIpList(text: string, max = IP_WHITELIST_MAX): { entries: string[]; problems: IpListProblem[] } {
  const lines = splitIpLines(text);
  const problems: IpListProblem[] = [];
  for (const { line, value } of lines) {
    if (value.length > IP_ENTRY_MAX_LENGTH) problems.push({ kind: "tooLong", line });
    else if (!isValidIpEntry(value)) problems.push({ kind: "invalid", line, value });
  }
  if (lines.length > max) problems.push({ kind: "tooMany", count: lines.length, max });
  return { entries: lines.map((entry) => entry.value), problems };
}
