// SMS templates (texts the platform itself sends: verification codes, low-balance warnings...) and the records
// of the SMS it sent. Admins of the tenant manage them (super admins for a chosen tenant).
import { z } from "zod";
import { ActiveStatus } from "./codes";
import { codeIn, id, paging, text, timeRange } from "./common";
import { tenantChoice } from "./settings";

/** Scenes a template can serve, with the {placeholders} its content may use. */
export const SMS_TEMPLATE_SCENES = {
  verify_code: ["code", "minutes"],
  password_reset: ["code", "minutes"],
  register_success: ["username", "site"],
  balance_low: ["username", "balance", "threshold"],
  batch_rejected: ["batchId", "reason"],
  batch_finished: ["batchId", "success", "failed"],
} as const satisfies Record<string, readonly string[]>;
export type SmsTemplateScene = keyof typeof SMS_TEMPLATE_SCENES;
export const SMS_TEMPLATE_SCENE_NAMES = Object.keys(SMS_TEMPLATE_SCENES) as [SmsTemplateScene, ...SmsTemplateScene[]];

export const SMS_TEMPLATE_CONTENT_MAX = 1000;

/** Status of an SMS record: 1 sent, 2 failed. */
export const SmsRecordStatus = { SENT: 1, FAILED: 2 } as const;
export type SmsRecordStatus = (typeof SmsRecordStatus)[keyof typeof SmsRecordStatus];

/** The {placeholders} of a template's content, in order of first use. */
export function templatePlaceholders(content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(/\{([^{}]*)\}/g)) {
    const name = m[1] ?? "";
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** The last four digits of a phone number, the rest starred: "+8613800138000" -> "*******8000". */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  const last = digits.slice(-4);
  return `${"*".repeat(Math.max(digits.length - last.length, 3))}${last}`;
}

const statuses = [ActiveStatus.NORMAL, ActiveStatus.PAUSED] as const;
const queryCode = codeIn;

// ---------------------------------------------------------------- templates

export const smsTemplateListQuery = paging.extend({
  ...tenantChoice.shape,
  scene: z.enum(SMS_TEMPLATE_SCENE_NAMES).optional(),
  status: queryCode(statuses).optional(),
  /** Contained (case-insensitively) in the name or the content. */
  keyword: text(100).optional(),
});
export type SmsTemplateListQuery = z.infer<typeof smsTemplateListQuery>;

export const smsTemplateRow = z.object({
  id: z.number().int(),
  tenantId: z.number().int(),
  scene: z.string(),
  name: z.string(),
  content: z.string(),
  /** 1 normal, 2 paused */
  status: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SmsTemplateRow = z.infer<typeof smsTemplateRow>;
export const smsTemplateList = z.object({ list: z.array(smsTemplateRow), total: z.number().int() });
export type SmsTemplateList = z.infer<typeof smsTemplateList>;

/** Content whose {placeholders} are all among the scene's (checked against the scene in the body). */
function checkPlaceholders(
  body: { scene: SmsTemplateScene; content: string },
  ctx: z.core.$RefinementCtx<{ scene: SmsTemplateScene; content: string }>,
) {
  const allowed: readonly string[] = SMS_TEMPLATE_SCENES[body.scene];
  const unknown = templatePlaceholders(body.content).filter((p) => !allowed.includes(p));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: "custom",
      path: ["content"],
      message: "placeholder",
      params: {
        i18n: "sms_template.unknown_placeholder",
        placeholders: unknown.map((p) => `{${p}}`).join(", "),
        allowed: allowed.map((p) => `{${p}}`).join(", "),
      },
    });
  }
}

const templateFields = {
  scene: z.enum(SMS_TEMPLATE_SCENE_NAMES),
  name: text(100, 1),
  content: text(SMS_TEMPLATE_CONTENT_MAX, 1),
};

export const smsTemplateCreateBody = tenantChoice
  .extend({ ...templateFields, status: z.literal(statuses).default(ActiveStatus.NORMAL) })
  .superRefine(checkPlaceholders);
export type SmsTemplateCreateBody = z.infer<typeof smsTemplateCreateBody>;

export const smsTemplateEditBody = tenantChoice.extend({ id: id(), ...templateFields }).superRefine(checkPlaceholders);
export type SmsTemplateEditBody = z.infer<typeof smsTemplateEditBody>;

export const smsTemplateStatusBody = tenantChoice.extend({ id: id(), status: z.literal(statuses) });
export type SmsTemplateStatusBody = z.infer<typeof smsTemplateStatusBody>;

export const smsTemplateIdBody = tenantChoice.extend({ id: id() });
export type SmsTemplateIdBody = z.infer<typeof smsTemplateIdBody>;

// ---------------------------------------------------------------- records

export const smsRecordListQuery = paging.extend({
  ...tenantChoice.shape,
  /** Digits contained in the phone number (the list shows only the last four). */
  phone: z
    .string()
    .trim()
    .max(16)
    .regex(/^\+?\d*$/)
    .optional(),
  status: queryCode([SmsRecordStatus.SENT, SmsRecordStatus.FAILED] as const).optional(),
  templateId: id().optional(),
  scene: z.enum(SMS_TEMPLATE_SCENE_NAMES).optional(),
  ...timeRange.shape,
});
export type SmsRecordListQuery = z.infer<typeof smsRecordListQuery>;

export const smsRecordRow = z.object({
  /** BigInt id as a decimal string. */
  id: z.string(),
  templateId: z.number().int().nullable(),
  templateName: z.string().nullable(),
  scene: z.string().nullable(),
  userId: z.number().int().nullable(),
  /** Masked: only the last four digits are shown. */
  phone: z.string(),
  /** 1 sent, 2 failed */
  status: z.number().int(),
  errorCode: z.string().nullable(),
  createdAt: z.string(),
});
export type SmsRecordRow = z.infer<typeof smsRecordRow>;
export const smsRecordList = z.object({ list: z.array(smsRecordRow), total: z.number().int() });
export type SmsRecordList = z.infer<typeof smsRecordList>;
