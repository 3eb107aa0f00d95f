// RCS Business Messaging channel adapter: sends agent messages over a keep-alive undici dispatcher with a cached
// OAuth token (token.ts), screens numbers (users:batchGet, or one capabilities call per number), revokes
// undelivered messages; events come by webhook (webhook.ts), so onReport never fires.
//
// References followed (RBM REST reference v1 and guides, developers.google.com/business-communications/
// rcs-business-messaging):
//   - phones.agentMessages.create: POST /v1/phones/{E.164}/agentMessages?messageId={UUID}&agentId={agentId},
//     body AgentMessage, answer the created AgentMessage ({name, sendTime, contentMessage}); 404 NOT_FOUND when the
//     user is not RCS-enabled or not reachable on a network the agent is launched on ("Send messages" guide:
//     fall back to another channel); "the platform ignores any agent message sent with an ID that was used by
//     an earlier message" (answered 409 ALREADY_EXISTS).
//   - users.batchGet: POST /v1/users:batchGet {users: [E.164], agentId} -> {reachableUsers: [...],
//     totalRandomSampleUserCount, reachableRandomSampleUserCount}; 600 queries a minute; up to 10,000 numbers a
//     call (the API's own comment in rbm.proto: "The current API supports up to 10.000 records").
//   - phones.getCapabilities: GET /v1/phones/{E.164}/capabilities?requestId={UUID}&agentId= -> {features: [...]},
//     404 NOT_FOUND when the user cannot be reached with RBM.
//   - phones.agentMessages.delete: DELETE /v1/phones/{E.164}/agentMessages/{messageId}?agentId= -> 200 when the
//     message was revoked, 404 when it had been delivered already ("Revoke messages" guide).
//
// No per-send validation or logging: the caller validated the content when the batch was created, and a batch
// sends one body object to every recipient (serialized once, message-body.ts).
import { randomUUID } from "node:crypto";
import { type RcsChannelConfig, rcsChannelConfig } from "@switchboard/contracts";
import { type Dispatcher, fetch as undiciFetch } from "undici";
import type {
  ChannelAdapter,
  DeliveryReport,
  Logger,
  OutboundMessage,
  Reachability,
  ReachabilityOutcome,
  SendFailure,
  SendOutcome,
} from "../adapter";
import { ChannelError, sendFailure, silentLogger } from "../adapter";
import type { EgressPolicy } from "../egress";
import { jsonOf } from "../http/request";
import {
  DEFAULT_TIMEOUT_MS,
  defaultDispatcher,
  e164,
  type RbmAnswer,
  type RbmCall,
  rbmCall,
  rbmFailure,
  splitBase,
} from "./http";
import { agentMessageBody, rbmMessageId } from "./message-body";
import { parseServiceAccountKey, probeRcs } from "./probe";
import { type AccessToken, RbmTokenSource } from "./token";

/** The channel's settings with its opened credentials, as the workers decrypt them. */
export type RcsAdapterConfig = Partial<RcsChannelConfig> &
  Pick<RcsChannelConfig, "agentId"> & { serviceAccountKey: string };

export interface RcsAdapterDeps {
  /**
   * The HTTP client. The workers pass one built with the egress policy (egressAgent); the adapter never closes an
   * injected one. Without it the adapter owns a keep-alive Agent (through `egress` when given). It must reach two
   * origins (the token endpoint and the API), so a single-origin Pool will not do.
   */
  dispatcher?: Dispatcher;
  egress?: EgressPolicy;
  logger?: Logger;
  /** The clock deciding when the access token is refreshed (ms); default Date.now. */
  now?: () => number;
  /** Deadline of each call; default 30 s. */
  timeoutMs?: number;
  /** Connections per origin of the adapter's own dispatcher; default 64. */
  connections?: number;
  /** Per-number capability calls in flight at once (capabilityCheck "single"); default 16. */
  capabilityConcurrency?: number;
  /** Numbers per users:batchGet call; default (and at most) 10,000. */
  batchGetSize?: number;
}

export interface RcsAdapterStats {
  sent: number;
  accepted: number;
  /** Sends answered 409: an earlier attempt of the same message had got through. */
  alreadyAccepted: number;
  failed: number;
  throttled: number;
  inflight: number;
  /** Access tokens obtained. */
  tokens: number;
}

export interface RcsAdapter extends ChannelAdapter {
  readonly kind: "rcs";
  stats(): RcsAdapterStats;
  checkReachability(numbers: readonly string[]): Promise<ReachabilityOutcome>;
  revoke(message: { to: string; providerMessageId: string }): Promise<{ ok: true; revoked: boolean } | SendFailure>;
}

/** users:batchGet's documented maximum of numbers per call. */
export const BATCH_GET_MAX = 10_000;
const DEFAULT_CAPABILITY_CONCURRENCY = 16;

interface Resolved {
  config: RcsChannelConfig;
  key: NonNullable<ReturnType<typeof parseServiceAccountKey>>;
  /** The key file's text, for the connection test. */
  keyText: string;
  origin: string;
  basePath: string;
  agentQuery: string;
}

