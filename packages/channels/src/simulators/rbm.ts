// An RCS Business Messaging API on loopback for development, tests and benchmarks: Google's OAuth token endpoint
// for a service-account key it generates (or is given), agent messages with RBM's validation and error answers,
// capability checks (one number, or users:batchGet), revocation, a per-agent rate limit, numbers that are not
// RCS-capable, and the events RBM pushes to the agent's webhook as signed Pub/Sub envelopes (delivered, read,
// user replies and suggestion taps, ttl expiry), retried, possibly duplicated and out of order.
//
// References followed (the same as the adapter's, see ../rcs/*.ts):
//   - Token: POST form grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<JWT RS256 signed with the
//     service-account key: iss = client_email, scope, aud = the token URL, iat, exp at most an hour later> ->
//     {"access_token", "expires_in", "token_type": "Bearer"}; a bad signature or a deleted key -> 400
//     {"error": "invalid_grant", "error_description": "Invalid JWT Signature."} (Google's server-to-server OAuth).
//   - Errors: {"error": {"code", "message", "status"}} (Google API error model); 401 UNAUTHENTICATED without a
//     valid token, 403 PERMISSION_DENIED for another agent, 400 INVALID_ARGUMENT, 404 NOT_FOUND (not RCS-capable
//     or not reachable), 409 ALREADY_EXISTS (a messageId this agent used), 429 RESOURCE_EXHAUSTED (quota; ours
//     adds Retry-After and a google.rpc.RetryInfo detail), 500 INTERNAL / 503 UNAVAILABLE.
//   - phones.agentMessages.create (messageId must be a UUID; answer: the AgentMessage with name
//     "phones/{E.164}/agentMessages/{messageId}" and sendTime), phones.agentMessages.delete (200 revoked, 404
//     delivered already), phones.getCapabilities ({features}), users.batchGet ({reachableUsers,
//     totalRandomSampleUserCount, reachableRandomSampleUserCount}; 600 queries a minute, up to 10,000 numbers).
//   - Limits checked: text 3072 characters, 11 suggestions per message, 4 per card, suggestion text 25,
//     postbackData 2048, card title 200 and description 2000, carousels of 2 to 10 cards ("Send messages" guide).
//   - Webhook: registration POST {"clientToken", "secret"} answered with the secret; each event a POST of
//     {"message": {"data": base64(event JSON), "messageId", "publishTime"}, "subscription"} with X-Goog-Signature =
//     base64(HMAC-SHA512(clientToken, decoded data)); Pub/Sub retries a non-2xx with backoff.
//   - Events: {senderPhoneNumber, eventType: DELIVERED | READ, eventId, messageId, sendTime, agentId};
//     {phoneNumber, messageId, agentId, eventType: TTL_EXPIRATION_REVOKED, eventId, sendTime} when a message's ttl
//     ran out undelivered; user messages {senderPhoneNumber, messageId, sendTime, agentId, text |
//     suggestionResponse {postbackData, text, type: "REPLY"}}.
//
// Deterministic rules, whatever the shares say (so tests can pick numbers):
//   numbers ending 404 are not RCS-capable; a number is also not capable when a hash of it falls under
//   nonCapableShare. setCapable / setOffline override per number. Offline numbers accept messages and never get
//   them delivered (a ttl then expires them).
import {
  createHmac,
  createPublicKey,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import type { Logger } from "../adapter";
import { silentLogger } from "../adapter";
import { RBM_SCOPE } from "../rcs/probe";
import { hashShare } from "./share";

// ---------------------------------------------------------------- options, stats

export interface RbmSimulatorOptions {
  /** Default 127.0.0.1. */
  host: string;
  /** 0 (default) picks a free port. */
  port: number;
  agentId: string;
  /** The service-account key file (JSON) whose tokens it grants; generated (RSA 2048) when absent. */
  serviceAccountKey?: string | undefined;
  /** Lifetime of the access tokens it issues (Google: 3600). */
  tokenTtlSeconds: number;
  /** The webhook's clientToken: key of X-Goog-Signature. */
  clientToken: string;
  /** Where events and user messages are pushed; none: nothing is pushed. */
  webhookUrl?: string | undefined;
  /** Performs the registration handshake against webhookUrl before listening; a failed one fails the start. */
  verifyOnStart: boolean;
  /** Delay before each API answer. */
  latencyMs: number;
  /** Agent messages per second the agent may create (token bucket, one second of burst); 0 = unlimited. */
  rps: number;
  /** users:batchGet calls a minute (Google: 600); 0 = unlimited. */
  batchGetQpm: number;
  /** Share (0..1) of numbers that are not RCS-capable (by a hash of the number, so always the same ones). */
  nonCapableShare: number;
  /** Share (0..1) of numbers whose phone is offline: messages are accepted and stay undelivered. */
  offlineShare: number;
  /** Share (0..1) of agent messages answered 500 INTERNAL / 503 UNAVAILABLE. */
  serverErrorShare: number;
  deliveryDelayMs: number;
  /** Share (0..1) of delivered messages that are then read. */
  readShare: number;
  readDelayMs: number;
  /** Share (0..1) of delivered messages the user answers: a tap on the first suggested reply, else a text. */
  replyShare: number;
  replyDelayMs: number;
  replyText: string;
  /** Share (0..1) of events pushed twice (Pub/Sub's at-least-once redelivery: same ids). */
  duplicateShare: number;
  /** Share (0..1) of read messages whose READ is pushed before their DELIVERED. */
  reorderShare: number;
  webhookConcurrency: number;
  /** Attempts after the first for a push answered non-2xx or failed; then it is dropped (and counted). */
  webhookRetries: number;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  /** How many received agent messages are kept for inspection. */
  keepBodies: number;
  /** Message ids remembered (for 409 on reuse, revoke, events); the oldest are forgotten beyond it. */
  maxMessages: number;
  logger?: Logger | undefined;
}

export interface RbmSimulatorStats {
  requests: number;
  tokensIssued: number;
  /** Token requests refused (bad assertion, revoked key). */
  tokenRefusals: number;
  /** API calls answered 401. */
  authFailures: number;
  /** Agent messages accepted: each a distinct messageId. */
  sent: number;
  /** Creates answered 409 ALREADY_EXISTS (a messageId seen before). */
  alreadyExists: number;
  invalid: number;
  /** Creates answered 404 (number not RCS-capable). */
  notFound: number;
  throttled: number;
  serverErrors: number;
  delivered: number;
  revoked: number;
  /** Revocations answered 404 (delivered already, or unknown). */
  revokeMisses: number;
  /** Messages whose ttl ran out undelivered. */
  expired: number;
  /** Numbers checked, one by one or in batches. */
  capabilityChecks: number;
  batchGets: number;
  /** Distinct numbers with at least one accepted message. */
  recipients: number;
  eventsQueued: number;
  duplicatesQueued: number;
  repliesQueued: number;
  /** Events handed to the webhook (first attempts). */
  eventsPushed: number;
  eventsAcked: number;
  webhookPosts: number;
  webhookRetries: number;
  webhookDropped: number;
  /** Events scheduled or queued but not yet acknowledged by the webhook (nor dropped). */
  webhookPending: number;
  /** Result of the last registration handshake; null when none was performed. */
  verified: boolean | null;
}

export interface ReceivedAgentMessage {
  at: number;
  /** E.164 from the URL. */
  phone: string;
  messageId: string;
  /** The request body as parsed JSON. */
  body: unknown;
  /** The HTTP status answered. */
  status: number;
}

export type RbmMessageState = "pending" | "delivered" | "revoked" | "expired";

export interface RbmUserMessageInput {
  /** The user's number (E.164, "+" optional). */
  from: string;
  text?: string;
  /** A suggested-reply tap. */
  suggestion?: { postbackData: string; text: string };
}

export interface RbmSimulator {
  readonly url: string;
  readonly port: number;
  /** `${url}/token`: the channel's tokenUrl. */
  readonly tokenUrl: string;
  readonly agentId: string;
  /** The service-account key file (JSON) it accepts, with token_uri pointing at it. */
  readonly serviceAccountKey: string;
  stats(): RbmSimulatorStats;
  /** Zeroes the counters (not the messages, tokens or the events still owed). */
  reset(): void;
  setOptions(options: Partial<RbmSimulatorOptions>): void;
  /** Accepted messages to this number. */
  sentTo(number: string): number;
  /** Accepted messages per number (E.164). */
  sentByNumber(): Map<string, number>;
  /** The last keepBodies agent-message requests, oldest first. */
  lastBodies(): ReceivedAgentMessage[];
  messageState(messageId: string): RbmMessageState | undefined;
  /** Every token issued so far stops working (answered 401), as an early expiry or revocation does. */
  expireTokens(): void;
  /** The key is refused from now on (invalid_grant) and its tokens stop working, as a deleted key is. */
  revokeKey(): void;
  restoreKey(): void;
  /** Overrides the capability rules for a number; null restores them. */
  setCapable(number: string, capable: boolean | null): void;
  setOffline(number: string, offline: boolean): void;
  /** A message from a user to the agent, pushed to the webhook. Returns its messageId. */
  pushUserMessage(input: RbmUserMessageInput): string;
  /** Performs the registration handshake against the webhook URL now. */
  verifyWebhook(): Promise<boolean>;
  /** Resolves once every scheduled and queued event has been pushed (acknowledged or dropped). */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const defaults: RbmSimulatorOptions = {
  host: "127.0.0.1",
  port: 0,
  agentId: "switchboard-demo-agent",
  serviceAccountKey: undefined,
  tokenTtlSeconds: 3600,
  clientToken: "sim-client-token",
  webhookUrl: undefined,
  verifyOnStart: false,
  latencyMs: 0,
  rps: 0,
  batchGetQpm: 600,
  nonCapableShare: 0,
  offlineShare: 0,
  serverErrorShare: 0,
  deliveryDelayMs: 50,
  readShare: 0,
  readDelayMs: 200,
  replyShare: 0,
  replyDelayMs: 300,
  replyText: "Thanks!",
  duplicateShare: 0,
  reorderShare: 0,
  webhookConcurrency: 16,
  webhookRetries: 5,
  webhookRetryBaseMs: 100,
  webhookTimeoutMs: 10_000,
  keepBodies: 200,
  maxMessages: 1_000_000,
};

export async function startRbmSimulator(options: Partial<RbmSimulatorOptions> = {}): Promise<RbmSimulator> {
  const sim = new RbmApiSimulator({ ...defaults, ...options });
  await sim.listen();
  if (sim.options.verifyOnStart && sim.options.webhookUrl !== undefined) {
    const ok = await sim.verifyWebhook();
    if (!ok) {
      await sim.close();
      throw new Error("the webhook did not answer the registration handshake with its secret");
    }
  }
  return sim;
}

// ---------------------------------------------------------------- internals

/**
 * Items released in due order; one timer for the whole line. Its delay is uniform, so a push is an append; a
 * delay changed by setOptions inserts in order instead of waiting behind items due later.
 */
class DelayLine<T> {
  private items: Array<{ dueAt: number; item: T } | undefined> = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly release: (item: T) => void) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(delayMs: number, item: T): void {
    // Never released synchronously, even without delay: the caller is still answering the request.
    const entry = { dueAt: Date.now() + delayMs, item };
    let at = this.items.length;
    while (at > this.head && (this.items[at - 1]?.dueAt ?? 0) > entry.dueAt) at--;
    if (at === this.items.length) this.items.push(entry);
    else this.items.splice(at, 0, entry);
    if (at === this.head && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.arm();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.items = [];
    this.head = 0;
  }

  private arm(): void {
    if (this.timer !== undefined) return;
    const next = this.items[this.head];
    if (next === undefined) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, next.dueAt - Date.now()));
  }

  private flush(): void {
    this.timer = undefined;
    const now = Date.now();
    for (let next = this.items[this.head]; next !== undefined && next.dueAt <= now; next = this.items[this.head]) {
      this.items[this.head++] = undefined;
      this.release(next.item);
    }
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 4096) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.arm();
  }
}

