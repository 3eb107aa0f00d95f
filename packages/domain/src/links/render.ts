// Tracked links in the text a recipient gets (docs/batches.md, "Tracked links"): each `{{link:<url>}}` becomes the
// recipient's short link for that url. The API's redirect route and the workers' message builders take both
// the settings and the rendering from here, so the code a message carries is the code the route decodes.
import { createHmac } from "node:crypto";
import { LINK_PATH, LINK_PLACEHOLDER, shortLinkLength } from "@switchboard/contracts/links";
import type { Config } from "../config";
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
