export { decodeLinkCode, encodeLinkCode, type LinkRef } from "./codes";
export { type LinkSettings, linkRendererFor, linkSettings, renderLinks, shortLink, withLinkBase } from "./render";
