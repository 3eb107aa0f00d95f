// A WhatsApp Cloud API on loopback for development, tests and benchmarks: the send endpoint with Meta's validation
// and error answers, message templates with paging, per-number throughput and pair rate limits, the 24-hour
// customer service window, and signed status / message webhooks pushed to a callback URL the way Meta pushes them
// (batched, retried, possibly duplicated and out of order).
//
// References followed (the same as the adapter's, see ../whatsapp/*.ts):
//   - Send: POST /{Version}/{Phone-Number-ID}/messages -> {messaging_product, contacts: [{input, wa_id}],
//     messages: [{id: "wamid..."}]}; errors as {error: {message: "(#code) title", type, code, error_data:
//     {messaging_product, details}, error_subcode?, fbtrace_id}} with each code's documented HTTP status (Meta
//     "Error codes": 132001 "Template does not exist" is 404, 190 is 401, 131000 is 500, most others 400).
//   - A free-form message outside the customer service window is accepted (200 with a wamid) and then fails by
//     webhook with 131047 (Meta "Error codes": errors arrive synchronously, asynchronously, or both; providers
//     such as turn.io document the 200-then-failed behaviour).
//   - Templates: GET /{Version}/{WABA-ID}/message_templates -> {data, paging: {cursors: {before, after}, next}};
//     "next" only while more pages remain. Paused -> 132015, disabled -> 132016, unknown / not approved -> 132001,
//     wrong number of parameters -> 132000, a parameter of the wrong kind -> 132012.
//   - Limits: 130429 beyond the number's messages per second ("Throughput"); 131056 beyond one message per 6 s to
//     the same user ("About the platform", pair rate limits; a burst is configurable).
//   - Webhooks: X-Hub-Signature-256 = "sha256=" + hex HMAC-SHA256(app secret, body bytes); the GET handshake
//     (hub.mode=subscribe, hub.challenge, hub.verify_token); statuses sent -> delivered -> read, or failed with
//     errors[]; replies as messages[] with context.id; up to 1000 updates per POST; retries with backoff.
//   - The On-Premises API's POST /v1/contacts ({blocking, contacts, force_check} -> contacts[{input, status,
//     wa_id}]), for the adapter's optional contacts check.
//
// Deterministic rules, whatever the shares say (so tests can force outcomes by number):
//   recipient digits ending 0000 -> answered 131026 at once; ending 9999 -> accepted, then a failed status (131026).
//   failRecipient(to, code) -> every send to that number answers the documented error for `code`.
// Simplifications: only text, template, image, video, document, audio and sticker messages are understood (any
// other type answers 131051); media links are not fetched.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Pool } from "undici";
import type { Logger } from "../adapter";
import { silentLogger } from "../adapter";
import { signWhatsappPayload } from "../whatsapp/webhook";

// ---------------------------------------------------------------- documented errors

interface CatalogEntry {
  title: string;
  http: number;
  details: string;
}

/** Meta's documented Cloud API errors: title (the "(#code) title" message) and HTTP status, per "Error codes". */
export const WHATSAPP_ERROR_CATALOG: Readonly<Record<number, CatalogEntry>> = {
  0: { title: "AuthException", http: 401, details: "We were unable to authenticate the app user." },
  1: { title: "API Unknown", http: 400, details: "Invalid request or possible server error." },
  2: { title: "API Service", http: 503, details: "Temporary due to downtime or due to being overloaded." },
  3: { title: "API Method", http: 500, details: "Capability or permissions issue." },
  4: { title: "API Too Many Calls", http: 400, details: "The app has reached its API call rate limit." },
  10: { title: "Permission Denied", http: 403, details: "Permission is either not granted or has been removed." },
  33: { title: "Parameter value is not valid", http: 400, details: "The business phone number has been deleted." },
  100: {
    title: "Invalid parameter",
    http: 400,
    details: "The request included one or more unsupported or misspelled parameters.",
  },
  190: { title: "Access token has expired", http: 401, details: "Your access token has expired." },
  200: { title: "API Permission", http: 403, details: "Permission is either not granted or has been removed." },
  368: {
    title: "Temporarily blocked for policies violations",
    http: 403,
    details:
      "The WhatsApp Business Account associated with the app has been restricted or disabled for violating a platform policy.",
  },
  80007: {
    title: "Rate limit issues",
    http: 400,
    details: "The WhatsApp Business Account has reached its rate limit.",
  },
  130429: { title: "Rate limit hit", http: 400, details: "Cloud API message throughput has been reached." },
  130472: {
    title: "User's number is part of an experiment",
    http: 400,
    details: "Message was not sent as part of an experiment.",
  },
  130497: {
    title: "Business account is restricted from messaging users in this country.",
    http: 403,
    details: "The WhatsApp Business Account is restricted from messaging to users in certain countries.",
  },
  131000: { title: "Something went wrong", http: 500, details: "Message failed to send due to an unknown error." },
  131005: { title: "Access denied", http: 403, details: "Permission is either not granted or has been removed." },
  131008: {
    title: "Required parameter is missing",
    http: 400,
    details: "The request is missing a required parameter.",
  },
  131009: { title: "Parameter value is not valid", http: 400, details: "One or more parameter values are invalid." },
  131016: { title: "Service unavailable", http: 500, details: "A service is temporarily unavailable." },
  131021: { title: "Recipient cannot be sender", http: 400, details: "Sender and recipient phone number is the same." },
  131026: { title: "Message Undeliverable", http: 400, details: "Unable to deliver message." },
  131031: {
    title: "Account has been locked",
    http: 403,
    details: "The WhatsApp Business Account associated with the app has been restricted or disabled.",
  },
  131037: {
    title: "WhatsApp provided number needs display name approval before message can be sent.",
    http: 400,
    details: "The 555 business phone number used to send the request does not have an approved display name.",
  },
  131042: {
    title: "Business eligibility payment issue",
    http: 400,
    details: "There was an error related to your payment method.",
  },
  131045: {
    title: "Incorrect certificate",
    http: 500,
    details: "Message failed to send due to a phone number registration error.",
  },
  131047: {
    title: "Re-engagement message",
    http: 400,
    details: "More than 24 hours have passed since the recipient last replied to the sender number.",
  },
  131048: {
    title: "Spam rate limit hit",
    http: 400,
    details:
      "Message failed to send because there are restrictions on how many messages can be sent from this phone number.",
  },
  131049: {
    title: "Meta chose not to deliver.",
    http: 400,
    details: "This message was not delivered to maintain healthy ecosystem engagement.",
  },
  131050: {
    title: "User has stopped receipt of marketing messages.",
    http: 400,
    details: "This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.",
  },
  131051: { title: "Unsupported message type", http: 400, details: "Unsupported message type." },
  131052: { title: "Media download error", http: 400, details: "Unable to download the media sent by the user." },
  131053: { title: "Media upload error", http: 400, details: "Unable to upload the media used in the message." },
  131056: {
    title: "(Business Account, Consumer Account) pair rate limit hit",
    http: 400,
    details:
      "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
  },
  131057: { title: "Account in maintenance mode", http: 500, details: "Business Account is in maintenance mode" },
  132000: {
    title: "Template Param Count Mismatch",
    http: 400,
    details:
      "The number of variable parameter values included in the request did not match the number of variable parameters defined in the template.",
  },
  132001: {
    title: "Template does not exist",
    http: 404,
    details: "The template does not exist in the specified language or the template has not been approved.",
  },
  132005: { title: "Template Hydrated Text Too Long", http: 400, details: "Translated text is too long." },
  132007: {
    title: "Template Format Character Policy Violated",
    http: 400,
    details: "Template content violates a WhatsApp policy.",
  },
  132012: {
    title: "Template Parameter Format Mismatch",
    http: 400,
    details: "Variable parameter values formatted incorrectly.",
  },
  132015: {
    title: "Template is Paused",
    http: 400,
    details: "Template is paused due to low quality so it cannot be sent in a template message.",
  },
  132016: {
    title: "Template is Disabled",
    http: 400,
    details: "Template has been paused too many times due to low quality and is now permanently disabled.",
  },
  133004: { title: "Server Temporarily Unavailable", http: 503, details: "Server is temporarily unavailable." },
  135000: {
    title: "Generic user error",
    http: 400,
    details: "Message failed to send because of an unknown error with your request parameters.",
  },
};

