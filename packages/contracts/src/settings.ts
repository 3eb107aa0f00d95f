// The admin's system settings (review rules, sensitive words, registration, mode) and the website configs
// (branding by host) a tenant's admin, or a super admin for a chosen tenant, manages.
import { z } from "zod";
import { ReviewMode } from "./codes";
import { id, text } from "./common";

/** At most this many sensitive words per tenant, each at most SENSITIVE_WORD_MAX_LENGTH characters. */
export const SENSITIVE_WORDS_MAX = 500;
export const SENSITIVE_WORD_MAX_LENGTH = 50;
/** Upper bound of the "review above N recipients" threshold. */
export const REVIEW_THRESHOLD_MAX = 10_000_000;

const reviewModes = [ReviewMode.NEVER, ReviewMode.ALL, ReviewMode.ABOVE_THRESHOLD] as const;

/**
 * Super admins name the tenant they act in with `tenantId` (or the tenant-id header); everybody else acts in
 * its own tenant, and naming another answers like a tenant that does not exist.
 */
export const tenantChoice = z.object({ tenantId: id().optional() });
export type TenantChoice = z.infer<typeof tenantChoice>;

/**
 * Sensitive words: trimmed, blanks dropped, duplicates (case-insensitive, as matching is) dropped keeping the
 * first spelling; the count is checked after that, so a list with repeats is not refused for its length.
 */
export const sensitiveWords = z
  .array(z.string().max(SENSITIVE_WORD_MAX_LENGTH * 4))
  .max(SENSITIVE_WORDS_MAX * 4)
  .transform((words, ctx) => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const raw of words) {
      const w = raw.trim();
      if (!w) continue;
      if (w.length > SENSITIVE_WORD_MAX_LENGTH) {
        ctx.addIssue({
          code: "custom",
          message: "too long",
          params: { i18n: "setting.sensitive_word_too_long", word: w.slice(0, 20), max: SENSITIVE_WORD_MAX_LENGTH },
        });
        return z.NEVER;
      }
      const key = w.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(w);
    }
    if (out.length > SENSITIVE_WORDS_MAX) {
      ctx.addIssue({
        code: "custom",
        message: "too many",
        params: { i18n: "setting.sensitive_words_too_many", max: SENSITIVE_WORDS_MAX },
      });
      return z.NEVER;
    }
    return out;
  });

/** STOP-style opt-out keywords (docs/opt-outs.md): trimmed, blanks and case-insensitive repeats dropped. */
export const OPT_OUT_KEYWORDS_MAX = 50;
export const OPT_OUT_KEYWORD_MAX_LENGTH = 32;
export const optOutKeywordList = z
  .array(z.string().trim().max(OPT_OUT_KEYWORD_MAX_LENGTH))
  .max(OPT_OUT_KEYWORDS_MAX)
  .transform((words) => {
    const seen = new Set<string>();
    return words.filter((w) => {
      const key = w.toLocaleUpperCase();
      if (!w || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });

// ---------------------------------------------------------------- GET/POST /setting/system

export const systemSettingQuery = tenantChoice;
export type SystemSettingQuery = z.infer<typeof systemSettingQuery>;

export const systemSetting = z.object({
  tenantId: z.number().int(),
  /** 0 never review, 1 review every batch, 2 review batches above reviewThreshold recipients. */
  reviewMode: z.number().int(),
  reviewThreshold: z.number().int(),
  /** Content hitting any of these (case-insensitive) always goes to review. */
  sensitiveWords: z.array(z.string()),
  registrationOpen: z.boolean(),
  /**
   * true: international mode (numbers need a country code); false: domestic mode, numbers without one are
   * read as numbers of domesticCountry. (Not named `international`: the web client adds that flag to bodies.)
   */
  internationalMode: z.boolean(),
  /** ISO 3166-1 alpha-2. */
  domesticCountry: z.string(),
  /** A reply whose whole text is one of these (any case) puts its sender on the customer's opt-out list. */
  optOutKeywords: z.array(z.string()).optional(),
  updatedAt: z.string().nullable(),
});
export type SystemSetting = z.infer<typeof systemSetting>;

export const systemSettingBody = tenantChoice.extend({
  reviewMode: z.literal(reviewModes),
  reviewThreshold: z.number().int().min(0).max(REVIEW_THRESHOLD_MAX),
  sensitiveWords,
  registrationOpen: z.boolean(),
  internationalMode: z.boolean(),
  domesticCountry: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/),
  /** Absent: unchanged (the defaults for a tenant that never saved any). */
  optOutKeywords: optOutKeywordList.optional(),
});
export type SystemSettingBody = z.infer<typeof systemSettingBody>;

// ---------------------------------------------------------------- website configs

/** A host name as the API compares it: lower-case letters, digits, dots and dashes, no port, no scheme. */
export const websiteHost = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/);

/** Logo uploads: one PNG or JPG (by content) in the multipart field `file`, at most 2 MB. */
export const WEBSITE_LOGO_FIELD = "file";
export const WEBSITE_LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const WEBSITE_LOGO_KINDS = ["png", "jpg"] as const;
/** Public path of an uploaded logo: /website/logo/<tenantId>/<32 hex>.<png|jpg>. */
export const WEBSITE_LOGO_PATH = /^\/website\/logo\/(\d{1,10})\/([0-9a-f]{32}\.(?:png|jpg))$/;

export const websiteListQuery = tenantChoice;
export type WebsiteListQuery = z.infer<typeof websiteListQuery>;

export const websiteConfigRow = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  host: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  /** Stored path (as saved) and its absolute address (for <img>). */
  logo: z.string().nullable(),
  logoUrl: z.string().nullable(),
  logoSmall: z.string().nullable(),
  logoSmallUrl: z.string().nullable(),
  /** The agent whose branding this host shows (null: the tenant's own). */
  agentId: z.number().int().nullable(),
  agentUser: z.string().nullable(),
  /** When a super admin approved the host; null: the host resolves nothing yet (a super admin's save approves). */
  hostApprovedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type WebsiteConfigRow = z.infer<typeof websiteConfigRow>;
export const websiteConfigList = z.object({ list: z.array(websiteConfigRow), total: z.number().int() });
export type WebsiteConfigList = z.infer<typeof websiteConfigList>;

/** An uploaded logo's path; "" or null clears it. Only paths of this tenant's uploads are accepted. */
const logoPath = z
  .union([z.string().trim().max(500).regex(WEBSITE_LOGO_PATH), z.literal("")])
  .nullable()
  .optional()
  .transform((v) => (v === "" ? null : v));

export const websiteSaveBody = tenantChoice.extend({
  /** Absent: a new config; present: that config is replaced. */
  id: id().optional(),
  host: websiteHost(),
  title: text(100, 1),
  description: z
    .string()
    .trim()
    .max(500)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  logo: logoPath,
  logoSmall: logoPath,
  /** An agent of the tenant (its customers' sites), or null for the tenant's own branding. */
  agentId: id().nullable().optional(),
});
export type WebsiteSaveBody = z.infer<typeof websiteSaveBody>;

export const websiteDeleteBody = tenantChoice.extend({ id: id() });
export type WebsiteDeleteBody = z.infer<typeof websiteDeleteBody>;

/** The multipart text fields of POST /setting/website/logo (beside the file). */
export const websiteLogoFields = tenantChoice;

export const websiteLogoResult = z.object({
  /** Path to save in a config's logo or logoSmall. */
  path: z.string(),
  /** Absolute address for a preview. */
  url: z.string(),
});
export type WebsiteLogoResult = z.infer<typeof websiteLogoResult>;
