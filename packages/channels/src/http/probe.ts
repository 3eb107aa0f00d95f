// Connection test of a generic HTTP SMS gateway: a HEAD (or GET, when HEAD is not allowed) to the configured URL
// with the configured authentication. A gateway's send URL rarely answers an empty request with 200, so the
// verdict is about reachability and credentials: any answer that is not an authentication refusal, a missing
// URL or a server error counts as reachable.
import {
  elapsedSince,
  failedProbe,
  type ProbeOptions,
  type ProbeResult,
  probeRequest,
  reasonOfStatus,
} from "./request";

export interface HttpProbeConfig {
  url: string;
  authType: "none" | "basic" | "bearer" | "header";
  authUsername?: string | undefined;
  authHeader?: string | undefined;
  authSecret?: string | undefined;
}

/** The authentication header the gateway expects (also used by the sender). */
export function httpAuthHeaders(config: HttpProbeConfig): Record<string, string> {
  const secret = config.authSecret ?? "";
  switch (config.authType) {
    case "basic":
      return { authorization: `Basic ${Buffer.from(`${config.authUsername ?? ""}:${secret}`).toString("base64")}` };
    case "bearer":
      return { authorization: `Bearer ${secret}` };
    case "header":
      return config.authHeader ? { [config.authHeader]: secret } : {};
    default:
      return {};
  }
}

export async function probeHttp(config: HttpProbeConfig, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const startedAt = performance.now();
  const headers = httpAuthHeaders(config);
  let answer = await probeRequest(config.url, { method: "HEAD", headers }, opts);
  if ("status" in answer && (answer.status === 405 || answer.status === 501)) {
    answer = await probeRequest(config.url, { method: "GET", headers }, opts);
  }
  const latencyMs = elapsedSince(startedAt);
  if ("error" in answer) return failedProbe(answer, latencyMs);
  const { status } = answer;
  const failed = (detail: string): ProbeResult => ({
    ok: false,
    reason: reasonOfStatus(status),
    httpStatus: status,
    detail,
    latencyMs,
  });
  if (status === 401 || status === 403) return failed(`the gateway refused the credentials (HTTP ${status})`);
  if (status === 404) return failed("the gateway has no such URL (HTTP 404)");
  if (status >= 500) return failed(`the gateway answered with a server error (HTTP ${status})`);
  if (status >= 400 && status !== 400 && status !== 405 && status !== 422)
    return failed(`the gateway answered HTTP ${status}`);
  const note = status >= 400 ? " to an empty request: reachable, credentials not refused" : "";
  return {
    ok: true,
    reason: "ok",
    httpStatus: status,
    detail: `the gateway answered HTTP ${status}${note}`,
    latencyMs,
  };
}
