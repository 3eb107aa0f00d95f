// One Graph API call over the adapter's keep-alive dispatcher: a deadline, a bounded answer, and network failures
// turned into a retry verdict instead of thrown. Shared by sends, template listing and the contacts check.
import { Agent, type Dispatcher } from "undici";
import { type SendFailure, sendFailure } from "../adapter";
import { type EgressPolicy, egressAgent, isEgressRefused } from "../egress";
import { jsonOf, shorten } from "../http/request";
import { classifyWhatsappError } from "./errors";

/** Graph API answers are small; anything larger is cut rather than read into memory. */
const MAX_ANSWER_BYTES = 256 * 1024;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECTIONS = 64;

export interface GraphAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** What a request was, for the far side: where to, and the parts that change per call. */
export interface GraphCall {
  origin: string;
  path: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** The dispatcher the adapter owns when none is injected: keep-alive, a bounded number of connections per origin. */
export function defaultDispatcher(egress: EgressPolicy | undefined, connections = DEFAULT_CONNECTIONS): Dispatcher {
  const options = { connections, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 };
  return egress ? egressAgent(egress, options) : new Agent(options);
}

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
  try {
    const res = await dispatcher.request({
      origin: call.origin,
      path: call.path,
      method: call.method,
      headers: call.headers,
      body: call.body ?? null,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = await readBounded(res.body);
    return { status: res.statusCode, headers: res.headers, body };
  } catch (err) {
    return networkFailure(err);
  }
}

async function readBounded(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size >= MAX_ANSWER_BYTES) {
      body.destroy();
      break;
    }
  }
  return chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
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
