import { DEFAULT_LANG, type Lang } from "@switchboard/contracts";
import type { FastifyRequest } from "fastify";

/** The request's language: the `lang` header (spec section 7), else Accept-Language, else zh. */
export function requestLang(req: FastifyRequest): Lang {
  const h = req.headers.lang;
  const explicit = (Array.isArray(h) ? h[0] : h)?.toLowerCase();
  if (explicit === "en" || explicit?.startsWith("en-")) return "en";
  if (explicit === "zh" || explicit?.startsWith("zh-")) return "zh";
  const accept = req.headers["accept-language"]?.toLowerCase() ?? "";
  if (!explicit && accept.startsWith("en")) return "en";
  return DEFAULT_LANG;
}
