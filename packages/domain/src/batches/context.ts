// Everything a submission is checked against before anything is written: the customer (may it send now?),
// its tenant's settings (review rules, how numbers are read), the product (exists, active, matches the
// content) and the schedule.
import {
  ActiveStatus,
  BATCH_SCHEDULE_MAX_DAYS,
  type BatchContent,
  chargeableUnits,
  type Lang,
  ProductCode,
  TaskType,
  UserType,
} from "@switchboard/contracts";
import type { Db } from "@switchboard/db";
import { canSubmitBatches } from "../authentication-policy";
import { PRODUCT_UNSENDABLE_MESSAGE, productSendability } from "../channel-resolution";
import { AppError, badRequest, notFound } from "../errors";
import type { NumberReading } from "./number-sorter";
import { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from "./review";

const customerSelect = {
  id: true,
  tenantId: true,
  agentId: true,
  type: true,
  status: true,
  authStatus: true,
  authRequirement: true,
  authExemptUntil: true,
  balance: true,
  lang: true,
  international: true,
} as const;

export interface Customer {
  id: number;
  tenantId: number;
  agentId: number | null;
  status: number;
  authStatus: number;
  authRequirement: number;
  authExemptUntil: Date | null;
  balance: bigint;
  lang: Lang;
  international: boolean;
}

export interface TenantRules extends ReviewSettings {
  international: boolean;
  domesticCountry: string;
}

export interface SubmitContext {
  customer: Customer;
  rules: TenantRules;
}

/** A live customer account (type 3, not deleted), or 404. */
export async function loadCustomer(db: Db, userId: number): Promise<Customer> {
  const u = await db.user.findFirst({
    where: { id: userId, type: UserType.USER, deletedAt: null, tenantId: { not: null } },
    select: customerSelect,
  });
  if (!u || u.tenantId === null) throw notFound("entity.user");
  return { ...u, tenantId: u.tenantId, lang: u.lang === "en" ? "en" : "zh" };
}

export async function loadTenantRules(db: Db, tenantId: number): Promise<TenantRules> {
  const s = await db.tenantSetting.findUnique({
    where: { tenantId },
    select: {
      reviewMode: true,
      reviewThreshold: true,
      sensitiveWords: true,
      international: true,
      domesticCountry: true,
    },
  });
  return s ?? { ...DEFAULT_REVIEW_SETTINGS, international: true, domesticCountry: "CN" };
}

export async function loadSubmitContext(db: Db, userId: number): Promise<SubmitContext> {
  const customer = await loadCustomer(db, userId);
  return { customer, rules: await loadTenantRules(db, customer.tenantId) };
}

/**
 * Numbers without "+" or "00" are national numbers of the tenant's domestic country when the tenant runs in
 * domestic mode or the customer's own numbering is domestic; otherwise they are read as international.
 */
export function numberReading(ctx: {
  customer: Pick<Customer, "international">;
  rules: Pick<TenantRules, "international" | "domesticCountry">;
}): NumberReading {
  const domestic = !ctx.rules.international || !ctx.customer.international;
  return { domesticCountry: domestic ? ctx.rules.domesticCountry : null };
}

/** 403 with the reason when identity authentication (or a frozen account) does not allow sending now. */
export function assertMaySubmit(customer: Omit<Customer, "balance">, now: Date): void {
  const d = canSubmitBatches(customer, now);
  if (!d.allowed) throw new AppError(403, d.reason);
}

/** The sender id column mirrors the SMS content's sender id (for filtering and display). */
export function senderIdOf(content: BatchContent): string | null {
  return content.product === ProductCode.SMS ? (content.senderId ?? null) : null;
}

export interface ProductRef {
  productId?: number | undefined;
  productCode?: number | undefined;
}

export interface BatchProduct {
  id: number;
  code: ProductCode;
  name: string;
  defaultChannelId: number | null;
}

/**
 * The product of the customer's tenant named by id, or by code when the tenant has exactly one active product
 * of that code. Missing: 404; paused: 409 (nothing can be sent with it now).
 */
export async function resolveProduct(db: Db, tenantId: number, ref: ProductRef): Promise<BatchProduct> {
  const rows = await db.product.findMany({
    where: {
      tenantId,
      ...(ref.productId !== undefined
        ? { id: ref.productId }
        : { code: ref.productCode!, status: ActiveStatus.NORMAL }),
    },
    select: { id: true, code: true, name: true, status: true, defaultChannelId: true },
    take: 2,
  });
  const product = rows[0];
  if (!product) throw notFound("entity.product");
  if (rows.length > 1) throw badRequest("batch.product_ambiguous", { code: product.code });
  if (ref.productCode !== undefined && product.code !== ref.productCode) throw notFound("entity.product");
  if (product.status !== ActiveStatus.NORMAL) throw new AppError(409, "price.product_paused");
  return {
    id: product.id,
    code: product.code as ProductCode,
    name: product.name,
    defaultChannelId: product.defaultChannelId,
  };
}

/**
 * 409 with the reason when no active channel would carry the product for this customer at all (no route and no
 * default channel, or only paused ones): the pre-submit check says so before anything is paid.
 */
export async function assertProductCanSend(db: Db, customer: Customer, product: BatchProduct): Promise<void> {
  const states = await productSendability(db, customer.id, [
    { id: product.id, tenantId: customer.tenantId, defaultChannelId: product.defaultChannelId },
  ]);
  const state = states.get(product.id);
  if (state && !state.ok) throw new AppError(409, PRODUCT_UNSENDABLE_MESSAGE[state.reason], { product: product.name });
}

/** The content must be the product's kind (SMS content for an SMS product...). */
export function assertContentFits(product: BatchProduct, content: BatchContent): void {
  if (content.product !== product.code)
    throw badRequest("batch.content_product_mismatch", { content: content.product, product: product.code });
}

/**
 * Screening (task type 1) checks which numbers can receive and delivers nothing: the workers run the channel's
 * reachability check (RCS capabilities, an SMS HLR lookup, a WhatsApp contacts check) and never its send. A
 * product without one is refused here, before anything is charged; per country, a channel that cannot check is
 * refused by the quote (quote.ts).
 */
export function assertTaskSupported(product: BatchProduct, taskType: number): void {
  if (taskType === TaskType.SCREENING && !SCREENING_PRODUCTS.has(product.code))
    throw badRequest("batch.screening_unavailable", { product: product.name });
}

/** Products whose channels can screen (see packages/contracts/src/screening.ts). */
const SCREENING_PRODUCTS: ReadonlySet<number> = new Set<number>([ProductCode.RCS, ProductCode.SMS, ProductCode.WS]);

/** Chargeable units per number: SMS segments for messages, one for WS, RCS and screening. */
export function unitsPerNumber(taskType: number, content: BatchContent | undefined): number {
  if (taskType === TaskType.SCREENING || !content) return 1;
  return chargeableUnits(content);
}

/** A schedule in the future and at most BATCH_SCHEDULE_MAX_DAYS ahead, or null for "send now". */
export function checkSchedule(scheduledAt: string | undefined, now: Date): Date | null {
  if (!scheduledAt) return null;
  const at = new Date(scheduledAt);
  if (at.getTime() <= now.getTime()) throw badRequest("batch.schedule_past", { field: "scheduledAt" });
  if (at.getTime() - now.getTime() > BATCH_SCHEDULE_MAX_DAYS * 24 * 3600 * 1000)
    throw badRequest("batch.schedule_too_far", { days: BATCH_SCHEDULE_MAX_DAYS });
  return at;
}
