// The per-kind settings of the "create api" form: exactly the fields of the contracts' channel config
// schemas (packages/contracts/src/channels.ts), with their defaults and limits, and the request body the
// form's values make. Credentials (CHANNEL_SECRET_FIELDS) are write-only: an empty one is left out, which on
// edit keeps the stored value.
import {
  CHANNEL_SECRET_FIELDS,
  type ChannelItem,
  KIND_PRODUCT_CODE,
  looksLikeServiceAccountKey,
  OPTIONAL_CHANNEL_SECRETS,
} from "@switchboard/contracts";
import { type ChannelKind, CountryScope } from "@switchboard/contracts/codes";

export type FieldType = "text" | "number" | "select" | "secret" | "textarea" | "secretTextarea";

export interface ConfigField {
  name: string;
  type: FieldType;
  required?: boolean;
  min?: number;
  max?: number;
  /** Text length limit. */
  maxLength?: number;
  defaultValue?: string | number;
  options?: readonly string[];
  pattern?: RegExp;
  url?: boolean;
  /** Checked on the text (e.g. a service-account key's JSON). */
  check?: (value: string) => boolean;
  /** Shown (and sent) only when this says so; gets the config values being edited. */
  visible?: (config: Record<string, unknown>) => boolean;
}

const ton = (name: string): ConfigField => ({ name, type: "number", min: 0, max: 6, defaultValue: 1 });
const npi = (name: string): ConfigField => ({ name, type: "number", min: 0, max: 18, defaultValue: 1 });
const authUsed = (c: Record<string, unknown>) => (c.authType ?? "none") !== "none";

export const KIND_FIELDS: Record<ChannelKind, readonly ConfigField[]> = {
  smpp: [
    { name: "host", type: "text", required: true, maxLength: 253, pattern: /^[A-Za-z0-9.:[\]-]+$/ },
    { name: "port", type: "number", min: 1, max: 65535, defaultValue: 2775, required: true },
    { name: "systemId", type: "text", required: true, maxLength: 15 },
    { name: "password", type: "secret", maxLength: 64 },
    { name: "systemType", type: "text", maxLength: 12 },
    { name: "bindMode", type: "select", options: ["transceiver", "transmitter_receiver"], defaultValue: "transceiver" },
    {
      name: "receiverBinds",
      type: "number",
      min: 1,
      max: 8,
      defaultValue: 1,
      visible: (c) => c.bindMode === "transmitter_receiver",
    },
    ton("sourceTon"),
    npi("sourceNpi"),
    ton("destTon"),
    npi("destNpi"),
    { name: "windowSize", type: "number", min: 1, max: 1000, defaultValue: 50 },
    { name: "enquireLinkIntervalMs", type: "number", min: 1000, max: 600_000, defaultValue: 30_000 },
    // Screening SMS numbers: an HLR lookup over HTTP (docs/channels.md); both optional.
    { name: "lookupUrl", type: "text", url: true, maxLength: 1000 },
    { name: "lookupToken", type: "secret", maxLength: 500 },
  ],
  whatsapp: [
    { name: "baseUrl", type: "text", url: true, maxLength: 1000, defaultValue: "https://graph.facebook.com" },
    { name: "apiVersion", type: "text", pattern: /^v\d{1,3}\.\d{1,3}$/, defaultValue: "v21.0" },
    { name: "phoneNumberId", type: "text", required: true, pattern: /^\d{1,32}$/ },
    { name: "accessToken", type: "secret", maxLength: 2000 },
    { name: "appSecret", type: "secret", maxLength: 200 },
    { name: "webhookVerifyToken", type: "secret", maxLength: 200 },
    { name: "wabaId", type: "text", pattern: /^\d{1,32}$/ },
    { name: "contactsCheckUrl", type: "text", url: true, maxLength: 1000 },
  ],
  rcs: [
    {
      name: "baseUrl",
      type: "text",
      url: true,
      maxLength: 1000,
      defaultValue: "https://rcsbusinessmessaging.googleapis.com",
    },
    { name: "agentId", type: "text", required: true, maxLength: 200 },
    { name: "tokenUrl", type: "text", url: true, maxLength: 1000, defaultValue: "https://oauth2.googleapis.com/token" },
    { name: "serviceAccountKey", type: "secretTextarea", maxLength: 20_000, check: looksLikeServiceAccountKey },
    { name: "webhookClientToken", type: "secret", maxLength: 200 },
    { name: "capabilityCheck", type: "select", options: ["batch", "single"], defaultValue: "batch" },
  ],
  http: [
    { name: "url", type: "text", required: true, url: true, maxLength: 1000 },
    { name: "method", type: "select", options: ["POST", "GET"], defaultValue: "POST" },
    { name: "authType", type: "select", options: ["none", "basic", "bearer", "header"], defaultValue: "none" },
    { name: "authUsername", type: "text", required: true, maxLength: 200, visible: (c) => c.authType === "basic" },
    {
      name: "authHeader",
      type: "text",
      required: true,
      pattern: /^[A-Za-z0-9-]{1,100}$/,
      visible: (c) => c.authType === "header",
    },
    { name: "authSecret", type: "secret", maxLength: 2000, visible: authUsed },
    { name: "bodyTemplate", type: "textarea", maxLength: 4000 },
  ],
};

