// Channels (the spec's "interface" / "api", the admin's product/api page): provider connections by kind,
// per-customer routing, "API data transfer" and channel statistics.
// Secret fields (CHANNEL_SECRET_FIELDS) are write-only: requests may carry them, responses only say whether
// they are set.
import { z } from "zod";
import { activeStatusCode, codeInQuery, countryCodeList, countryScopeCode, requireCodesForScope } from "./catalog";
import { ActiveStatus, ChannelKind, CountryScope, InterfaceAction, ProductCode } from "./codes";
import { acrossTenants, id, paging, text } from "./common";
import { CONNECTION_REASONS } from "./connection-test";

/** The channel code each kind carries: SMPP and generic HTTP are SMS providers. */
export const KIND_PRODUCT_CODE: Record<ChannelKind, ProductCode> = {
  smpp: ProductCode.SMS,
  http: ProductCode.SMS,
  whatsapp: ProductCode.WS,
  rcs: ProductCode.RCS,
};

/** Config fields that are credentials: encrypted at rest, never returned. */
export const CHANNEL_SECRET_FIELDS = {
  smpp: ["password", "lookupToken"],
  whatsapp: ["accessToken", "appSecret", "webhookVerifyToken"],
  rcs: ["serviceAccountKey", "webhookClientToken"],
  http: ["authSecret"],
} as const satisfies Record<ChannelKind, readonly string[]>;

/** Credentials a channel works without: an HLR lookup may take no token. Kept when given, never required. */
export const OPTIONAL_CHANNEL_SECRETS: ReadonlySet<string> = new Set(["lookupToken"]);

/** Credentials are taken byte for byte (not trimmed). */
const secretText = (max: number) => z.string().min(1).max(max);
const httpUrl = () => z.url({ protocol: /^https?$/ }).max(1000);
const ton = () => z.number().int().min(0).max(6);
const npi = () => z.number().int().min(0).max(18);

/** A Google service-account key file: JSON with client_email and a PEM private_key. */
export function looksLikeServiceAccountKey(text: string): boolean {
  try {
    const key = JSON.parse(text) as Record<string, unknown>;
    return (
      typeof key.client_email === "string" &&
      key.client_email.includes("@") &&
      typeof key.private_key === "string" &&
      key.private_key.includes("PRIVATE KEY")
    );
  } catch {
    // not JSON at all: the answer is simply "no"
    return false;
  }
}

export const smppChannelConfig = z.object({
  host: text(253, 1).regex(/^[A-Za-z0-9.:[\]-]+$/),
  port: z.number().int().min(1).max(65535).default(2775),
  systemId: text(15, 1),
  password: secretText(64).optional(),
  systemType: text(12).default(""),
  sourceTon: ton().default(1),
  sourceNpi: npi().default(1),
  destTon: ton().default(1),
  destNpi: npi().default(1),
  bindMode: z.enum(["transceiver", "transmitter_receiver"]).default("transceiver"),
  /** Receiver binds beside the transmitter (bindMode transmitter_receiver; docs/dispatch.md, "Receiver binds"). */
  receiverBinds: z.number().int().min(1).max(8).default(1),
  windowSize: z.number().int().min(1).max(1000).default(50),
  enquireLinkIntervalMs: z.number().int().min(1000).max(600_000).default(30_000),
  /** An HLR lookup endpoint for screening (docs/channels.md, "SMS screening"); none: SMS cannot be screened. */
  lookupUrl: httpUrl().optional(),
  lookupToken: secretText(500).optional(),
});

export const whatsappChannelConfig = z.object({
  baseUrl: httpUrl().default("https://graph.facebook.com"),
  apiVersion: z
    .string()
    .trim()
    .regex(/^v\d{1,3}\.\d{1,3}$/)
    .default("v21.0"),
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/),
  /** The WhatsApp Business Account the number belongs to: needed to sync its message templates. */
  wabaId: z
    .string()
    .trim()
    .regex(/^\d{1,32}$/)
    .optional(),
  /**
   * A provider's contacts check in the On-Premises API's shape (POST /v1/contacts); the Cloud API has none, so
   * without it numbers are not screened before sending.
   */
  contactsCheckUrl: httpUrl().optional(),
  accessToken: secretText(2000).optional(),
  appSecret: secretText(200).optional(),
  webhookVerifyToken: secretText(200).optional(),
});

