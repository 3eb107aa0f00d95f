export { decodeLinkCode, encodeLinkCode, type LinkRef } from "./codes";
export { type LinkSettings, linkSettings, renderLinks, shortLink } from "./render";