function resolve(input: RcsAdapterConfig): Resolved {
  const parsed = rcsChannelConfig.safeParse(input);
  if (!parsed.success) throw new ChannelError("CONFIG", "invalid RCS channel settings", false);
  const key = parseServiceAccountKey(input.serviceAccountKey);
  if (!key) {
    throw new ChannelError(
      "CONFIG",
      "the RCS channel's service-account key has no client_email and private_key",
      false,
    );
  }
  const { origin, basePath } = splitBase(parsed.data.baseUrl);
  return {
    config: parsed.data,
    key,
    keyText: input.serviceAccountKey,
    origin,
    basePath,
    agentQuery: `agentId=${encodeURIComponent(parsed.data.agentId)}`,
  };
}

export function createRcsAdapter(config: RcsAdapterConfig, deps: RcsAdapterDeps = {}): RcsAdapter {
  return new RcsAdapterImpl(resolve(config), deps);
}

class RcsAdapterImpl implements RcsAdapter {
  readonly kind = "rcs" as const;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly tokens: RbmTokenSource;
  private readonly phonesPath: string;
  private headersToken: AccessToken | undefined;
  private headers: Record<string, string> | undefined;
  private closed = false;
  private readonly counters = { sent: 0, accepted: 0, alreadyAccepted: 0, failed: 0, throttled: 0, inflight: 0 };

  constructor(
    private readonly r: Resolved,
    private readonly deps: RcsAdapterDeps,
  ) {
    this.ownsDispatcher = deps.dispatcher === undefined;
    this.dispatcher = deps.dispatcher ?? defaultDispatcher(deps.egress, deps.connections);
    this.logger = deps.logger ?? silentLogger;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.phonesPath = `${r.basePath}/v1/phones/`;
    this.tokens = new RbmTokenSource({
      tokenUrl: r.config.tokenUrl,
      key: r.key,
      dispatcher: this.dispatcher,
      timeoutMs: this.timeoutMs,
      ...(deps.now === undefined ? {} : { now: deps.now }),
    });
  }

  stats(): RcsAdapterStats {
    return { ...this.counters, tokens: this.tokens.fetched };
  }

  onReport(_handler: (report: DeliveryReport) => void): void {
    // Events arrive as webhooks at the API (verifyRcsWebhook + parseRcsEvents), never on this object.
  }

  async send(msg: OutboundMessage): Promise<SendOutcome> {
    if (msg.kind !== "rcs") {
      return sendFailure("UNSUPPORTED_CONTENT", false, "the RCS channel only sends RCS content", { reason: "invalid" });
    }
    if (this.closed) return sendFailure("CLOSED", true, "the adapter is closed", { reason: "provider" });
    this.counters.sent++;
    this.counters.inflight++;
    try {
      const messageId = rbmMessageId(msg.messageId);
      const answer = await this.call({
        origin: this.r.origin,
        path: `${this.phonesPath}${e164(msg.to)}/agentMessages?messageId=${messageId}&${this.r.agentQuery}`,
        method: "POST",
        body: agentMessageBody(msg.body, msg.ttlSeconds),
        discardOk: true,
      });
      const outcome = "ok" in answer ? answer : this.sendOutcome(answer, messageId);
      if (outcome.ok) this.counters.accepted++;
      else {
        this.counters.failed++;
        if (outcome.reason === "throttled") this.counters.throttled++;
      }
      return outcome;
    } finally {
      this.counters.inflight--;
    }
  }

  private sendOutcome(answer: RbmAnswer, messageId: string): SendOutcome {
    if (answer.status >= 200 && answer.status < 300) return { ok: true, providerMessageId: messageId, parts: 1 };
    if (answer.status === 409) {
      // ALREADY_EXISTS: RBM has a message from this agent with this id. Ours are stable per recipient across
      // retries and unique otherwise (batch, recipient and batch time in them), so this is our own earlier
      // attempt whose answer was lost (a timeout, a dropped connection): it was accepted, and it is the message
      // the events will name. Treating it as a failure would resend nothing useful and fail a delivered message.
      this.counters.alreadyAccepted++;
      return { ok: true, providerMessageId: messageId, parts: 1 };
    }
    return rbmFailure(answer);
  }

  /** A call with a token; a 401 gets one fresh token and one retry (a token revoked or expired early). */
  private async call(call: Omit<RbmCall, "headers">): Promise<RbmAnswer | SendFailure> {
    let token = await this.tokens.get();
    if ("ok" in token) return token;
    let answer = await rbmCall(this.dispatcher, { ...call, headers: this.headersFor(token) }, this.timeoutMs);
    if (!("status" in answer) || answer.status !== 401) return answer;
    token = await this.tokens.refreshAfter(token);
    if ("ok" in token) return token;
    answer = await rbmCall(this.dispatcher, { ...call, headers: this.headersFor(token) }, this.timeoutMs);
    return answer;
  }

