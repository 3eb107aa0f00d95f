// Dashboards: the customer's home (GET /dashboard/customer) and the back office's (GET /dashboard/backend).
// Every figure is an SQL aggregate over message_batches rows (their counters) and balance_logs rows; recipients
// are never read. Days and months are cut in UTC (tenants have no time zone of their own): `timeZone` says so.
//
// Definitions (apps/api/src/modules/dashboard/dashboard.service.ts):
//   batches    batches submitted in the period (by createdAt), any status and task type
//   sent       messages handed to a channel (sentCount = success + failed)
//   success    accepted by the channel (send result 1)
//   delivered  confirmed by a delivery receipt (receive result 1)
//   read       opened, by the provider's read report (RCS, WhatsApp)
//   fallback   RCS recipients sent their fallback text as SMS
//   successRate  = success / sent,  deliveryRate = delivered / sent  (null when nothing was sent)
//   readRate     = read / delivered (null when nothing was delivered),  fallbackShare = fallback / sent
//   spend      net money of batches in the period: consume rows minus refund rows written in it
//   linkSent   success of the batches with tracked links (docs/batches.md, "Tracked links")
//   clickers   distinct recipients of those batches who clicked one of their links (at any time)
//   clickRate  = clickers / linkSent (null when no batch with links sent anything)
import { z } from "zod";
import { ProductCode } from "./codes";
import { codeIn } from "./common";

/** The time zone the dashboards cut days and months in. */
export const DASHBOARD_TIME_ZONE = "UTC";
/** Length of the day series, today included. */
export const DASHBOARD_SERIES_DAYS = 30;
/** Rows of the back office's top-customers table. */
export const DASHBOARD_TOP_CUSTOMERS = 10;

export const periodFigures = z.object({
  batches: z.number().int(),
  sent: z.number().int(),
  success: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  fallback: z.number().int(),
  /** success / sent, 0..1 rounded to 4 decimals; null when nothing was sent. */
  successRate: z.number().nullable(),
  /** delivered / sent, 0..1 rounded to 4 decimals; null when nothing was sent. */
  deliveryRate: z.number().nullable(),
  /** read / delivered, 0..1 rounded to 4 decimals; null when nothing was delivered. */
  readRate: z.number().nullable(),
  /** fallback / sent, 0..1 rounded to 4 decimals; null when nothing was sent. */
  fallbackShare: z.number().nullable(),
  /** Decimal string: consume minus refunds booked in the period (positive = money spent). */
  spend: z.string(),
  /** Messages accepted by a channel in the period's batches with tracked links. */
  linkSent: z.number().int(),
  /** Distinct recipients of those batches who clicked a link. */
  clickers: z.number().int(),
  /** clickers / linkSent, 0..1 rounded to 4 decimals; null when no batch with links sent anything. */
  clickRate: z.number().nullable(),
});
export type PeriodFigures = z.infer<typeof periodFigures>;

export const productDayFigures = z.object({
  /** 1000 RCS, 2000 WS, 3000 SMS */
  productCode: z.number().int(),
  batches: z.number().int(),
  sent: z.number().int(),
  success: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  fallback: z.number().int(),
});
export type ProductDayFigures = z.infer<typeof productDayFigures>;

/** One day of the series: every product, zeros included. */
export const dashboardDay = z.object({
  /** YYYY-MM-DD in `timeZone`. */
  date: z.string(),
  products: z.array(productDayFigures),
});
export type DashboardDay = z.infer<typeof dashboardDay>;

const periodsShape = {
  timeZone: z.string(),
  /** Start of today and of this month in `timeZone`, ISO. */
  todayFrom: z.string(),
  monthFrom: z.string(),
  today: periodFigures,
  month: periodFigures,
  /** The last DASHBOARD_SERIES_DAYS days, oldest first, today last. */
  series: z.array(dashboardDay),
};

/** GET /dashboard/customer: one product's figures (the RCS portal's home), or every product's. */
export const customerDashboardQuery = z.object({
  productCode: codeIn(Object.values(ProductCode)).optional(),
});
export type CustomerDashboardQuery = z.infer<typeof customerDashboardQuery>;

export const customerDashboard = z.object({
  ...periodsShape,
  balance: z.string(),
  currency: z.string(),
  /** 0 not authenticated, 1 authenticating, 2 authenticated, 3 rejected */
  authStatus: z.number().int(),
  /** 0 needs authentication, 1 exempt */
  authRequirement: z.number().int(),
  /** End of a seven-day exemption, when one was granted. */
  authExemptUntil: z.string().nullable(),
  /** Why the latest submission was rejected (authStatus 3). */
  authRejectReason: z.string().nullable(),
});
export type CustomerDashboard = z.infer<typeof customerDashboard>;

export const productCount = z.object({ productCode: z.number().int(), count: z.number().int() });
export type ProductCount = z.infer<typeof productCount>;

export const topCustomer = z.object({
  userId: z.number().int(),
  user: z.string(),
  /** Decimal string, this month's spend. */
  spend: z.string(),
  /** Messages sent by the customer's batches submitted this month. */
  sent: z.number().int(),
});
export type TopCustomer = z.infer<typeof topCustomer>;

export const backendDashboard = z.object({
  ...periodsShape,
  /** The tenant's currency; null for a super admin looking at every tenant at once. */
  currency: z.string().nullable(),
  /** The calling agent's own balance (reseller model); null for admins. */
  ownBalance: z.string().nullable(),
  /** Customers in scope (a tenant's, or an agent's own). */
  customers: z.number().int(),
  /** Top DASHBOARD_TOP_CUSTOMERS customers by this month's spend, highest first (ties: lower id first). */
  topCustomers: z.array(topCustomer),
  /** Batches waiting for review (status 11), per product. */
  reviewQueue: z.array(productCount),
  /** Batches sending now (status 21), per product. */
  sending: z.array(productCount),
});
export type BackendDashboard = z.infer<typeof backendDashboard>;