// ---------------------------------------------------------------- templates

export type TemplateComponentDefinition =
  | { type: "HEADER"; format: "TEXT" | "IMAGE" | "DOCUMENT" | "VIDEO"; text?: string }
  | { type: "BODY"; text: string }
  | { type: "FOOTER"; text: string }
  | {
      type: "BUTTONS";
      buttons: Array<{ type: "QUICK_REPLY"; text: string } | { type: "URL"; text: string; url: string }>;
    };

export interface WhatsappTemplateDefinition {
  name: string;
  language: string;
  category: "MARKETING" | "UTILITY" | "AUTHENTICATION";
  status: "APPROVED" | "PENDING" | "REJECTED" | "PAUSED" | "DISABLED";
  components: TemplateComponentDefinition[];
}

/** Approved demo templates, plus a paused and a rejected one. */
export const DEMO_TEMPLATES: readonly WhatsappTemplateDefinition[] = [
  {
    name: "order_update",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    components: [
      { type: "BODY", text: "Hi {{1}}, your order {{2}} has shipped." },
      { type: "FOOTER", text: "Reply STOP to opt out" },
    ],
  },
  {
    name: "order_update",
    language: "zh_CN",
    category: "UTILITY",
    status: "APPROVED",
    components: [{ type: "BODY", text: "{{1}}，您的订单 {{2}} 已发货。" }],
  },
  {
    name: "appointment_reminder",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "TEXT", text: "Reminder for {{1}}" },
      { type: "BODY", text: "Your appointment is on {{1}} at {{2}}." },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Confirm" },
          { type: "QUICK_REPLY", text: "Reschedule" },
        ],
      },
    ],
  },
  {
    name: "spring_offer",
    language: "en_US",
    category: "MARKETING",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "IMAGE" },
      { type: "BODY", text: "{{1}} off everything until {{2}}." },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Stop promotions" },
          { type: "URL", text: "Shop now", url: "https://shop.example.com/{{1}}" },
        ],
      },
    ],
  },
  {
    name: "invoice_ready",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "DOCUMENT" },
      { type: "BODY", text: "Invoice {{1}} is attached." },
    ],
  },
  {
    name: "welcome",
    language: "en_US",
    category: "MARKETING",
    status: "APPROVED",
    components: [{ type: "BODY", text: "Welcome to Switchboard!" }],
  },
  {
    name: "summer_sale",
    language: "en_US",
    category: "MARKETING",
    status: "PAUSED",
    components: [{ type: "BODY", text: "Summer sale: {{1}} off." }],
  },
  {
    name: "crypto_giveaway",
    language: "en_US",
    category: "MARKETING",
    status: "REJECTED",
    components: [{ type: "BODY", text: "Claim your {{1}} now!" }],
  },
];

// ---------------------------------------------------------------- options, stats

export interface WhatsappSimulatorOptions {
  /** Default 127.0.0.1. */
  host: string;
  /** 0 (default) picks a free port. */
  port: number;
  phoneNumberId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  wabaId: string;
  /** The only token the API accepts (Authorization: Bearer, or ?access_token= on GETs). */
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  /** Where statuses and user messages are pushed; none: nothing is pushed. */
  webhookUrl?: string | undefined;
  /** Performs the GET subscription handshake against webhookUrl before listening; a failed one fails the start. */
  verifyOnStart: boolean;
  /** Delay before each API answer. */
  latencyMs: number;
  /** Messages per second the business number takes (token bucket, one second of burst); 0 = unlimited. */
  mps: number;
  /** One message per this interval to the same user (Meta: 6,000 ms); 0 = no pair limit. */
  pairRateIntervalMs: number;
  /** Messages to the same user allowed in a burst before the pair limit applies (Meta documents up to 45). */
  pairBurst: number;
  /** Share (0..1) of sends answered 131026 at once. */
  undeliverableShare: number;
  /** Share (0..1) of sends answered HTTP 500 (131000). */
  serverErrorShare: number;
  /** Share (0..1) of accepted messages that end in a failed status instead of delivered. */
  failureShare: number;
  /** The error code of those failed statuses. */
  failureCode: number;
  /** Free-form messages need an open customer service window (a user message within windowMs). */
  enforceWindow: boolean;
  windowMs: number;
  sentDelayMs: number;
  deliveryDelayMs: number;
  /** Share (0..1) of delivered messages that are then read. */
  readShare: number;
  readDelayMs: number;
  /** Share (0..1) of delivered messages the user answers (a button tap for templates with quick replies). */
  replyShare: number;
  replyDelayMs: number;
  replyText: string;
  /** Share (0..1) of status updates pushed twice, as Meta's retries do. */
  duplicateShare: number;
  /** Shuffle the statuses of each POST. */
  reorder: boolean;
  /** Status updates per POST (Meta: up to 1000). */
  batchMax: number;
  /** How long updates gather before a POST; 0 = whatever is queued when the pusher runs. */
  batchWindowMs: number;
  webhookConcurrency: number;
  /** Attempts after the first for a POST answered non-2xx or failed; then it is dropped (and counted). */
  webhookRetries: number;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  templates: readonly WhatsappTemplateDefinition[];
  /** How many received send bodies are kept for inspection. */
  keepBodies: number;
  logger?: Logger | undefined;
}

