// The admin's system settings (TenantSetting): review rules, sensitive words, registration, mode. The batch
// submission (@switchboard/domain, packages/domain/src/batches/context.ts) and registration (modules/auth) read the same row.
import { DEFAULT_OPT_OUT_KEYWORDS, type SystemSetting, type SystemSettingBody } from "@switchboard/contracts";
import type { Db, PrismaClient } from "@switchboard/db";
import { badRequest } from "../../lib/errors";
import type { Principal } from "../../plugins/auth";
import { settingsTenant } from "./tenant-choice";

const settingSelect = {
  tenantId: true,
  reviewMode: true,
  reviewThreshold: true,
  sensitiveWords: true,
  registrationOpen: true,
  international: true,
  domesticCountry: true,
  optOutKeywords: true,
  updatedAt: true,
} as const;

type SettingData = {
  tenantId: number;
  reviewMode: number;
  reviewThreshold: number;
  sensitiveWords: string[];
  registrationOpen: boolean;
  international: boolean;
  domesticCountry: string;
  optOutKeywords: string[];
  updatedAt: Date | null;
};

function toSetting(s: SettingData): SystemSetting {
  return {
    tenantId: s.tenantId,
    reviewMode: s.reviewMode,
    reviewThreshold: s.reviewThreshold,
    sensitiveWords: s.sensitiveWords,
    registrationOpen: s.registrationOpen,
    internationalMode: s.international,
    domesticCountry: s.domesticCountry,
    optOutKeywords: s.optOutKeywords,
    updatedAt: s.updatedAt?.toISOString() ?? null,
  };
}

/** The tenant's settings; a tenant that never saved any gets the column defaults (the row is not created). */
export async function getSystemSetting(db: Db, p: Principal, requested: number | undefined): Promise<SystemSetting> {
  const tenantId = await settingsTenant(db, p, requested);
  const row = await db.tenantSetting.findUnique({ where: { tenantId }, select: settingSelect });
  if (row) return toSetting(row);
  // The same defaults as prisma/schema.prisma's TenantSetting.
  return toSetting({
    tenantId,
    reviewMode: 1,
    reviewThreshold: 1000,
    sensitiveWords: [],
    registrationOpen: true,
    international: true,
    domesticCountry: "CN",
    optOutKeywords: [...DEFAULT_OPT_OUT_KEYWORDS],
    updatedAt: null,
  });
}

/** Replaces the tenant's settings (one upsert: all fields at once or none). */
export async function saveSystemSetting(prisma: PrismaClient, p: Principal, body: SystemSettingBody) {
  const tenantId = await settingsTenant(prisma, p, body.tenantId);
  const country = await prisma.country.findUnique({ where: { code: body.domesticCountry }, select: { code: true } });
  if (!country) throw badRequest("setting.country_unknown", { country: body.domesticCountry });
  const data = {
    reviewMode: body.reviewMode,
    reviewThreshold: body.reviewThreshold,
    sensitiveWords: body.sensitiveWords,
    registrationOpen: body.registrationOpen,
    international: body.internationalMode,
    domesticCountry: body.domesticCountry,
    ...(body.optOutKeywords ? { optOutKeywords: body.optOutKeywords } : {}),
  };
  const row = await prisma.tenantSetting.upsert({
    where: { tenantId },
    create: { tenantId, ...data },
    update: data,
    select: settingSelect,
  });
  return toSetting(row);
}