type Obj = Record<string, unknown>;
type Answer = [number, unknown, Record<string, string>?];

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const E164 = /^\+[1-9]\d{5,14}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HTTP_URL = /^https?:\/\/[^\s]+$/;
const DURATION = /^\d{1,12}(?:\.\d{1,9})?s$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const MAX_REQUEST_BYTES = 1024 * 1024;
const BATCH_GET_MAX = 10_000;
const e164 = (n: string) => (n.startsWith("+") ? n : `+${n}`);

/** Google's error answer. */
function googleError(code: number, status: string, message: string, details?: unknown[]): Answer {
  return [code, { error: { code, message, status, ...(details === undefined ? {} : { details }) } }];
}

const unauthenticated = (message: string) => googleError(401, "UNAUTHENTICATED", message);
const invalidArgument = (message: string) => googleError(400, "INVALID_ARGUMENT", message);
const notFound = () => googleError(404, "NOT_FOUND", "Requested entity was not found.");

/** 9 random bytes per process, then a counter: unique ids without a random draw per event. */
const idBytes = Buffer.concat([randomBytes(9), Buffer.alloc(6)]);
let idCounter = 0;

function platformId(prefix: string): string {
  idBytes.writeUIntBE(++idCounter, 9, 6);
  return `${prefix}${idBytes.toString("base64url")}`;
}

