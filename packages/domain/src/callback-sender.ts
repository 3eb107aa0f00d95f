// Posts one callback to a customer's notify URL and reports how it went, without throwing for the receiver's
// failures (they are the result). Shared by the API's "send test" and the batch workers.
//
// The URL is the customer's input, so the request must not become a way into our own network (SSRF): it obeys
// the deployment's egress policy (packages/channels/src/egress.ts), checked on the address actually connected
// to, and redirects are not followed, for the same reason. What the receiver answers is never read into the
// outcome: only its status code.
import http from "node:http";
import https from "node:https";
import { type EgressPolicy, isEgressRefused } from "@switchboard/channels";
import { BAD_PORTS, portOfUrl } from "@switchboard/contracts";

export interface CallbackRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface CallbackOptions {
  timeoutMs: number;
  egress: EgressPolicy;
}

export interface CallbackOutcome {
  delivered: boolean;
  httpStatus: number | null;
  durationMs: number;
  /**
   * Short machine-readable reason when not delivered: timeout, address_not_allowed, bad_port, ECONNREFUSED,
   * http_500... (reasonOfCallbackError reads it as a translatable reason).
   */
  error: string | null;
}

/** Our own name for what went wrong: a fixed word or a system error code, never the receiver's words. */
function reasonOf(err: unknown): string {
  const e = err as { name?: string; code?: unknown };
  if (isEgressRefused(err)) return "address_not_allowed";
  if (e.name === "TimeoutError" || e.name === "AbortError") return "timeout";
  if (typeof e.code === "string" && /^[A-Z][A-Z0-9_]{0,63}$/.test(e.code)) return e.code;
  return "request_failed";
}

/** One POST; never follows redirects; reads (and discards) the answer within the same time limit. */
export async function postCallback(req: CallbackRequest, opts: CallbackOptions): Promise<CallbackOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(req.url);
  const port = portOfUrl(url);
  // A URL saved before the notify URL rules refused these ports: nothing is sent there either.
  if (BAD_PORTS.has(port)) return { delivered: false, httpStatus: null, durationMs: elapsed(), error: "bad_port" };
  if (!opts.egress.precheck(url.hostname, port)) {
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
          lookup: opts.egress.lookup(port),
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