  /** One headers object per token, shared by every call made with it. */
  private headersFor(token: AccessToken): Record<string, string> {
    if (this.headersToken !== token || this.headers === undefined) {
      this.headersToken = token;
      this.headers = { authorization: token.authorization, "content-type": "application/json" };
    }
    return this.headers;
  }

  checkReachability(numbers: readonly string[]): Promise<ReachabilityOutcome> {
    return this.r.config.capabilityCheck === "single" ? this.checkEach(numbers) : this.checkBatches(numbers);
  }

  /** users:batchGet in slices: the numbers it lists are reachable, the others are not. */
  private async checkBatches(numbers: readonly string[]): Promise<ReachabilityOutcome> {
    const results = new Map<string, Reachability>();
    const size = Math.max(1, Math.min(BATCH_GET_MAX, this.deps.batchGetSize ?? BATCH_GET_MAX));
    for (let start = 0; start < numbers.length; start += size) {
      const slice = numbers.slice(start, start + size);
      const answer = await this.call({
        origin: this.r.origin,
        path: `${this.r.basePath}/v1/users:batchGet`,
        method: "POST",
        body: JSON.stringify({ users: slice.map(e164), agentId: this.r.config.agentId }),
      });
      if ("ok" in answer) return answer;
      if (answer.status !== 200) return rbmFailure(answer);
      const listed = jsonOf(answer.body)?.reachableUsers;
      // Google omits empty repeated fields from JSON: no list means nobody in this slice is reachable.
      if (listed !== undefined && !Array.isArray(listed)) {
        return sendFailure("BAD_ANSWER", true, "users:batchGet answered without a reachableUsers list", {
          reason: "provider",
        });
      }
      const reachable = new Set<string>();
      for (const n of (listed ?? []) as unknown[]) if (typeof n === "string") reachable.add(e164(n));
      for (const n of slice) results.set(n, reachable.has(e164(n)) ? "reachable" : "unreachable");
    }
    return { ok: true, results };
  }

  /**
   * One capabilities call per number, a bounded number at once. A number whose call failed for itself (a 5xx)
   * is "unknown"; a failure that concerns every call (no connection, no token, throttled, credentials refused,
   * address not allowed) stops the check and is the answer, so the caller can retry later, slow down or pause
   * the channel.
   */
  private async checkEach(numbers: readonly string[]): Promise<ReachabilityOutcome> {
    const results = new Map<string, Reachability>();
    let stop: SendFailure | undefined;
    let next = 0;
    const worker = async () => {
      while (stop === undefined && next < numbers.length) {
        const n = numbers[next++] as string;
        const answer = await this.call({
          origin: this.r.origin,
          path: `${this.phonesPath}${e164(n)}/capabilities?requestId=${randomUUID()}&${this.r.agentQuery}`,
          method: "GET",
        });
        if ("ok" in answer) stop ??= answer;
        else if (answer.status === 200) results.set(n, "reachable");
        else if (answer.status === 404) results.set(n, "unreachable");
        else {
          const failure = rbmFailure(answer);
          if (failure.reason === "throttled" || failure.reason === "channel_auth") stop ??= failure;
          else results.set(n, "unknown");
        }
      }
    };
    const concurrency = Math.max(1, this.deps.capabilityConcurrency ?? DEFAULT_CAPABILITY_CONCURRENCY);
    await Promise.all(Array.from({ length: Math.min(concurrency, numbers.length) }, worker));
    if (stop !== undefined) return stop;
    return { ok: true, results };
  }

  async revoke(message: {
    to: string;
    providerMessageId: string;
  }): Promise<{ ok: true; revoked: boolean } | SendFailure> {
    const answer = await this.call({
      origin: this.r.origin,
      path: `${this.phonesPath}${e164(message.to)}/agentMessages/${encodeURIComponent(message.providerMessageId)}?${this.r.agentQuery}`,
      method: "DELETE",
    });
    if ("ok" in answer) return answer;
    if (answer.status >= 200 && answer.status < 300) return { ok: true, revoked: true };
    // 404: delivered already (or never known): nothing left to withdraw, which is an answer, not a failure.
    if (answer.status === 404) return { ok: true, revoked: false };
    return rbmFailure(answer);
  }

  async test(): Promise<{ ok: boolean; detail: string }> {
    const { baseUrl, tokenUrl } = this.r.config;
    const dispatcher = this.dispatcher;
    // The probe speaks fetch; through our dispatcher it obeys the same egress policy as the sends.
    const viaDispatcher = ((input: string, init?: RequestInit) =>
      undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof fetch;
    const result = await probeRcs(
      { baseUrl, tokenUrl, serviceAccountKey: this.r.keyText },
      this.ownsDispatcher && this.deps.egress ? { egress: this.deps.egress } : { fetch: viaDispatcher },
    );
    return { ok: result.ok, detail: result.detail };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) {
      await this.dispatcher.close().catch((err: unknown) => {
        this.logger.warn({ err: err instanceof Error ? err.name : "unknown" }, "rcs dispatcher close failed");
      });
    }
  }
}
