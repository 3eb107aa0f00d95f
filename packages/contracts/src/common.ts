// Building blocks for every contract: bounded strings, ids, paging, the envelope.
import { z } from "zod";
import { ResponseCode } from "./codes";
import { MONEY_SCALE, parseMoney } from "./money";

/** A trimmed string with a maximum length (every string in a contract is bounded). */
export const text = (max: number, min = 0) => z.string().trim().min(min).max(max);

/** The one text form of an integer we read: decimal digits, an optional "-", no leading zeros, spaces or signs. */
const CANONICAL_INT = /^(?:0|-?[1-9]\d{0,15})$/;

/**
 * Query strings and multipart fields carry numbers as text: only an integer's canonical decimal form is read
 * as that integer ("16"; not "0x10", " 16 ", "016", "1e1", "16.0"), and nothing else is ever converted (a JSON
 * true stays a boolean and is refused). Not z.coerce, which reads all of those (and "" as 0, true as 1), and
 * turns a missing value into NaN, so the caller would read "must be a number" instead of "is required".
 */
function canonicalInt(v: unknown): unknown {
  if (v === undefined || v === null || v === "") return undefined;
  return typeof v === "string" && CANONICAL_INT.test(v) ? Number(v) : v;
}

/** An integer, as a JSON number or its canonical decimal text. */
export const int = () => z.preprocess(canonicalInt, z.number().int());

/** One of a set of numeric codes (product, status, task type...), as a JSON number or its canonical text. */
export const codeIn = <const T extends readonly number[]>(values: T) => z.preprocess(canonicalInt, z.literal(values));

/** Positive integer id, accepted as a number or its canonical decimal text (query strings are strings). */
export const id = () => z.preprocess(canonicalInt, z.number().int().positive().max(2_147_483_647));

/** Largest value of a PostgreSQL bigint. */
const BIGINT_MAX = 9_223_372_036_854_775_807n;

/** BigInt ids (batches, recipients, logs) travel as canonical decimal strings, inside PostgreSQL's bigint. */
export const bigId = () =>
  z
    .string()
    .regex(/^[1-9]\d{0,18}$/)
    // zod runs this check even when the regex failed: only digits may reach BigInt().
    .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= BIGINT_MAX, { params: { i18n: "validation.format" } });

export const username = () =>
  z
    .string()
    .trim()
    .min(3)
    .max(64)
    .regex(/^[A-Za-z0-9_.@-]+$/);

/** Characters as people count them: an emoji or a rare CJK ideograph is one, not two UTF-16 units. */
const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
};

/**
 * A password being set: 8..128 characters of any script (counted as code points). Strength (common passwords,
 * the username, guessability) is checked by the service, which has the username and tenant to compare with.
 */
export const password = () =>
  z.string().superRefine((v, ctx) => {
    const n = codePoints(v);
    if (n < 8) ctx.addIssue({ code: "too_small", origin: "string", minimum: 8, inclusive: true, input: v });
    else if (n > 128) ctx.addIssue({ code: "too_big", origin: "string", maximum: 128, inclusive: true, input: v });
  });

/** A password being checked (sign-in, old password): anything a password() may have been, up to 128 characters. */
export const passwordInput = () =>
  z.string().superRefine((v, ctx) => {
    if (v.length === 0) ctx.addIssue({ code: "too_small", origin: "string", minimum: 1, inclusive: true, input: v });
    else if (codePoints(v) > 128)
      ctx.addIssue({ code: "too_big", origin: "string", maximum: 128, inclusive: true, input: v });
  });

/** A positive money amount as a decimal string (or number) with at most `decimals` decimals, in money units. */
export const moneyAmount = (decimals = 2) =>
  z
    .preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().max(20))
    .transform((v, ctx) => {
      const units = parseMoney(v, decimals);
      if (units === null || units <= 0n) {
        ctx.addIssue({ code: "custom", message: "money", params: { i18n: "validation.money", decimals } });
        return z.NEVER;
      }
      return units;
    });
export { MONEY_SCALE };

export const paging = z.object({
  page: z.preprocess(canonicalInt, z.number().int().min(1).max(100_000)).default(1),
  pageSize: z.preprocess(canonicalInt, z.number().int().min(1).max(200)).default(20),
});
export type Paging = z.infer<typeof paging>;

/**
 * The developer API's lists also page by cursor: `cursor` is a list's `nextCursor` (where its page ended, by the
 * list's own order), so the next page starts right after that row however many rows came or went since (page
 * numbers shift when rows arrive at the top). Opaque to callers; `pageSize` is the page's size either way.
 */
export const cursorParam = {
  cursor: z
    .string()
    .max(256)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
};
/** A page is asked for by number or by cursor, not both. */
export function pageOrCursor(q: { page: number; cursor?: string | undefined }, ctx: z.RefinementCtx) {
  if (q.cursor !== undefined && q.page !== 1) {
    ctx.addIssue({ code: "custom", path: ["page"], params: { i18n: "validation.page_with_cursor" } });
  }
}
/** A developer API list answer: the list's rows, its total, and the cursor of the page after it (null at the end). */
export const withNextCursor = <T extends z.ZodRawShape>(list: z.ZodObject<T>) =>
  list.extend({ nextCursor: z.string().nullable() });

/**
 * A row's tenant, named only in the lists a super admin reads across every tenant (no tenant-id header): the
 * list shows whose each row is. Absent from every other answer.
 */
export const acrossTenants = { tenantName: z.string().optional() };

/** Boolean flags arrive as 1/0, "1"/"0" or true/false (spec: the international flag is 1 or 0). */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(["0", "1", "true", "false"])])
    .transform((v) => v === true || v === 1 || v === "1" || v === "true");

/** A time range filter: ISO timestamps. */
export const timeRange = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** The response envelope of DOMAIN.md around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.literal(ResponseCode.OK),
    message: z.string(),
    data,
  });
}

export const errorEnvelope = z.object({
  code: z.union([z.literal(ResponseCode.ERROR), z.literal(ResponseCode.UNAUTHORIZED)]),
  message: z.string(),
  data: z.null(),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int() });
}
