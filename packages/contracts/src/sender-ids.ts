// Sender IDs: the "from" an SMS shows on the handset. A customer requests one per country (or for every country);
// an admin approves or rejects it with a reason, and may revoke it later. An SMS batch may carry only a sender id
// approved for every country of its numbers, or none (the channel's default). Decisions: docs/sender-ids.md.
import { z } from "zod";
import { codeIn, cursorParam, id, paging, text, timeRange, withNextCursor } from "./common";

/** 1 requested (waiting for review), 2 approved, 3 rejected, 4 revoked (was approved, withdrawn by an admin). */
export const SenderIdStatus = { REQUESTED: 1, APPROVED: 2, REJECTED: 3, REVOKED: 4 } as const;
export type SenderIdStatus = (typeof SenderIdStatus)[keyof typeof SenderIdStatus];
export const SENDER_ID_STATUSES = Object.values(SenderIdStatus) as [SenderIdStatus, ...SenderIdStatus[]];

/**
 * What the id is, decided by its text (never chosen by the customer): it sets the SMPP source_addr_ton/npi.
 *   alphanumeric:  letters (or punctuation) among the characters, at most 11 (GSM 03.38)   TON 5 / NPI 0
 *   international: a number with its country code, "+447700900123" or 9..16 digits          TON 1 / NPI 1
 *   short_code:    3..8 digits, a network's own short number                                 TON 3 / NPI 0
 */
export const SenderIdKind = {
  ALPHANUMERIC: "alphanumeric",
  INTERNATIONAL: "international",
  SHORT_CODE: "short_code",
} as const;
export type SenderIdKind = (typeof SenderIdKind)[keyof typeof SenderIdKind];

/** Alphanumeric sender ids are at most 11 characters (GSM 03.38); numeric ones at most 16 digits. */
export const SENDER_ID_PATTERN = /^(?:[A-Za-z0-9 ._-]{1,11}|\+?\d{1,16})$/;

/** Digits only (an optional leading "+"): a number, not a name. */
const NUMERIC = /^\+?\d+$/;
/** Longest short code; a longer number is a full (international) number. */
export const SHORT_CODE_MAX_DIGITS = 8;
export const SHORT_CODE_MIN_DIGITS = 3;

/** The kind of a sender id's text (see SenderIdKind); the text is assumed to match SENDER_ID_PATTERN. */
export function senderIdKind(senderId: string): SenderIdKind {
  const s = senderId.trim();
  if (!NUMERIC.test(s)) return SenderIdKind.ALPHANUMERIC;
  if (s.startsWith("+") || s.length > SHORT_CODE_MAX_DIGITS) return SenderIdKind.INTERNATIONAL;
  return SenderIdKind.SHORT_CODE;
}

/**
 * The one form a sender id is stored and compared in: trimmed; an international number with its "+"
 * ("447700900123" and "+447700900123" are the same id). Alphanumeric ids keep their case: the handset shows the
 * text as sent, so "ACME" and "Acme" are different ids.
 */
export function canonicalSenderId(senderId: string): string {
  const s = senderId.trim();
  if (senderIdKind(s) === SenderIdKind.INTERNATIONAL && !s.startsWith("+")) return `+${s}`;
  return s;
}

/** A sender id as a batch's SMS content carries it. */
export const senderIdText = () => z.string().trim().regex(SENDER_ID_PATTERN);

/**
 * A sender id being requested: the batch rule, and a number must be a full number with its country code ("+44...",
 * no leading 0) or a short code of SHORT_CODE_MIN_DIGITS..SHORT_CODE_MAX_DIGITS digits.
 */
const requestedSenderId = () =>
  senderIdText().superRefine((v, ctx) => {
    if (!NUMERIC.test(v)) return;
    const digits = v.replace(/^\+/, "");
    const national = digits.startsWith("0") && (v.startsWith("+") || digits.length > SHORT_CODE_MAX_DIGITS);
    const tooShort = !v.startsWith("+") && digits.length < SHORT_CODE_MIN_DIGITS;
    if (national || tooShort) {
      ctx.addIssue({
        code: "custom",
        message: "sender id number",
        params: { i18n: "sender_id.number_form", min: SHORT_CODE_MIN_DIGITS, max: SHORT_CODE_MAX_DIGITS },
      });
    }
  });

