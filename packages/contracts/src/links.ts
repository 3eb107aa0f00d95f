// Tracked links (docs/batches.md, "Tracked links"): a `{{link:https://...}}` placeholder in a message's text is
// sent as a per-recipient short link `<LINK_BASE_URL>/l/<code>`. What is shared by the API, the workers and the
// web client lives here: finding the placeholders, the batch's ordered link list, and the length a short link
// takes in the text (so the segment count, and the price, is known before anything is sent).
// Pure (zod and the content types only): it ships to the browser.
import { z } from "zod";
import type { BatchContent } from "./batches";
import { ProductCode } from "./codes";
import { countSegments, type SegmentCount } from "./sms-segments";

/** `{{link:<url>}}`: the URL runs to the closing braces and holds no space or brace. */
export const LINK_PLACEHOLDER = /\{\{link:([^\s{}]*)\}\}/g;

/** Distinct links a batch may track (over all of its texts together). */
export const MAX_LINKS_PER_BATCH = 5;
/** A link target's length at most (the same bound as the content's other URLs). */
export const LINK_TARGET_MAX = 2048;
/** Characters of a short code: 112 bits (recipient id, link index, 48-bit MAC) in base62. */
export const LINK_CODE_LENGTH = 19;
/** The path in front of the code. */
export const LINK_PATH = "/l/";

/** A link target as a submission accepts it: an absolute http(s) URL with a host, at most LINK_TARGET_MAX. */
export function isLinkTarget(url: string): boolean {
  if (url.length === 0 || url.length > LINK_TARGET_MAX) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
}

/** The link targets of one text, in order of appearance (repeats included). */
export function linkTargets(text: string): string[] {
  // Most texts carry no link: a substring search is a fraction of matchAll's cost (every single send runs this).
  if (!text.includes("{{link:")) return [];
  return Array.from(text.matchAll(LINK_PLACEHOLDER), (m) => m[1] ?? "");
}

/** The texts of a content that may carry link placeholders: SMS text, RCS text, card descriptions, fallback. */
export function linkTexts(content: BatchContent): string[] {
  switch (content.product) {
    case ProductCode.SMS:
      return [content.text];
    case ProductCode.RCS: {
      const b = content.body;
      const texts =
        b.type === "text"
          ? [b.text]
          : b.type === "card"
            ? [b.description ?? ""]
            : b.cards.map((c) => c.description ?? "");
      return content.fallbackText ? [...texts, content.fallbackText] : texts;
    }
    default:
      return [];
  }
}

/**
 * A batch's tracked links: the distinct targets of its texts in order of first appearance. A link's index in this
 * list is the index its short codes carry; the content is fixed at submission, so the list (and where each code
 * leads) is fixed too.
 */
export function batchLinks(content: BatchContent): string[] {
  const seen = new Set<string>();
  for (const text of linkTexts(content)) for (const url of linkTargets(text)) seen.add(url);
  return [...seen];
}

/** The length of a short link under this base URL (no trailing slash): what each placeholder becomes in a text. */
export function shortLinkLength(linkBaseUrl: string): number {
  return linkBaseUrl.length + LINK_PATH.length + LINK_CODE_LENGTH;
}

/** The length of the content's short links: null before the submission set where they are served. */
export function linkLengthOf(content: { linkBaseUrl?: string | undefined }): number | null {
  return content.linkBaseUrl ? shortLinkLength(content.linkBaseUrl) : null;
}

/**
 * The text with each placeholder replaced by a stand-in as long as a short link (GSM-7 characters, as a short
 * link's are), for counting segments. shortLinkLength null: the placeholders counted as they are written.
 */
export function textAsSent(text: string, linkLength: number | null): string {
  if (linkLength === null) return text;
  return text.replace(LINK_PLACEHOLDER, () => "x".repeat(linkLength));
}

/** Segments of an SMS text once its link placeholders are short links of `linkLength` characters. */
export function countSegmentsWithLinks(text: string, linkLength: number | null): SegmentCount {
  return countSegments(textAsSent(text, linkLength));
}

/** One tracked link of a batch with its figures (GET /batch/detail). */
export const linkStats = z.object({
  /** The link's place in the batch's list (what its codes carry). */
  index: z.number().int(),
  /** Where it leads, fixed at submission. */
  url: z.string(),
  /** Every click, repeats included. */
  clicks: z.number().int(),
  /** Distinct recipients who clicked it. */
  clickers: z.number().int(),
  /** clickers / sent, 0..1 rounded to 4 decimals; null when nothing was sent. */
  clickRate: z.number().nullable(),
});

/** A batch's tracked links: null for a batch without any. */
export const batchLinkStats = z.object({
  /** The click-through rate's base: messages accepted by a channel (the batch's successCount). */
  sent: z.number().int(),
  /** Distinct recipients who clicked any of the links. */
  clickers: z.number().int(),
  /** clickers / sent, 0..1 rounded to 4 decimals; null when nothing was sent. */
  clickRate: z.number().nullable(),
  links: z.array(linkStats),
});
export type BatchLinkStats = z.infer<typeof batchLinkStats>;
