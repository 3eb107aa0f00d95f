// Message batches: the status machine of DOMAIN.md and the content each product carries.
// Shared by the API (submission, review, cancel, terminate), the workers (dispatch, finish) and the web client.
import { z } from "zod";
import { BatchStatus, type Lang, ProductCode } from "./codes";
import { bigId, text } from "./common";
import {
  isLinkTarget,
  LINK_CODE_LENGTH,
  LINK_PATH,
  linkLengthOf,
  linkTargets,
  MAX_LINKS_PER_BATCH,
  textAsSent,
} from "./links";
import { isMessageKey, type MessageKey, type MessageParams, translate } from "./messages";
import { senderIdText } from "./sender-ids";
import { countSegments } from "./sms-segments";

// ---------------------------------------------------------------- status machine

/**
 *            create
 *              |
 *   review needed? --no--> 12 passed --> 20 pending send (waits for its schedule)
 *              | yes             ^                 |
 *              v                 |                 v
 *        11 under review --pass--+           21 sending --> 22 send finished
 *              |                                   |  \
 *            reject                          stop  |   all failed / channel dead
 *              v                                   v     v
 *        13 rejected                     23 terminated  24 send failed
 *
 *   11, 12, 20 --customer cancel--> 29 cancelled
 */
export const BATCH_TRANSITIONS: Readonly<Record<BatchStatus, readonly BatchStatus[]>> = {
  [BatchStatus.UNDER_REVIEW]: [BatchStatus.REVIEW_PASSED, BatchStatus.REVIEW_REJECTED, BatchStatus.SEND_CANCELLED],
  [BatchStatus.REVIEW_PASSED]: [BatchStatus.PENDING_SEND, BatchStatus.SEND_CANCELLED],
  [BatchStatus.REVIEW_REJECTED]: [],
  [BatchStatus.PENDING_SEND]: [BatchStatus.SENDING, BatchStatus.SEND_CANCELLED],
  [BatchStatus.SENDING]: [BatchStatus.SEND_FINISHED, BatchStatus.SEND_TERMINATED, BatchStatus.SEND_FAILED],
  [BatchStatus.SEND_FINISHED]: [],
  [BatchStatus.SEND_TERMINATED]: [],
  [BatchStatus.SEND_FAILED]: [],
  [BatchStatus.SEND_CANCELLED]: [],
};

export function canTransition(from: number, to: number): boolean {
  return (BATCH_TRANSITIONS[from as BatchStatus] ?? []).includes(to as BatchStatus);
}

/** Statuses from which a batch never moves again. */
export const FINAL_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.REVIEW_REJECTED,
  BatchStatus.SEND_FINISHED,
  BatchStatus.SEND_TERMINATED,
  BatchStatus.SEND_FAILED,
  BatchStatus.SEND_CANCELLED,
];

/** Statuses a customer may cancel from. */
export const CANCELLABLE_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.UNDER_REVIEW,
  BatchStatus.REVIEW_PASSED,
  BatchStatus.PENDING_SEND,
];

/** Statuses whose schedule a reviewer may still change (POST /batch/schedule). */
export const RESCHEDULABLE_BATCH_STATUSES: readonly BatchStatus[] = [BatchStatus.PENDING_SEND];

/**
 * POST /batch/schedule: a new send time for a batch pending send (ISO 8601 with offset, in the future, at most
 * 90 days ahead), or null to send it at once. One conditional update on status 20.
 */
export const batchScheduleBody = z.object({
  id: bigId(),
  scheduledAt: z.iso.datetime({ offset: true }).nullable(),
});
export type BatchScheduleBody = z.infer<typeof batchScheduleBody>;

/** Batches ending in these are refunded whole (nothing was sent). */
export const FULLY_REFUNDED_BATCH_STATUSES: readonly BatchStatus[] = [
  BatchStatus.REVIEW_REJECTED,
  BatchStatus.SEND_CANCELLED,
];

// ---------------------------------------------------------------- reason (message_batches.reason)

/**
 * Why a batch was rejected, terminated or failed, as stored: a message of the catalogue (translated when the batch
 * is read, in the reader's language) or a person's own words (a reviewer's or terminator's text, shown verbatim).
 */
export type BatchReason = { key: MessageKey; params?: MessageParams } | { text: string };

/** Length of the column message_batches.reason. */
export const BATCH_REASON_STORED_MAX = 500;
/** Free text is stored behind this mark, so that it never reads as a message (and old rows stay apart). */
const REASON_TEXT_MARK = "text:";
/** Most characters of a person's reason (review reject, terminate): what fits behind the mark. */
export const BATCH_REASON_TEXT_MAX = BATCH_REASON_STORED_MAX - REASON_TEXT_MARK.length;
/** A message parameter longer than this is cut when stored (keys and numbers are far shorter). */
const REASON_PARAM_MAX = 100;