export const rcsChannelConfig = z.object({
  baseUrl: httpUrl().default("https://rcsbusinessmessaging.googleapis.com"),
  agentId: text(200, 1),
  /** The service-account key file's JSON text. */
  serviceAccountKey: secretText(20_000)
    .refine(looksLikeServiceAccountKey, { params: { i18n: "channel.service_account_key_invalid" } })
    .optional(),
  tokenUrl: httpUrl().default("https://oauth2.googleapis.com/token"),
  /** The clientToken of the agent's webhook: key of the X-Goog-Signature HMAC on RBM's event pushes. */
  webhookClientToken: secretText(200).optional(),
  /** Screening before sending: users:batchGet (many numbers per call) or one capabilities call per number. */
  capabilityCheck: z.enum(["batch", "single"]).default("batch"),
});

export const httpChannelConfig = z
  .object({
    url: httpUrl(),
    method: z.enum(["GET", "POST"]).default("POST"),
    /** basic: authUsername + authSecret; bearer: authSecret as the token; header: authHeader: authSecret. */
    authType: z.enum(["none", "basic", "bearer", "header"]).default("none"),
    authUsername: text(200).optional(),
    authHeader: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,100}$/)
      .optional(),
    authSecret: secretText(2000).optional(),
    /** The request body with placeholders ({to}, {from}, {text}) filled per message by the sender. */
    bodyTemplate: z.string().max(4000).optional(),
  })
  .superRefine((c, ctx) => {
    if (c.authType === "basic" && !c.authUsername)
      ctx.addIssue({ code: "custom", path: ["authUsername"], params: { i18n: "validation.required" } });
    if (c.authType === "header" && !c.authHeader)
      ctx.addIssue({ code: "custom", path: ["authHeader"], params: { i18n: "validation.required" } });
  });

export type SmppChannelConfig = z.infer<typeof smppChannelConfig>;
export type WhatsappChannelConfig = z.infer<typeof whatsappChannelConfig>;
export type RcsChannelConfig = z.infer<typeof rcsChannelConfig>;
export type HttpChannelConfig = z.infer<typeof httpChannelConfig>;
export interface ChannelConfigOf {
  smpp: SmppChannelConfig;
  whatsapp: WhatsappChannelConfig;
  rcs: RcsChannelConfig;
  http: HttpChannelConfig;
}

// ---------------------------------------------------------------- create, edit

const throughput = () => z.number().int().min(1).max(10_000);

const createCommon = {
  name: text(100, 1),
  /** Messages per second across all workers. */
  throughput: throughput().default(100),
  countryScope: countryScopeCode().default(CountryScope.ALL),
  countryCodes: countryCodeList().default([]),
};

/** Create: every secret of the kind is required (checked by the service, which names the missing field). */
export const channelCreateBody = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal(ChannelKind.SMPP), ...createCommon, config: smppChannelConfig }),
    z.object({ kind: z.literal(ChannelKind.WHATSAPP), ...createCommon, config: whatsappChannelConfig }),
    z.object({ kind: z.literal(ChannelKind.RCS), ...createCommon, config: rcsChannelConfig }),
    z.object({ kind: z.literal(ChannelKind.HTTP), ...createCommon, config: httpChannelConfig }),
  ])
  .superRefine(requireCodesForScope);
export type ChannelCreateBody = z.infer<typeof channelCreateBody>;

const editCommon = {
  id: id(),
  name: text(100, 1).optional(),
  throughput: throughput().optional(),
  /** Scope and list are replaced together. */
  countryScope: countryScopeCode().optional(),
  countryCodes: countryCodeList().optional(),
};

/**
 * Edit: `kind` must be the channel's own (a channel never changes kind). `config`, when given, replaces the
 * non-secret settings; a secret field left out (or the whole config left out) keeps the stored value.
 */
