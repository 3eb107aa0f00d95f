// Provider webhooks, one entry per HTTP channel kind: how a call is verified (signature, subscription
// handshake) and how its stored body is read into the project's events. The API verifies and stores
// (apps/api/src/modules/webhooks); the workers parse and apply (workers/src/jobs/channel-events.ts).
import type { ChannelEvents, ChannelKind, WebhookRequest, WebhookVerdict } from "./adapter";
import { parseRcsEvents, verifyRcsWebhook } from "./rcs/webhook";
import type { ChannelSecrets } from "./secrets";
import { parseStoredMo } from "./smpp/mobile-originated";
import { parseWhatsappEvents, verifyWhatsappWebhook } from "./whatsapp/webhook";

export interface WebhookProvider {
  verify(req: WebhookRequest, secrets: ChannelSecrets): WebhookVerdict;
  /** Never throws: a body it cannot read gives no events and an `error` naming what was wrong. */
  parse(rawBody: Buffer | string): ChannelEvents & { error?: string };
}

const PROVIDERS: Partial<Record<ChannelKind, WebhookProvider>> = {
  rcs: {
    verify: (req, secrets) => verifyRcsWebhook(req, secrets.webhookClientToken),
    parse: parseRcsEvents,
  },
  whatsapp: {
    verify: (req, secrets) =>
      verifyWhatsappWebhook(req, { appSecret: secrets.appSecret, verifyToken: secrets.webhookVerifyToken }),
    parse: parseWhatsappEvents,
  },
};

/** The webhook handling of a channel kind; undefined for kinds whose events do not come by webhook (SMPP). */
export function webhookProvider(kind: string): WebhookProvider | undefined {
  return PROVIDERS[kind as ChannelKind];
}

/**
 * How the workers read a stored channel event of a channel kind: a webhook body for the HTTP channels, the SMPP
 * adapter's mobile-originated messages for SMPP (stored the same way, so one loop applies both); undefined for a
 * kind whose events are never stored.
 */
export function storedEventParser(kind: string): WebhookProvider["parse"] | undefined {
  return kind === "smpp" ? parseStoredMo : webhookProvider(kind)?.parse;
}