/** ISO 3166-1 alpha-2 (upper case out); null or absent: every country. */
const countryOrAll = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .optional()
    .transform((v) => v ?? null);

export const SENDER_ID_NOTE_MAX = 500;
export const SENDER_ID_REASON_MAX = 500;

// ---------------------------------------------------------------- rows

export const senderIdRow = z.object({
  id: z.number().int(),
  /** The customer it belongs to. */
  userId: z.number().int(),
  user: z.string(),
  senderId: z.string(),
  /** ISO 3166-1 alpha-2, or null: every country. */
  countryCode: z.string().nullable(),
  kind: z.enum([SenderIdKind.ALPHANUMERIC, SenderIdKind.INTERNATIONAL, SenderIdKind.SHORT_CODE]),
  /** SenderIdStatus: 1 requested, 2 approved, 3 rejected, 4 revoked. */
  status: z.number().int(),
  /** What the customer said it is for (brand, use case). */
  note: z.string().nullable(),
  /** Why it was rejected or revoked. */
  reason: z.string().nullable(),
  /** Staff only (null for customers): who decided. */
  reviewerId: z.number().int().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SenderIdRow = z.infer<typeof senderIdRow>;
export const senderIdList = z.object({ list: z.array(senderIdRow), total: z.number().int() });
export type SenderIdList = z.infer<typeof senderIdList>;

// ---------------------------------------------------------------- customer

export const senderIdRequestBody = z.object({
  senderId: requestedSenderId(),
  /** One country, or null / absent for every country. */
  countryCode: countryOrAll(),
  note: text(SENDER_ID_NOTE_MAX).optional(),
});
export type SenderIdRequestBody = z.infer<typeof senderIdRequestBody>;

export const senderIdListQuery = paging.extend({
  status: codeIn(SENDER_ID_STATUSES).optional(),
  /** Contained (case-insensitively) in the sender id; for staff also in the customer's username. */
  keyword: text(100).optional(),
  /** Staff: one customer's. */
  userId: id().optional(),
  /** Exactly this country ("ALL": the ids for every country). */
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^(?:[A-Z]{2}|ALL)$/)
    .optional(),
  ...timeRange.shape,
});
export type SenderIdListQuery = z.infer<typeof senderIdListQuery>;

export const senderIdIdBody = z.object({ id: id() });
export type SenderIdIdBody = z.infer<typeof senderIdIdBody>;

// ---------------------------------------------------------------- staff

export const senderIdRejectBody = z.object({ id: id(), reason: text(SENDER_ID_REASON_MAX, 1) });
export type SenderIdRejectBody = z.infer<typeof senderIdRejectBody>;

/** Revoking an approved id says why, like a rejection. */
export const senderIdRevokeBody = senderIdRejectBody;
export type SenderIdRevokeBody = SenderIdRejectBody;

// ---------------------------------------------------------------- developer API

/** The developer API answers at most this many sender ids a page (a customer has few: the default is all). */
export const SENDER_IDS_V1_MAX = 1000;

/**
 * GET /v1/sender-ids: the key's customer's ids, every status unless one is asked for; newest first, by cursor
 * (pageSize, default and at most SENDER_IDS_V1_MAX, and the answer's nextCursor).
 */
export const v1SenderIdQuery = z.object({
  status: codeIn(SENDER_ID_STATUSES).optional(),
  countryCode: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  pageSize: z.coerce.number().int().min(1).max(SENDER_IDS_V1_MAX).default(SENDER_IDS_V1_MAX),
  ...cursorParam,
});
export type V1SenderIdQuery = z.infer<typeof v1SenderIdQuery>;

export const v1SenderId = z.object({
  id: z.number().int(),
  senderId: z.string(),
  countryCode: z.string().nullable(),
  kind: z.string(),
  /** SenderIdStatus: 1 requested, 2 approved, 3 rejected, 4 revoked. */
  status: z.number().int(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
});
export type V1SenderId = z.infer<typeof v1SenderId>;
export const v1SenderIdList = withNextCursor(z.object({ list: z.array(v1SenderId), total: z.number().int() }));
export type V1SenderIdList = z.infer<typeof v1SenderIdList>;
