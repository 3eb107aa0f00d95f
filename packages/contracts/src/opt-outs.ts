// Opt-outs (consent): per customer, the numbers (E.164) its batches never send to and never charge for, with how
// each got there and when. A reply whose whole text is one of the tenant's STOP-style keywords adds its sender.
// Decisions: docs/opt-outs.md.
import { z } from "zod";
import { codeIn, cursorParam, id, pageOrCursor, paging, text, withNextCursor } from "./common";

/** How a number got on the list: 1 added by hand, 2 imported from a file, 3 a keyword reply, 4 the developer API. */
export const OptOutSource = { MANUAL: 1, IMPORT: 2, KEYWORD: 3, API: 4 } as const;
export type OptOutSource = (typeof OptOutSource)[keyof typeof OptOutSource];
export const OPT_OUT_SOURCES = Object.values(OptOutSource) as [OptOutSource, ...OptOutSource[]];

/** A tenant's keywords until its admin sets others (tenant_settings.optOutKeywords). */
export const DEFAULT_OPT_OUT_KEYWORDS = ["STOP", "UNSUBSCRIBE", "TD", "退订"] as const;

/** Numbers one import may carry. */
export const OPT_OUT_IMPORT_MAX = 100_000;

/** Whether a reply's text is one of the keywords: the whole text, trimmed, compared case-insensitively. */
export function matchesOptOutKeyword(replyText: string | null | undefined, keywords: readonly string[]): boolean {
  const t = replyText?.trim().toLocaleUpperCase();
  if (!t) return false;
  return keywords.some((k) => k.trim().toLocaleUpperCase() === t);
}

/** A number as typed: read like a batch's numbers (E.164, or national in domestic mode) by the API. */
const phoneInput = () => text(32, 1);

export const optOutRow = z.object({
  id: z.number().int(),
  /** The customer whose list it is on. */
  userId: z.number().int(),
  user: z.string(),
  /** E.164. */
  phone: z.string(),
  /** OptOutSource: 1 manual, 2 import, 3 keyword reply, 4 developer API. */
  source: z.number().int(),
  createdAt: z.string(),
});
export type OptOutRow = z.infer<typeof optOutRow>;
export const optOutList = z.object({ list: z.array(optOutRow), total: z.number().int() });
export type OptOutList = z.infer<typeof optOutList>;

export const optOutListQuery = paging.extend({
  /** Contained in the number (digits, with or without "+"). */
  keyword: text(32).optional(),
  source: codeIn(OPT_OUT_SOURCES).optional(),
  /** Staff: one customer's list. */
  userId: id().optional(),
});
export type OptOutListQuery = z.infer<typeof optOutListQuery>;

export const optOutAddBody = z.object({
  phone: phoneInput(),
  /** Staff: the customer whose list it goes on (required for staff; a customer's own list otherwise). */
  userId: id().optional(),
});
export type OptOutAddBody = z.infer<typeof optOutAddBody>;

export const optOutRemoveBody = z.object({ id: id() });
export type OptOutRemoveBody = z.infer<typeof optOutRemoveBody>;

export const optOutExportQuery = z.object({ userId: id().optional() });
export type OptOutExportQuery = z.infer<typeof optOutExportQuery>;

/** What an import did: numbers added, already on the list, and unreadable inputs. */
export const optOutImportResult = z.object({
  total: z.number().int(),
  added: z.number().int(),
  existing: z.number().int(),
  invalid: z.number().int(),
});
export type OptOutImportResult = z.infer<typeof optOutImportResult>;

// ---------------------------------------------------------------- developer API

export const v1OptOutQuery = z
  .object({
    phone: text(32).optional(),
    page: paging.shape.page,
    pageSize: paging.shape.pageSize,
    ...cursorParam,
  })
  .superRefine(pageOrCursor);
export type V1OptOutQuery = z.infer<typeof v1OptOutQuery>;
export const v1OptOut = z.object({
  phone: z.string(),
  source: z.number().int(),
  createdAt: z.string(),
});
export type V1OptOut = z.infer<typeof v1OptOut>;
export const v1OptOutList = withNextCursor(z.object({ list: z.array(v1OptOut), total: z.number().int() }));
export type V1OptOutList = z.infer<typeof v1OptOutList>;
export const v1OptOutBody = z.object({ phone: phoneInput() });
export type V1OptOutBody = z.infer<typeof v1OptOutBody>;
