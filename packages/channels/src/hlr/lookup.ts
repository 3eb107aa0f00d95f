// SMS screening: an HLR-style lookup over HTTP for an SMPP channel (the channel's lookupUrl). HLR lookups are
// sold by SMS aggregators each with its own API; this is the one generic JSON shape we speak (docs/channels.md,
// "SMS screening"), which a small adapter service in front of any aggregator can answer:
//
//   POST {lookupUrl}   Authorization: Bearer {lookupToken} (when set)   Content-Type: application/json
//   {"numbers": ["+8613800138000", ...]}                       at most 1,000 numbers a request
//   200 {"results": [{"number": "+86...", "status": "reachable" | "unreachable" | "unknown",
//                     "mccmnc": "46000", "ported": false}]}   (mccmnc, ported: optional, not used yet)
//   401 / 403: the token is refused (the channel is paused, nothing is charged for the numbers);
//   429 (Retry-After in seconds) and 5xx: retried later; other 4xx: the slice fails (refunded).
// A number missing from the results is "unknown".
import type { Dispatcher } from "undici";
import { type Reachability, type ReachabilityOutcome, sendFailure } from "../adapter";
import { isEgressRefused } from "../egress";
import { httpCall } from "../http/call";
import { jsonOf } from "../http/request";

export const HLR_MAX_NUMBERS = 1_000;
const TIMEOUT_MS = 30_000;

export interface HlrLookupConfig {
  lookupUrl: string;
  lookupToken?: string | undefined;
}

export interface HlrLookup {
  checkReachability(numbers: readonly string[]): Promise<ReachabilityOutcome>;
}

const STATUSES: ReadonlySet<string> = new Set(["reachable", "unreachable", "unknown"]);

export function createHlrLookup(config: HlrLookupConfig, dispatcher: Dispatcher): HlrLookup {
  const url = new URL(config.lookupUrl);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (config.lookupToken) headers.authorization = `Bearer ${config.lookupToken}`;
  const lookupSlice = async (slice: readonly string[]): Promise<ReachabilityOutcome> => {
    const call = { origin: url.origin, path: `${url.pathname}${url.search}`, method: "POST" as const, headers };
    const answer = await httpCall(dispatcher, { ...call, body: JSON.stringify({ numbers: slice }) }, TIMEOUT_MS);
    if ("error" in answer) {
      if (isEgressRefused(answer.error))
        return sendFailure("EGRESS_REFUSED", false, "address not allowed by the egress policy", { reason: "provider" });
      const code = (answer.error as { code?: unknown }).code;
      return sendFailure("LOOKUP_UNAVAILABLE", true, `the HLR lookup failed (${String(code ?? "network")})`, {
        reason: "provider",
      });
    }
    const { status, body } = answer;
    const retryAfter = answer.headers["retry-after"];
    if (status === 401 || status === 403)
      return sendFailure(`HTTP_${status}`, false, "the HLR lookup refused the channel's token", {
        reason: "channel_auth",
      });
    if (status === 429 || status >= 500) {
      const seconds = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
      return sendFailure(`HTTP_${status}`, true, "the HLR lookup is busy", {
        reason: "provider",
        ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfterMs: Math.min(seconds, 3600) * 1000 } : {}),
      });
    }
    if (status < 200 || status >= 300)
      return sendFailure(`HTTP_${status}`, false, "the HLR lookup refused the request", { reason: "provider" });
    const results = jsonOf(body)?.results;
    if (!Array.isArray(results))
      return sendFailure("BAD_ANSWER", true, "the HLR lookup answered without a results list", { reason: "provider" });
    const out = new Map<string, Reachability>(slice.map((n) => [n, "unknown"]));
    for (const r of results as Array<{ number?: unknown; status?: unknown }>) {
      if (typeof r?.number !== "string" || !out.has(r.number)) continue;
      if (typeof r.status === "string" && STATUSES.has(r.status)) out.set(r.number, r.status as Reachability);
    }
    return { ok: true, results: out };
  };
  return {
    async checkReachability(numbers) {
      const results = new Map<string, Reachability>();
      for (let i = 0; i < numbers.length; i += HLR_MAX_NUMBERS) {
        const outcome = await lookupSlice(numbers.slice(i, i + HLR_MAX_NUMBERS));
        if (!outcome.ok) return outcome;
        for (const [n, r] of outcome.results) results.set(n, r);
      }
      return { ok: true, results };
    },
  };
}