export interface WhatsappSimulatorStats {
  requests: number;
  messagesReceived: number;
  messagesAccepted: number;
  /** Sends answered with an error, by error code. */
  failuresByCode: Record<string, number>;
  throttled: number;
  pairThrottled: number;
  authFailures: number;
  /** Failed statuses pushed after acceptance (window closed, undeliverable), by error code. */
  asyncFailuresByCode: Record<string, number>;
  /** Distinct recipients with at least one accepted message. */
  recipients: number;
  statusesQueued: number;
  statusesPushed: number;
  statusesAcked: number;
  inboundQueued: number;
  inboundAcked: number;
  duplicatesQueued: number;
  webhookPosts: number;
  webhookPostsAcked: number;
  webhookRetries: number;
  webhookDropped: number;
  /** Updates queued or scheduled but not yet acknowledged by the webhook. */
  webhookPending: number;
  templatesListed: number;
  contactsChecked: number;
  /** Result of the last GET handshake; null when none was performed. */
  verified: boolean | null;
}

export interface ReceivedSend {
  at: number;
  /** The request body as parsed JSON. */
  body: unknown;
  /** The wamid answered, when accepted. */
  wamid?: string;
  /** The error code answered, when refused. */
  errorCode?: number;
}

export interface InboundInput {
  /** The user's number (digits, "+" allowed). */
  from: string;
  text?: string;
  /** A quick-reply button tap on a template. */
  button?: { payload: string; text: string };
  /** An interactive reply. */
  interactive?: { kind: "button_reply" | "list_reply"; id: string; title: string };
  /** The wamid of our message the user answers. */
  contextId?: string;
}

export interface WhatsappSimulator {
  readonly url: string;
  readonly port: number;
  stats(): WhatsappSimulatorStats;
  /** Zeroes the counters (not the windows, the kept bodies or the events still owed). */
  reset(): void;
  setOptions(options: Partial<WhatsappSimulatorOptions>): void;
  /** From now on the configured token is refused with 190, as a revoked or expired token is. */
  revokeToken(): void;
  setAccessToken(token: string): void;
  /** Every send to this number answers the documented error for `code`; null clears it. */
  failRecipient(to: string, code: number | null): void;
  /** A user message: opens the user's customer service window and pushes a messages webhook. Returns its id. */
  simulateInbound(input: InboundInput): string;
  openWindow(to: string): void;
  closeWindow(to: string): void;
  /** The last keepBodies send requests, oldest first. */
  lastBodies(): ReceivedSend[];
  /** Accepted messages to this number. */
  acceptedFor(to: string): number;
  /** Performs the GET subscription handshake against the webhook URL now. */
  verifyWebhook(): Promise<boolean>;
  /** Resolves once every scheduled and queued update has been pushed (acknowledged or dropped). */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const defaults: WhatsappSimulatorOptions = {
  host: "127.0.0.1",
  port: 0,
  phoneNumberId: "106540352242922",
  displayPhoneNumber: "15550783881",
  verifiedName: "Switchboard Demo",
  wabaId: "102290129340398",
  accessToken: "sim-access-token",
  appSecret: "sim-app-secret",
  verifyToken: "sim-verify-token",
  webhookUrl: undefined,
  verifyOnStart: false,
  latencyMs: 0,
  mps: 0,
  pairRateIntervalMs: 0,
  pairBurst: 1,
  undeliverableShare: 0,
  serverErrorShare: 0,
  failureShare: 0,
  failureCode: 131026,
  enforceWindow: true,
  windowMs: 24 * 60 * 60 * 1000,
  sentDelayMs: 0,
  deliveryDelayMs: 50,
  readShare: 0,
  readDelayMs: 200,
  replyShare: 0,
  replyDelayMs: 300,
  replyText: "Thanks!",
  duplicateShare: 0,
  reorder: false,
  batchMax: 100,
  batchWindowMs: 0,
  webhookConcurrency: 8,
  webhookRetries: 5,
  webhookRetryBaseMs: 100,
  webhookTimeoutMs: 10_000,
  templates: DEMO_TEMPLATES,
  keepBodies: 200,
};

export async function startWhatsappSimulator(
  options: Partial<WhatsappSimulatorOptions> = {},
): Promise<WhatsappSimulator> {
  const sim = new CloudApiSimulator({ ...defaults, ...options });
  if (sim.options.verifyOnStart && sim.options.webhookUrl !== undefined) {
    const ok = await sim.verifyWebhook();
    if (!ok) {
      await sim.close();
      throw new Error("the webhook did not answer the subscription handshake with its challenge");
    }
  }
  await sim.listen();
  return sim;
}

// ---------------------------------------------------------------- internals

/** Items released in FIFO order once due; one timer for the whole line (its delay is uniform). */
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
    this.items.push({ dueAt: Date.now() + delayMs, item });
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

class GraphError {
  constructor(
    readonly code: number,
    readonly details?: string,
    readonly subcode?: number,
  ) {}
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const digitsOf = (n: string) => n.replace(/\D/g, "");
const nowSeconds = () => String(Math.floor(Date.now() / 1000));

/** 10 random bytes per process, then a counter: unique ids without a random draw per message. */
const idBytes = Buffer.concat([randomBytes(10), Buffer.alloc(8)]);
let idCounter = 0n;

function wamid(): string {
  // Real ids are base64 of an internal structure; ours carry no phone number (ids end up in our logs).
  idBytes.writeBigUInt64BE(++idCounter, 10);
  return `wamid.${idBytes.toString("base64")}`;
}

interface Accepted {
  id: string;
  recipient: string;
  freeForm: boolean;
  quickReplies: Array<{ payload: string; text: string }>;
  category: string;
}

interface StatusUpdate {
  kind: "status";
  status: Obj;
}

interface MessageUpdate {
  kind: "message";
  message: Obj;
  waId: string;
}

type Update = StatusUpdate | MessageUpdate;

interface TokenBucket {
  tokens: number;
  at: number;
}

function emptyStats(): Omit<WhatsappSimulatorStats, "recipients" | "webhookPending" | "verified"> {
  return {
    requests: 0,
    messagesReceived: 0,
    messagesAccepted: 0,
    failuresByCode: {},
    throttled: 0,
    pairThrottled: 0,
    authFailures: 0,
    asyncFailuresByCode: {},
    statusesQueued: 0,
    statusesPushed: 0,
    statusesAcked: 0,
    inboundQueued: 0,
    inboundAcked: 0,
    duplicatesQueued: 0,
    webhookPosts: 0,
    webhookPostsAcked: 0,
    webhookRetries: 0,
    webhookDropped: 0,
    templatesListed: 0,
    contactsChecked: 0,
  };
}

const TEMPLATE_PARAM = /\{\{\s*(\d+)\s*\}\}/g;

function countParams(text: string | undefined): number {
  if (text === undefined) return 0;
  const seen = new Set<string>();
  for (const m of text.matchAll(TEMPLATE_PARAM)) seen.add(m[1] as string);
  return seen.size;
}

const MEDIA_TYPES = new Set(["image", "video", "document", "audio", "sticker"]);
const MAX_REQUEST_BYTES = 1024 * 1024;

class CloudApiSimulator implements WhatsappSimulator {
  readonly options: WhatsappSimulatorOptions;
  private readonly logger: Logger;
  private readonly server: Server;
  private counters = emptyStats();
  private verified: boolean | null = null;
  private tokenRevoked = false;
  private readonly forced = new Map<string, number>();
  private readonly windows = new Map<string, number>();
  private readonly acceptedByRecipient = new Map<string, number>();
  private bodies: ReceivedSend[] = [];
  private numberBucket: TokenBucket = { tokens: 0, at: Date.now() };
  private readonly pairBuckets = new Map<string, TokenBucket>();
  private readonly sweepTimer: NodeJS.Timeout;
  // Status lines, each with a uniform delay so FIFO order is due order.
  private readonly sentLine: DelayLine<Update>;
  private readonly outcomeLine: DelayLine<Update>;
  private readonly readLine: DelayLine<Update>;
  private readonly replyLine: DelayLine<Accepted>;
  private queue: Array<Update | undefined> = [];
  private queueHead = 0;
  private pumpScheduled = false;
  private batchTimer: NodeJS.Timeout | undefined;
  private inflightPosts = 0;
  /** Updates handed to a POST not yet acknowledged or dropped. */
  private inflightUpdates = 0;
  private readonly pools = new Map<string, Pool>();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closing = false;
  port = 0;

