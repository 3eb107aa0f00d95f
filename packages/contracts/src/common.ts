// Building blocks for every contract: bounded strings, ids, paging, the envelope.
import { z } from "zod";
import { ResponseCode } from "./codes";
import { MONEY_SCALE, parseMoney } from "./money";

/** A trimmed string with a maximum length (every string in a contract is bounded). */
export const text = (max: number, min = 0) => z.string().trim().min(min).max(max);

/** Positive integer id, accepted as a number or a numeric string (query strings are strings). */
export const id = () =>
  // Not z.coerce: it turns a missing value into NaN, and the caller would read "must be a number" instead of
  // "is required".
  z.preprocess(
    (v) => (v === undefined || v === null || v === "" ? undefined : typeof v === "string" ? Number(v) : v),
    z.number().int().positive().max(2_147_483_647),
  );

/** BigInt ids (batches, recipients, logs) travel as decimal strings. */
export const bigId = () => z.string().regex(/^\d{1,19}$/);

export const username = () =>
  z
    .string()
    .trim()
    .min(3)
    .max(64)
    .regex(/^[A-Za-z0-9_.@-]+$/);

/** 8..128 characters; strength (letters and digits) is checked by the service so the message is specific. */
export const password = () => z.string().min(8).max(128);

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
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export type Paging = z.infer<typeof paging>;

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