export const channelEditBody = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal(ChannelKind.SMPP), ...editCommon, config: smppChannelConfig.optional() }),
    z.object({ kind: z.literal(ChannelKind.WHATSAPP), ...editCommon, config: whatsappChannelConfig.optional() }),
    z.object({ kind: z.literal(ChannelKind.RCS), ...editCommon, config: rcsChannelConfig.optional() }),
    z.object({ kind: z.literal(ChannelKind.HTTP), ...editCommon, config: httpChannelConfig.optional() }),
  ])
  .superRefine(requireCodesForScope)
  .superRefine((v, ctx) => {
    if (v.countryCodes !== undefined && v.countryScope === undefined)
      ctx.addIssue({ code: "custom", path: ["countryScope"], params: { i18n: "validation.required" } });
  });
export type ChannelEditBody = z.infer<typeof channelEditBody>;

// ---------------------------------------------------------------- views

/** What a response says about a secret: whether it is set, and for long tokens their last 4 characters. */
export const secretState = z.object({ set: z.boolean(), last4: z.string().nullable() });

export const channelItem = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  productCode: z.number().int(),
  /** Non-secret settings only. */
  config: z.record(z.string(), z.unknown()),
  secrets: z.record(z.string(), secretState),
  throughput: z.number().int(),
  countryScope: z.number().int(),
  countryCodes: z.array(z.string()),
  status: z.number().int(),
  /** Products whose default channel this is. */
  defaultFor: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** Customer routes pointing at this channel. */
  routeCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  ...acrossTenants,
});
export type ChannelItem = z.infer<typeof channelItem>;

export const channelList = z.object({ list: z.array(channelItem), total: z.number().int() });

export const channelListQuery = paging.extend({
  kind: z.enum(Object.values(ChannelKind)).optional(),
  productCode: codeInQuery(Object.values(ProductCode)).optional(),
  status: codeInQuery(Object.values(ActiveStatus)).optional(),
  /** Matches the name. */
  keyword: text(100).optional(),
});
export type ChannelListQuery = z.infer<typeof channelListQuery>;

export const channelIdQuery = z.object({ id: id() });
export const channelIdBody = z.object({ id: id() });

export const channelStatusBody = z.object({ id: id(), status: activeStatusCode() });
export type ChannelStatusBody = z.infer<typeof channelStatusBody>;

export const channelDefaultBody = z.object({ channelId: id(), productId: id() });
export type ChannelDefaultBody = z.infer<typeof channelDefaultBody>;

export const channelTestResult = z.object({
  ok: z.boolean(),
  /** Why, as a code clients translate (CONNECTION_REASONS). */
  reason: z.enum(CONNECTION_REASONS),
  /** The provider's HTTP status when the reason is about one (credentials_refused, not_found, http_status...). */
  httpStatus: z.number().int().nullable(),
  /** What happened, in the provider's terms, in English (never a credential): secondary text for debugging. */
  detail: z.string(),
  latencyMs: z.number().int(),
});
export type ChannelTestResult = z.infer<typeof channelTestResult>;

// ---------------------------------------------------------------- WhatsApp message templates

/** The template's buttons whose value a message gives: URL suffixes (required), quick reply payloads (optional). */
export const whatsappTemplateButtons = z.array(
  z.object({ index: z.number().int().min(0).max(9), subType: z.enum(["url", "quick_reply"]) }),
);

/** A template as last synced from the channel's business account (the admin's list). */
export const whatsappTemplateRow = z.object({
  id: z.number().int(),
  channelId: z.number().int(),
  name: z.string(),
  language: z.string(),
  /** MARKETING, UTILITY or AUTHENTICATION */
  category: z.string(),
  /** APPROVED, PENDING, REJECTED, PAUSED or DISABLED: only APPROVED can be sent */
  status: z.string(),
  /** The components as WhatsApp lists them (header, body, footer, buttons): what a preview shows. */
  components: z.array(z.unknown()),
  /** Body parameters a message must give ({{1}}..{{n}}). */
  bodyParams: z.number().int(),
  /** TEXT, IMAGE, DOCUMENT, VIDEO, LOCATION, or null without a header. */
  headerKind: z.string().nullable(),
  /** Whether a message must give the header's value (its text variable, or its media link). */
  headerParam: z.boolean(),
  buttons: whatsappTemplateButtons,
  syncedAt: z.string(),
});
export type WhatsappTemplateRow = z.infer<typeof whatsappTemplateRow>;