/**
 * The stored form of a reason: `{"key":"batch.ingest_failed","params":{...}}` (JSON, params only when there are
 * any) or `text:` followed by the person's text. Always at most BATCH_REASON_STORED_MAX characters: long
 * parameters are cut, and a message whose parameters still do not fit is stored without them.
 */
export function encodeBatchReason(reason: BatchReason): string {
  if ("text" in reason) return (REASON_TEXT_MARK + reason.text).slice(0, BATCH_REASON_STORED_MAX);
  const params = Object.entries(reason.params ?? {}).map(
    ([k, v]) => [k, typeof v === "string" ? v.slice(0, REASON_PARAM_MAX) : v] as const,
  );
  if (params.length > 0) {
    const json = JSON.stringify({ key: reason.key, params: Object.fromEntries(params) });
    if (json.length <= BATCH_REASON_STORED_MAX) return json;
  }
  return JSON.stringify({ key: reason.key });
}

/** The stored reason read back; null for none, and for an old row's plain text (stored before the encoding). */
function parseBatchReason(stored: string): BatchReason | null {
  if (stored.startsWith(REASON_TEXT_MARK)) return { text: stored.slice(REASON_TEXT_MARK.length) };
  if (!stored.startsWith('{"key":')) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== "string" || !isMessageKey(key)) return null;
  if (params === undefined) return { key };
  if (typeof params !== "object" || params === null) return null;
  const entries = Object.entries(params);
  if (!entries.every(([, v]) => typeof v === "string" || typeof v === "number")) return null;
  return { key, params: Object.fromEntries(entries) as MessageParams };
}

/**
 * A stored reason as a reader sees it: a message in the reader's language, a person's text verbatim, and an
 * old row's text (translated when it was written, or a machine code) unchanged.
 */
export function decodeBatchReason(stored: string | null, lang: Lang): string | null {
  if (stored === null) return null;
  const reason = parseBatchReason(stored);
  if (reason === null) return stored;
  if ("text" in reason) return reason.text;
  return translate(lang, reason.key, reason.params);
}

/** The message key of a stored reason (null for a person's text or an old row). */
export function batchReasonKey(stored: string | null): MessageKey | null {
  const reason = stored === null ? null : parseBatchReason(stored);
  return reason && "key" in reason ? reason.key : null;
}

// ---------------------------------------------------------------- review reasons (message_batches.reviewReasons)

/** At most this many matched sensitive words are kept per batch (the reviewer reads them, not a report). */
export const REVIEW_REASON_WORDS_MAX = 20;

/**
 * Why a batch was held for review, as the tenant's rules judged it at submission (packages/domain/src/batches/
 * review.ts): the sensitive words its content contains; review mode 1 (every batch); review mode 2 with more valid
 * recipients than the threshold. Stored with the batch, so a later change of the rules does not rewrite history.
 */
export const reviewReason = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sensitive_word"), words: z.array(z.string().max(200)).max(REVIEW_REASON_WORDS_MAX) }),
  z.object({ kind: z.literal("review_all") }),
  z.object({ kind: z.literal("above_threshold"), threshold: z.number().int(), recipients: z.number().int() }),
]);
export type ReviewReason = z.infer<typeof reviewReason>;
export const reviewReasons = z.array(reviewReason);

// ---------------------------------------------------------------- content per product

/** SMS: up to 10 parts (1,530 GSM-7 characters or 670 UCS-2). */
export const SMS_MAX_SEGMENTS = 10;
export const WS_TEXT_MAX = 4096;
export const RCS_TEXT_MAX = 3072;
/** Lengths the providers refuse beyond; a personalised batch checks each row's filled values against them too. */
export const WS_TEMPLATE_PARAMETER_MAX = 1024;
export const RCS_CARD_TITLE_MAX = 200;
export const RCS_CARD_DESCRIPTION_MAX = 2000;

/**
 * Alphanumeric sender ids are at most 11 characters (GSM 03.38); numeric ones at most 16 digits. Which of them a
 * customer may use is decided at submission (approved sender ids, sender-ids.ts).
 */
const senderId = senderIdText();

/**
 * Where this batch's short links are served (links.ts): set by the submission to LINK_BASE_URL when the content
 * has tracked links (whatever a client sent), and kept with the batch, so the length its segments were priced with
 * is the length sent even if the setting changes before a scheduled batch goes out.
 */
