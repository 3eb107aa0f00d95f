// One Graph API call over the adapter's keep-alive dispatcher: a deadline, a bounded answer, and network failures
// turned into a retry verdict instead of thrown. Shared by sends, template listing and the contacts check.
import type { Dispatcher } from "undici";
import { type SendFailure, sendFailure } from "../adapter";
import { isEgressRefused } from "../egress";
import { type HttpAnswer, type HttpCall, httpCall } from "../http/call";
import { jsonOf, shorten } from "../http/request";
import { classifyWhatsappError } from "./errors";

export const DEFAULT_TIMEOUT_MS = 30_000;
export { DEFAULT_CONNECTIONS, defaultDispatcher } from "../http/call";

export type GraphAnswer = HttpAnswer;

/** What a request was, for the far side: where to, and the parts that change per call. */
export type GraphCall = Omit<HttpCall, "discardOk">;

/**
 * The request's answer, or the failure a caller should report when there is none. Network-level failures are all
 * retryable: the caller owns the policy, and only it knows whether a possible duplicate is acceptable (a request
 * whose connection dropped after writing may have been accepted).
 */
export async function graphCall(
  dispatcher: Dispatcher,
  call: GraphCall,
  timeoutMs: number,
): Promise<GraphAnswer | SendFailure> {
  const answer = await httpCall(dispatcher, call, timeoutMs);
  return "error" in answer ? networkFailure(answer.error) : answer;
}

function networkFailure(err: unknown): SendFailure {
  if (isEgressRefused(err)) {
    // A channel URL the policy refuses is a setting to fix, not a recipient problem: nothing was sent.
    return sendFailure("EGRESS_REFUSED", false, "address not allowed by the egress policy", { reason: "provider" });
  }
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return sendFailure("TIMEOUT", true, "no answer from the Graph API in time (the message may have been accepted)", {
        reason: "provider",
      });
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return sendFailure("CONNECT_FAILED", true, `could not connect to the Graph API (${code}); nothing was sent`, {
        reason: "provider",
      });
    default:
      return sendFailure(
        "CONNECTION_LOST",
        true,
        `the connection failed before an answer${typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : ""} (the message may have been accepted)`,
        { reason: "provider" },
      );
  }
}

interface GraphErrorObject {
  code?: unknown;
  error_subcode?: unknown;
  message?: unknown;
  error_data?: { details?: unknown };
}

/** A non-2xx answer as the contract's failure: the documented error object decides, the HTTP status otherwise. */
export function graphFailure(answer: GraphAnswer): SendFailure {
  const error = jsonOf(answer.body)?.error as GraphErrorObject | undefined;
  const code = Number.isSafeInteger(error?.code) ? (error?.code as number) : undefined;
  const subcode = Number.isSafeInteger(error?.error_subcode) ? (error?.error_subcode as number) : undefined;
  const verdict = classifyWhatsappError(code, subcode, answer.status);
  const retryAfterMs = retryAfterOf(answer.headers["retry-after"]) ?? verdict.retryAfterMs;
  // Only the documented error fields, cut short: the far side's raw answer is never quoted.
  const details = typeof error?.error_data?.details === "string" ? error.error_data.details : undefined;
  const message = typeof error?.message === "string" ? error.message : undefined;
  const text = details ?? message;
  const detail = `HTTP ${answer.status}${text === undefined ? "" : `: ${shorten(text)}`}`;
  return sendFailure(code === undefined ? `HTTP_${answer.status}` : String(code), verdict.retryable, detail, {
    reason: verdict.reason,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** Retry-After in seconds (the HTTP-date form is not used by the Graph API and is ignored). */
function retryAfterOf(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,6}$/.test(text.trim())) return undefined;
  return Number(text.trim()) * 1000;
}

/** The origin and base path of the configured Graph API URL, split once so each call skips URL parsing. */
export function splitBase(baseUrl: string): { origin: string; basePath: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, "") };
}
