// The direct task form without React: parsing pasted numbers, checking a chosen file, the SMS counter text and
// building the content the API takes (batches.ts). Every limit comes from the contracts.
import {
  BATCH_FILE_MAX_BYTES,
  BATCH_MULTIPLE_MAX_NUMBERS,
  BATCH_SCHEDULE_MAX_DAYS,
  type BatchContent,
  batchContent,
  RCS_CAROUSEL_MAX_CARDS,
  RCS_CAROUSEL_MIN_CARDS,
  RCS_TEXT_MAX,
  SMS_MAX_SEGMENTS,
  type SubmitPreResult,
  WS_TEXT_MAX,
} from "@switchboard/contracts";
import { ProductCode, SubmitMode } from "@switchboard/contracts/codes";
import { LINK_CODE_LENGTH, LINK_PATH, textAsSent } from "@switchboard/contracts/links";
import { countSegments, type SegmentCount } from "@switchboard/contracts/sms-segments";
import type { Dayjs } from "dayjs";
import { formatMoney } from "../../lib/format";
import type { MessageParams } from "../../lib/i18n";
import type { BatchSubmitKey } from "./messages";

export type Translate = (key: BatchSubmitKey, params?: MessageParams) => string;

/** A validation problem: the message key and its parameters (translated where it is shown). */
export interface Problem {
  key: BatchSubmitKey;
  params?: MessageParams;
}

// ---------------------------------------------------------------- recipients

