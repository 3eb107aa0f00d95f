// One HTTP request of a connection test: a deadline, no redirects followed, a bounded body, and network
// failures described in a sentence instead of thrown. Shared by the WhatsApp, RCS and HTTP probes.
//
// Failures are described from our side only (a timeout, an error code): nothing the far side sent is quoted,
// since the URL is a tenant admin's input and its answer could be any internal service's reply.
import { BAD_PORTS, type ConnectionReason, portOfUrl, reasonOfErrorCode } from "@switchboard/contracts";
import { fetch as undiciFetch } from "undici";
import { EGRESS_REFUSED_DETAIL, type EgressPolicy, egressAgent, isEgressRefused } from "../egress";

/** What every connection test reports. */
export interface ProbeResult {
  ok: boolean;
  /** Why, as a code the clients translate. */
  reason: ConnectionReason;
  /** The provider's HTTP status the verdict rests on, when there was one. */
  httpStatus?: number;
  /** What happened, in the provider's terms; never a credential, never the far side's raw answer. */
  detail: string;
  latencyMs: number;
  /** Set when the egress policy refused the connection: the host (and port) it refused, nothing was sent. */
  egressRefused?: string;
}

export interface ProbeOptions {
  /** Every connection obeys it (the API always passes one); without it, the fetch below decides. */
  egress?: EgressPolicy;
  /** The HTTP client when there is no egress policy (tests may pass their own); default the global fetch. */
  fetch?: typeof fetch;
  /** Deadline of each request; default 10 s. */
  timeoutMs?: number;
}

export const PROBE_TIMEOUT_MS = 10_000;
/** Provider answers are small; a larger body is cut rather than read into memory. */
const MAX_BODY_BYTES = 64 * 1024;

export type ProbeFailure = { error: string; reason: ConnectionReason; egressRefused?: string };
export type ProbeAnswer = { status: number; body: string } | ProbeFailure;

export async function probeRequest(url: string, init: RequestInit, opts: ProbeOptions = {}): Promise<ProbeAnswer> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const where = new URL(url).host;
  if (BAD_PORTS.has(portOfUrl(new URL(url)))) {
    return {
      error: `${where}: the port is reserved for another protocol, no HTTP request is made to it`,
      reason: "bad_port",
    };
  }
  // A dispatcher of its own per request: a test connects once, and no idle socket outlives it.
  const agent = opts.egress ? egressAgent(opts.egress) : undefined;
  // redirect "manual": a test reports what the configured URL answers, it does not wander elsewhere
  const request = { ...init, redirect: "manual" as const, signal: AbortSignal.timeout(timeoutMs) };
  try {
    const res = agent
      ? ((await undiciFetch(url, { ...(request as Parameters<typeof undiciFetch>[1]), dispatcher: agent })) as Response)
      : await (opts.fetch ?? fetch)(url, request);
    return { status: res.status, body: await readLimited(res) };
  } catch (err) {
    if (isEgressRefused(err))
      return { error: `${EGRESS_REFUSED_DETAIL} (${where})`, reason: "address_not_allowed", egressRefused: where };
    return describeFetchError(err, where, timeoutMs);
  } finally {
    void agent?.destroy().catch(() => {});
  }
}

/** A failed answer as the probe's result, keeping the egress refusal visible to the caller. */
export function failedProbe(answer: ProbeFailure, latencyMs: number): ProbeResult {
  return {
    ok: false,
    reason: answer.reason,
    detail: answer.error,
    latencyMs,
    ...(answer.egressRefused === undefined ? {} : { egressRefused: answer.egressRefused }),
  };
}

async function readLimited(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < MAX_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  if (size >= MAX_BODY_BYTES) await reader.cancel();
  return Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString("utf8");
}

/** A verdict on an HTTP answer's status: credentials refused, no such URL, a server error, another status. */
export function reasonOfStatus(status: number): ConnectionReason {
  if (status === 401 || status === 403) return "credentials_refused";
  if (status === 404) return "not_found";
  if (status >= 500) return "server_error";
  return "http_status";
}

function describeFetchError(err: unknown, where: string, timeoutMs: number): ProbeFailure {
  const e = err as { name?: string; cause?: { code?: string; name?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError")
    return { error: `no answer from ${where} within ${timeoutMs} ms`, reason: "timeout" };
  const code = e.cause?.code;
  const reason = reasonOfErrorCode(code);
  const failure = (error: string, r: ConnectionReason = reason): ProbeFailure => ({ error, reason: r });
  switch (code) {
    case "ECONNREFUSED":
      return failure(`connection refused by ${where} (nothing listening, or a firewall rejects us)`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return failure(`host ${where} could not be resolved (${code})`);
    case "ECONNRESET":
      return failure(`connection to ${where} was reset by the peer`);
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return failure(`${where} is unreachable (${code})`);
    default:
      // Only codes (ours or node's), never a message: a parser error's text can carry the bytes it choked on.
      if (e.cause?.name === "HTTPParserError")
        return failure(`${where} did not answer like an HTTP server`, "not_http");
      if (code === undefined || !/^[A-Z][A-Z0-9_]{0,63}$/.test(code))
        return failure(`request to ${where} failed`, "request_failed");
      if (code.startsWith("ERR_TLS") || code.includes("CERT"))
        return failure(`TLS handshake with ${where} failed (${code})`);
      if (code.startsWith("HPE_")) return failure(`${where} did not answer like an HTTP server (${code})`);
      if (code === "UND_ERR_SOCKET") return failure(`connection to ${where} was closed before an answer`);
      return failure(`request to ${where} failed (${code})`);
  }
}

/** The JSON of an answer, or undefined when it is not JSON. */
export function jsonOf(body: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body) as unknown;
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    // providers answer HTML error pages too: simply not JSON
    return undefined;
  }
}

/** A provider's error text, shortened: enough to act on, never a whole page. */
export function shorten(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

export function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/** base URL + path, with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