const linkBaseUrl = z
  .url({ protocol: /^https?$/ })
  .max(100)
  .optional()
  .describe("Set by the platform when the content has tracked links ({{link:...}}); a value sent is replaced");

export const smsContent = z
  .object({
    product: z.literal(ProductCode.SMS),
    text: z.string().min(1).max(1530),
    senderId: senderId.optional(),
    linkBaseUrl,
  })
  .superRefine((c, ctx) => {
    checkLinks([c.text], [["text"]], ctx);
    // Before the submission sets linkBaseUrl, links are counted at their shortest: the exact count is checked
    // when it is set (withLinkBase, packages/domain/src/links), so this never refuses a text that fits.
    const { segments } = countSegments(textAsSent(c.text, linkLengthOf(c) ?? LINK_PATH.length + LINK_CODE_LENGTH));
    if (segments > SMS_MAX_SEGMENTS) {
      ctx.addIssue({
        code: "custom",
        path: ["text"],
        message: "too many segments",
        params: { i18n: "batch.sms_too_long", max: SMS_MAX_SEGMENTS, segments },
      });
    }
  });

/**
 * Tracked link placeholders (links.ts): each target an http(s) URL, at most MAX_LINKS_PER_BATCH distinct ones over
 * all of a content's texts. `paths` names each text's field, for the message.
 */
function checkLinks(texts: readonly string[], paths: readonly (string | number)[][], ctx: z.RefinementCtx): void {
  const distinct = new Set<string>();
  texts.forEach((text, i) => {
    for (const url of linkTargets(text)) {
      if (!isLinkTarget(url))
        ctx.addIssue({
          code: "custom",
          path: paths[i] ?? [],
          message: "bad link",
          params: { i18n: "link.target_invalid", url: url.slice(0, 100) },
        });
      distinct.add(url);
    }
  });
  if (distinct.size > MAX_LINKS_PER_BATCH)
    ctx.addIssue({
      code: "custom",
      path: paths[0] ?? [],
      message: "too many links",
      params: { i18n: "link.too_many", max: MAX_LINKS_PER_BATCH, count: distinct.size },
    });
}

/** A media link a provider fetches itself: https only. */
const mediaLink = () => z.url({ protocol: /^https$/ }).max(2048);

export const wsContent = z.object({
  product: z.literal(ProductCode.WS),
  body: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("text"),
      text: z.string().min(1).max(WS_TEXT_MAX),
      /** WhatsApp renders a preview of the first link in the text. */
      previewUrl: z.boolean().default(false),
    }),
    z.object({
      type: z.literal("template"),
      /** Approved template name (WhatsApp: lower case, digits, underscores). */
      name: z.string().regex(/^[a-z0-9_]{1,512}$/),
      /** BCP 47 language of the approved template, e.g. en_US, zh_CN. */
      language: z.string().regex(/^[a-z]{2,3}(?:_[A-Z]{2})?$/),
      /** The body's {{1}}, {{2}}... values, in order. */
      parameters: z.array(text(WS_TEMPLATE_PARAMETER_MAX)).max(20).default([]),
      /** The header's variable: a text value, or the media a media header shows. */
      header: z
        .discriminatedUnion("type", [
          z.object({ type: z.literal("text"), text: text(60, 1) }),
          z.object({ type: z.enum(["image", "document", "video"]), link: mediaLink() }),
        ])
        .optional(),
      /** Values of the template's dynamic buttons: a quick reply's payload, a URL button's URL suffix. */
      buttons: z
        .array(
          z.object({
            index: z.number().int().min(0).max(9),
            subType: z.enum(["quick_reply", "url"]),
            parameter: text(256, 1),
          }),
        )
        .max(10)
        .default([]),
    }),
    z.object({
      type: z.literal("media"),
      mediaType: z.enum(["image", "document", "video"]),
      link: mediaLink(),
      caption: text(1024).optional(),
      /** Shown for documents. */
      filename: text(240).optional(),
    }),
  ]),
});

const suggestion = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reply"), text: text(25, 1), postbackData: text(2048).optional() }),
  z.object({ type: z.literal("url"), text: text(25, 1), url: z.url({ protocol: /^https?$/ }).max(2048) }),
  z.object({ type: z.literal("dial"), text: text(25, 1), phoneNumber: z.string().regex(/^\+\d{4,15}$/) }),
]);