/** Mode 2: one number per line, or separated by commas or semicolons (also the full-width ones). */
export function parseNumbers(text: string): string[] {
  return text
    .split(/[\n\r,;，；]+/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export const FILE_EXTENSIONS = ["csv", "txt", "xlsx"] as const;

/** What the browser can tell about a chosen file before it is sent: its type (by extension) and size. */
export function checkFile(file: Pick<File, "name" | "size">): Problem | null {
  const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? "";
  if (!(FILE_EXTENSIONS as readonly string[]).includes(ext)) {
    return { key: "file.badType", params: { types: FILE_EXTENSIONS.map((e) => e.toUpperCase()).join(", ") } };
  }
  if (file.size === 0) return { key: "file.empty" };
  if (file.size > BATCH_FILE_MAX_BYTES)
    return { key: "file.tooLarge", params: { max: BATCH_FILE_MAX_BYTES / 2 ** 20 } };
  return null;
}

export function checkRecipients(
  mode: SubmitMode,
  single: string,
  many: readonly string[],
  file: File | null,
): Problem | null {
  switch (mode) {
    case SubmitMode.SINGLE:
      if (single.trim() === "") return { key: "number.required" };
      if (single.trim().length > 64) return { key: "number.tooLong" };
      return null;
    case SubmitMode.MULTIPLE:
      if (many.length === 0) return { key: "numbers.required" };
      if (many.length > BATCH_MULTIPLE_MAX_NUMBERS) {
        return { key: "numbers.tooMany", params: { max: BATCH_MULTIPLE_MAX_NUMBERS.toLocaleString("en") } };
      }
      if (many.some((n) => n.length > 64)) return { key: "number.tooLong" };
      return null;
    default:
      return file ? checkFile(file) : { key: "file.required" };
  }
}

// ---------------------------------------------------------------- SMS counter

/** "72 characters · 1 segment · GSM-7" (characters are septets for GSM-7, UTF-16 units for UCS-2). */
export function segmentText(count: SegmentCount, t: Translate): string {
  return t("sms.counter", {
    characters: count.characters.toLocaleString("en"),
    segments: count.segments,
    unit: t(count.segments === 1 ? "sms.segment" : "sms.segments"),
    encoding: count.encoding === "gsm7" ? "GSM-7" : "UCS-2",
  });
}

// ---------------------------------------------------------------- content

export type SuggestionType = "reply" | "url" | "dial";
export interface SuggestionDraft {
  type: SuggestionType;
  text: string;
  /** url: the link; dial: the phone number; reply: optional postback data. */
  value: string;
}

/** One card of a carousel (a standalone card keeps its fields in the draft itself). */
export interface CardDraft {
  title: string;
  description: string;
  mediaUrl: string;
  suggestions: SuggestionDraft[];
}

export const emptyCard = (): CardDraft => ({ title: "", description: "", mediaUrl: "", suggestions: [] });

/**
 * With a fallback text: after how long an undelivered RCS message is revoked and sent as SMS (seconds); 0: only
 * numbers that cannot receive RCS get the SMS.
 */
export const RCS_FALLBACK_AFTER_CHOICES = [0, 300, 900, 3600, 14_400, 86_400] as const;

export type WsHeaderType = "text" | "image" | "document" | "video";
export interface WsButtonDraft {
  index: number;
  subType: "url" | "quick_reply";
  parameter: string;
}

/** WhatsApp's limits on a template header's text and a button's value. */
const WS_HEADER_TEXT_MAX = 60;
const WS_BUTTON_PARAMETER_MAX = 256;

export interface ContentDraft {
  smsText: string;
  senderId: string;
  wsType: "text" | "template";
  wsText: string;
  wsTemplate: string;
  wsLanguage: string;
  wsParameters: string[];
  /** The chosen template's header variable: its kind ("" without one) and value (text, or the media's https link). */
  wsHeaderType: WsHeaderType | "";
  wsHeader: string;
  /** The chosen template's dynamic buttons: a URL button's suffix (required), a quick reply's payload (optional). */
  wsButtons: WsButtonDraft[];
  rcsType: "text" | "card" | "carousel";
  rcsText: string;
  rcsTitle: string;
  rcsDescription: string;
  rcsMediaUrl: string;
  /** The text's or standalone card's suggestions; a carousel's chip list under its cards. */
  rcsSuggestions: SuggestionDraft[];
  rcsCards: CardDraft[];
  rcsFallback: string;
  rcsFallbackAfter: number;
}

export const emptyDraft = (): ContentDraft => ({
  smsText: "",
  senderId: "",
  wsType: "text",
  wsText: "",
  wsTemplate: "",
  wsLanguage: "",
  wsParameters: [],
  wsHeaderType: "",
  wsHeader: "",
  wsButtons: [],
  rcsType: "text",
  rcsText: "",
  rcsTitle: "",
  rcsDescription: "",
  rcsMediaUrl: "",
  rcsSuggestions: [],
  rcsCards: [emptyCard(), emptyCard()],
  rcsFallback: "",
  rcsFallbackAfter: 0,
});

export const WS_PARAMETERS_MAX = 20;
export const WS_PARAMETER_MAX = 1024;
export const RCS_TITLE_MAX = 200;
export const RCS_DESCRIPTION_MAX = 2000;
export const RCS_SUGGESTION_TEXT_MAX = 25;
export const RCS_TEXT_SUGGESTIONS_MAX = 11;
export const RCS_CARD_SUGGESTIONS_MAX = 4;
export const SMS_TEXT_MAX = 1530;
export const SENDER_ID_PATTERN = /^(?:[A-Za-z0-9 ._-]{1,11}|\+?\d{1,16})$/;

/** Field name -> problem; the names are the editor's fields (smsText, rcsSuggestions.0.text, ...). */
export type ContentProblems = Partial<Record<string, Problem>>;

function smsProblem(text: string, field: "text" | "fallback"): Problem | null {
  if (text === "") return field === "text" ? { key: "sms.textRequired" } : null;
  // Tracked links at their shortest, as the contract's schema counts them before the deployment's length is known
  // (the live counter shows the exact count; the submission checks it).
  const { segments } = countSegments(textAsSent(text, LINK_PATH.length + LINK_CODE_LENGTH));
  if (segments > SMS_MAX_SEGMENTS || text.length > SMS_TEXT_MAX) {
    return { key: "sms.tooLong", params: { max: SMS_MAX_SEGMENTS, segments } };
  }
  return null;
}

/** Problems of a suggestion list, under `field` (rcsSuggestions, rcsCards.0.suggestions...). */
function suggestionProblems(
  list: readonly SuggestionDraft[],
  max: number,
  out: ContentProblems,
  field = "rcsSuggestions",
): void {
  if (list.length > max) out[field] = { key: "rcs.suggestionsTooMany", params: { max } };
  list.forEach((s, i) => {
    const text = s.text.trim();
    if (text === "") out[`${field}.${i}.text`] = { key: "rcs.suggestionTextRequired" };
    else if (text.length > RCS_SUGGESTION_TEXT_MAX) {
      out[`${field}.${i}.text`] = { key: "common.tooLong", params: { max: RCS_SUGGESTION_TEXT_MAX } };
    }
    const value = s.value.trim();
    if (s.type === "url" && !isHttpUrl(value, ["http:", "https:"])) {
      out[`${field}.${i}.value`] = { key: "rcs.urlInvalid" };
    }
    if (s.type === "dial" && !/^\+\d{4,15}$/.test(value)) out[`${field}.${i}.value`] = { key: "rcs.phoneInvalid" };
    if (s.type === "reply" && value.length > 2048) {
      out[`${field}.${i}.value`] = { key: "common.tooLong", params: { max: 2048 } };
    }
  });
}

/**
 * A card's content (RBM CardContent) and its problems under `prefix` + field name: the standalone card's fields
 * are rcsTitle, rcsDescription, rcsMediaUrl and rcsSuggestions; a carousel's cards rcsCards.N.title and so on.
 */
function cardOf(card: CardDraft, names: Record<keyof CardDraft, string>, out: ContentProblems) {
  const title = card.title.trim();
  const description = card.description.trim();
  const mediaUrl = card.mediaUrl.trim();
  if (title === "") out[names.title] = { key: "rcs.titleRequired" };
  else if (title.length > RCS_TITLE_MAX) out[names.title] = { key: "common.tooLong", params: { max: RCS_TITLE_MAX } };
  if (description.length > RCS_DESCRIPTION_MAX) {
    out[names.description] = { key: "common.tooLong", params: { max: RCS_DESCRIPTION_MAX } };
  }
  if (mediaUrl !== "" && !isHttpUrl(mediaUrl, ["https:"])) out[names.mediaUrl] = { key: "rcs.mediaInvalid" };
  suggestionProblems(card.suggestions, RCS_CARD_SUGGESTIONS_MAX, out, names.suggestions);
  return {
    title,
    ...(description === "" ? {} : { description }),
    ...(mediaUrl === "" ? {} : { mediaUrl }),
    suggestions: card.suggestions.map(suggestionOf),
  };
}

export const carouselCardField = (index: number, field: keyof CardDraft) => `rcsCards.${index}.${field}`;

function isHttpUrl(value: string, protocols: readonly string[]): boolean {
  if (value.length > 2048) return false;
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function suggestionOf(s: SuggestionDraft) {
  const text = s.text.trim();
  const value = s.value.trim();
  if (s.type === "url") return { type: "url" as const, text, url: value };
  if (s.type === "dial") return { type: "dial" as const, text, phoneNumber: value };
  return value === "" ? { type: "reply" as const, text } : { type: "reply" as const, text, postbackData: value };
}

/**
 * The product's content from the draft, or the problems of its fields. The result is also run through the
 * contract's schema, so nothing the API would refuse for its form gets through.
 */
export function buildContent(
  product: ProductCode,
  d: ContentDraft,
): { content: BatchContent; problems: null } | { content: null; problems: ContentProblems } {
  const problems: ContentProblems = {};
  let candidate: unknown;
  if (product === ProductCode.SMS) {
    const text = smsProblem(d.smsText, "text");
    if (text) problems.smsText = text;
    const sender = d.senderId.trim();
    if (sender !== "" && !SENDER_ID_PATTERN.test(sender)) problems.senderId = { key: "sms.senderInvalid" };
    candidate = { product, text: d.smsText, ...(sender === "" ? {} : { senderId: sender }) };
  } else if (product === ProductCode.WS) {
    if (d.wsType === "text") {
      if (d.wsText.trim() === "") problems.wsText = { key: "content.textRequired" };
      else if (d.wsText.length > WS_TEXT_MAX) problems.wsText = { key: "common.tooLong", params: { max: WS_TEXT_MAX } };
      candidate = { product, body: { type: "text", text: d.wsText } };
    } else {
      const name = d.wsTemplate.trim();
      const language = d.wsLanguage.trim();
      if (!/^[a-z0-9_]{1,512}$/.test(name)) problems.wsTemplate = { key: "ws.templateInvalid" };
      if (!/^[a-z]{2,3}(?:_[A-Z]{2})?$/.test(language)) problems.wsLanguage = { key: "ws.languageInvalid" };
      if (d.wsParameters.length > WS_PARAMETERS_MAX) {
        problems.wsParameters = { key: "ws.parametersTooMany", params: { max: WS_PARAMETERS_MAX } };
      }
      d.wsParameters.forEach((p, i) => {
        if (p.trim() === "") problems[`wsParameters.${i}`] = { key: "ws.parameterRequired" };
        else if (p.length > WS_PARAMETER_MAX) {
          problems[`wsParameters.${i}`] = { key: "common.tooLong", params: { max: WS_PARAMETER_MAX } };
        }
      });
      const header = d.wsHeader.trim();
      if (d.wsHeaderType === "text") {
        if (header === "") problems.wsHeader = { key: "ws.headerRequired" };
        else if (header.length > WS_HEADER_TEXT_MAX)
          problems.wsHeader = { key: "common.tooLong", params: { max: WS_HEADER_TEXT_MAX } };
      } else if (d.wsHeaderType !== "" && !isHttpUrl(header, ["https:"]))
        problems.wsHeader = { key: "rcs.mediaInvalid" };
      d.wsButtons.forEach((b, i) => {
        const value = b.parameter.trim();
        if (b.subType === "url" && value === "") problems[`wsButtons.${i}`] = { key: "ws.buttonRequired" };
        else if (value.length > WS_BUTTON_PARAMETER_MAX) {
          problems[`wsButtons.${i}`] = { key: "common.tooLong", params: { max: WS_BUTTON_PARAMETER_MAX } };
        }
      });
      candidate = {
        product,
        body: {
          type: "template",
          name,
          language,
          parameters: d.wsParameters.map((p) => p.trim()),
          ...(d.wsHeaderType === ""
            ? {}
            : {
                header:
                  d.wsHeaderType === "text" ? { type: "text", text: header } : { type: d.wsHeaderType, link: header },
              }),
          // a quick reply without a payload is left out: WhatsApp then returns the button's text
          buttons: d.wsButtons
            .filter((b) => b.parameter.trim() !== "")
            .map((b) => ({ index: b.index, subType: b.subType, parameter: b.parameter.trim() })),
        },
      };
    }
  } else {
    let body: Record<string, unknown>;
    if (d.rcsType === "text") {
      if (d.rcsText.trim() === "") problems.rcsText = { key: "content.textRequired" };
      else if (d.rcsText.length > RCS_TEXT_MAX)
        problems.rcsText = { key: "common.tooLong", params: { max: RCS_TEXT_MAX } };
      suggestionProblems(d.rcsSuggestions, RCS_TEXT_SUGGESTIONS_MAX, problems);
      body = { type: "text", text: d.rcsText, suggestions: d.rcsSuggestions.map(suggestionOf) };
    } else if (d.rcsType === "card") {
      const card = {
        title: d.rcsTitle,
        description: d.rcsDescription,
        mediaUrl: d.rcsMediaUrl,
        suggestions: d.rcsSuggestions,
      };
      const names = {
        title: "rcsTitle",
        description: "rcsDescription",
        mediaUrl: "rcsMediaUrl",
        suggestions: "rcsSuggestions",
      };
      body = { type: "card", ...cardOf(card, names, problems) };
    } else {
      if (d.rcsCards.length < RCS_CAROUSEL_MIN_CARDS || d.rcsCards.length > RCS_CAROUSEL_MAX_CARDS) {
        problems.rcsCards = {
          key: "rcs.carouselCards",
          params: { min: RCS_CAROUSEL_MIN_CARDS, max: RCS_CAROUSEL_MAX_CARDS },
        };
      }
      const cards = d.rcsCards.map((card, i) =>
        cardOf(
          card,
          {
            title: carouselCardField(i, "title"),
            description: carouselCardField(i, "description"),
            mediaUrl: carouselCardField(i, "mediaUrl"),
            suggestions: carouselCardField(i, "suggestions"),
          },
          problems,
        ),
      );
      suggestionProblems(d.rcsSuggestions, RCS_TEXT_SUGGESTIONS_MAX, problems);
      body = { type: "carousel", cards, suggestions: d.rcsSuggestions.map(suggestionOf) };
    }
    const fallback = smsProblem(d.rcsFallback, "fallback");
    if (fallback) problems.rcsFallback = fallback;
    candidate = {
      product,
      body,
      ...(d.rcsFallback === "" ? {} : { fallbackText: d.rcsFallback }),
      ...(d.rcsFallback !== "" && d.rcsFallbackAfter > 0 ? { fallbackAfterSeconds: d.rcsFallbackAfter } : {}),
    };
  }
  if (Object.keys(problems).length > 0) return { content: null, problems };
  const parsed = batchContent.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Tracked link placeholders: the contract's own reasons, said as the API would say them.
    const why = (issue as { params?: { i18n?: string; url?: string; max?: number; count?: number } } | undefined)
      ?.params;
    if (why?.i18n === "link.target_invalid")
      return { content: null, problems: { form: { key: "content.linkInvalid", params: { url: why.url ?? "" } } } };
    if (why?.i18n === "link.too_many")
      return {
        content: null,
        problems: { form: { key: "content.tooManyLinks", params: { max: why.max ?? 0, count: why.count ?? 0 } } },
      };
    const path = issue?.path.join(".") ?? "";
    return { content: null, problems: { form: { key: "content.invalid", params: { path } } } };
  }
  return { content: parsed.data, problems: null };
}

// ---------------------------------------------------------------- schedule

/** A schedule must be in the future and at most BATCH_SCHEDULE_MAX_DAYS ahead. */
export function checkSchedule(at: Dayjs | null, now: Dayjs): Problem | null {
  if (!at) return { key: "schedule.required" };
  if (!at.isAfter(now)) return { key: "schedule.past" };
  if (at.isAfter(now.add(BATCH_SCHEDULE_MAX_DAYS, "day"))) {
    return { key: "schedule.tooFar", params: { days: BATCH_SCHEDULE_MAX_DAYS } };
  }
  return null;
}

// ---------------------------------------------------------------- confirm

/**
 * Why the batch cannot be confirmed now, or null when it can: no check yet, the inputs changed since, the
 * customer's authentication does not allow sending, no valid number, or the balance does not cover the cost.
 */
export function blockReason(summary: SubmitPreResult | null, stale: boolean, t: Translate): string | null {
  if (!summary) return t("block.check");
  if (stale) return t("block.stale");
  if (!summary.authenticationAllowed) {
    return summary.authenticationReason
      ? t("block.auth", { reason: summary.authenticationReason })
      : t("block.authUnknown");
  }
  if (summary.valid === 0) return t("block.noValid");
  if (!summary.sufficient) {
    return t("block.balance", { cost: formatMoney(summary.totalCost), balance: formatMoney(summary.balance) });
  }
  return null;
}