/** An approved template a customer can pick for a WS batch. */
export const sendableTemplate = whatsappTemplateRow.omit({ id: true, channelId: true, status: true, syncedAt: true });
export type SendableTemplate = z.infer<typeof sendableTemplate>;

export const templateSyncResult = z.object({
  /** Templates the account lists now (the channel's whole set was replaced by them). */
  total: z.number().int(),
  approved: z.number().int(),
  syncedAt: z.string(),
});
export type TemplateSyncResult = z.infer<typeof templateSyncResult>;

// ---------------------------------------------------------------- routing

export const channelRouteBody = z
  .object({
    userId: id(),
    productId: id(),
    action: z.literal(Object.values(InterfaceAction)),
    /** Required for action 1 (set). */
    channelId: id().optional(),
    /** Absent: all countries ("*"); for action 2 absent clears every route of the customer for the product. */
    countryCodes: countryCodeList().min(1).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === InterfaceAction.SET && v.channelId === undefined)
      ctx.addIssue({ code: "custom", path: ["channelId"], params: { i18n: "validation.required" } });
  });
export type ChannelRouteBody = z.infer<typeof channelRouteBody>;

export const channelRouteResult = z.object({
  action: z.number().int(),
  /** Routes written (set) or removed (clear). */
  routes: z.number().int(),
});
export type ChannelRouteResult = z.infer<typeof channelRouteResult>;

export const channelRouteListQuery = paging.extend({
  userId: id().optional(),
  channelId: id().optional(),
  productId: id().optional(),
});
export type ChannelRouteListQuery = z.infer<typeof channelRouteListQuery>;

export const channelRouteItem = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  productId: z.number().int(),
  productCode: z.number().int(),
  productName: z.string(),
  /** ISO code, or "*" for every country. */
  countryCode: z.string(),
  channelId: z.number().int(),
  channelName: z.string(),
  channelStatus: z.number().int(),
  updatedAt: z.string(),
});
export type ChannelRouteItem = z.infer<typeof channelRouteItem>;

export const channelRouteList = z.object({ list: z.array(channelRouteItem), total: z.number().int() });

export const channelTransferBody = z.object({ fromChannelId: id(), toChannelId: id() });
export type ChannelTransferBody = z.infer<typeof channelTransferBody>;

export const channelTransferResult = z.object({
  /** Routes now pointing at the target channel. */
  moved: z.number().int(),
  /** Per-country routes folded into the customer's all-countries route, which already used the target. */
  merged: z.number().int(),
  /** Distinct customers whose routes changed. */
  customers: z.number().int(),
});
export type ChannelTransferResult = z.infer<typeof channelTransferResult>;

// ---------------------------------------------------------------- statistics

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    // RangeError: not a time zone Intl knows
    return false;
  }
}

export const channelStatsQuery = z.object({
  /** Default: 7 days before `to`. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Default: now. */
  to: z.iso.datetime({ offset: true }).optional(),
  channelId: id().optional(),
  productCode: codeInQuery(Object.values(ProductCode)).optional(),
  /** IANA time zone the daily series is cut in; default UTC. */
  timeZone: z.string().max(64).refine(isTimeZone).default("UTC"),
});
export type ChannelStatsQuery = z.infer<typeof channelStatsQuery>;

const statCounts = {
  /** Recipients handed to the channel in the range (by sentAt). */
  sent: z.number().int(),
  /** Send result 1. */
  success: z.number().int(),
  /** Send result 2. */
  failed: z.number().int(),
  /** Receive result 1 (delivery receipt). */
  delivered: z.number().int(),
  /** Sum of the successful recipients' prices, decimal string. */
  cost: z.string(),
};

export const channelStatsItem = z.object({
  channelId: z.number().int(),
  channelName: z.string(),
  kind: z.string(),
  productCode: z.number().int(),
  ...statCounts,
});

export const channelStatsDay = z.object({ day: z.string(), ...statCounts });

export const channelStats = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  list: z.array(channelStatsItem),
  total: z.number().int(),
  daily: z.array(channelStatsDay),
});
export type ChannelStats = z.infer<typeof channelStats>;