/** What is kept of an accepted message (not its body: a long run keeps millions of these). */
interface MessageRecord {
  phone: string;
  messageId: string;
  state: RbmMessageState;
  /** The suggested reply a simulated user would tap, when replies are on. */
  reply?: { postbackData: string; text: string } | undefined;
  expiry?: NodeJS.Timeout | undefined;
}

interface Delivery {
  record: MessageRecord;
  deliveredAt: number;
}

interface QueuedEvent {
  body: Buffer;
  signature: string;
}

interface TokenBucket {
  tokens: number;
  at: number;
}

interface ServiceAccount {
  keyJson: Obj;
  clientEmail: string;
  privateKeyId: string | undefined;
  publicKey: KeyObject;
}

function serviceAccount(given: string | undefined): ServiceAccount {
  if (given !== undefined) {
    const keyJson = JSON.parse(given) as Obj;
    if (typeof keyJson.client_email !== "string" || typeof keyJson.private_key !== "string") {
      throw new Error("the service-account key has no client_email and private_key");
    }
    return {
      keyJson,
      clientEmail: keyJson.client_email,
      privateKeyId: typeof keyJson.private_key_id === "string" ? keyJson.private_key_id : undefined,
      publicKey: createPublicKey(keyJson.private_key),
    };
  }
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyId = randomBytes(20).toString("hex");
  const clientEmail = "rbm-agent@rbm-simulator.iam.gserviceaccount.com";
  const keyJson: Obj = {
    type: "service_account",
    project_id: "rbm-simulator",
    private_key_id: privateKeyId,
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: clientEmail,
    client_id: String(100_000_000_000_000_000_000n + BigInt(`0x${randomBytes(8).toString("hex")}`)),
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
  };
  return { keyJson, clientEmail, privateKeyId, publicKey };
}

function emptyStats(): Omit<RbmSimulatorStats, "recipients" | "webhookPending" | "verified"> {
  return {
    requests: 0,
    tokensIssued: 0,
    tokenRefusals: 0,
    authFailures: 0,
    sent: 0,
    alreadyExists: 0,
    invalid: 0,
    notFound: 0,
    throttled: 0,
    serverErrors: 0,
    delivered: 0,
    revoked: 0,
    revokeMisses: 0,
    expired: 0,
    capabilityChecks: 0,
    batchGets: 0,
    eventsQueued: 0,
    duplicatesQueued: 0,
    repliesQueued: 0,
    eventsPushed: 0,
    eventsAcked: 0,
    webhookPosts: 0,
    webhookRetries: 0,
    webhookDropped: 0,
  };
}

const FEATURES = [
  "RICHCARD_STANDALONE",
  "RICHCARD_CAROUSEL",
  "ACTION_CREATE_CALENDAR_EVENT",
  "ACTION_DIAL",
  "ACTION_OPEN_URL",
  "ACTION_SHARE_LOCATION",
  "ACTION_VIEW_LOCATION",
];

class RbmApiSimulator implements RbmSimulator {
  readonly options: RbmSimulatorOptions;
  private readonly logger: Logger;
  private readonly server: Server;
  private readonly account: ServiceAccount;
  private counters = emptyStats();
  private verified: boolean | null = null;
  private keyRevoked = false;
  /** token -> expiry (ms). */
  private readonly tokens = new Map<string, number>();
  private readonly messages = new Map<string, MessageRecord>();
  private readonly sentCount = new Map<string, number>();
  private readonly capableOverride = new Map<string, boolean>();
  private readonly offlineOverride = new Map<string, boolean>();
  private bodies: ReceivedAgentMessage[] = [];
  private bucket: TokenBucket = { tokens: 0, at: Date.now() };
  private batchBucket: TokenBucket = { tokens: 0, at: Date.now() };
  private readonly deliveryLine: DelayLine<Delivery>;
  private readonly readLine: DelayLine<Delivery>;
  private readonly lateDeliveredLine: DelayLine<Delivery>;
  private readonly replyLine: DelayLine<MessageRecord>;
  private readonly expiryTimers = new Set<NodeJS.Timeout>();
  private queue: Array<QueuedEvent | undefined> = [];
  private queueHead = 0;
  private pumpScheduled = false;
  private inflightPosts = 0;
  private readonly pools = new Map<string, Pool>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closing = false;
  port = 0;

