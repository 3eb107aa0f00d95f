// WhatsApp Cloud API channel adapter: sends over a keep-alive undici dispatcher, errors mapped through the
// documented error codes (errors.ts), message templates listed from the WhatsApp Business Account, and an optional
// contacts check where a provider offers the On-Premises API's one.
//
// References followed:
//   - Send: POST /{Version}/{Phone-Number-ID}/messages, answer {messaging_product, contacts: [{input, wa_id}],
//     messages: [{id: "wamid..."}]} (Meta "Send messages"; whatsapp-api-js ServerSentMessageResponse). The Cloud
//     API takes no idempotency key, so a send retried after a lost answer can deliver twice: network failures say
//     so in their detail and the caller decides.
//   - Templates: GET /{Version}/{WABA-ID}/message_templates with Graph API cursor paging ({data, paging: {cursors:
//     {before, after}, next}}) (Meta "Template management"; Graph API reference WhatsApp Business Account Message
//     Templates).
//   - Contacts check: the On-Premises API's POST /v1/contacts {blocking: "wait", contacts, force_check} answering
//     {contacts: [{input, status: "valid" | "invalid" | "processing", wa_id}]} (360dialog's and Meta's On-Premises
//     docs). Since On-Premises v2.43 it answers "valid" for every number, so "invalid" is trusted and "valid" only
//     as far as the provider behind contactsCheckUrl means it.
//
// Events come by webhook (webhook.ts), so onReport never fires. No per-send validation or logging: the caller
// validated the content when the batch was created, and a batch sends one body object to every recipient.
import { type WhatsappChannelConfig, whatsappChannelConfig } from "@switchboard/contracts";
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
import { DEFAULT_TIMEOUT_MS, defaultDispatcher, graphCall, graphFailure, splitBase } from "./http";
import { messageRequestBody } from "./message-body";
import { probeWhatsapp } from "./probe";

/** The channel's settings with its access token, as the workers decrypt them. */
export type WhatsappAdapterConfig = Partial<WhatsappChannelConfig> &
  Pick<WhatsappChannelConfig, "phoneNumberId"> & { accessToken: string };

export interface WhatsappAdapterDeps {
  /**
   * The HTTP client. The workers pass one built with the egress policy (egressAgent); the adapter never closes an
   * injected one. Without it the adapter owns a keep-alive Agent (through `egress` when given).
   */
  dispatcher?: Dispatcher;
  egress?: EgressPolicy;
  logger?: Logger;
  /** Deadline of each Graph API call; default 30 s. */
  timeoutMs?: number;
  /** Connections per origin of the adapter's own dispatcher; default 64. */
  connections?: number;
}

export interface WhatsappAdapterStats {
  sent: number;
  accepted: number;
  failed: number;
  throttled: number;
  inflight: number;
}

export interface WhatsappAdapter extends ChannelAdapter {
  readonly kind: "whatsapp";
  stats(): WhatsappAdapterStats;
  /** The account's message templates (needs wabaId in the config). */
  listTemplates(options?: { pageSize?: number }): Promise<TemplateListOutcome>;
}

/** A message template as the Business Management API describes it. */
export interface WhatsappTemplate {
  id?: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: unknown[];
}

export type TemplateListOutcome = { ok: true; templates: WhatsappTemplate[] } | SendFailure;

interface Resolved {
  config: WhatsappChannelConfig & { accessToken: string };
  origin: string;
  basePath: string;
  headers: Record<string, string>;
}

function resolve(input: WhatsappAdapterConfig): Resolved {
  if (!input.accessToken) throw new ChannelError("CONFIG", "the WhatsApp channel has no access token", false);
  const parsed = whatsappChannelConfig.safeParse(input);
  if (!parsed.success) throw new ChannelError("CONFIG", "invalid WhatsApp channel settings", false);
  const config = { ...parsed.data, accessToken: input.accessToken };
  const { origin, basePath } = splitBase(config.baseUrl);
  return {
    config,
    origin,
    basePath,
    headers: { authorization: `Bearer ${config.accessToken}`, "content-type": "application/json" },
  };
}

