// Tracked links in the text a recipient gets (docs/batches.md, "Tracked links"): each `{{link:<url>}}` becomes the
// recipient's short link for that url. The API's redirect route and the workers' message builders take both
// the settings and the rendering from here, so the code a message carries is the code the route decodes.
import { createHmac } from "node:crypto";
import type { OutboundMessage } from "@switchboard/channels";
import { type BatchContent, ProductCode, SMS_MAX_SEGMENTS } from "@switchboard/contracts";
import {
  batchLinks,
  countSegmentsWithLinks,
  LINK_PATH,
  LINK_PLACEHOLDER,
  shortLinkLength,
} from "@switchboard/contracts/links";
import type { Config } from "../config";
import { badRequest } from "../errors";
import { encodeLinkCode } from "./codes";

export interface LinkSettings {
  /** Where short links are served, no trailing slash. */
  baseUrl: string;
  /** The codes' HMAC key. */
  key: Buffer;
  /** The length every short link takes in a text (for segment counts). */
  linkLength: number;
}

/**
 * The deployment's link settings: LINK_BASE_URL, else PUBLIC_BASE_URL, else the API's own address; LINK_SECRET,
 * else a key derived from JWT_SECRET (a separate key by its label, so a link code never doubles as a session
 * signature).
 */
export function linkSettings(
  config: Pick<Config, "LINK_BASE_URL" | "LINK_SECRET" | "PUBLIC_BASE_URL" | "JWT_SECRET" | "HOST" | "PORT">,
): LinkSettings {
  const base = (config.LINK_BASE_URL ?? config.PUBLIC_BASE_URL ?? `http://${config.HOST}:${config.PORT}`).replace(
    /\/+$/,
    "",
  );
  const key = config.LINK_SECRET
    ? Buffer.from(config.LINK_SECRET)
    : createHmac("sha256", config.JWT_SECRET).update("switchboard tracked links").digest();
  return { baseUrl: base, key, linkLength: shortLinkLength(base) };
}

/** A recipient's short link for the link at `linkIndex` of its batch. */
export function shortLink(settings: LinkSettings, recipientId: bigint, linkIndex: number): string {
  return `${settings.baseUrl}${LINK_PATH}${encodeLinkCode(settings.key, { recipientId, linkIndex })}`;
}

/**
 * `text` with each link placeholder replaced by the recipient's short link. `links` is the batch's link list
 * (batchLinks of its content): a placeholder's index is its target's place there. A target missing from the list
 * cannot happen for a submitted batch (the list is made from the same texts); it is sent as written rather than
 * tracked.
 */
export function renderLinks(
  text: string,
  to: { recipientId: bigint; links: readonly string[] },
  settings: LinkSettings,
): string {
  return text.replace(LINK_PLACEHOLDER, (whole, url: string) => {
    const index = to.links.indexOf(url);
    return index < 0 ? whole : shortLink(settings, to.recipientId, index);
  });
}

/**
 * A submitted content as it is kept: with links, `linkBaseUrl` set to this deployment's (whatever the client sent),
 * so its segments are counted, priced and sent with the same short link length; without, none. Its SMS texts (the
 * SMS text, an RCS fallback) are checked again with that exact length: 400 when one is now too long.
 */
export function withLinkBase(content: BatchContent, settings: LinkSettings): BatchContent {
  const { linkBaseUrl: _client, ...rest } = content as BatchContent & { linkBaseUrl?: string };
  if (batchLinks(content).length === 0) return rest as BatchContent;
  const kept = { ...rest, linkBaseUrl: settings.baseUrl } as BatchContent;
  const smsText =
    kept.product === ProductCode.SMS ? kept.text : kept.product === ProductCode.RCS ? kept.fallbackText : undefined;
  if (smsText !== undefined) {
    const { segments } = countSegmentsWithLinks(smsText, settings.linkLength);
    if (segments > SMS_MAX_SEGMENTS) throw badRequest("batch.sms_too_long", { max: SMS_MAX_SEGMENTS, segments });
  }
  return kept;
}

/**
 * The workers' side: how a batch's messages get their short links, or null for a content without any. The links
 * are served where the content says (its linkBaseUrl, fixed at submission); the key is this process's.
 */
export function linkRendererFor(
  content: BatchContent,
  settings: LinkSettings,
): ((message: OutboundMessage, recipientId: bigint) => OutboundMessage) | null {
  const links = batchLinks(content);
  const base = (content as { linkBaseUrl?: string }).linkBaseUrl;
  if (links.length === 0) return null;
  const own: LinkSettings = base ? { ...settings, baseUrl: base, linkLength: shortLinkLength(base) } : settings;
  return (message, recipientId) => {
    const render = (text: string) => renderLinks(text, { recipientId, links }, own);
    if (message.kind === "whatsapp") return message;
    if (message.kind === "rcs") {
      const b = message.body;
      const body =
        b.type === "text"
          ? { ...b, text: render(b.text) }
          : b.type === "card"
            ? { ...b, ...(b.description === undefined ? {} : { description: render(b.description) }) }
            : {
                ...b,
                cards: b.cards.map((c) =>
                  c.description === undefined ? c : { ...c, description: render(c.description) },
                ),
              };
      return { ...message, body };
    }
    return { ...message, text: render(message.text) };
  };
}
