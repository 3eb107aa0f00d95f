// A channel's settings are kept in two places: the non-secret ones in Channel.config (JSON), the credentials
// (CHANNEL_SECRET_FIELDS) sealed in Channel.secrets. These functions split a request's config, merge new
// credentials over stored ones, and say what a response may show about them.

import type { ChannelSecrets } from "@switchboard/channels";
import {
  CHANNEL_SECRET_FIELDS,
  type ChannelConfigOf,
  type ChannelKind,
  OPTIONAL_CHANNEL_SECRETS,
} from "@switchboard/contracts";
import { badRequest } from "../../lib/errors";

type SecretField = (typeof CHANNEL_SECRET_FIELDS)[ChannelKind][number];

/** Long random tokens may show their last 4 characters; passwords and key files never show any. */
const HINTED: ReadonlySet<string> = new Set<SecretField>([
  "accessToken",
  "appSecret",
  "webhookVerifyToken",
  "authSecret",
]);
const HINT_MIN_LENGTH = 16;

export type PublicConfig = Record<string, unknown>;

const secretFields = (kind: ChannelKind): readonly string[] => CHANNEL_SECRET_FIELDS[kind];

/** The request's config without its credentials, and the credentials that were given. */
export function splitConfig<K extends ChannelKind>(kind: K, config: ChannelConfigOf[K]) {
  const publicConfig: PublicConfig = {};
  const given: ChannelSecrets = {};
  for (const [name, value] of Object.entries(config)) {
    if (value === undefined) continue;
    if (secretFields(kind).includes(name)) given[name] = String(value);
    else publicConfig[name] = value;
  }
  return { publicConfig, given };
}

/** The credentials a channel needs with these settings (an HTTP gateway without authentication needs none). */
function neededSecrets(kind: ChannelKind, publicConfig: PublicConfig): readonly string[] {
  if (kind === "http" && publicConfig.authType === "none") return [];
  return secretFields(kind).filter((name) => !OPTIONAL_CHANNEL_SECRETS.has(name));
}

/**
 * The credentials to store: the given ones over the stored ones, only those the settings need.
 * A needed credential that is neither given nor stored is a 400 naming the field.
 */
export function mergeSecrets(
  kind: ChannelKind,
  publicConfig: PublicConfig,
  stored: ChannelSecrets,
  given: ChannelSecrets,
): ChannelSecrets {
  const merged: ChannelSecrets = {};
  for (const name of neededSecrets(kind, publicConfig)) {
    const value = given[name] ?? stored[name];
    if (value === undefined || value === "") throw badRequest("validation.required", { field: `config.${name}` });
    merged[name] = value;
  }
  for (const name of secretFields(kind)) {
    if (!OPTIONAL_CHANNEL_SECRETS.has(name)) continue;
    const value = given[name] ?? stored[name];
    if (value !== undefined && value !== "") merged[name] = value;
  }
  return merged;
}

/** Settings derived from credentials that are safe to show: the RCS service account's e-mail. */
export function withDerivedSettings(kind: ChannelKind, publicConfig: PublicConfig, secrets: ChannelSecrets) {
  if (kind !== "rcs" || !secrets.serviceAccountKey) return publicConfig;
  const key = JSON.parse(secrets.serviceAccountKey) as { client_email?: unknown };
  return { ...publicConfig, serviceAccountEmail: typeof key.client_email === "string" ? key.client_email : null };
}

/** What a response says about each credential of the kind: set or not, and for long tokens the last 4. */
export function secretStates(kind: ChannelKind, secrets: ChannelSecrets) {
  const states: Record<string, { set: boolean; last4: string | null }> = {};
  for (const name of secretFields(kind)) {
    const value = secrets[name];
    const hinted = value !== undefined && HINTED.has(name) && value.length >= HINT_MIN_LENGTH;
    states[name] = { set: value !== undefined, last4: hinted ? `…${value.slice(-4)}` : null };
  }
  return states;
}