export function createWhatsappAdapter(config: WhatsappAdapterConfig, deps: WhatsappAdapterDeps = {}): WhatsappAdapter {
  return new WhatsappAdapterImpl(resolve(config), deps);
}

class WhatsappAdapterImpl implements WhatsappAdapter {
  readonly kind = "whatsapp" as const;
  readonly checkReachability: ((numbers: readonly string[]) => Promise<ReachabilityOutcome>) | undefined;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly messagesPath: string;
  private closed = false;
  private readonly counters = { sent: 0, accepted: 0, failed: 0, throttled: 0, inflight: 0 };

  constructor(
    private readonly r: Resolved,
    private readonly deps: WhatsappAdapterDeps,
  ) {
    this.ownsDispatcher = deps.dispatcher === undefined;
    this.dispatcher = deps.dispatcher ?? defaultDispatcher(deps.egress, deps.connections);
    this.logger = deps.logger ?? silentLogger;
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.messagesPath = `${r.basePath}/${r.config.apiVersion}/${r.config.phoneNumberId}/messages`;
    const contactsUrl = r.config.contactsCheckUrl;
    this.checkReachability =
      contactsUrl === undefined ? undefined : (numbers) => this.checkContacts(contactsUrl, numbers);
  }

  stats(): WhatsappAdapterStats {
    return { ...this.counters };
  }

  onReport(_handler: (report: DeliveryReport) => void): void {
    // Statuses arrive as webhooks at the API (verifyWhatsappWebhook + parseWhatsappEvents), never on this object.
  }

  async send(msg: OutboundMessage): Promise<SendOutcome> {
    if (msg.kind !== "whatsapp") {
      return sendFailure("UNSUPPORTED_CONTENT", false, "the WhatsApp channel only sends WS content", {
        reason: "invalid",
      });
    }
    if (this.closed) return sendFailure("CLOSED", true, "the adapter is closed", { reason: "provider" });
    this.counters.sent++;
    this.counters.inflight++;
    try {
      const answer = await graphCall(
        this.dispatcher,
        {
          origin: this.r.origin,
          path: this.messagesPath,
          method: "POST",
          headers: this.r.headers,
          body: messageRequestBody(msg.to, msg.body),
        },
        this.timeoutMs,
      );
      const outcome = "ok" in answer ? answer : this.sendOutcome(answer.status, answer);
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

  private sendOutcome(status: number, answer: Parameters<typeof graphFailure>[0]): SendOutcome {
    if (status < 200 || status >= 300) return graphFailure(answer);
    const messages = jsonOf(answer.body)?.messages;
    const id = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined)?.id : undefined;
    if (typeof id !== "string" || id === "") {
      // Accepted or not, there is no id to match statuses with: resending could deliver twice, so it stops here.
      return sendFailure("NO_MESSAGE_ID", false, `HTTP ${status} without a message id`, { reason: "provider" });
    }
    return { ok: true, providerMessageId: id, parts: 1 };
  }

  listTemplates(options: { pageSize?: number } = {}): Promise<TemplateListOutcome> {
    return fetchTemplates(this.r, this.dispatcher, this.timeoutMs, options.pageSize);
  }

  private async checkContacts(url: string, numbers: readonly string[]): Promise<ReachabilityOutcome> {
    const target = new URL(url);
    const answer = await graphCall(
      this.dispatcher,
      {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        headers: this.r.headers,
        body: JSON.stringify({ blocking: "wait", contacts: numbers, force_check: false }),
      },
      this.timeoutMs,
    );
    if ("ok" in answer) return answer;
    if (answer.status < 200 || answer.status >= 300) return graphFailure(answer);
    const contacts = jsonOf(answer.body)?.contacts;
    const results = new Map<string, Reachability>();
    for (const n of numbers) results.set(n, "unknown");
    if (!Array.isArray(contacts)) {
      return sendFailure("BAD_ANSWER", true, "the contacts check answered without a contacts list", {
        reason: "provider",
      });
    }
    for (const c of contacts as Array<{ input?: unknown; status?: unknown }>) {
      if (typeof c?.input !== "string" || !results.has(c.input)) continue;
      results.set(c.input, c.status === "valid" ? "reachable" : c.status === "invalid" ? "unreachable" : "unknown");
    }
    return { ok: true, results };
  }

  async test(): Promise<{ ok: boolean; detail: string }> {
    const { baseUrl, apiVersion, phoneNumberId, accessToken } = this.r.config;
    const dispatcher = this.dispatcher;
    // The probe speaks fetch; through our dispatcher it obeys the same egress policy as the sends.
    const viaDispatcher = ((input: string, init?: RequestInit) =>
      undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher })) as unknown as typeof fetch;
    const result = await probeWhatsapp(
      { baseUrl, apiVersion, phoneNumberId, accessToken },
      this.ownsDispatcher && this.deps.egress ? { egress: this.deps.egress } : { fetch: viaDispatcher },
    );
    return { ok: result.ok, detail: result.detail };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsDispatcher) {
      await this.dispatcher.close().catch((err: unknown) => {
        this.logger.warn({ err: err instanceof Error ? err.name : "unknown" }, "whatsapp dispatcher close failed");
      });
    }
  }
}

