// One RBM API (or token endpoint) call over the adapter's keep-alive dispatcher: a deadline, a bounded answer, and
// network failures turned into a retry verdict instead of thrown; and Google's error answer turned into the
// contract's failure.
//
// References followed: Google API error model (cloud.google.com/apis/design/errors, the RBM reference's
// "Status" type): a non-2xx answer carries {"error": {"code": <HTTP status>, "message", "status": "NOT_FOUND" |
// "ALREADY_EXISTS" | "RESOURCE_EXHAUSTED" | ..., "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
// "retryDelay": "1.5s"}, ...]}}. The RBM guides name the statuses a send meets: 404 NOT_FOUND (the user is not
// RCS-enabled or not reachable on a network the agent is launched on), 400 INVALID_ARGUMENT (a malformed message
// or a feature the device lacks), 429 RESOURCE_EXHAUSTED (quota), 401 UNAUTHENTICATED, 403 PERMISSION_DENIED.
import type { Dispatcher } from "undici";
import { type FailureReason, type SendFailure, sendFailure } from "../adapter";
import { isEgressRefused } from "../egress";
import { type HttpAnswer, type HttpCall, httpCall } from "../http/call";
import { jsonOf, shorten } from "../http/request";

export const DEFAULT_TIMEOUT_MS = 30_000;
export { DEFAULT_CONNECTIONS, defaultDispatcher } from "../http/call";

export type RbmAnswer = HttpAnswer;
export type RbmCall = HttpCall;

/** Which side of a call a network failure is described from (the words differ, the verdicts do not). */
export type CallTarget = "the RBM API" | "the token endpoint";

export async function rbmCall(
  dispatcher: Dispatcher,
  call: RbmCall,
  timeoutMs: number,
  target: CallTarget = "the RBM API",
): Promise<RbmAnswer | SendFailure> {
  const answer = await httpCall(dispatcher, call, timeoutMs);
  return "error" in answer ? networkFailure(answer.error, target) : answer;
}

/**
 * Network-level failures, all retryable. The codes after a written request are deliberately not the ones the
 * dispatcher treats as "may have been accepted, never resend" (SUBMIT_TIMEOUT, CONNECTION_LOST): RBM names each
 * message by our messageId and refuses an id it has seen with 409 ALREADY_EXISTS, which the adapter takes as
 * accepted, so a resend after a lost answer cannot reach the phone twice.
 */
export function networkFailure(err: unknown, target: CallTarget): SendFailure {
  if (isEgressRefused(err)) {
    // A channel URL the policy refuses is a setting to fix, not a recipient problem: nothing was sent.
    return sendFailure("EGRESS_REFUSED", false, "address not allowed by the egress policy", { reason: "provider" });
  }
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case "UND_ERR_HEADERS_TIMEOUT":
    case "UND_ERR_BODY_TIMEOUT":
      return sendFailure(
        "TIMEOUT",
        true,
        `no answer from ${target} in time (a resend is safe: RBM refuses a messageId it has seen)`,
        { reason: "provider" },
      );
    case "UND_ERR_CONNECT_TIMEOUT":
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return sendFailure("CONNECT_FAILED", true, `could not connect to ${target} (${code}); nothing was sent`, {
        reason: "provider",
      });
    default:
      return sendFailure(
        "CONNECTION_DROPPED",
        true,
        `the connection to ${target} failed before an answer${typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : ""} (a resend is safe: RBM refuses a messageId it has seen)`,
        { reason: "provider" },
      );
  }
}

interface GoogleError {
  code?: unknown;
  message?: unknown;
  status?: unknown;
  details?: unknown;
}

/** The documented error object of an answer, when there is one. */
export function googleError(answer: RbmAnswer): { status: string | undefined; message: string | undefined } {
  const error = jsonOf(answer.body)?.error as GoogleError | undefined;
  const status = typeof error?.status === "string" && /^[A-Z_]{1,40}$/.test(error.status) ? error.status : undefined;
  const message = typeof error?.message === "string" ? shorten(error.message) : undefined;
  return { status, message };
}

/** The HTTP status and Google's status name: "404_NOT_FOUND" (fits the outcome column's 32 characters). */
export function errorCodeOf(answer: RbmAnswer): string {
  const { status } = googleError(answer);
  return status === undefined ? `HTTP_${answer.status}` : `${answer.status}_${status}`;
}

/**
 * How long the API asked us to wait: the Retry-After header (seconds) when present, else google.rpc.RetryInfo's
 * retryDelay in the error details ("1.500s").
 */
export function retryAfterOf(answer: RbmAnswer): number | undefined {
  const header = answer.headers["retry-after"];
  const text = Array.isArray(header) ? header[0] : header;
  if (text !== undefined && /^\d{1,6}$/.test(text.trim())) return Number(text.trim()) * 1000;
  const details = (jsonOf(answer.body)?.error as GoogleError | undefined)?.details;
  if (!Array.isArray(details)) return undefined;
  for (const d of details as Array<{ "@type"?: unknown; retryDelay?: unknown }>) {
    if (d?.["@type"] !== "type.googleapis.com/google.rpc.RetryInfo" || typeof d.retryDelay !== "string") continue;
    const m = /^(\d{1,6})(?:\.(\d{1,9}))?s$/.exec(d.retryDelay);
    if (m) return Number(m[1]) * 1000 + Math.round(Number(`0.${m[2] ?? "0"}`) * 1000);
  }
  return undefined;
}

/**
 * A non-2xx API answer as the contract's failure, for the statuses whose meaning does not depend on the call
 * (the send's 404 / 409 are decided by the caller before this).
 */
export function rbmFailure(answer: RbmAnswer): SendFailure {
  const { message } = googleError(answer);
  const errorCode = errorCodeOf(answer);
  const detail = `HTTP ${answer.status}${message === undefined ? "" : `: ${message}`}`;
  const s = answer.status;
  let reason: FailureReason;
  let retryable: boolean;
  if (s === 429) {
    const retryAfterMs = retryAfterOf(answer);
    return sendFailure(errorCode, true, detail, {
      reason: "throttled",
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  if (s === 401 || s === 403) {
    // 401 after a fresh token, 403 (the key's service account may not use this agent, or the agent is not
    // launched): the channel's credentials are refused, whatever the recipient.
    reason = "channel_auth";
    retryable = false;
  } else if (s === 400) {
    reason = "invalid";
    retryable = false;
  } else if (s === 404) {
    reason = "unreachable";
    retryable = false;
  } else if (s >= 500 || s === 408) {
    reason = "provider";
    retryable = true;
  } else {
    reason = "provider";
    retryable = false;
  }
  return sendFailure(errorCode, retryable, detail, { reason });
}

/** The origin and base path of the configured API URL, split once so each call skips URL parsing. */
export function splitBase(baseUrl: string): { origin: string; basePath: string } {
  const url = new URL(baseUrl);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, "") };
}

/** E.164 with "+", from a number given with or without it. */
export function e164(number: string): string {
  return number.startsWith("+") ? number : `+${number}`;
}