  constructor(options: RbmSimulatorOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.account = serviceAccount(options.serviceAccountKey);
    this.bucket.tokens = options.rps;
    this.batchBucket.tokens = this.batchBurst();
    this.deliveryLine = new DelayLine((d) => this.deliver(d));
    this.readLine = new DelayLine((d) => this.read(d));
    this.lateDeliveredLine = new DelayLine((d) =>
      this.enqueueEvent(this.userEvent(d.record, "DELIVERED", d.deliveredAt)),
    );
    this.replyLine = new DelayLine((record) => this.reply(record));
    this.server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => this.onRequest(req, res));
  }

  get url(): string {
    return `http://${this.options.host}:${this.port}`;
  }

  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  get agentId(): string {
    return this.options.agentId;
  }

  get serviceAccountKey(): string {
    return JSON.stringify({ ...this.account.keyJson, token_uri: this.tokenUrl }, null, 2);
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off("error", reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  stats(): RbmSimulatorStats {
    return {
      ...this.counters,
      recipients: this.sentCount.size,
      webhookPending: this.pending(),
      verified: this.verified,
    };
  }

  reset(): void {
    this.counters = emptyStats();
  }

  setOptions(options: Partial<RbmSimulatorOptions>): void {
    Object.assign(this.options, options);
  }

  sentTo(number: string): number {
    return this.sentCount.get(e164(number)) ?? 0;
  }

  sentByNumber(): Map<string, number> {
    return new Map(this.sentCount);
  }

  lastBodies(): ReceivedAgentMessage[] {
    return [...this.bodies];
  }

  messageState(messageId: string): RbmMessageState | undefined {
    return this.messages.get(messageId.toLowerCase())?.state;
  }

  expireTokens(): void {
    this.tokens.clear();
  }

  revokeKey(): void {
    this.keyRevoked = true;
    this.tokens.clear();
  }

  restoreKey(): void {
    this.keyRevoked = false;
  }

  setCapable(number: string, capable: boolean | null): void {
    if (capable === null) this.capableOverride.delete(e164(number));
    else this.capableOverride.set(e164(number), capable);
  }

  setOffline(number: string, offline: boolean): void {
    this.offlineOverride.set(e164(number), offline);
  }

  pushUserMessage(input: RbmUserMessageInput): string {
    const messageId = platformId("MsSIM");
    const event: Obj = {
      senderPhoneNumber: e164(input.from),
      messageId,
      sendTime: new Date().toISOString(),
      agentId: this.options.agentId,
    };
    if (input.suggestion !== undefined) event.suggestionResponse = { ...input.suggestion, type: "REPLY" };
    else event.text = input.text ?? "";
    this.enqueueEvent(event);
    return messageId;
  }

  async verifyWebhook(): Promise<boolean> {
    const target = this.options.webhookUrl;
    if (target === undefined) return false;
    const url = new URL(target);
    const secret = randomBytes(12).toString("hex");
    try {
      const res = await this.poolFor(url.origin).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ clientToken: this.options.clientToken, secret }),
        headersTimeout: this.options.webhookTimeoutMs,
        bodyTimeout: this.options.webhookTimeoutMs,
      });
      const body = (await res.body.text()).trim();
      let echoed = body;
      if (body.startsWith("{")) {
        try {
          const json = JSON.parse(body) as { secret?: unknown };
          if (typeof json.secret === "string") echoed = json.secret;
        } catch {
          // not JSON after all: compared as text
        }
      }
      this.verified = res.statusCode === 200 && echoed === secret;
    } catch (err) {
      this.logger.warn({ code: (err as { code?: string }).code }, "rbm simulator: webhook handshake failed");
      this.verified = false;
    }
    return this.verified;
  }

  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending() > 0) {
      if (Date.now() > deadline) throw new Error(`${this.pending()} webhook events still pending`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    for (const timer of this.expiryTimers) clearTimeout(timer);
    this.expiryTimers.clear();
    for (const line of [this.deliveryLine, this.readLine, this.lateDeliveredLine, this.replyLine]) line.clear();
    this.queue = [];
    this.queueHead = 0;
    this.server.closeAllConnections();
    await Promise.all([...this.pools.values()].map((pool) => pool.destroy().catch(() => {})));
    this.pools.clear();
    if (!this.server.listening) return;
    await new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
  }

  private pending(): number {
    return (
      this.deliveryLine.size +
      this.readLine.size +
      this.lateDeliveredLine.size +
      this.replyLine.size +
      (this.queue.length - this.queueHead) +
      this.inflightPosts
    );
  }

  // -------------------------------------------------------------- HTTP API

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.counters.requests++;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      let answer: Answer;
      try {
        answer =
          size > MAX_REQUEST_BYTES ? invalidArgument("Request payload size exceeds the limit.") : this.route(req, raw);
      } catch (err) {
        this.logger.error({ err: err instanceof Error ? err.message : String(err) }, "rbm simulator: bug");
        answer = googleError(500, "INTERNAL", "Internal error encountered.");
      }
      const [status, payload, headers] = answer;
      const body = typeof payload === "string" ? payload : JSON.stringify(payload);
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(status, {
          "content-type": "application/json; charset=UTF-8",
          "content-length": Buffer.byteLength(body),
          ...headers,
        });
        res.end(body);
      };
      if (this.options.latencyMs > 0) setTimeout(write, this.options.latencyMs);
      else write();
    });
    req.on("error", () => res.destroy());
  }

  private route(req: IncomingMessage, raw: Buffer): Answer {
    const url = new URL(req.url ?? "/", "http://simulator");
    const method = req.method ?? "GET";
    if (url.pathname === "/token") {
      return method === "POST" ? this.token(raw) : googleError(405, "METHOD_NOT_ALLOWED", "Method not allowed.");
    }
    let parts: string[];
    try {
      parts = url.pathname
        .split("/")
        .filter((p) => p !== "")
        .map(decodeURIComponent);
    } catch {
      return invalidArgument("Invalid path.");
    }
    if (parts[0] !== "v1") return notFound();
    const auth = this.checkToken(req);
    if (auth) return auth;
    if (method === "POST" && parts.length === 2 && parts[1] === "users:batchGet") return this.batchGet(raw);
    if (parts[1] === "phones" && parts[2] !== undefined) {
      const phone = parts[2];
      if (method === "POST" && parts.length === 4 && parts[3] === "agentMessages") {
        return this.createMessage(phone, url, raw);
      }
      if (method === "DELETE" && parts.length === 5 && parts[3] === "agentMessages") {
        return this.revoke(phone, parts[4] as string, url);
      }
      if (method === "GET" && parts.length === 4 && parts[3] === "capabilities") return this.capabilities(phone, url);
    }
    // No brands listing (that is the management API's): what the connection test meets.
    return notFound();
  }

  // -------------------------------------------------------------- OAuth

  private token(raw: Buffer): Answer {
    const form = new URLSearchParams(raw.toString("utf8"));
    const refuse = (error: string, description: string): Answer => {
      this.counters.tokenRefusals++;
      return [400, { error, error_description: description }];
    };
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return refuse("unsupported_grant_type", "Invalid grant_type.");
    }
    const assertion = form.get("assertion") ?? "";
    const [h, p, s, ...rest] = assertion.split(".");
    if (h === undefined || p === undefined || s === undefined || rest.length > 0) {
      return refuse("invalid_grant", "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.");
    }
    let header: Obj;
    let claims: Obj;
    try {
      header = JSON.parse(Buffer.from(h, "base64url").toString("utf8")) as Obj;
      claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as Obj;
    } catch {
      return refuse("invalid_grant", "Invalid JWT: the assertion is not a JWT.");
    }
    if (header.alg !== "RS256") return refuse("invalid_grant", "Invalid JWT: unsupported algorithm.");
    if (
      this.account.privateKeyId !== undefined &&
      header.kid !== undefined &&
      header.kid !== this.account.privateKeyId
    ) {
      return refuse("invalid_grant", "Invalid JWT Signature.");
    }
    const signatureOk = createVerify("RSA-SHA256")
      .update(`${h}.${p}`)
      .verify(this.account.publicKey, Buffer.from(s, "base64url"));
    if (!signatureOk || this.keyRevoked) return refuse("invalid_grant", "Invalid JWT Signature.");
    if (claims.iss !== this.account.clientEmail) return refuse("invalid_grant", "Invalid JWT: unknown issuer.");
    const scopes = typeof claims.scope === "string" ? claims.scope.split(" ") : [];
    if (!scopes.includes(RBM_SCOPE)) return refuse("invalid_scope", "The requested scope is not allowed.");
    let audienceOk = false;
    try {
      audienceOk = typeof claims.aud === "string" && new URL(claims.aud).pathname === "/token";
    } catch {
      audienceOk = false;
    }
    if (!audienceOk) return refuse("invalid_grant", "Invalid JWT: the audience is not this token endpoint.");
    const nowS = Math.floor(Date.now() / 1000);
    const iat = typeof claims.iat === "number" ? claims.iat : Number.NaN;
    const exp = typeof claims.exp === "number" ? claims.exp : Number.NaN;
    if (!(iat <= nowS + 300 && exp > nowS && exp - iat <= 3600)) {
      return refuse(
        "invalid_grant",
        "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
      );
    }
    const token = `ya29.sim-${randomBytes(24).toString("base64url")}`;
    this.tokens.set(token, Date.now() + this.options.tokenTtlSeconds * 1000);
    if (this.tokens.size > 10_000) this.sweepTokens();
    this.counters.tokensIssued++;
    return [200, { access_token: token, expires_in: this.options.tokenTtlSeconds, token_type: "Bearer" }];
  }

  private sweepTokens(): void {
    const now = Date.now();
    for (const [token, expiresAt] of this.tokens) if (expiresAt <= now) this.tokens.delete(token);
  }

  private checkToken(req: IncomingMessage): Answer | undefined {
    const header = req.headers.authorization;
    if (header === undefined || !header.startsWith("Bearer ")) {
      this.counters.authFailures++;
      return unauthenticated(
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }
    const expiresAt = this.tokens.get(header.slice(7));
    if (expiresAt !== undefined && Date.now() < expiresAt) return undefined;
    this.counters.authFailures++;
    return unauthenticated(
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    );
  }

  private checkAgent(agentId: unknown): Answer | undefined {
    if (typeof agentId !== "string" || agentId === "") return invalidArgument("agentId is required.");
    if (agentId !== this.options.agentId) {
      return googleError(403, "PERMISSION_DENIED", "The caller does not have permission");
    }
    return undefined;
  }

  // -------------------------------------------------------------- numbers

  private capable(phone: string): boolean {
    const forced = this.capableOverride.get(phone);
    if (forced !== undefined) return forced;
    if (phone.endsWith("404")) return false;
    return !(this.options.nonCapableShare > 0 && hashShare(phone) < this.options.nonCapableShare);
  }

  private offline(phone: string): boolean {
    const forced = this.offlineOverride.get(phone);
    if (forced !== undefined) return forced;
    // Another hash than capability's (the digits reversed), so the two shares do not pick the same numbers.
    return this.options.offlineShare > 0 && hashShare([...phone].reverse().join("")) < this.options.offlineShare;
  }

  private capabilities(phone: string, url: URL): Answer {
    const agent = this.checkAgent(url.searchParams.get("agentId") ?? undefined);
    if (agent) return agent;
    if (!E164.test(phone)) return invalidArgument(`Invalid phone number: the name must be phones/{E.164}.`);
    const requestId = url.searchParams.get("requestId");
    if (requestId !== null && !UUID.test(requestId)) return invalidArgument("requestId must be a UUID.");
    this.counters.capabilityChecks++;
    return this.capable(phone) ? [200, { features: FEATURES }] : notFound();
  }

  private batchBurst(): number {
    return Math.max(1, Math.ceil(this.options.batchGetQpm / 60));
  }

  private batchGet(raw: Buffer): Answer {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return invalidArgument("Invalid JSON payload received.");
    }
    if (!isObj(body)) return invalidArgument("Invalid JSON payload received.");
    const agent = this.checkAgent(body.agentId);
    if (agent) return agent;
    if (!Array.isArray(body.users)) return invalidArgument("users is required.");
    if (body.users.length > BATCH_GET_MAX) return invalidArgument(`At most ${BATCH_GET_MAX} users per request.`);
    for (const u of body.users) {
      if (typeof u !== "string" || !E164.test(u))
        return invalidArgument("users must be phone numbers in E.164 format.");
    }
    const qpm = this.options.batchGetQpm;
    if (qpm > 0 && !this.take(this.batchBucket, qpm / 60, this.batchBurst())) {
      this.counters.throttled++;
      return this.resourceExhausted("Quota exceeded for quota metric 'users:batchGet requests' per minute.", 60 / qpm);
    }
    this.counters.batchGets++;
    const users = body.users as string[];
    this.counters.capabilityChecks += users.length;
    const reachableUsers = users.filter((u) => this.capable(u));
    const sample = users.length < 500 ? 0 : Math.floor(users.length * 0.75);
    const reachableSample = users.slice(0, sample).filter((u) => this.capable(u)).length;
    return [
      200,
      {
        reachableUsers,
        totalRandomSampleUserCount: sample,
        reachableRandomSampleUserCount: reachableSample,
      },
    ];
  }

  private take(bucket: TokenBucket, ratePerSecond: number, burst: number): boolean {
    const now = Date.now();
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * ratePerSecond) / 1000);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private resourceExhausted(message: string, waitSeconds: number): Answer {
    const seconds = Math.max(1, Math.ceil(waitSeconds));
    const [status, payload] = googleError(429, "RESOURCE_EXHAUSTED", message, [
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${seconds}s` },
    ]);
    return [status, payload, { "retry-after": String(seconds) }];
  }

  // -------------------------------------------------------------- agent messages

  private keep(entry: ReceivedAgentMessage): void {
    if (this.options.keepBodies <= 0) return;
    this.bodies.push(entry);
    if (this.bodies.length > this.options.keepBodies * 2) this.bodies = this.bodies.slice(-this.options.keepBodies);
  }

  private createMessage(phone: string, url: URL, raw: Buffer): Answer {
    const agent = this.checkAgent(url.searchParams.get("agentId") ?? undefined);
    if (agent) return agent;
    const rps = this.options.rps;
    if (rps > 0 && !this.take(this.bucket, rps, rps)) {
      this.counters.throttled++;
      return this.resourceExhausted(
        "Quota exceeded for quota metric 'Agent messages' and limit 'Agent messages per second' of service 'rcsbusinessmessaging.googleapis.com'.",
        (1 - this.bucket.tokens) / rps,
      );
    }
    if (this.options.serverErrorShare > 0 && Math.random() < this.options.serverErrorShare) {
      this.counters.serverErrors++;
      return Math.random() < 0.5
        ? googleError(500, "INTERNAL", "Internal error encountered.")
        : googleError(503, "UNAVAILABLE", "The service is currently unavailable.");
    }
    const rawId = url.searchParams.get("messageId") ?? "";
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      body = undefined;
    }
    const refuse = (answer: Answer): Answer => {
      this.keep({ at: Date.now(), phone, messageId: rawId, body, status: answer[0] });
      return answer;
    };
    if (!E164.test(phone)) {
      this.counters.invalid++;
      return refuse(invalidArgument("Invalid phone number: the parent must be phones/{E.164}."));
    }
    if (!UUID.test(rawId)) {
      this.counters.invalid++;
      return refuse(invalidArgument("messageId must be a UUID (RFC 4122)."));
    }
    const problem = body === undefined ? "Invalid JSON payload received." : validateAgentMessage(body);
    if (problem !== undefined) {
      this.counters.invalid++;
      return refuse(invalidArgument(problem));
    }
    const messageId = rawId.toLowerCase();
    if (this.messages.has(messageId)) {
      this.counters.alreadyExists++;
      return refuse(googleError(409, "ALREADY_EXISTS", "Requested entity already exists"));
    }
    if (!this.capable(phone)) {
      this.counters.notFound++;
      return refuse(notFound());
    }
    const message = body as Obj;
    const record: MessageRecord = { phone, messageId, state: "pending" };
    if (this.options.replyShare > 0) record.reply = firstReply(message);
    this.messages.set(messageId, record);
    if (this.messages.size > this.options.maxMessages) this.forgetOldest();
    this.counters.sent++;
    this.sentCount.set(phone, (this.sentCount.get(phone) ?? 0) + 1);
    this.keep({ at: Date.now(), phone, messageId, body, status: 200 });
    this.schedule(record, message);
    // The created AgentMessage: name and sendTime before the request's own fields (spliced, not re-serialized).
    const prefix = `{"name":${JSON.stringify(`phones/${phone}/agentMessages/${messageId}`)},"sendTime":"${new Date().toISOString()}"`;
    const text = raw.toString("utf8").trim();
    return [200, text === "{}" ? `${prefix}}` : `${prefix},${text.slice(1)}`];
  }

  private revoke(phone: string, messageId: string, url: URL): Answer {
    const agent = this.checkAgent(url.searchParams.get("agentId") ?? undefined);
    if (agent) return agent;
    const record = this.messages.get(messageId.toLowerCase());
    if (record === undefined || record.phone !== phone || record.state !== "pending") {
      this.counters.revokeMisses++;
      return notFound();
    }
    record.state = "revoked";
    this.clearExpiry(record);
    this.counters.revoked++;
    return [200, {}];
  }

  // -------------------------------------------------------------- events

  /** Forgets the oldest tenth of the remembered messages (Map order is insertion order). */
  private forgetOldest(): void {
    let n = Math.ceil(this.options.maxMessages / 10);
    for (const [id, record] of this.messages) {
      if (n-- <= 0) break;
      this.clearExpiry(record);
      this.messages.delete(id);
    }
  }

  private schedule(record: MessageRecord, message: Obj): void {
    const o = this.options;
    const ttl = message.ttl;
    const ttlMs = typeof ttl === "string" ? Number(ttl.slice(0, -1)) * 1000 : undefined;
    const expireTime = message.expireTime;
    const expiresInMs =
      ttlMs ?? (typeof expireTime === "string" ? new Date(expireTime).getTime() - Date.now() : undefined);
    const offline = this.offline(record.phone);
    if (expiresInMs !== undefined && (offline || expiresInMs <= o.deliveryDelayMs)) {
      const timer = setTimeout(() => this.expire(record), Math.max(0, expiresInMs));
      record.expiry = timer;
      this.expiryTimers.add(timer);
    }
    if (!offline) this.deliveryLine.push(o.deliveryDelayMs, { record, deliveredAt: 0 });
  }

  private clearExpiry(record: MessageRecord): void {
    if (record.expiry === undefined) return;
    clearTimeout(record.expiry);
    this.expiryTimers.delete(record.expiry);
    record.expiry = undefined;
  }

  private expire(record: MessageRecord): void {
    if (record.expiry !== undefined) this.expiryTimers.delete(record.expiry);
    record.expiry = undefined;
    if (record.state !== "pending") return;
    record.state = "expired";
    this.counters.expired++;
    this.enqueueEvent({
      phoneNumber: record.phone,
      messageId: record.messageId,
      agentId: this.options.agentId,
      eventType: "TTL_EXPIRATION_REVOKED",
      eventId: platformId("MxSIM"),
      sendTime: new Date().toISOString(),
    });
  }

  private deliver(d: Delivery): void {
    const { record } = d;
    if (record.state !== "pending") return;
    record.state = "delivered";
    this.clearExpiry(record);
    this.counters.delivered++;
    d.deliveredAt = Date.now();
    const o = this.options;
    if (o.webhookUrl === undefined) return;
    const willRead = o.readShare > 0 && Math.random() < o.readShare;
    if (willRead && o.reorderShare > 0 && Math.random() < o.reorderShare) {
      // Pushed out of order, stamped in order: READ now (a moment after delivery), DELIVERED a read delay later.
      this.enqueueEvent(this.userEvent(record, "READ", d.deliveredAt + 1));
      this.lateDeliveredLine.push(o.readDelayMs, d);
    } else {
      this.enqueueEvent(this.userEvent(record, "DELIVERED", d.deliveredAt));
      if (willRead) this.readLine.push(o.readDelayMs, d);
    }
    if (o.replyShare > 0 && Math.random() < o.replyShare) {
      this.counters.repliesQueued++;
      this.replyLine.push(o.replyDelayMs, record);
    }
  }

  private read(d: Delivery): void {
    this.enqueueEvent(this.userEvent(d.record, "READ", Date.now()));
  }

  private userEvent(record: MessageRecord, eventType: "DELIVERED" | "READ", at: number): Obj {
    return {
      senderPhoneNumber: record.phone,
      eventType,
      eventId: platformId("MxSIM"),
      messageId: record.messageId,
      sendTime: new Date(at).toISOString(),
      agentId: this.options.agentId,
    };
  }

  private reply(record: MessageRecord): void {
    const tap = record.reply;
    this.pushUserMessage(
      tap === undefined
        ? { from: record.phone, text: this.options.replyText }
        : { from: record.phone, suggestion: tap },
    );
  }

  // -------------------------------------------------------------- webhook pusher

  private enqueueEvent(event: Obj): void {
    if (this.closing || this.options.webhookUrl === undefined) return;
    const data = Buffer.from(JSON.stringify(event), "utf8");
    const signature = createHmac("sha512", this.options.clientToken).update(data).digest("base64");
    const envelope = {
      message: {
        data: data.toString("base64"),
        messageId: String(++pubsubCounter),
        publishTime: new Date().toISOString(),
      },
      subscription: `projects/rbm-${this.options.agentId.replace(/[^a-z0-9-]/gi, "-")}/subscriptions/rbm-agent-subscription`,
    };
    const queued: QueuedEvent = { body: Buffer.from(JSON.stringify(envelope), "utf8"), signature };
    this.queue.push(queued);
    this.counters.eventsQueued++;
    if (this.options.duplicateShare > 0 && Math.random() < this.options.duplicateShare) {
      // Pub/Sub's redelivery: the same message, same ids, pushed again.
      this.counters.duplicatesQueued++;
      this.counters.eventsQueued++;
      this.queue.push(queued);
    }
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.closing) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.inflightPosts < this.options.webhookConcurrency && this.queueHead < this.queue.length) {
      const next = this.queue[this.queueHead] as QueuedEvent;
      this.queue[this.queueHead++] = undefined;
      this.post(next);
    }
    if (this.queueHead === this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 4096) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  private post(event: QueuedEvent): void {
    const target = this.options.webhookUrl;
    if (target === undefined) return;
    const url = new URL(target);
    this.inflightPosts++;
    this.counters.eventsPushed++;
    const attempt = (n: number) => {
      if (this.closing) return;
      this.counters.webhookPosts++;
      this.poolFor(url.origin)
        .request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: { "content-type": "application/json", "x-goog-signature": event.signature },
          body: event.body,
          headersTimeout: this.options.webhookTimeoutMs,
          bodyTimeout: this.options.webhookTimeoutMs,
        })
        .then(
          async (res) => {
            await res.body.dump();
            return res.statusCode;
          },
          () => 0,
        )
        .then((status) => {
          if (this.closing) return;
          if (status >= 200 && status < 300) {
            this.counters.eventsAcked++;
            this.done();
          } else if (n < this.options.webhookRetries) {
            this.counters.webhookRetries++;
            const timer = setTimeout(
              () => {
                this.retryTimers.delete(timer);
                attempt(n + 1);
              },
              this.options.webhookRetryBaseMs * 2 ** n,
            );
            this.retryTimers.add(timer);
          } else {
            this.counters.webhookDropped++;
            this.done();
          }
        });
    };
    attempt(0);
  }

  private done(): void {
    this.inflightPosts--;
    if (this.queueHead < this.queue.length) this.schedulePump();
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, { connections: this.options.webhookConcurrency, keepAliveTimeout: 30_000 });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

let pubsubCounter = 1_000_000_000;

/** The first suggested reply of a message (chips, then its card's), which a simulated user taps. */
function firstReply(message: Obj): { postbackData: string; text: string } | undefined {
  const content = isObj(message.contentMessage) ? message.contentMessage : {};
  const lists: unknown[] = [content.suggestions];
  const card = isObj(content.richCard) ? content.richCard : {};
  if (isObj(card.standaloneCard) && isObj(card.standaloneCard.cardContent)) {
    lists.push(card.standaloneCard.cardContent.suggestions);
  }
  if (isObj(card.carouselCard) && Array.isArray(card.carouselCard.cardContents)) {
    for (const c of card.carouselCard.cardContents) if (isObj(c)) lists.push(c.suggestions);
  }
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const s of list) {
      if (isObj(s) && isObj(s.reply) && typeof s.reply.text === "string") {
        const postbackData = typeof s.reply.postbackData === "string" ? s.reply.postbackData : "";
        return { postbackData, text: s.reply.text };
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- validation (INVALID_ARGUMENT)

const chars = (s: string) => [...s].length;

function validateSuggestions(list: unknown, max: number, where: string): string | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return `${where}.suggestions must be a list.`;
  if (list.length > max) return `${where}.suggestions: at most ${max} suggestions.`;
  for (const [i, s] of list.entries()) {
    const at = `${where}.suggestions[${i}]`;
    if (!isObj(s) || isObj(s.reply) === isObj(s.action)) return `${at} must be exactly one of reply or action.`;
    const item = (isObj(s.reply) ? s.reply : s.action) as Obj;
    if (typeof item.text !== "string" || item.text === "" || chars(item.text) > 25) {
      return `${at}.text must be 1 to 25 characters.`;
    }
    if (item.postbackData !== undefined && (typeof item.postbackData !== "string" || item.postbackData.length > 2048)) {
      return `${at}.postbackData must be at most 2048 characters.`;
    }
    if (isObj(s.action)) {
      const a = s.action;
      if (isObj(a.dialAction)) {
        if (typeof a.dialAction.phoneNumber !== "string" || !E164.test(a.dialAction.phoneNumber)) {
          return `${at}.action.dialAction.phoneNumber must be in E.164 format.`;
        }
      } else if (isObj(a.openUrlAction)) {
        if (typeof a.openUrlAction.url !== "string" || !HTTP_URL.test(a.openUrlAction.url)) {
          return `${at}.action.openUrlAction.url must be an http(s) URL.`;
        }
      } else if (
        !isObj(a.viewLocationAction) &&
        !isObj(a.createCalendarEventAction) &&
        !isObj(a.shareLocationAction) &&
        !isObj(a.composeAction)
      ) {
        return `${at}.action has no action.`;
      }
    }
  }
  return undefined;
}

function validateCardContent(card: unknown, where: string, orientation?: string): string | undefined {
  if (!isObj(card)) return `${where} is required.`;
  if (card.title === undefined && card.description === undefined && card.media === undefined) {
    return `${where}: at least one of title, description or media must be set.`;
  }
  if (card.title !== undefined && (typeof card.title !== "string" || chars(card.title) > 200)) {
    return `${where}.title must be at most 200 characters.`;
  }
  if (card.description !== undefined && (typeof card.description !== "string" || chars(card.description) > 2000)) {
    return `${where}.description must be at most 2000 characters.`;
  }
  if (card.media !== undefined) {
    const media = card.media;
    if (!isObj(media)) return `${where}.media must be an object.`;
    if (orientation !== "HORIZONTAL" && !["SHORT", "MEDIUM", "TALL"].includes(media.height as string)) {
      return `${where}.media.height must be SHORT, MEDIUM or TALL.`;
    }
    const fileUrl = isObj(media.contentInfo) ? media.contentInfo.fileUrl : undefined;
    if (typeof media.fileName !== "string" && (typeof fileUrl !== "string" || !HTTP_URL.test(fileUrl))) {
      return `${where}.media needs contentInfo.fileUrl (an http(s) URL) or fileName.`;
    }
  }
  return validateSuggestions(card.suggestions, 4, where);
}

/** The first problem of an AgentMessage, in the words of an INVALID_ARGUMENT message; undefined when valid. */
export function validateAgentMessage(message: unknown): string | undefined {
  if (!isObj(message) || !isObj(message.contentMessage)) return "agent_message.content_message is required.";
  if (message.ttl !== undefined && message.expireTime !== undefined) {
    return "Only one of expireTime and ttl may be set.";
  }
  if (message.ttl !== undefined && (typeof message.ttl !== "string" || !DURATION.test(message.ttl))) {
    return "Invalid value at 'agent_message.ttl' (type.googleapis.com/google.protobuf.Duration).";
  }
  if (
    message.expireTime !== undefined &&
    (typeof message.expireTime !== "string" || !TIMESTAMP.test(message.expireTime))
  ) {
    return "Invalid value at 'agent_message.expire_time' (type.googleapis.com/google.protobuf.Timestamp).";
  }
  const c = message.contentMessage;
  const kinds = ["text", "fileName", "richCard", "contentInfo", "uploadedRbmFile"].filter((k) => c[k] !== undefined);
  if (kinds.length !== 1) return "content_message must have exactly one of text, fileName, richCard or contentInfo.";
  const where = "content_message";
  if (c.text !== undefined && (typeof c.text !== "string" || c.text === "" || chars(c.text) > 3072)) {
    return `${where}.text must be 1 to 3072 characters.`;
  }
  if (c.richCard !== undefined) {
    const card = c.richCard;
    if (!isObj(card) || isObj(card.standaloneCard) === isObj(card.carouselCard)) {
      return `${where}.rich_card must be exactly one of standaloneCard or carouselCard.`;
    }
    if (isObj(card.standaloneCard)) {
      const s = card.standaloneCard;
      if (s.cardOrientation !== "VERTICAL" && s.cardOrientation !== "HORIZONTAL") {
        return `${where}.rich_card.standalone_card.card_orientation must be VERTICAL or HORIZONTAL.`;
      }
      if (s.thumbnailImageAlignment !== undefined && !["LEFT", "RIGHT"].includes(s.thumbnailImageAlignment as string)) {
        return `${where}.rich_card.standalone_card.thumbnail_image_alignment must be LEFT or RIGHT.`;
      }
      const problem = validateCardContent(
        s.cardContent,
        `${where}.rich_card.standalone_card.card_content`,
        s.cardOrientation,
      );
      if (problem !== undefined) return problem;
    } else {
      const carousel = card.carouselCard as Obj;
      if (carousel.cardWidth !== "SMALL" && carousel.cardWidth !== "MEDIUM") {
        return `${where}.rich_card.carousel_card.card_width must be SMALL or MEDIUM.`;
      }
      const contents = carousel.cardContents;
      if (!Array.isArray(contents) || contents.length < 2 || contents.length > 10) {
        return `${where}.rich_card.carousel_card.card_contents must hold 2 to 10 cards.`;
      }
      for (const [i, content] of contents.entries()) {
        const problem = validateCardContent(content, `${where}.rich_card.carousel_card.card_contents[${i}]`);
        if (problem !== undefined) return problem;
      }
    }
  }
  return validateSuggestions(c.suggestions, 11, where);
}