/** At most this many pages: a provider answering the same cursor forever must not hold a worker forever. */
const MAX_TEMPLATE_PAGES = 200;

async function fetchTemplates(
  r: Resolved,
  dispatcher: Dispatcher,
  timeoutMs: number,
  pageSize = 100,
): Promise<TemplateListOutcome> {
  const wabaId = r.config.wabaId;
  if (wabaId === undefined) {
    return sendFailure("NO_WABA_ID", false, "the channel has no WhatsApp Business Account id", { reason: "invalid" });
  }
  const templates: WhatsappTemplate[] = [];
  const seen = new Set<string>();
  let after: string | undefined;
  for (let page = 0; page < MAX_TEMPLATE_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(pageSize), fields: "name,language,category,status,components" });
    if (after !== undefined) query.set("after", after);
    const answer = await graphCall(
      dispatcher,
      {
        origin: r.origin,
        path: `${r.basePath}/${r.config.apiVersion}/${wabaId}/message_templates?${query}`,
        method: "GET",
        headers: { authorization: r.headers.authorization as string, accept: "application/json" },
      },
      timeoutMs,
    );
    if ("ok" in answer) return answer;
    if (answer.status !== 200) return graphFailure(answer);
    const json = jsonOf(answer.body);
    if (!json || !Array.isArray(json.data)) {
      return sendFailure("BAD_ANSWER", true, "the template list answer had no data", { reason: "provider" });
    }
    for (const t of json.data as Array<Record<string, unknown>>) {
      if (typeof t?.name !== "string" || typeof t.language !== "string") continue;
      templates.push({
        ...(typeof t.id === "string" ? { id: t.id } : {}),
        name: t.name,
        language: t.language,
        category: typeof t.category === "string" ? t.category : "",
        status: typeof t.status === "string" ? t.status : "",
        components: Array.isArray(t.components) ? t.components : [],
      });
    }
    const paging = json.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
    const next = paging?.cursors?.after;
    // Graph API: "next" is present only while there are more pages.
    if (typeof paging?.next !== "string" || typeof next !== "string" || seen.has(next)) return { ok: true, templates };
    seen.add(next);
    after = next;
  }
  return { ok: true, templates };
}

/** The account's templates without an adapter (the API's template sync). */
export async function listTemplates(
  config: WhatsappAdapterConfig,
  deps: Pick<WhatsappAdapterDeps, "dispatcher" | "egress" | "timeoutMs"> & { pageSize?: number } = {},
): Promise<TemplateListOutcome> {
  const r = resolve(config);
  const dispatcher = deps.dispatcher ?? defaultDispatcher(deps.egress, 2);
  try {
    return await fetchTemplates(r, dispatcher, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS, deps.pageSize);
  } finally {
    if (deps.dispatcher === undefined) await dispatcher.close().catch(() => {});
  }
}