/** One card of a standalone rich card or a carousel (RBM CardContent). */
const rcsCard = {
  title: text(RCS_CARD_TITLE_MAX, 1),
  description: text(RCS_CARD_DESCRIPTION_MAX).optional(),
  mediaUrl: mediaLink().optional(),
  /** RBM media height: SHORT 112 dp, MEDIUM 168 dp, TALL 264 dp. */
  mediaHeight: z.enum(["SHORT", "MEDIUM", "TALL"]).default("MEDIUM"),
  suggestions: z.array(suggestion).max(4).default([]),
};

export const RCS_CAROUSEL_MIN_CARDS = 2;
export const RCS_CAROUSEL_MAX_CARDS = 10;

const rcsContentFields = z.object({
  product: z.literal(ProductCode.RCS),
  body: z.discriminatedUnion("type", [
    z.object({
      type: z.literal("text"),
      text: z.string().min(1).max(RCS_TEXT_MAX),
      suggestions: z.array(suggestion).max(11).default([]),
    }),
    z.object({
      type: z.literal("card"),
      ...rcsCard,
      orientation: z.enum(["VERTICAL", "HORIZONTAL"]).default("VERTICAL"),
    }),
    z.object({
      type: z.literal("carousel"),
      cardWidth: z.enum(["SMALL", "MEDIUM"]).default("MEDIUM"),
      cards: z.array(z.object(rcsCard)).min(RCS_CAROUSEL_MIN_CARDS).max(RCS_CAROUSEL_MAX_CARDS),
      /** Chip-list suggestions under the carousel. */
      suggestions: z.array(suggestion).max(11).default([]),
    }),
  ]),
  /** Sent as SMS to numbers that cannot receive RCS (or did not get it within fallbackAfterSeconds). */
  fallbackText: z.string().min(1).max(1530).optional(),
  linkBaseUrl,
  /**
   * With fallbackText: a recipient whose RCS message is not delivered this long after it was sent gets the SMS
   * instead (its RCS message is revoked first). Absent: only non-capable numbers fall back.
   */
  fallbackAfterSeconds: z
    .number()
    .int()
    .min(60)
    .max(7 * 86400)
    .optional(),
  /** The RCS message expires at the provider this long after sending (RBM ttl); the provider's default else. */
  ttlSeconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86400)
    .optional(),
});

/** RCS content: its texts may carry tracked link placeholders like an SMS text. */
export const rcsContent = rcsContentFields.superRefine((c, ctx) => {
  const b = c.body;
  const bodyTexts: [string, (string | number)[]][] =
    b.type === "text"
      ? [[b.text, ["body", "text"]]]
      : b.type === "card"
        ? [[b.description ?? "", ["body", "description"]]]
        : b.cards.map((card, i) => [card.description ?? "", ["body", "cards", i, "description"]]);
  const all = c.fallbackText ? [...bodyTexts, [c.fallbackText, ["fallbackText"]] as [string, string[]]] : bodyTexts;
  checkLinks(
    all.map(([t]) => t),
    all.map(([, p]) => p),
    ctx,
  );
});

export const batchContent = z.discriminatedUnion("product", [smsContent, wsContent, rcsContent]);
export type BatchContent = z.infer<typeof batchContent>;
export type SmsContent = z.infer<typeof smsContent>;
export type WsContent = z.infer<typeof wsContent>;
export type RcsContent = z.infer<typeof rcsContent>;

/**
 * Chargeable units per recipient: SMS segments (each tracked link counted as the short link it is sent as), one for
 * WS and RCS.
 */
export function chargeableUnits(content: BatchContent): number {
  return content.product === ProductCode.SMS
    ? countSegments(textAsSent(content.text, linkLengthOf(content))).segments
    : 1;
}

/** The text a reviewer reads and sensitive words are searched in. */
export function contentText(content: BatchContent): string {
  switch (content.product) {
    case ProductCode.SMS:
      return content.text;
    case ProductCode.WS: {
      const b = content.body;
      if (b.type === "text") return b.text;
      if (b.type === "media") return b.caption ?? "";
      const header = b.header?.type === "text" ? [b.header.text] : [];
      return [b.name, ...header, ...b.parameters, ...b.buttons.map((x) => x.parameter)].join(" ");
    }
    case ProductCode.RCS: {
      const b = content.body;
      const cards = b.type === "carousel" ? b.cards : b.type === "card" ? [b] : [];
      const main = b.type === "text" ? [b.text] : cards.map((c) => [c.title, c.description ?? ""].join(" "));
      const suggestions = [...b.suggestions, ...(b.type === "carousel" ? b.cards.flatMap((c) => c.suggestions) : [])];
      return [...main, ...suggestions.map((s) => s.text), content.fallbackText ?? ""].join(" ").trim();
    }
  }
}
