// One HTTP request of a connection test: a deadline, no redirects followed, a bounded body, and network
// failures described in a sentence instead of thrown. Shared by the WhatsApp, RCS and HTTP probes.

/** What every connection test reports. */
export interface ProbeResult {
  ok: boolean;
  /** What happened, in the provider's terms; never a credential. */
  detail: string;
  latencyMs: number;
}

export interface ProbeOptions {
  /** The HTTP client (tests and callers may pass their own); default the global fetch. */
  fetch?: typeof fetch;
  /** Deadline of each request; default 10 s. */
  timeoutMs?: number;
}

export const PROBE_TIMEOUT_MS = 10_000;
/** Provider answers are small; a larger body is cut rather than read into memory. */
const MAX_BODY_BYTES = 64 * 1024;

export type ProbeAnswer = { status: number; body: string } | { error: string };

export async function probeRequest(url: string, init: RequestInit, opts: ProbeOptions = {}): Promise<ProbeAnswer> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const where = new URL(url).host;
  try {
    // redirect "manual": a test reports what the configured URL answers, it does not wander elsewhere
    const res = await doFetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await readLimited(res) };
  } catch (err) {
    return { error: describeFetchError(err, where, timeoutMs) };
  }
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

function describeFetchError(err: unknown, where: string, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer from ${where} within ${timeoutMs} ms`;
  const code = e.cause?.code;
  switch (code) {
    case "ECONNREFUSED":
      return `connection refused by ${where} (nothing listening, or a firewall rejects us)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host ${where} could not be resolved (${code})`;
    case "ECONNRESET":
      return `connection to ${where} was reset by the peer`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${where} is unreachable (${code})`;
    default:
      if (code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `TLS handshake with ${where} failed (${code})`;
      return `request to ${where} failed: ${code ?? e.cause?.message ?? e.message ?? "unknown error"}`;
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