export const CHANNEL_KINDS: readonly ChannelKind[] = ["smpp", "whatsapp", "rcs", "http"];

export const isSecretField = (f: ConfigField) => f.type === "secret" || f.type === "secretTextarea";
export const isVisible = (f: ConfigField, config: Record<string, unknown>) => !f.visible || f.visible(config);

export interface ChannelFormValues {
  kind: ChannelKind;
  name: string;
  throughput: number;
  countryScope: number;
  countryCodes?: string[];
  config: Record<string, unknown>;
}

/** Opening values: the schema defaults for a new channel, the stored settings (never secrets) for an edit. */
export function initialValues(kind: ChannelKind, item?: ChannelItem): ChannelFormValues {
  const config: Record<string, unknown> = {};
  for (const f of KIND_FIELDS[kind]) {
    if (isSecretField(f)) continue;
    const stored = item?.config[f.name];
    config[f.name] = stored ?? f.defaultValue;
  }
  return {
    kind,
    name: item?.name ?? "",
    throughput: item?.throughput ?? 100,
    countryScope: item?.countryScope ?? CountryScope.ALL,
    countryCodes: item?.countryCodes ?? [],
    config,
  };
}

/** The create or edit body: only the kind's visible fields; empty optional texts and credentials left out. */
export function channelBody(values: ChannelFormValues, id?: number): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const raw = values.config ?? {};
  for (const f of KIND_FIELDS[values.kind]) {
    if (!isVisible(f, raw)) continue;
    const value = raw[f.name];
    if (value === undefined || value === null) continue;
    if (f.type === "number") {
      if (value === "") continue;
      config[f.name] = Number(value);
    } else if (isSecretField(f)) {
      // Credentials are taken byte for byte (not trimmed), and an empty one means "unchanged".
      if (String(value) !== "") config[f.name] = String(value);
    } else {
      const text = String(value).trim();
      if (text !== "") config[f.name] = text;
    }
  }
  return {
    ...(id === undefined ? {} : { id }),
    kind: values.kind,
    name: values.name.trim(),
    throughput: Number(values.throughput),
    countryScope: values.countryScope,
    countryCodes: values.countryScope === CountryScope.ALL ? [] : (values.countryCodes ?? []),
    config,
  };
}

/** Which credentials a new channel of this kind must be given. */
export function requiredSecrets(kind: ChannelKind, config: Record<string, unknown>): readonly string[] {
  if (kind === "http" && !authUsed(config)) return [];
  return CHANNEL_SECRET_FIELDS[kind].filter((name) => !OPTIONAL_CHANNEL_SECRETS.has(name));
}

export { KIND_PRODUCT_CODE };
