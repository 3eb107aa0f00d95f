// One request of an HTTP provider (RBM, the WhatsApp Cloud API, an HLR lookup) over a keep-alive dispatcher: a
// deadline, a bounded answer, a 2xx body skipped when the caller needs only the status. A network failure comes back
// as `{ error }` rather than thrown: each provider words it and decides whether a resend is safe (RBM refuses a
// message id it has seen; the Graph API does not), so the verdict stays with the provider.
import { Agent, type Dispatcher } from "undici";
import { type EgressPolicy, egressAgent } from "../egress";

/** Provider answers are small; anything larger is cut rather than read into memory. */
export const MAX_ANSWER_BYTES = 256 * 1024;
export const DEFAULT_CONNECTIONS = 64;

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Empty when the caller did not need it (discardOk). */
  body: string;
}

export interface HttpCall {
  origin: string;
  path: string;
  method: "GET" | "POST" | "DELETE";
  headers: Record<string, string>;
  body?: string;
  /** Skip reading a 2xx answer (a send needs nothing from it but its status). */
  discardOk?: boolean;
}

/**
 * The dispatcher an adapter owns when none is injected: an Agent (a provider's token endpoint and API can be
 * different origins), keep-alive, a bounded number of connections per origin, through the egress policy.
 */
export function defaultDispatcher(egress: EgressPolicy | undefined, connections = DEFAULT_CONNECTIONS): Dispatcher {
  const options = { connections, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000 };
  return egress ? egressAgent(egress, options) : new Agent(options);
}

export async function httpCall(
  dispatcher: Dispatcher,
  call: HttpCall,
  timeoutMs: number,
  maxBytes = MAX_ANSWER_BYTES,
): Promise<HttpAnswer | { error: unknown }> {
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
    if (call.discardOk && res.statusCode >= 200 && res.statusCode < 300) {
      await res.body.dump();
      return { status: res.statusCode, headers: res.headers, body: "" };
    }
    return { status: res.statusCode, headers: res.headers, body: await readBounded(res.body, maxBytes) };
  } catch (error) {
    return { error };
  }
}

async function readBounded(body: Dispatcher.ResponseData["body"], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size >= maxBytes) {
      body.destroy();
      break;
    }
  }
  return chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8");
}
