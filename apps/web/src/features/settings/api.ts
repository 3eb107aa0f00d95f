/** Calls of the system settings pages; query keys start with "settings". */
import type {
  SmsRecordRow,
  SmsTemplateRow,
  SystemSetting,
  TenantCreateResult,
  TenantRow,
  UserRow,
  WebsiteConfigRow,
  WebsiteLogoResult,
} from "@switchboard/contracts";
import { api } from "../../lib/api";

export type { SmsRecordRow, SmsTemplateRow, SystemSetting, TenantRow, UserRow, WebsiteConfigRow };

/** The tenant a call names: undefined for admins (their own), the chosen one for super admins. */
export type TenantParam = number | undefined;

const withTenant = <T extends object>(tenantId: TenantParam, rest: T) =>
  tenantId === undefined ? rest : { ...rest, tenantId };

export const settingsKeys = {
  all: ["settings"] as const,
  system: (tenantId: TenantParam) => ["settings", "system", tenantId ?? null] as const,
  websites: (tenantId: TenantParam) => ["settings", "website", tenantId ?? null] as const,
  allTemplates: ["settings", "template"] as const,
  templates: (tenantId: TenantParam, params: object) => ["settings", "template", tenantId ?? null, params] as const,
  records: (tenantId: TenantParam, params: object) => ["settings", "record", tenantId ?? null, params] as const,
  allAccounts: ["settings", "account"] as const,
  accounts: (params: object) => ["settings", "account", params] as const,
  countries: (lang: string) => ["settings", "countries", lang] as const,
  tenants: ["settings", "tenants"] as const,
  agents: ["settings", "agents"] as const,
};

export interface SystemSettingInput {
  reviewMode: number;
  reviewThreshold: number;
  sensitiveWords: string[];
  registrationOpen: boolean;
  internationalMode: boolean;
  domesticCountry: string;
  /** Absent: the server keeps the tenant's keywords. */
  optOutKeywords?: string[];
}

export const getSystemSetting = (tenantId: TenantParam, signal?: AbortSignal) =>
  api.get<SystemSetting>("/setting/system", { params: withTenant(tenantId, {}), signal });

export const saveSystemSetting = (tenantId: TenantParam, input: SystemSettingInput) =>
  api.post<SystemSetting>("/setting/system", withTenant(tenantId, { ...input }));

export interface WebsiteInput {
  id?: number;
  host: string;
  title: string;
  description: string | null;
  logo: string | null;
  logoSmall: string | null;
  agentId: number | null;
}

export const listWebsites = (tenantId: TenantParam, signal?: AbortSignal) =>
  api.getList<WebsiteConfigRow>("/setting/website/list", { params: withTenant(tenantId, {}), signal });

export const saveWebsite = (tenantId: TenantParam, input: WebsiteInput) =>
  api.post<WebsiteConfigRow>("/setting/website/save", withTenant(tenantId, { ...input }));

export const deleteWebsite = (tenantId: TenantParam, id: number) =>
  api.post<null>("/setting/website/delete", withTenant(tenantId, { id }));

export function uploadLogo(tenantId: TenantParam, file: File): Promise<WebsiteLogoResult> {
  const form = new FormData();
  if (tenantId !== undefined) form.set("tenantId", String(tenantId));
  form.set("file", file);
  return api.post<WebsiteLogoResult>("/setting/website/logo", form);
}

export interface TemplateInput {
  scene: string;
  name: string;
  content: string;
}

export const listTemplates = (tenantId: TenantParam, params: Record<string, string | number>, signal?: AbortSignal) =>
  api.getList<SmsTemplateRow>("/setting/sms/template/list", { params: withTenant(tenantId, params), signal });

export const createTemplate = (tenantId: TenantParam, input: TemplateInput) =>
  api.post<SmsTemplateRow>("/setting/sms/template/create", withTenant(tenantId, { ...input }));

export const editTemplate = (tenantId: TenantParam, id: number, input: TemplateInput) =>
  api.post<SmsTemplateRow>("/setting/sms/template/edit", withTenant(tenantId, { id, ...input }));

export const setTemplateStatus = (tenantId: TenantParam, id: number, status: number) =>
  api.post<SmsTemplateRow>("/setting/sms/template/status", withTenant(tenantId, { id, status }));

export const deleteTemplate = (tenantId: TenantParam, id: number) =>
  api.post<null>("/setting/sms/template/delete", withTenant(tenantId, { id }));

export const listRecords = (tenantId: TenantParam, params: Record<string, string | number>, signal?: AbortSignal) =>
  api.getList<SmsRecordRow>("/setting/sms/record/list", { params: withTenant(tenantId, params), signal });

/** Staff accounts: the /user calls (GET /user/list with a type, POST /user/create). */
export const listAccounts = (params: Record<string, string | number>, signal?: AbortSignal) =>
  api.getList<UserRow>("/user/list", { params, signal });

export interface AdminInput {
  username: string;
  password: string;
  nickname?: string;
  email?: string;
  phone?: string;
  remark?: string;
}

export const createAdmin = (tenantId: TenantParam, input: AdminInput) =>
  api.post<UserRow>("/user/create", withTenant(tenantId, { ...input, type: 1 }));

/** The tenant's agents (admins only: a super admin's list would mix tenants), for the website-config owner. */
export const listAgents = (signal?: AbortSignal) =>
  api.getList<UserRow>("/user/list", { params: { type: 2, pageSize: 200 }, signal });

export const listTenants = (signal?: AbortSignal) => api.getList<TenantRow>("/user/tenant", { signal });

export interface TenantInput {
  code: string;
  name: string;
  currency: string;
  admin?: AdminInput;
}

export const createTenant = (input: TenantInput) => api.post<TenantCreateResult>("/user/tenant/create", { ...input });