  constructor(options: WhatsappSimulatorOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.numberBucket.tokens = options.mps;
    this.sentLine = new DelayLine((u) => this.enqueue(u));
    this.outcomeLine = new DelayLine((u) => this.enqueue(u));
    this.readLine = new DelayLine((u) => this.enqueue(u));
    this.replyLine = new DelayLine((a) => this.reply(a));
    this.server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => this.onRequest(req, res));
    // Pair buckets of users not written to lately are full again: forget them.
    this.sweepTimer = setInterval(() => this.sweepPairBuckets(), 10_000);
    this.sweepTimer.unref();
  }

  get url(): string {
    return `http://${this.options.host}:${this.port}`;
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

  stats(): WhatsappSimulatorStats {
    return {
      ...this.counters,
      failuresByCode: { ...this.counters.failuresByCode },
      asyncFailuresByCode: { ...this.counters.asyncFailuresByCode },
      recipients: this.acceptedByRecipient.size,
      webhookPending: this.pending(),
      verified: this.verified,
    };
  }

  reset(): void {
    this.counters = emptyStats();
  }

  setOptions(options: Partial<WhatsappSimulatorOptions>): void {
    Object.assign(this.options, options);
  }

  revokeToken(): void {
    this.tokenRevoked = true;
  }

  setAccessToken(token: string): void {
    this.options.accessToken = token;
    this.tokenRevoked = false;
  }

  failRecipient(to: string, code: number | null): void {
    if (code === null) this.forced.delete(digitsOf(to));
    else this.forced.set(digitsOf(to), code);
  }

  openWindow(to: string): void {
    this.windows.set(digitsOf(to), Date.now());
  }

  closeWindow(to: string): void {
    this.windows.delete(digitsOf(to));
  }

  lastBodies(): ReceivedSend[] {
    return [...this.bodies];
  }

  acceptedFor(to: string): number {
    return this.acceptedByRecipient.get(digitsOf(to)) ?? 0;
  }

  simulateInbound(input: InboundInput): string {
    const from = digitsOf(input.from);
    const id = wamid();
    const message: Obj = { from, id, timestamp: nowSeconds() };
    if (input.contextId !== undefined) {
      message.context = { from: this.options.displayPhoneNumber, id: input.contextId };
    }
    if (input.button !== undefined) {
      message.type = "button";
      message.button = { payload: input.button.payload, text: input.button.text };
    } else if (input.interactive !== undefined) {
      const { kind, id: replyId, title } = input.interactive;
      message.type = "interactive";
      message.interactive = { type: kind, [kind]: { id: replyId, title } };
    } else {
      message.type = "text";
      message.text = { body: input.text ?? "" };
    }
    this.windows.set(from, Date.now());
    this.enqueue({ kind: "message", message, waId: from });
    return id;
  }

  async verifyWebhook(): Promise<boolean> {
    const target = this.options.webhookUrl;
    if (target === undefined) return false;
    const url = new URL(target);
    const challenge = String(Math.floor(Math.random() * 1e10));
    url.searchParams.set("hub.mode", "subscribe");
    url.searchParams.set("hub.challenge", challenge);
    url.searchParams.set("hub.verify_token", this.options.verifyToken);
    try {
      const res = await this.poolFor(url.origin).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headersTimeout: this.options.webhookTimeoutMs,
        bodyTimeout: this.options.webhookTimeoutMs,
      });
      const body = await res.body.text();
      this.verified = res.statusCode === 200 && body === challenge;
    } catch (err) {
      this.logger.warn({ code: (err as { code?: string }).code }, "whatsapp simulator: handshake failed");
      this.verified = false;
    }
    return this.verified;
  }

  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.pending() > 0) {
      if (Date.now() > deadline) throw new Error(`${this.pending()} webhook updates still pending`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    clearTimeout(this.batchTimer);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    for (const line of [this.sentLine, this.outcomeLine, this.readLine, this.replyLine]) line.clear();
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
      this.sentLine.size +
      this.outcomeLine.size +
      this.readLine.size +
      this.replyLine.size +
      (this.queue.length - this.queueHead) +
      this.inflightUpdates
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
      let status: number;
      let answer: unknown;
      try {
        [status, answer] = size > MAX_REQUEST_BYTES ? this.errorAnswer(new GraphError(100)) : this.route(req, raw);
      } catch (err) {
        this.logger.error({ err: err instanceof Error ? err.message : String(err) }, "whatsapp simulator: bug");
        [status, answer] = this.errorAnswer(new GraphError(131000));
      }
      const body = JSON.stringify(answer);
      const write = () => {
        if (res.destroyed) return;
        res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      };
      if (this.options.latencyMs > 0) setTimeout(write, this.options.latencyMs);
      else write();
    });
    req.on("error", () => res.destroy());
  }

  private route(req: IncomingMessage, raw: Buffer): [number, unknown] {
    const url = new URL(req.url ?? "/", "http://simulator");
    const parts = url.pathname.split("/").filter((p) => p !== "");
    const method = req.method ?? "GET";
    if (method === "POST" && parts.length === 2 && parts[0] === "v1" && parts[1] === "contacts") {
      const auth = this.checkToken(req, url);
      return auth ?? this.contacts(raw);
    }
    const [version, node, edge] = parts;
    if (version === undefined || !/^v\d{1,3}\.\d{1,3}$/.test(version) || parts.length > 3) {
      return this.errorAnswer(new GraphError(100, "Unknown path components"));
    }
    const auth = this.checkToken(req, url);
    if (auth) return auth;
    if (method === "POST" && edge === "messages") return this.send(node, raw);
    if (method === "GET" && edge === "message_templates") return this.listTemplates(node, url);
    if (method === "GET" && edge === undefined && node === this.options.phoneNumberId) {
      return [
        200,
        {
          verified_name: this.options.verifiedName,
          display_phone_number: this.options.displayPhoneNumber,
          quality_rating: "GREEN",
          throughput: { level: "STANDARD" },
          id: this.options.phoneNumberId,
        },
      ];
    }
    return this.errorAnswer(
      new GraphError(100, `Unsupported ${method.toLowerCase()} request. Object with ID '${node}' does not exist.`, 33),
    );
  }

  private checkToken(req: IncomingMessage, url: URL): [number, unknown] | undefined {
    const header = req.headers.authorization;
    const token = header?.startsWith("Bearer ") ? header.slice(7) : (url.searchParams.get("access_token") ?? undefined);
    if (token !== undefined && token === this.options.accessToken && !this.tokenRevoked) return undefined;
    this.counters.authFailures++;
    if (token === undefined) return this.errorAnswer(new GraphError(190, "An active access token must be used."));
    // 463: "Error validating access token: Session has expired" (Graph API's expired-token subcode).
    return this.errorAnswer(
      this.tokenRevoked && token === this.options.accessToken
        ? new GraphError(190, "Error validating access token: Session has expired.", 463)
        : new GraphError(190, "Invalid OAuth access token - Cannot parse access token"),
    );
  }

  private errorAnswer(err: GraphError): [number, unknown] {
    const entry = WHATSAPP_ERROR_CATALOG[err.code] ?? { title: "Unknown error", http: 400, details: "" };
    const error: Obj = {
      message: `(#${err.code}) ${entry.title}`,
      type: "OAuthException",
      code: err.code,
      error_data: { messaging_product: "whatsapp", details: err.details ?? entry.details },
    };
    if (err.subcode !== undefined) error.error_subcode = err.subcode;
    error.fbtrace_id = randomBytes(9).toString("base64url");
    return [entry.http, { error }];
  }

  private refuse(err: GraphError, raw: unknown): [number, unknown] {
    const key = String(err.code);
    this.counters.failuresByCode[key] = (this.counters.failuresByCode[key] ?? 0) + 1;
    this.keep({ at: Date.now(), body: raw, errorCode: err.code });
    return this.errorAnswer(err);
  }

  private keep(entry: ReceivedSend): void {
    if (this.options.keepBodies <= 0) return;
    this.bodies.push(entry);
    if (this.bodies.length > this.options.keepBodies * 2) this.bodies = this.bodies.slice(-this.options.keepBodies);
  }

  private send(phoneNumberId: string | undefined, raw: Buffer): [number, unknown] {
    this.counters.messagesReceived++;
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return this.refuse(new GraphError(100, "The request body is not valid JSON."), undefined);
    }
    if (phoneNumberId !== this.options.phoneNumberId) {
      return this.refuse(
        new GraphError(100, `Unsupported post request. Object with ID '${phoneNumberId}' does not exist.`, 33),
        body,
      );
    }
    const checked = this.validate(body);
    if (checked instanceof GraphError) return this.refuse(checked, body);
    const { recipient, input } = checked;

    const forced = this.forced.get(recipient);
    if (forced !== undefined) return this.refuse(new GraphError(forced), body);
    if (!this.takeNumberToken()) {
      this.counters.throttled++;
      return this.refuse(new GraphError(130429, undefined, 2494055), body);
    }
    if (!this.takePairToken(recipient)) {
      this.counters.pairThrottled++;
      return this.refuse(new GraphError(131056), body);
    }
    if (recipient.endsWith("0000") || Math.random() < this.options.undeliverableShare) {
      return this.refuse(new GraphError(131026), body);
    }
    if (Math.random() < this.options.serverErrorShare) return this.refuse(new GraphError(131000), body);

    const accepted: Accepted = { id: wamid(), recipient, ...checked.accepted };
    this.counters.messagesAccepted++;
    this.acceptedByRecipient.set(recipient, (this.acceptedByRecipient.get(recipient) ?? 0) + 1);
    this.keep({ at: Date.now(), body, wamid: accepted.id });
    this.scheduleStatuses(accepted);
    return [
      200,
      { messaging_product: "whatsapp", contacts: [{ input, wa_id: recipient }], messages: [{ id: accepted.id }] },
    ];
  }

  private takeNumberToken(): boolean {
    const rate = this.options.mps;
    if (rate <= 0) return true;
    const now = Date.now();
    const b = this.numberBucket;
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) * rate) / 1000);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private takePairToken(recipient: string): boolean {
    const interval = this.options.pairRateIntervalMs;
    if (interval <= 0) return true;
    const burst = Math.max(1, this.options.pairBurst);
    const now = Date.now();
    let b = this.pairBuckets.get(recipient);
    if (b === undefined) {
      b = { tokens: burst, at: now };
      this.pairBuckets.set(recipient, b);
    }
    b.tokens = Math.min(burst, b.tokens + (now - b.at) / interval);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  private sweepPairBuckets(): void {
    const interval = this.options.pairRateIntervalMs;
    const burst = Math.max(1, this.options.pairBurst);
    const now = Date.now();
    for (const [recipient, b] of this.pairBuckets) {
      if (interval <= 0 || b.tokens + (now - b.at) / interval >= burst) this.pairBuckets.delete(recipient);
    }
  }

  /** The send body checked the way the Cloud API checks it; what a status pipeline needs to know about it. */
  private validate(
    body: unknown,
  ): GraphError | { recipient: string; input: string; accepted: Omit<Accepted, "id" | "recipient"> } {
    if (!isObj(body)) return new GraphError(100, "The request body must be a JSON object.");
    if (body.messaging_product !== "whatsapp") {
      return new GraphError(100, "The parameter messaging_product is required.");
    }
    if (body.recipient_type !== undefined && body.recipient_type !== "individual") {
      return new GraphError(100, "Param recipient_type must be one of {INDIVIDUAL, GROUP}.");
    }
    if (typeof body.to !== "string" || body.to === "") return new GraphError(131008, "The parameter to is required.");
    const recipient = digitsOf(body.to);
    if (!/^\d{5,20}$/.test(recipient) || !/^\+?[\d\s().-]+$/.test(body.to)) {
      return new GraphError(100, "Invalid parameter to.");
    }
    if (recipient === digitsOf(this.options.displayPhoneNumber)) return new GraphError(131021);
    const type = body.type ?? "text";
    if (typeof type !== "string") return new GraphError(100, "Param type must be a string.");
    const base = { freeForm: true, quickReplies: [] as Accepted["quickReplies"], category: "service" };
    if (type === "text") {
      const text = body.text;
      if (!isObj(text) || typeof text.body !== "string" || text.body === "") {
        return new GraphError(131008, "The parameter text['body'] is required.");
      }
      if (text.body.length > 4096)
        return new GraphError(100, "Param text['body'] must be at most 4096 characters long.");
      if (text.preview_url !== undefined && typeof text.preview_url !== "boolean") {
        return new GraphError(100, "Param text['preview_url'] must be a boolean.");
      }
      return { recipient, input: body.to, accepted: base };
    }
    if (MEDIA_TYPES.has(type)) {
      const media = body[type];
      const mediaError = this.checkMedia(type, media, `${type}`);
      if (mediaError) return mediaError;
      const m = media as Obj;
      if (m.caption !== undefined && (typeof m.caption !== "string" || m.caption.length > 1024)) {
        return new GraphError(100, `Param ${type}['caption'] must be at most 1024 characters long.`);
      }
      if (m.filename !== undefined && (type !== "document" || typeof m.filename !== "string")) {
        return new GraphError(100, `Param ${type}['filename'] is only valid for documents.`);
      }
      return { recipient, input: body.to, accepted: base };
    }
    if (type === "template") {
      const checked = this.checkTemplate(body.template);
      if (checked instanceof GraphError) return checked;
      return {
        recipient,
        input: body.to,
        accepted: { freeForm: false, quickReplies: checked.quickReplies, category: checked.category },
      };
    }
    return new GraphError(131051, `Message type ${type} is not supported.`);
  }

  private checkMedia(type: string, media: unknown, where: string): GraphError | undefined {
    if (!isObj(media)) return new GraphError(131008, `The parameter ${where} is required.`);
    const hasLink = typeof media.link === "string" && /^https?:\/\/\S+$/.test(media.link);
    const hasId = typeof media.id === "string" && media.id !== "";
    if (!hasLink && !hasId)
      return new GraphError(131008, `The parameter ${where}['link'] or ${where}['id'] is required.`);
    if (!MEDIA_TYPES.has(type)) return new GraphError(100, `Invalid media type ${type}.`);
    return undefined;
  }

  private checkTemplate(template: unknown): GraphError | { quickReplies: Accepted["quickReplies"]; category: string } {
    if (!isObj(template) || typeof template.name !== "string" || template.name === "") {
      return new GraphError(131008, "The parameter template['name'] is required.");
    }
    const language = isObj(template.language) ? template.language.code : undefined;
    if (typeof language !== "string" || language === "") {
      return new GraphError(131008, "The parameter template['language']['code'] is required.");
    }
    const name = template.name;
    const def = this.options.templates.find((t) => t.name === name && t.language === language);
    if (def === undefined || def.status === "PENDING" || def.status === "REJECTED") {
      return new GraphError(132001, `template name (${name}) does not exist in ${language}`);
    }
    if (def.status === "PAUSED") return new GraphError(132015);
    if (def.status === "DISABLED") return new GraphError(132016);

    const given = template.components;
    if (given !== undefined && !Array.isArray(given))
      return new GraphError(100, "Param template['components'] must be an array.");
    const components = (given ?? []) as unknown[];
    const byType = (t: string) =>
      components.filter((c): c is Obj => isObj(c) && typeof c.type === "string" && c.type.toLowerCase() === t);

    // header
    const header = def.components.find((c) => c.type === "HEADER");
    const headerGiven = byType("header")[0];
    const headerParams = Array.isArray(headerGiven?.parameters) ? (headerGiven.parameters as unknown[]) : [];
    const headerExpected = header === undefined ? 0 : header.format === "TEXT" ? countParams(header.text) : 1;
    if (headerParams.length !== headerExpected) return countMismatch("header", headerParams.length, headerExpected);
    if (header !== undefined && headerExpected > 0) {
      const p = headerParams[0];
      const expectedType = header.format.toLowerCase();
      const givenType = isObj(p) ? p.type : undefined;
      if (givenType !== expectedType) {
        return new GraphError(
          132012,
          `header: Format mismatch, expected ${header.format}, received ${String(givenType ?? "nothing").toUpperCase()}`,
        );
      }
      if (expectedType === "text") {
        if (typeof (p as Obj).text !== "string" || (p as Obj).text === "")
          return new GraphError(132012, "header: text is empty");
      } else {
        const mediaError = this.checkMedia(expectedType, (p as Obj)[expectedType], `header ${expectedType}`);
        if (mediaError) return new GraphError(132012, mediaError.details);
      }
    }

    // body
    const body = def.components.find((c) => c.type === "BODY");
    const bodyGiven = byType("body")[0];
    const bodyParams = Array.isArray(bodyGiven?.parameters) ? (bodyGiven.parameters as unknown[]) : [];
    const bodyExpected = countParams(body?.text);
    if (bodyParams.length !== bodyExpected) return countMismatch("body", bodyParams.length, bodyExpected);
    for (const p of bodyParams) {
      const ok =
        isObj(p) &&
        ((p.type === "text" && typeof p.text === "string" && p.text !== "") ||
          p.type === "currency" ||
          p.type === "date_time");
      if (!ok) return new GraphError(132012, "body: parameters must be text, currency or date_time");
    }

    // buttons: dynamic URL buttons need their suffix; quick replies may carry a payload
    const defined = def.components.find((c) => c.type === "BUTTONS");
    const buttons = defined?.type === "BUTTONS" ? defined.buttons : [];
    const quickReplies = buttons
      .filter((b) => b.type === "QUICK_REPLY")
      .map((b) => ({ payload: b.text, text: b.text }));
    const suffixed = new Set<number>();
    for (const b of byType("button")) {
      const index = Number(b.index);
      const button = Number.isInteger(index) ? buttons[index] : undefined;
      const subType = b.sub_type;
      const params = Array.isArray(b.parameters) ? (b.parameters as unknown[]) : [];
      if (button === undefined) return countMismatch(`button at index ${String(b.index)}`, params.length, 0);
      if (
        (subType === "quick_reply") !== (button.type === "QUICK_REPLY") ||
        (subType !== "quick_reply" && subType !== "url")
      ) {
        return new GraphError(
          132012,
          `button at index ${index}: sub_type ${String(subType)} does not match ${button.type}`,
        );
      }
      const expected = button.type === "URL" ? countParams(button.url) : 1;
      if (params.length !== expected) return countMismatch(`button at index ${index}`, params.length, expected);
      const p = params[0];
      if (button.type === "QUICK_REPLY") {
        if (!isObj(p) || p.type !== "payload" || typeof p.payload !== "string") {
          return new GraphError(132012, `button at index ${index}: a quick reply takes a payload parameter`);
        }
        const qr = quickReplies.find((q) => q.text === button.text);
        if (qr) qr.payload = p.payload;
      } else if (expected > 0) {
        if (!isObj(p) || p.type !== "text" || typeof p.text !== "string") {
          return new GraphError(132012, `button at index ${index}: a URL button takes a text parameter`);
        }
        suffixed.add(index);
      }
    }
    for (const [index, button] of buttons.entries()) {
      if (button.type === "URL" && countParams(button.url) > 0 && !suffixed.has(index)) {
        return countMismatch(`button at index ${index}`, 0, countParams(button.url));
      }
    }
    return { quickReplies, category: def.category.toLowerCase() };
  }

  private contacts(raw: Buffer): [number, unknown] {
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return [400, { errors: [{ code: 1008, title: "Required parameter is missing", details: "contacts" }] }];
    }
    if (!isObj(body) || !Array.isArray(body.contacts)) {
      return [400, { errors: [{ code: 1008, title: "Required parameter is missing", details: "contacts" }] }];
    }
    this.counters.contactsChecked += body.contacts.length;
    const contacts = body.contacts
      .filter((c): c is string => typeof c === "string")
      .map((input) => {
        const digits = digitsOf(input);
        const invalid = digits.length < 5 || digits.endsWith("0000") || this.forced.get(digits) === 131026;
        return invalid ? { input, status: "invalid" } : { input, status: "valid", wa_id: digits };
      });
    return [200, { contacts, meta: { api_status: "stable", version: "2.41.2" } }];
  }

  private listTemplates(wabaId: string | undefined, url: URL): [number, unknown] {
    if (wabaId !== this.options.wabaId) {
      return this.errorAnswer(
        new GraphError(100, `Unsupported get request. Object with ID '${wabaId}' does not exist.`, 33),
      );
    }
    this.counters.templatesListed++;
    const limit = Math.min(Math.max(Number(url.searchParams.get("limit") ?? 25) || 25, 1), 1000);
    const after = url.searchParams.get("after");
    const start = after === null ? 0 : Number(Buffer.from(after, "base64url").toString("utf8"));
    if (!Number.isInteger(start) || start < 0) return this.errorAnswer(new GraphError(100, "Invalid cursor."));
    const all = this.options.templates;
    const page = all.slice(start, start + limit);
    const cursor = (i: number) => Buffer.from(String(i), "utf8").toString("base64url");
    const data = page.map((t, i) => ({
      name: t.name,
      parameter_format: "POSITIONAL",
      components: t.components,
      language: t.language,
      status: t.status,
      category: t.category,
      id: String(1_000_000_000_000 + start + i),
    }));
    const paging: Obj = { cursors: { before: cursor(start), after: cursor(start + page.length) } };
    if (start + page.length < all.length) {
      const next = new URL(url.toString());
      next.searchParams.set("after", cursor(start + page.length));
      next.searchParams.delete("access_token");
      paging.next = `${this.url}${next.pathname}${next.search}`;
    }
    return [200, { data, paging }];
  }

  // -------------------------------------------------------------- statuses and replies

  private statusOf(accepted: Accepted, status: string, extra: Obj = {}): StatusUpdate {
    const s: Obj = { id: accepted.id, status, timestamp: nowSeconds(), recipient_id: accepted.recipient, ...extra };
    return { kind: "status", status: s };
  }

  private failedStatus(accepted: Accepted, code: number): StatusUpdate {
    const entry = WHATSAPP_ERROR_CATALOG[code] ?? { title: "Unknown error", http: 400, details: "" };
    const key = String(code);
    this.counters.asyncFailuresByCode[key] = (this.counters.asyncFailuresByCode[key] ?? 0) + 1;
    return this.statusOf(accepted, "failed", {
      errors: [
        {
          code,
          title: entry.title,
          message: entry.title,
          error_data: { details: entry.details },
          href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
        },
      ],
    });
  }

  private scheduleStatuses(accepted: Accepted): void {
    if (this.options.webhookUrl === undefined) return;
    const o = this.options;
    const windowOpenedAt = this.windows.get(accepted.recipient);
    const windowOpen = windowOpenedAt !== undefined && Date.now() - windowOpenedAt < o.windowMs;
    if (accepted.freeForm && o.enforceWindow && !windowOpen) {
      // Accepted, never sent: Meta fails it by webhook.
      this.sentLine.push(o.sentDelayMs, this.failedStatus(accepted, 131047));
      return;
    }
    const pricing = {
      billable: accepted.freeForm ? false : accepted.category !== "utility" || !windowOpen,
      pricing_model: "PMP",
      type: accepted.freeForm ? "free_customer_service" : "regular",
      category: accepted.category,
    };
    this.sentLine.push(o.sentDelayMs, this.statusOf(accepted, "sent", { pricing }));
    if (accepted.recipient.endsWith("9999") || Math.random() < o.failureShare) {
      this.outcomeLine.push(o.deliveryDelayMs, this.failedStatus(accepted, o.failureCode));
      return;
    }
    this.outcomeLine.push(o.deliveryDelayMs, this.statusOf(accepted, "delivered", { pricing }));
    if (Math.random() < o.readShare)
      this.readLine.push(o.deliveryDelayMs + o.readDelayMs, this.statusOf(accepted, "read"));
    if (Math.random() < o.replyShare) this.replyLine.push(o.deliveryDelayMs + o.replyDelayMs, accepted);
  }

  private reply(accepted: Accepted): void {
    const tap = accepted.quickReplies[0];
    this.simulateInbound(
      tap
        ? { from: accepted.recipient, button: tap, contextId: accepted.id }
        : { from: accepted.recipient, text: this.options.replyText, contextId: accepted.id },
    );
  }

  // -------------------------------------------------------------- webhook pusher

  private enqueue(update: Update): void {
    if (this.closing || this.options.webhookUrl === undefined) return;
    this.queue.push(update);
    if (update.kind === "status") this.counters.statusesQueued++;
    else this.counters.inboundQueued++;
    if (update.kind === "status" && this.options.duplicateShare > 0 && Math.random() < this.options.duplicateShare) {
      this.counters.duplicatesQueued++;
      this.counters.statusesQueued++;
      this.queue.push({ kind: "status", status: { ...update.status } });
    }
    this.schedulePump();
  }

  private schedulePump(): void {
    if (this.pumpScheduled || this.closing) return;
    this.pumpScheduled = true;
    const run = () => {
      this.pumpScheduled = false;
      this.batchTimer = undefined;
      this.pump();
    };
    if (this.options.batchWindowMs > 0) this.batchTimer = setTimeout(run, this.options.batchWindowMs);
    else setImmediate(run);
  }

  private pump(): void {
    while (this.inflightPosts < this.options.webhookConcurrency && this.queueHead < this.queue.length) {
      const first = this.queue[this.queueHead] as Update;
      if (first.kind === "message") {
        this.queue[this.queueHead++] = undefined;
        this.post([first]);
        continue;
      }
      const batch: StatusUpdate[] = [];
      while (batch.length < this.options.batchMax && this.queueHead < this.queue.length) {
        const next = this.queue[this.queueHead] as Update;
        if (next.kind !== "status") break;
        this.queue[this.queueHead++] = undefined;
        batch.push(next);
      }
      if (this.options.reorder) shuffle(batch);
      this.post(batch);
    }
    if (this.queueHead === this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 4096) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
  }

  private payloadOf(updates: Update[]): string {
    const metadata = {
      display_phone_number: this.options.displayPhoneNumber,
      phone_number_id: this.options.phoneNumberId,
    };
    const first = updates[0] as Update;
    const value: Obj =
      first.kind === "message"
        ? {
            messaging_product: "whatsapp",
            metadata,
            contacts: [{ profile: { name: "Simulated user" }, wa_id: first.waId }],
            messages: [first.message],
          }
        : { messaging_product: "whatsapp", metadata, statuses: updates.map((u) => (u as StatusUpdate).status) };
    return JSON.stringify({
      object: "whatsapp_business_account",
      entry: [{ id: this.options.wabaId, changes: [{ value, field: "messages" }] }],
    });
  }

  private post(updates: Update[]): void {
    const target = this.options.webhookUrl;
    if (target === undefined) return;
    const statuses = updates[0]?.kind === "status" ? updates.length : 0;
    const body = Buffer.from(this.payloadOf(updates), "utf8");
    const signature = signWhatsappPayload(body, this.options.appSecret);
    const url = new URL(target);
    this.inflightPosts++;
    this.inflightUpdates += updates.length;
    this.counters.statusesPushed += statuses;
    const attempt = (n: number) => {
      if (this.closing) return;
      this.counters.webhookPosts++;
      this.poolFor(url.origin)
        .request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": signature },
          body,
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
            this.counters.webhookPostsAcked++;
            if (statuses > 0) this.counters.statusesAcked += statuses;
            else this.counters.inboundAcked += updates.length;
            this.done(updates.length);
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
            this.counters.webhookDropped += updates.length;
            this.done(updates.length);
          }
        });
    };
    attempt(0);
  }

  private done(updates: number): void {
    this.inflightPosts--;
    this.inflightUpdates -= updates;
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

function countMismatch(where: string, given: number, expected: number): GraphError {
  return new GraphError(
    132000,
    `${where}: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
  );
}

function shuffle<T>(items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
